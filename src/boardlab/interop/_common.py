"""Pieces the PettingZoo and Gymnasium wrappers share: building the game, the spaces, chance."""

from __future__ import annotations

import random

import numpy as np

from ..core.game import Game, State
from ..core.match import derive_seed, sample_chance
from ..core.registry import make_game


def as_game(game_spec: str | Game) -> Game:
    """A game spec string (`NAME` or `NAME:param=value,...`) or an already built Game -> a Game."""
    return game_spec if isinstance(game_spec, Game) else make_game(game_spec)


def observation_shape(game: Game) -> tuple[int, ...]:
    """The shape of `encode(player)`, read off the initial position (fixed per game)."""
    state = game.initial_state(0)
    return tuple(state.encode(0).shape)


def action_mask(state: State, num_actions: int) -> np.ndarray:
    """1 for each legal action of the player to move, 0 elsewhere (int8, as PettingZoo uses)."""
    mask = np.zeros(num_actions, dtype=np.int8)
    if state.current_player() >= 0:
        mask[state.legal_actions()] = 1
    return mask


def observe(state: State, player: int, rng: random.Random, hidden: bool) -> np.ndarray:
    """`player`'s encoding of its own view: never the secrets of a hidden-information game."""
    view = state.view(player, rng) if hidden else state
    return np.asarray(view.encode(player), dtype=np.float32)


def resolve_chance(state: State, rng: random.Random) -> None:
    """Draw chance outcomes in place until a player is to move or the game is over."""
    while state.is_chance_node():
        state.apply(sample_chance(state, rng))


def episode_rngs(seed: int | None, num_players: int) -> tuple[random.Random, list[random.Random]]:
    """The chance generator and one view generator per player, derived as the match runner does."""
    base = 0 if seed is None else seed
    chance = random.Random(derive_seed(base, "chance"))
    views = [random.Random(derive_seed(base, "view", p)) for p in range(num_players)]
    return chance, views

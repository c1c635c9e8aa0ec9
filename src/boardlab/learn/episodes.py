"""Training episodes: a learner's transitions are its own ply, then the opponent's reply.

A transition (s, a, r, s', done) starts where the learner is to move and ends where it is to
move again (or the game is over): r = the game's reward for the own ply (chance included) +
the reply reward (own pieces the opponent took, and the terminal reward if the reply ended
the game). Chance outcomes are drawn with `sample_chance`, as the match runner does.

Opponents are spec strings mixed by weight: `random@0.3+greedy@0.4+self@0.3`. `self` means
the learner plays both seats (both sides' transitions are learned from).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Protocol

from ..core.agent import Agent, Clock
from ..core.game import CHANCE, Game, IllegalActionError, ParseError, State
from ..core.match import derive_seed, sample_chance
from ..core.registry import make_agent
from ..core.learning import RewardFunction

SELF = "self"
DEFAULT_OPPONENTS = "random@0.3+greedy@0.4+self@0.3"
MAX_INVALID_IN_A_ROW = 8
"""Unmasked learners: after this many illegal choices in a row a random legal action is
played, so an untrained network cannot stall an episode forever."""


class Learner(Protocol):
    def choose(self, state: State, explore: bool) -> int: ...

    def observe(self, state: State, action: int, reward: float, next_state: State,
                done: bool) -> None: ...


@dataclass
class EpisodeResult:
    learner_seats: tuple[int, ...]
    opponent: str
    returns: list[float]
    learner_steps: int
    plies: int
    invalid: int


class OpponentMix:
    """Draws an opponent per episode from weighted specs; agents are built once."""

    def __init__(self, game: Game, text: str) -> None:
        self.specs: list[str] = []
        self.weights: list[float] = []
        for part in text.split("+"):
            spec, at, weight = part.strip().rpartition("@") if "@" in part else (part, "", "1")
            spec = spec.strip()
            try:
                value = float(weight)
            except ValueError:
                raise ParseError(f"opponent {text!r}: weight {weight!r} of {spec!r} is not a "
                                 "number (write spec@weight, e.g. random@0.3+greedy@0.7)") from None
            if not spec or value <= 0:
                raise ParseError(f"opponent {text!r}: each part is spec@weight with a positive "
                                 "weight")
            self.specs.append(spec)
            self.weights.append(value)
        self.agents: dict[str, Agent] = {
            spec: make_agent(spec, game) for spec in self.specs if spec != SELF}

    def draw(self, rng: random.Random) -> str:
        return rng.choices(self.specs, self.weights)[0]

    def __str__(self) -> str:
        return "+".join(f"{s}@{w:g}" for s, w in zip(self.specs, self.weights))


def play_episode(game: Game, learner: Learner, reward: RewardFunction, opponent: str,
                 agents: dict[str, Agent], seed: int, learner_seat: int,
                 masked: bool = True) -> EpisodeResult:
    """Play one training game and feed the learner its transitions."""
    rng = random.Random(derive_seed(seed, "episode"))
    state = game.initial_state(seed)
    seats = (0, 1) if opponent == SELF else (learner_seat,)
    other = None if opponent == SELF else agents[opponent]
    if other is not None:
        other.start_game(1 - learner_seat, derive_seed(seed, "opponent"))
    # seat -> (state before own ply, action, own-ply reward, state after own ply)
    waiting: dict[int, tuple[State, int, float, State]] = {}
    steps = plies = invalid = invalid_in_a_row = 0
    while not state.is_terminal():
        mover = state.current_player()
        if mover == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        if mover not in seats:
            assert other is not None
            state.apply(other.act(state.view(mover, rng), Clock()))
            plies += 1
            continue
        if mover in waiting:
            before, action, own, after = waiting.pop(mover)
            learner.observe(before, action, own + reward.reply(after, state, mover),
                            state.clone(), False)
        before = state.clone()
        action = learner.choose(before, explore=True)
        steps += 1
        if not masked and action not in state.legal_actions():
            invalid += 1
            invalid_in_a_row += 1
            learner.observe(before, action, reward.action(before, action, None), before, False)
            if invalid_in_a_row < MAX_INVALID_IN_A_ROW:
                continue
            action = rng.choice(state.legal_actions())
        invalid_in_a_row = 0
        play_own_ply(state, action, rng)
        plies += 1
        own = reward.action(before, action, state)
        if state.is_terminal():
            learner.observe(before, action, own, state, True)
        else:
            waiting[mover] = (before, action, own, state.clone())
    for seat, (before, action, own, after) in waiting.items():
        learner.observe(before, action, own + reward.reply(after, state, seat), state, True)
    return EpisodeResult(seats, opponent, state.returns(), steps, plies, invalid)


def play_own_ply(state: State, action: int, rng: random.Random) -> None:
    """Apply the learner's `action` and draw the chance outcomes it opens (a reveal, a blind
    attack), so the next position is a decision or the end; a masked learner's illegal choice
    is a bug, raised with the position."""
    try:
        state.apply(action)
    except IllegalActionError:  # refused before anything moved: `state` is the position
        raise IllegalActionError(f"the learner chose an illegal action {action} in a masked "
                                 f"episode:\n{state}") from None
    while state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))


def evaluate(game: Game, make_player: Callable[[], Agent], opponent: Agent, games: int,
             base_seed: int) -> tuple[float, int, int, int]:
    """Score (draws half), wins, draws, losses of the learner against `opponent` over a fixed
    seed set, seats alternating: the same games every evaluation, so curves compare."""
    from ..core.match import play_match

    player = make_player()
    wins = draws = losses = 0
    for k in range(games):
        seat = k % 2
        seated = [player, opponent] if seat == 0 else [opponent, player]
        record = play_match(game, seated, seed=derive_seed(base_seed, "eval", k))
        result = record.returns[seat]
        wins += result > 0
        draws += result == 0
        losses += result < 0
    return (wins + draws / 2) / games, wins, draws, losses

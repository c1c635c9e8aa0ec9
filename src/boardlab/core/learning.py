"""What a game gives the learners: table keys, named reward functions and the board's
symmetries (its learning kit).

A game declares its kit with `Game.learning_kit()`; agents (qlearning, dqn) and trainers ask
the game for it, so no module outside the game's package knows a game's rewards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Generic, TypeVar

import numpy as np

from .game import BoardLabError

if TYPE_CHECKING:
    from .game import Game, State

S = TypeVar("S", bound="State")
"""The game's own State class: a game's kit is typed on its states (`LearningKit[MyState]` takes
reward functions of MyStates), the learners that serve any game on `Any`."""

ActionReward = Callable[[S, int, S | None], float]
"""(state before, action, state after the own ply and its chance outcome or None if invalid)
-> reward for the player who moved."""
ReplyReward = Callable[[S, S, int], float]
"""(state before the opponent's reply, state after it, learner) -> reward for the learner."""
Threats = Callable[[S, int], list[int]]
"""(state with the opponent to move, learner) -> the opponent's actions whose reply reward
may be nonzero (those that can take a piece of the learner's); the rest earn it 0."""


@dataclass(frozen=True)
class RewardFunction(Generic[S]):
    """One of a game's reward functions: the own ply's reward and the reply's, and
    optionally which replies can earn a reply reward (to search replies cheaply)."""

    action: ActionReward[S]
    reply: ReplyReward[S]
    threats: Threats[S] | None = None


@dataclass(frozen=True, eq=False)
class Symmetry:
    """A rotation or reflection of the board that leaves the rules unchanged, as two gathers:
    the transformed position's network input is `encoding.reshape(-1)[inputs]`, and an array
    over the transformed position's actions (Q-values, a legal mask) is `array[actions]` of the
    original's. So the original action `a` is the transformed position's `where[a]`, with
    `where = argsort(actions)`."""

    inputs: np.ndarray
    actions: np.ndarray

    @cached_property
    def where(self) -> np.ndarray:
        # cached: an agent reads it for every view of every position it scores
        return np.argsort(self.actions)


def square_board_symmetries(planes: int, size: int, extra_actions: int) -> tuple[Symmetry, ...]:
    """The 8 symmetries of a square board (4 rotations, each also mirrored; the identity
    first) for an input of `planes` size x size planes and actions numbered square by square
    (row-major, as the planes) followed by `extra_actions` that no symmetry moves (a pass)."""
    squares = np.arange(size * size).reshape(size, size)
    cells = np.arange(planes * size * size).reshape(planes, size, size)

    def moved(a: np.ndarray, turns: int, mirror: bool) -> np.ndarray:
        a = np.rot90(a, turns, axes=(-2, -1))
        return np.flip(a, axis=-1) if mirror else a

    found = []
    for mirror in (False, True):
        for turns in range(4):
            actions = np.concatenate([moved(squares, turns, mirror).reshape(-1),
                                      size * size + np.arange(extra_actions)])
            found.append(Symmetry(moved(cells, turns, mirror).reshape(-1).copy(), actions))
    return tuple(found)


@dataclass(frozen=True)
class TableKey(Generic[S]):
    """Where a tabular learner files Q(s, a): in the row `state(s)`, at the column
    `action(s, a)`, or at the action's own number where `action` is None (a table over exact
    positions). A key that forgets part of a position, a feature abstraction, files the
    positions and actions that look alike to it under one entry, so what is learnt in one
    game is found again in the next."""

    state: Callable[[S], bytes]
    action: Callable[[S, int], int] | None = None
    version: int = 1
    """Raised by the game whenever what `state` or `action` computes changes: a table file
    records it, and one filed under another version is refused rather than misread."""

    def columns(self, state: S, actions: list[int]) -> list[int]:
        """The column of each of `actions` in `state`'s row."""
        if self.action is None:
            return list(actions)
        return [self.action(state, a) for a in actions]


EXACT_KEY = "exact"
"""The name of the key every kit has: `LearningKit.table_key`, one row per exact position."""
ALL_POSITIONS = "all"
"""The position domain every kit has: every position."""


@dataclass(frozen=True)
class LearningKit(Generic[S]):
    """Table keys for tabular learners (`table_key`, the exact one, and any others by name),
    the game's named reward functions, and the DQN network the game plays and trains by
    default."""

    table_key: Callable[[S], bytes]
    rewards: dict[str, RewardFunction[S]]
    dqn_network: str = ""
    """The shape of the game's default DQN network where a spec names no `arch`, as agent
    settings `arch=...,conv_layers=...,channels=...` (agents/dqn.py); empty = the seeds'
    fully connected network. A network of another `arch` ships as models/<game>-dqn-<arch>.pt."""
    symmetries: tuple[Symmetry, ...] = ()
    """The board's symmetries, the identity among them (`square_board_symmetries`); empty =
    none declared. The DQN trainer's `augment` and the agent's `symmetric` use them."""
    table_keys: dict[str, TableKey[S]] = field(default_factory=dict)
    """More table keys by name beside `exact` (`table_key`), the Q-learning agent's `key`."""
    default_table_key: str = EXACT_KEY
    """The key a new Q table is filed under where the agent's `key` names none."""
    domains: dict[str, Callable[[S], bool]] = field(default_factory=dict)
    """Named sets of positions (a test of a position) where a network may be trained alone
    and read alone: the DQN agent's `domain` reads its network only at search leaves inside
    one (`all`, every position, needs no declaring)."""

    def table_key_named(self, name: str, game: "Game") -> TableKey[S]:
        """The table key called `name` (`exact` is `table_key`)."""
        keys = {EXACT_KEY: TableKey(self.table_key), **self.table_keys}
        if name not in keys:
            raise BoardLabError(f"{game.name} has no table key {name!r}; it has: "
                                f"{', '.join(keys)}")
        return keys[name]

    def domain(self, name: str, game: "Game") -> Callable[[S], bool]:
        """The position test called `name` (`all`: every position)."""
        if name == ALL_POSITIONS:
            return lambda state: True
        if name not in self.domains:
            raise BoardLabError(f"{game.name} declares no position domain {name!r}; it has: "
                                f"{', '.join([ALL_POSITIONS, *self.domains])}")
        return self.domains[name]

    def reward(self, name: str, game: "Game") -> RewardFunction[S]:
        if name not in self.rewards:
            raise BoardLabError(f"{game.name} has no reward function {name!r}; it has: "
                                f"{', '.join(self.rewards)}")
        return self.rewards[name]


def kit_for(game: "Game") -> LearningKit[Any]:
    """The learning kit of `game`; BoardLabError naming the game if it declares none."""
    kit = game.learning_kit()
    if kit is None:
        raise BoardLabError(f"{game.name} declares no learning kit (table key, rewards: "
                            "Game.learning_kit), so the learning agents cannot train on it")
    return kit


def declared_symmetries(game: "Game", setting: str) -> tuple[Symmetry, ...]:
    """The board symmetries `game`'s learning kit declares; a one-line BoardLabError naming
    the `setting` that asked for them where it declares none."""
    kit = game.learning_kit()
    if kit is None or not kit.symmetries:
        raise BoardLabError(f"{setting}: {game.name} declares no board symmetries "
                            "(LearningKit.symmetries)")
    return kit.symmetries


def terminal_only(reply: ReplyReward[S]) -> ReplyReward[S]:
    """A reply reward keeping only its terminal part (seed 000's reading: no reply penalty)."""
    def terminal(before: S, after: S, player: int) -> float:
        if not after.is_terminal():
            return 0.0
        return reply(after, after, player)  # no pieces lost between a state and itself
    return terminal

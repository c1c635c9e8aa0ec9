"""The agent contract: `act(view, clock) -> action`, built from a spec string by the registry."""

from __future__ import annotations

import gc
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from .game import BoardLabError, Game, State
from .weights import ships_weights


@dataclass
class Clock:
    """The time an agent has for the current move. `budget=None` means no limit."""

    budget: float | None = None
    started: float = 0.0

    @classmethod
    def start(cls, budget: float | None) -> "Clock":
        return cls(budget, time.perf_counter())

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def remaining(self) -> float:
        if self.budget is None:
            return float("inf")
        if _STOPPING and _stop_asked():
            return 0.0
        return self.budget - self.elapsed()

    def expired(self) -> bool:
        return self.budget is not None and (self.elapsed() >= self.budget
                                            or (_STOPPING > 0 and _stop_asked()))


_STOP = threading.local()
_STOPPING = 0
"""How many threads run inside `stop_on` now: 0 keeps a clock's reading as cheap as before."""
_STOPPING_LOCK = threading.Lock()


def _stop_asked() -> bool:
    event = getattr(_STOP, "event", None)
    return event is not None and event.is_set()


@contextmanager
def stop_on(event: threading.Event) -> Iterator[None]:
    """Inside, every clock with a budget that this thread reads counts as run out once `event`
    is set: how a person's Stop (the browser's) ends a search early, whichever clock the agent
    derived from the one it was given (MCTS and minimax start their own for `time=`). The
    agent answers as when its time is up; a search bounded only by simulations or depth (a
    clock without budget) is not stopped."""
    global _STOPPING
    with _STOPPING_LOCK:
        _STOPPING += 1
    _STOP.event = event
    try:
        yield
    finally:
        _STOP.event = None
        with _STOPPING_LOCK:
            _STOPPING -= 1


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for a timed search, on again after it.

    A tree search allocates thousands of nodes a move, and those allocations trigger the
    collector, whose full passes walk every live object (a kept tree included) in the middle of
    a simulation, past the clock's last look. Paused, the young objects are collected in one
    pass when the search is over, inside the same move, where the agent can time it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
            gc.collect(0)


@dataclass
class NoSettings:
    """An agent or game without parameters."""


class Agent:
    """Base of every agent. Subclasses set `name`, a `Settings` dataclass and `act`.

    `self.game` is the game being played, `self.settings` the parsed parameters, `self.rng`
    a `random.Random` reseeded by the match runner before every game so games replay exactly.
    """

    name: ClassVar[str] = ""
    Settings: ClassVar[type] = NoSettings
    weights_kind: ClassVar[str] = ""
    """The kind of shipped weights the agent plays when its `weights` setting is empty
    (models/<game>-<weights_kind><weights_suffix>, core/weights.py); empty: it needs none."""
    weights_suffix: ClassVar[str] = ".pt"

    def __init__(self, game: Game, settings: Any = None, **params: Any) -> None:
        reason = self.cannot_play(game)
        if reason:
            raise BoardLabError(f"agent {self.name!r} cannot play {game.name}: {reason}")
        if settings is None:
            settings = self.Settings(**params)
        self.game = game
        self.settings = settings
        self.rng = random.Random(0)
        self.player = 0
        self.spec = self.name

    @classmethod
    def cannot_play(cls, game: Game) -> str | None:
        """None if this agent can play `game`, else a sentence saying why not."""
        return None

    @classmethod
    def ships_weights_for(cls, game_name: str) -> bool | None:
        """Whether BoardLab ships this agent's default weights for the game (the web page
        marks agents without them); None: the agent needs no weights."""
        if not cls.weights_kind:
            return None
        return ships_weights(game_name, cls.weights_kind, cls.weights_suffix)

    def start_game(self, player: int, seed: int) -> None:
        """Called before each game with the seat and a seed for the agent's own randomness."""
        self.player = player
        self.rng = random.Random(seed)

    def act(self, state: State, clock: Clock) -> int:
        raise NotImplementedError

    def last_info(self) -> dict[str, Any]:
        """What the agent may report about its last decision (depth, value, nodes...)."""
        return {}

    def __repr__(self) -> str:
        return f"<Agent {self.spec}>"

"""Shared pieces of the fuzz tests (issue #15): the input counter, Hypothesis settings, and the
one property every door must keep: bad input raises a BoardLabError, nothing else."""

from __future__ import annotations

import random
import shutil
import sqlite3
import tempfile
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, settings

from boardlab.core.game import CHANCE, BoardLabError, Game, State
from boardlab.arena.store import GameKey, ResultStore
from boardlab.core.match import play_match
from boardlab.core.registry import make_agent, make_game

SLOWEST_CALL_S = 5.0
"""A single parse taking longer than this counts as a hang (generous: the machine is shared)."""


class InputCounter:
    """Inputs generated across the fuzz tests, per door; conftest prints the total."""

    def __init__(self) -> None:
        self.by_door: dict[str, int] = {}

    def add(self, door: str, n: int = 1) -> None:
        self.by_door[door] = self.by_door.get(door, 0) + n

    @property
    def fuzzed(self) -> int:
        """Generated inputs: every door but those in NOT_PARSER_INPUTS."""
        return sum(count for door, count in self.by_door.items()
                   if not door.startswith(NOT_PARSER_INPUTS))


NOT_PARSER_INPUTS = ("round trip", "crash")
"""Doors counted and printed but not toward the 10,000 generated inputs: round-trip texts are
the engines' own output, and kills are not inputs."""


COUNTER = InputCounter()


def fuzz_settings(max_examples: int, known_bug: bool = False) -> settings:
    """Reproducible in CI (derandomize, no example database) and free of timing flakes.

    `known_bug`: the test is an xfail for a bug in a file this suite does not own; stop at
    the first failing input instead of shrinking it (the xfail's reason names the bug)."""
    extra = {"phases": [Phase.explicit, Phase.generate], "report_multiple_bugs": False} \
        if known_bug else {}
    return settings(max_examples=max_examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.data_too_large], **extra)


def documented(door: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Count one input at `door` and run `call`: its value, or None when it raised a
    BoardLabError. Any other exception propagates (the fuzz test fails on it), and so does a
    call that ran past SLOWEST_CALL_S (a hang in the making)."""
    COUNTER.add(door)
    started = time.perf_counter()
    try:
        return call(*args, **kwargs)
    except BoardLabError as error:
        message = str(error)
        assert message.strip(), f"{door}: a BoardLabError without a message"
        return None
    except Exception as error:  # the property broken: say which input did it
        shown = ", ".join(repr(a)[:2000] for a in args)
        raise AssertionError(f"{door}: {type(error).__name__} ({error}) on input {shown}") \
            from error
    finally:
        seconds = time.perf_counter() - started
        assert seconds < SLOWEST_CALL_S, f"{door}: one call took {seconds:.1f}s"


def random_step(state: State, rng: random.Random) -> int:
    """A random legal action, drawn by its probability at a chance node."""
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


@lru_cache(maxsize=None)
def sample_positions(name: str, games: int = 4, plies: int = 120) -> tuple[State, ...]:
    """States from a few seeded random games (chance nodes included): the fuzzers' seeds."""
    game = make_game(name)
    rng = random.Random(15)
    found: list[State] = []
    for index in range(games):
        state = game.initial_state(seed=index)
        for ply in range(plies):
            if state.is_terminal():
                break
            if ply % 3 == 0 or state.current_player() == CHANCE:
                found.append(state.clone())
            state.apply(random_step(state, rng))
        found.append(state.clone())
    return tuple(found)


@lru_cache(maxsize=None)
def sample_move_texts(name: str) -> tuple[str, ...]:
    """Move texts that parse: every legal move's text in the sample positions."""
    texts: set[str] = set()
    for state in sample_positions(name):
        if not state.is_terminal():
            texts.update(state.action_to_str(a) for a in state.legal_actions())
    return tuple(sorted(texts))


@lru_cache(maxsize=None)
def sample_position_texts(name: str) -> tuple[str, ...]:
    """Position texts that parse (to_text of the sample positions that have one)."""
    texts = []
    for state in sample_positions(name):
        try:
            texts.append(state.to_text())
        except (BoardLabError, NotImplementedError):  # a chance node has no text form
            continue
    return tuple(texts)


def game_of(name: str) -> Game:
    return make_game(name)


@lru_cache(maxsize=1)
def good_store_bytes() -> bytes:
    """A small valid results database (four reversi games), as bytes, WAL folded in."""
    folder = tempfile.mkdtemp(prefix="boardlab-fuzz-store-")
    path = Path(folder) / "good.sqlite"
    game = make_game("reversi")
    agents = [make_agent("random", game), make_agent("random", game)]
    with ResultStore(path) as store:
        for index in range(4):
            record = play_match(game, agents, seed=index)
            record.agents = ["random", "random"]
            store.add(GameKey("reversi", "random", "random", "random", "random", index, 0, None),
                      record)
    with sqlite3.connect(path) as conn:  # fold the WAL into the file: one file to damage
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode = DELETE")
    data = path.read_bytes()
    shutil.rmtree(folder)
    return data

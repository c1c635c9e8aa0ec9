"""What a benchmark is (a Job), what it yields (a Figure), and how it is timed.

A job's `setup()` builds everything it needs (games, positions, compiled kernels, a peer's
objects) and returns a callable that does one batch of work and returns how many units it did
(games, leaves, nodes, simulations, positions); a `Staged` batch also names what to prepare,
untimed, before each batch (a search's new game). Setup is never timed, and neither is one
untimed warm-up sample per job (numba loads its code, caches and memory settle). One *sample*
repeats the batch until `min_seconds` have passed, so fast and slow engines are both timed
over a span long enough for the clock; a figure is the median of `repeat` samples, with their
min and max. The jobs of one game take their samples in turns (ours, then the peers', round
after round).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

Batch = Callable[[], int]
"""One batch of work; returns the units done (games, leaves, nodes, simulations...)."""


@dataclass
class Tally:
    """Plies and games played by a playout job, so that engines whose random games differ in
    length (other ply caps, other end rules) can be compared per ply too."""

    games: int = 0
    plies: int = 0

    def add(self, plies: int) -> None:
        self.games += 1
        self.plies += plies

    @property
    def plies_per_game(self) -> float | None:
        return self.plies / self.games if self.games else None


@dataclass
class Staged:
    """A batch whose preparation is not part of the work measured: `sample` runs `prepare()`
    untimed before each `run()` and times `run()` alone. The alpha-beta jobs start a new game
    there (a compiled search's new game allocates a 28 MB table: on a search of a thousand
    nodes that took longer than the search itself, and a batch timed with it showed the
    compiled search slower than the Python one)."""

    prepare: Callable[[], None]
    run: Batch

    def __call__(self) -> int:
        self.prepare()
        return self.run()


class Skip(Exception):
    """A job that cannot run here (a peer not installed, an agent not written yet): the
    message is the note printed in its place."""


@dataclass
class Job:
    """One figure to measure: `setup()` returns the batch to time, or raises Skip."""

    game: str
    """Our game's name; a peer's figure is filed under the game it is compared with."""
    task: str
    """playout, perft, movegen, alphabeta, mcts, network-b1, network-b256."""
    engine: str
    """Who does the work: `python State`, `numba kernel`, `OpenSpiel`, `pyffish`..."""
    unit: str
    """What is counted per second: games, leaves, positions, nodes, simulations."""
    work: str
    """The exact work, e.g. `perft depth 3 from the start`."""
    setup: Callable[[], Batch]
    peer: bool = False
    """A peer's figure (the denominator of ratios), not ours."""
    warmup: bool = True
    """Run one untimed sample first (numba compiles, caches fill, memory is mapped)."""
    tally: Tally | None = None
    """Filled by playout batches: the mean length of the games played."""
    on_request: bool = False
    """Measured only when `--tasks` names its task (a batch of whole games takes minutes)."""
    detail: str = ""
    """What the table shows of the work beside the engine, where engines of one task do
    different work: alpha-beta's `depth 5`."""


@dataclass
class Figure:
    """A measured rate (units per second), or the note saying why there is none."""

    game: str
    task: str
    engine: str
    unit: str
    work: str
    peer: bool
    rates: list[float] = field(default_factory=list)
    note: str = ""
    ratios: dict[str, float] = field(default_factory=dict)
    """Our median over each peer's median for the same game and task (ours only)."""
    plies_per_game: float | None = None
    """Mean length of the random games a playout figure played."""
    detail: str = ""
    """The job's `detail` (alpha-beta's depth), shown beside the engine in the table."""

    @property
    def measured(self) -> bool:
        return bool(self.rates)

    @property
    def median(self) -> float:
        return statistics.median(self.rates) if self.rates else 0.0

    @property
    def low(self) -> float:
        return min(self.rates) if self.rates else 0.0

    @property
    def high(self) -> float:
        return max(self.rates) if self.rates else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "task": self.task, "engine": self.engine, "peer": self.peer,
                "unit": self.unit, "per_second": self.median if self.measured else None,
                "min": self.low if self.measured else None,
                "max": self.high if self.measured else None,
                "samples": self.rates, "work": self.work, "note": self.note,
                "ratios": self.ratios, "plies_per_game": self.plies_per_game,
                "plies_per_second": (self.median * self.plies_per_game
                                     if self.plies_per_game and self.measured else None)}


def sample(batch: Batch, min_seconds: float) -> float:
    """Units per second over whole batches spanning at least `min_seconds` (of `run()` alone
    for a Staged batch)."""
    if isinstance(batch, Staged):
        return _staged_sample(batch, min_seconds)
    units = 0
    started = time.perf_counter()
    while True:
        units += batch()
        elapsed = time.perf_counter() - started
        if elapsed >= min_seconds:
            break
    if units <= 0:
        raise RuntimeError("a benchmark batch reported no work done")
    return units / elapsed


def _staged_sample(batch: Staged, min_seconds: float) -> float:
    units, elapsed = 0, 0.0
    while elapsed < min_seconds:
        batch.prepare()
        started = time.perf_counter()
        units += batch.run()
        elapsed += time.perf_counter() - started
    if units <= 0:
        raise RuntimeError("a benchmark batch reported no work done")
    return units / elapsed


def run_jobs(jobs: list[Job], repeat: int, min_seconds: float) -> list[Figure]:
    """Set every job up, then time them in turns, `repeat` rounds: on a machine shared with
    other work the load drifts, and taking our sample and the peer's side by side lets the
    drift fall on both. A Skip or a missing import at setup becomes the figure's note."""
    figures, batches = [], []
    for job in jobs:
        figure = Figure(job.game, job.task, job.engine, job.unit, job.work, job.peer,
                        detail=job.detail)
        figures.append(figure)
        try:
            batch = job.setup()
        except Skip as reason:
            figure.note = str(reason)
            continue
        except ImportError as error:
            figure.note = f"not installed ({error})"
            continue
        if job.warmup:  # a whole sample, untimed: one batch left first-touch stalls timed
            sample(batch, min_seconds)
        batches.append((job, figure, batch))
    for _ in range(repeat):
        for _job, figure, batch in batches:
            figure.rates.append(sample(batch, min_seconds))
    for job, figure, _ in batches:
        if job.tally is not None:
            figure.plies_per_game = job.tally.plies_per_game
    return figures


def run_job(job: Job, repeat: int, min_seconds: float) -> Figure:
    """One job alone: `run_jobs([job], ...)`."""
    return run_jobs([job], repeat, min_seconds)[0]


def attach_ratios(figures: list[Figure]) -> None:
    """Give each of our figures its ratio to every peer figure of the same game and task."""
    peers = [f for f in figures if f.peer and f.measured]
    for ours in figures:
        if ours.peer or not ours.measured:
            continue
        for peer in peers:
            if (peer.game, peer.task) == (ours.game, ours.task):
                ours.ratios[peer.engine] = ours.median / peer.median

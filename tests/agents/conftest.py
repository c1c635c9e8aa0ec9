"""A clock that only moves when it is read, for the tests of `time=` and the arena's clock.

A search under a time limit reads `time.perf_counter` (through `Clock`, and in mcts for its
`tail`) once per simulation. With `ticking_time(step)` installed every read advances the clock
by `step` seconds, so a 0.2 s budget lasts a fixed number of reads: the test counts the
simulations the search ran, and a loaded machine cannot change that count."""

from __future__ import annotations

import time

import pytest


class TickingTime:
    """Stands in for the `time` module of the code under test: `perf_counter` (and
    `monotonic`) return `step`, `2 * step`, ... one read after another; the rest is `time`."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.reads = 0

    def perf_counter(self) -> float:
        self.reads += 1
        return self.reads * self.step

    monotonic = perf_counter

    def __getattr__(self, name: str):
        return getattr(time, name)


@pytest.fixture
def ticking_time(monkeypatch: pytest.MonkeyPatch):
    """`ticking_time(step, *modules)`: a TickingTime read by `boardlab.core.agent` (the
    `Clock`) and by each module named, until the test ends."""

    def install(step: float, *modules: str) -> TickingTime:
        fake = TickingTime(step)
        for module in ("boardlab.core.agent", *modules):
            monkeypatch.setattr(f"{module}.time", fake)
        return fake

    return install

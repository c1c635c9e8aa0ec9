"""The one worker pool (core/workers.py): long-lived workers in this process, in local
processes or on Ray; values in order, a worker's exception raised in the caller with its
message, a dead worker process said as such, and one rule for starting or joining Ray."""

from __future__ import annotations

import os
import sys

import pytest

from boardlab.core.game import BoardLabError
from boardlab.core.workers import ActorPool, RaySession, WorkerDied


class Counter:
    """A worker with state of its own: it counts its calls."""

    def __init__(self, name: str, fail_at_start: bool = False) -> None:
        if fail_at_start:
            raise ValueError(f"{name} cannot start")
        self.name, self.calls = name, 0

    def add(self, a: int, b: int) -> tuple[str, int, int]:
        self.calls += 1
        return self.name, self.calls, a + b

    def refuse(self, why: str) -> None:
        raise ValueError(f"{self.name} refuses: {why}")

    def unpicklable(self) -> None:
        raise Unpicklable(self.name)

    def pid(self) -> int:
        return os.getpid()

    def die(self, code: int) -> None:
        os._exit(code)


class Unpicklable(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is stuck")
        self.handle = lambda: None  # a lambda does not pickle


@pytest.mark.parametrize("backend", ["inline", "local"])
def test_each_worker_is_built_once_and_map_returns_in_order(backend):
    with ActorPool(Counter, [("a",), ("b",)], backend) as pool:
        assert pool.map("add", [(1, 2), (3, 4), (5, 6)]) == [("a", 1, 3), ("b", 1, 7),
                                                              ("a", 2, 11)]
        pool.submit(1, "add", 10, 20)
        assert pool.result(1) == ("b", 2, 30)
        pids = pool.map("pid", [(), ()])
    if backend == "local":
        assert len(set(pids)) == 2 and os.getpid() not in pids
    else:
        assert pids == [os.getpid()] * 2


@pytest.mark.parametrize("backend", ["inline", "local"])
def test_a_workers_exception_is_raised_in_the_caller_with_its_message(backend):
    with ActorPool(Counter, [("a",), ("b",)], backend, name="test worker") as pool:
        with pytest.raises(ValueError, match="a refuses: first"):  # the first in order
            pool.map("refuse", [("first",), ("second",)])
        pool.submit(1, "refuse", "no reason")
        with pytest.raises(ValueError, match="b refuses: no reason"):
            pool.result(1)
        # the workers live on, their state kept
        assert pool.map("add", [(1, 1), (2, 2)]) == [("a", 1, 2), ("b", 1, 4)]
        if backend == "local":
            pool.submit(0, "unpicklable")
            with pytest.raises(BoardLabError, match="test worker 0 .*Unpicklable: a is stuck"):
                pool.result(0)


def test_a_worker_that_cannot_start_says_why_at_its_first_call():
    with ActorPool(Counter, [("a", True)], "local") as pool:
        pool.submit(0, "add", 1, 2)
        with pytest.raises(ValueError, match="a cannot start"):
            pool.result(0)


def test_a_dead_worker_process_is_reported_and_the_pool_still_closes():
    pool = ActorPool(Counter, [("a",), ("b",)], "local", name="test worker")
    pool.submit(0, "die", 7)
    pool.submit(1, "add", 1, 2)
    with pytest.raises(WorkerDied, match=r"test worker 0 \(a local process\) died "
                                         r"\(exit code 7\)"):
        pool.result(0)
    assert pool.result(1) == ("b", 1, 3)
    with pytest.raises(WorkerDied):
        pool.submit(0, "add", 1, 2)
    processes = [process for process, _ in pool.workers]
    pool.close()
    assert not any(process.is_alive() for process in processes)


def test_close_stops_a_busy_worker_at_once():
    pool = ActorPool(Counter, [("a",)], "local")
    pool.map("add", [(0, 0)])  # started
    pool.submit(0, "pid")
    process, _ = pool.workers[0]
    pool.close()
    assert not process.is_alive()
    with pytest.raises(BoardLabError, match="closed"):
        pool.submit(0, "pid")


def test_without_ray_the_ray_backend_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(BoardLabError) as caught:
        ActorPool(Counter, [("a",)], "ray")
    message = str(caught.value)
    assert "pip install -e '.[distributed]'" in message and "\n" not in message


@pytest.mark.e2e  # a Ray cluster
def test_ray_actors_keep_state_raise_and_leave_a_callers_cluster_running(monkeypatch):
    ray = pytest.importorskip("ray")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    # the cluster's worker processes import this module (`Counter`) as the test run does
    here = os.path.dirname(os.path.abspath(__file__))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get(
        "PYTHONPATH")])))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with ActorPool(Counter, [("a",), ("b",)], "ray") as pool:
            assert pool.map("add", [(1, 2), (3, 4), (5, 6)]) == [("a", 1, 3), ("b", 1, 7),
                                                                  ("a", 2, 11)]
            with pytest.raises(ValueError, match="a refuses: now"):
                pool.map("refuse", [("now",)])
        assert ray.is_initialized()  # the caller's
    finally:
        ray.shutdown()
    session = RaySession()  # none running: one is started, and shut down at close
    assert ray.is_initialized()
    session.close()
    assert not ray.is_initialized()

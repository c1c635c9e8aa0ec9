"""`--backend ray`: a tournament's games played by Ray actors, one per CPU it is given.

Each actor builds the game and the agents once, as a local worker process does, and plays the
tasks the driver sends it; the driver (this process) alone writes the store. Every game is
seeded by its task, so the results are those of the local backend, game for game.

With a time or memory limit an actor does not play in its own process: it runs a one-worker
`WorkerPool` (arena/workers.py) beside it, so a hung agent is stopped and replaced exactly as
on the local backend.

Ray is started or joined by core/workers.py (`ray_cluster`), the one rule BoardLab has for it:
the cluster at `address` (else `RAY_ADDRESS`), else a local one started for this tournament and
stopped after it; a Ray this process runs already is used and left running. The actors here
are not that module's `ActorPool`: they take the next game as soon as they are free
(`ray.wait`), two calls queued each, where the pool gives each worker its calls in turn. The
arena's local `WorkerPool` is not that pool either: it watches per-move time and memory limits
from outside and replaces a hung agent's process mid-tournament.
"""

from __future__ import annotations

import os
from collections import deque
from typing import Any, Generator, Iterable, Iterator

from ..core.game import BoardLabError
from ..core.match import GameRecord
from ..core import workers as core_workers
from .workers import Limits, MatchRunner, Task, WorkerPool

IN_FLIGHT_PER_ACTOR = 2
"""Calls queued on each actor, so that it starts its next game while the driver stores one."""


def import_ray() -> Any:
    """The `ray` module, or a one-line BoardLabError saying how to install it."""
    return core_workers.import_ray("--backend ray")


class ArenaActor:
    """Plays tasks for the driver (made a Ray actor class by `play_games_on_ray`)."""

    def __init__(self, game_spec: str, agent_specs: list[str], limits: Limits,
                 cwd: str) -> None:
        if os.path.isdir(cwd):
            os.chdir(cwd)  # agent specs may name files relative to the driver's directory
        self.limits = limits
        if limits.need_processes:
            # The pool pulls its next task from the inbox only once the previous game has come
            # back, and `play` fills the inbox before asking: it is never found empty.
            self.inbox: deque[Task] = deque()
            pool = WorkerPool(game_spec, agent_specs, 1, limits)
            self.results: Generator[tuple[Task, GameRecord], None, None] | None = pool.play(
                self._tasks())
        else:
            self.runner = MatchRunner(game_spec, limits=limits)
            for spec in agent_specs:
                self.runner.agent(spec)
            self.results = None

    def _tasks(self) -> Iterator[Task]:
        while True:
            yield self.inbox.popleft()

    def play(self, task: Task) -> tuple[Task, GameRecord]:
        if self.results is None:
            return task, self.runner.play(task)
        self.inbox.append(task)
        return next(self.results)

    def close(self) -> None:
        if self.results is not None:
            self.results.close()  # stops its worker process


def play_games_on_ray(game_spec: str, agent_specs: list[str], tasks: Iterable[Task],
                      workers: int | None, limits: Limits,
                      address: str | None = None
                      ) -> Generator[tuple[Task, GameRecord], None, None]:
    """Play `tasks` on Ray: `workers` actors (None: one per CPU of the cluster), on the
    cluster at `address`, or on one started here for this tournament and stopped after it.

    Ray is left running when it was running already (a caller's `ray.init`)."""
    import_ray()
    pending = iter(tasks)
    first = next(pending, None)
    if first is None:
        return
    with core_workers.ray_cluster(address, "--backend ray") as ray:
        yield from _play(ray, game_spec, agent_specs, first, pending, workers, limits)


def _play(ray: Any, game_spec: str, agent_specs: list[str], first: Task,
          pending: Iterator[Task], workers: int | None, limits: Limits
          ) -> Generator[tuple[Task, GameRecord], None, None]:
    actors: list[Any] = []
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        count = max(1, min(workers or cpus, cpus))  # an actor per CPU; more would only wait
        remote = ray.remote(num_cpus=1)(ArenaActor)
        actors = [remote.remote(game_spec, list(agent_specs), limits, os.getcwd())
                  for _ in range(count)]
        backlog = [first]
        in_flight: dict[Any, Any] = {}  # object ref -> actor

        def submit(actor: Any) -> bool:
            task = backlog.pop() if backlog else next(pending, None)
            if task is None:
                return False
            in_flight[actor.play.remote(task)] = actor
            return True

        for actor in actors:
            for _ in range(IN_FLIGHT_PER_ACTOR):
                submit(actor)
        while in_flight:
            (done,), _ = ray.wait(list(in_flight), num_returns=1)
            actor = in_flight.pop(done)
            try:
                task, record = ray.get(done)
            except ray.exceptions.RayError as error:
                raise BoardLabError(f"a Ray arena actor failed: {error}") from None
            submit(actor)
            yield task, record
    finally:
        for actor in actors:
            try:
                ray.get(actor.close.remote(), timeout=30)
            except Exception:  # an actor that died already has nothing to close
                pass
            ray.kill(actor)

"""Where arena games are played: in this process, or in worker processes the arena can stop.

A tournament hands `play_games` its tasks and gets back (task, record) pairs as games end, in
any order. Three ways to play them:

- In this process, when there is one worker and no limit to enforce: no start-up cost, and a
  debugger or a traceback sees the agent's own frames.
- In watched worker processes (`WorkerPool`) otherwise. Each worker builds the game and every
  agent once, then plays the tasks it is sent. Before each move the agent's seat and start time
  go into memory shared with the parent; the parent polls it, and a move that runs past the
  hard limit (budget + grace) gets its worker killed (SIGKILL: a hung agent cannot refuse),
  the game recorded as lost on time by the slow seat and the worker replaced. With a hard time
  limit even `workers=1` plays in such a child: a process is the only thing that can be
  stopped from outside without the agent's cooperation.
- A worker may also get an address-space limit (`memory_mb` above what it uses once its
  agents are built): an agent that allocates past it gets MemoryError, which forfeits the game
  with reason "memory", and its worker is then replaced so that nothing it held stays behind.

Every game is seeded by its task alone, so which worker plays it never changes its result.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Generator, Iterable, NamedTuple

from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, Game, State
from ..core.match import GameRecord, play_match
from ..core.registry import make_agent, make_game
from .store import GameKey

POLL_S = 0.05
"""How often the parent looks at the workers' clocks; a hung move is stopped this late."""

START_TIMEOUT_S = 600.0
"""How long a worker may take to import and build the game and agents (numba compiles)."""

MAX_RECORDED_PLIES = 20_000
"""Actions of a game shared with the parent (enough for every game here; longer games keep
their first actions in a record of a stopped game, and the full list otherwise)."""

_IDLE = -1.0


class Task(NamedTuple):
    """One game to play; everything a worker needs, as plain values (it crosses processes)."""

    key: GameKey
    seed: int


@dataclass(frozen=True)
class Limits:
    """What a tournament enforces on its agents."""

    time_per_move: float | None = None
    """Each agent's budget in seconds, told through its clock; None for no limit."""
    memory_mb: int | None = None
    """Address space a worker may add after building its agents, in MiB; None for no limit."""

    @property
    def grace(self) -> float:
        """Seconds past the budget before a move is stopped: max(1 s, the budget)."""
        return max(1.0, self.time_per_move or 0.0)

    @property
    def hard_time_limit(self) -> float | None:
        return None if self.time_per_move is None else self.time_per_move + self.grace

    @property
    def need_processes(self) -> bool:
        return self.time_per_move is not None or self.memory_mb is not None


def memory_reason(record: GameRecord, limits: Limits) -> None:
    """Turn a crash by MemoryError into the reason "memory" (kept apart from other crashes)."""
    if record.forfeit is not None and record.reason.startswith("crash") \
            and "raised MemoryError" in record.reason:
        limit = "" if limits.memory_mb is None else f" (limit {limits.memory_mb} MiB a worker)"
        record.reason = "memory" + record.reason[len("crash"):] + limit


# --- one match runner: the game and its agents, built once per process ------------------

class MatchRunner:
    """Builds the game and each agent once (per process) and plays tasks, one match each."""

    def __init__(self, game_spec: str, agents: dict[str, Agent] | None = None,
                 limits: Limits = Limits()) -> None:
        self.game: Game = make_game(game_spec)
        self.agents: dict[str, Agent] = dict(agents or {})
        self.limits = limits

    def agent(self, spec: str) -> Agent:
        if spec not in self.agents:
            self.agents[spec] = make_agent(spec, self.game)
        return self.agents[spec]

    def play(self, task: Task, watch: "_SharedClock | None" = None) -> GameRecord:
        key = task.key
        seats: list[Agent] = [self.agent(key.seat0), self.agent(key.seat1)]
        on_move = None
        if watch is not None:
            watch.new_game()
            seats = [_Watched(agent, watch) for agent in seats]
            on_move = watch.on_move
        record = play_match(self.game, seats, seed=task.seed,
                            time_per_move=self.limits.time_per_move,
                            grace=self.limits.grace, on_move=on_move)
        memory_reason(record, self.limits)
        return record


class _Watched(Agent):
    """An agent seen through the shared clock: its seat and start time are published while it
    thinks, so the parent can tell a hung move from a long game."""

    def __init__(self, inner: Agent, watch: "_SharedClock") -> None:
        # No Agent.__init__: this wraps an agent that was built and checked already.
        self.inner, self.watch = inner, watch
        self.spec = inner.spec
        self.game = inner.game

    def start_game(self, player: int, seed: int) -> None:
        self.player = player
        self.watch.thinking(player)  # an agent may hang here too
        try:
            self.inner.start_game(player, seed)
        finally:
            self.watch.done()

    def act(self, state: State, clock: Clock) -> int:
        self.watch.thinking(self.player)
        try:
            return self.inner.act(state, clock)
        finally:
            self.watch.done()

    def last_info(self) -> dict[str, Any]:
        return self.inner.last_info()


class _SharedClock:
    """Memory a worker shares with the parent: who is thinking since when, and the game so
    far (actions, movers), so that a stopped game can still be recorded and replayed."""

    def __init__(self, context: Any) -> None:
        # [seat thinking or -1, monotonic start of that move, actions recorded]
        self.header = context.RawArray("d", 3)
        self.moves = context.RawArray("i", 2 * MAX_RECORDED_PLIES)
        self.header[0] = _IDLE

    def new_game(self) -> None:
        self.header[2] = 0

    def thinking(self, seat: int) -> None:
        self.header[1] = time.monotonic()  # start first, then seat: the parent reads seat first
        self.header[0] = seat

    def done(self) -> None:
        self.header[0] = _IDLE

    def on_move(self, state: State, mover: int, action: int) -> None:
        count = int(self.header[2])
        if count < MAX_RECORDED_PLIES:
            self.moves[2 * count] = action
            self.moves[2 * count + 1] = mover
            self.header[2] = count + 1

    def overrun(self, limit: float) -> tuple[int, float] | None:
        """(seat, seconds) when a move has run longer than `limit`, else None."""
        seat = int(self.header[0])
        if seat < 0:
            return None
        seconds = time.monotonic() - self.header[1]
        return (seat, seconds) if seconds > limit else None

    def seat_thinking(self) -> int | None:
        seat = int(self.header[0])
        return None if seat < 0 else seat

    def moves_so_far(self) -> tuple[list[int], list[int]]:
        count = int(self.header[2])
        flat = list(self.moves[:2 * count])
        return flat[0::2], flat[1::2]


# --- worker processes ---------------------------------------------------------------------

def _worker_main(game_spec: str, agent_specs: list[str], limits: Limits, conn: Connection,
                 watch: _SharedClock) -> None:
    """A worker: build everything, say ready, then play tasks until told to stop."""
    import signal

    # Ctrl-C is the parent's to handle: it stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        runner = MatchRunner(game_spec, limits=limits)
        for spec in agent_specs:  # built now, so that the memory limit counts only play
            runner.agent(spec)
        if limits.memory_mb is not None:
            _limit_address_space(limits.memory_mb)
    except BaseException as error:  # the parent reports it; a worker must not hang silently
        _tell(conn, ("error", f"{type(error).__name__}: {error}"))
        return
    if not _tell(conn, ("ready", os.getpid())):
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):  # OSError: the parent's end was reset
            return
        if message is None:
            return
        try:
            record = runner.play(message, watch)
        except Exception as error:  # not an agent's fault (play_match catches those): a bug
            _tell(conn, ("failed", f"{type(error).__name__}: {error}"))
            return
        if not _tell(conn, ("done", record)) or record.reason.startswith("memory"):
            return  # the parent is gone, or whatever the agent still holds goes with us


def _tell(conn: Connection, message: Any) -> bool:
    """Send to the parent; False when it is gone (killed, its terminal closed): the worker
    then exits quietly instead of printing BrokenPipeError / ConnectionResetError tracebacks
    into a terminal nobody is reading. The game it played is lost with the parent's run,
    which a rerun resumes."""
    try:
        conn.send(message)
        return True
    except OSError:  # BrokenPipeError, ConnectionResetError
        return False


def _limit_address_space(extra_mb: int) -> None:
    """Cap this process's address space at its present size plus `extra_mb` MiB (Linux; where
    /proc or RLIMIT_AS is missing the cap is skipped, and said so once on stderr)."""
    try:
        import resource

        with open("/proc/self/status") as status:
            size_kb = next(int(line.split()[1]) for line in status
                           if line.startswith("VmSize:"))
        cap = (size_kb + extra_mb * 1024) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, resource.RLIM_INFINITY))
    except (ImportError, OSError, StopIteration, ValueError) as error:
        import sys

        print(f"boardlab arena: no memory limit on this platform ({error})", file=sys.stderr)


class _Worker:
    """The parent's handle on one worker process."""

    def __init__(self, context: Any, game_spec: str, agent_specs: list[str],
                 limits: Limits) -> None:
        self.conn, child = context.Pipe()
        self.watch = _SharedClock(context)
        self.process = context.Process(
            target=_worker_main, args=(game_spec, agent_specs, limits, child, self.watch),
            daemon=True)
        self.process.start()
        child.close()
        self.task: Task | None = None
        self.ready = False
        self.started = time.monotonic()

    def send(self, task: Task) -> None:
        self.task = task
        self.conn.send(task)

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.conn.close()


class WorkerPool:
    """K watched worker processes (see the module docstring); `play` yields results as games
    end and always leaves every worker stopped, even when the caller stops early."""

    def __init__(self, game_spec: str, agent_specs: list[str], workers: int,
                 limits: Limits) -> None:
        self.game_spec, self.agent_specs = game_spec, list(agent_specs)
        self.size, self.limits = workers, limits
        self.game = make_game(game_spec)
        # spawn: safe with threads, numba and torch, and the same on every platform.
        self.context = multiprocessing.get_context("spawn")
        self.replaced = 0
        """Workers started to replace one that was stopped or died (for tests and reports)."""

    def _start(self) -> _Worker:
        return _Worker(self.context, self.game_spec, self.agent_specs, self.limits)

    def play(self, tasks: Iterable[Task]) -> Generator[tuple[Task, GameRecord], None, None]:
        pending = iter(tasks)
        workers: list[_Worker] = []
        retries: dict[Task, int] = {}
        hard = self.limits.hard_time_limit
        try:
            first = next(pending, None)
            if first is None:
                return
            backlog: list[Task] = [first]
            workers = [self._start() for _ in range(self.size)]

            def feed(worker: _Worker) -> None:
                task = backlog.pop() if backlog else next(pending, None)
                if task is not None:
                    worker.send(task)

            while True:
                for worker in workers:
                    if worker.ready and worker.task is None:
                        feed(worker)
                if all(w.ready and w.task is None for w in workers):
                    return  # nothing was left to feed and every game has come back
                ready = wait([w.conn for w in workers] + [w.process.sentinel for w in workers],
                             timeout=POLL_S)
                for index, worker in enumerate(list(workers)):
                    outcome = self._collect(worker, ready, hard, retries, backlog)
                    if outcome is None:
                        continue
                    kind, result = outcome
                    if kind == "replace":
                        worker.stop(kill=True)
                        workers[index] = self._start()
                        self.replaced += 1
                        if result is not None:
                            yield result
                    else:
                        task = worker.task
                        worker.task = None
                        assert task is not None
                        feed(worker)  # before the caller stores this game: no idle worker
                        yield task, result
        finally:
            for worker in workers:
                worker.stop(kill=True)

    def _collect(self, worker: _Worker, ready: list[Any], hard: float | None,
                 retries: dict[Task, int], backlog: list[Task]) -> tuple[str, Any] | None:
        """What happened to `worker`: None (still busy or idle), ("done", record) or
        ("replace", result to yield or None)."""
        if worker.conn in ready:
            try:
                kind, payload = worker.conn.recv()
            except (EOFError, OSError):
                kind, payload = "died", None
            if kind == "ready":
                worker.ready = True
                return None
            if kind == "error":
                raise BoardLabError(f"an arena worker could not start: {payload}")
            if kind == "failed":
                task = worker.task
                assert task is not None
                raise BoardLabError(f"game {task.key.game_index} of {task.key.pair_a} vs "
                                    f"{task.key.pair_b} failed outside the agents: {payload}")
            if kind == "done":
                if payload.reason.startswith("memory"):  # the worker exits after sending it
                    task = worker.task
                    worker.task = None
                    return "replace", (task, payload)
                return "done", payload
        elif not worker.ready and time.monotonic() - worker.started > START_TIMEOUT_S:
            raise BoardLabError(f"an arena worker did not finish building the game and agents "
                                f"in {START_TIMEOUT_S:g}s")
        elif worker.task is not None and hard is not None:
            late = worker.watch.overrun(hard)
            if late is not None:
                return "replace", (worker.task, self._stopped_game(worker, *late, "time"))
            return None
        if worker.process.is_alive() or worker.process.sentinel not in ready \
                and worker.conn not in ready:
            return None
        # The process is gone without a result.
        if not worker.ready:
            raise BoardLabError(f"an arena worker exited while starting (exit code "
                                f"{worker.process.exitcode})")
        task = worker.task
        if task is None:
            return "replace", None
        seat = worker.watch.seat_thinking()
        if seat is not None:
            return "replace", (task, self._stopped_game(worker, seat, None, "crash"))
        # Dead between moves: not an agent's doing. Play the game again, once.
        retries[task] = retries.get(task, 0) + 1
        if retries[task] > 1:
            raise BoardLabError(f"an arena worker died twice outside any agent's move in game "
                                f"{task.key.game_index} of {task.key.pair_a} vs "
                                f"{task.key.pair_b} (exit code {worker.process.exitcode})")
        backlog.append(task)
        return "replace", None

    def _stopped_game(self, worker: _Worker, seat: int, seconds: float | None,
                      why: str) -> GameRecord:
        """The record of a game whose worker was stopped or died while `seat` was thinking."""
        task = worker.task
        assert task is not None
        key = task.key
        specs = [key.seat0, key.seat1]
        actions, movers = worker.watch.moves_so_far()
        if why == "time":
            budget = self.limits.time_per_move
            reason = (f"time: seat {seat} ({specs[seat]}) was still thinking after "
                      f"{seconds:.2f}s, budget {budget:g}s + grace {self.limits.grace:g}s; "
                      "its worker was stopped")
        else:
            if worker.process.is_alive():
                worker.process.join(1)
            reason = (f"crash: seat {seat} ({specs[seat]}) ended its worker process during "
                      f"its move (exit code {worker.process.exitcode})")
        return GameRecord(
            game=self.game.spec, agents=specs, seed=task.seed, actions=actions, movers=movers,
            returns=self.game.forfeit_returns(seat), reason=reason, forfeit=seat,
            move_seconds=[], plies=sum(1 for mover in movers if mover >= 0))


def play_games(game_spec: str, built: dict[str, Agent], tasks: Iterable[Task], workers: int,
               limits: Limits) -> Generator[tuple[Task, GameRecord], None, None]:
    """Play `tasks` locally: in this process or in a WorkerPool (see the module docstring)."""
    if workers == 1 and not limits.need_processes:
        runner = MatchRunner(game_spec, built, limits)
        for task in tasks:
            yield task, runner.play(task)
        return
    pool = WorkerPool(game_spec, list(built), workers, limits)
    yield from pool.play(tasks)

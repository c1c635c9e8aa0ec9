"""One pool of long-lived workers, in local processes or on Ray, and the one place BoardLab
starts or joins a Ray cluster (docs/design.md#one-worker-pool).

`ActorPool(cls, args, backend)` builds worker i once as `cls(*args[i])` and keeps it for the
pool's life (torch, numba and the worker's own state load once):

- `local`: one spawned process per worker (no forked torch state), one pipe each;
- `ray`: one Ray actor per worker (`num_cpus=1`) on the cluster `RaySession` connects to;
- `inline`: the workers in this process, for one worker or a test (no start-up cost, a
  debugger sees the worker's frames).

The caller sends worker i a call with `submit(i, method, *args)` and takes its value with
`result(i)` (one call in flight per worker), or gives the workers their calls in turn with
`map(method, tasks)`, which returns the values in the order of the tasks. An exception raised
in a worker is raised in the caller with the worker's type and message (and its traceback as a
note); a worker process or Ray actor that died is a `WorkerDied`.

Ray has one rule, `RaySession`: a Ray this process runs already is used as it is; otherwise
the session joins the cluster at the address it is given or at `RAY_ADDRESS`, and without
either starts a local one; closing the last session shuts down (or leaves) only what the
sessions started (or joined). Ray is imported here alone, and only when asked for: it is the
`distributed` extra.

The arena's `WorkerPool` (arena/workers.py) is another job and stays apart: per-move time and
memory limits watched from outside, hung agents killed and replaced mid-tournament.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import traceback
from contextlib import contextmanager
from typing import Any, Iterator

from .game import BoardLabError

BACKENDS = ("inline", "local", "ray")

JOIN_S = 5.0
"""How long `close` waits for an idle worker process to leave before it is stopped."""


class WorkerDied(BoardLabError):
    """A worker process or Ray actor that is gone (killed, crashed, out of memory)."""


# --- Ray: one rule to start or join a cluster ----------------------------------------------------
def import_ray(purpose: str = "this") -> Any:
    """The `ray` module, or a one-line BoardLabError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise BoardLabError(f"{purpose} needs Ray, which is not installed; install it with "
                            "pip install -e '.[distributed]'") from None
    return ray


class _Connection:
    """What the open sessions share: whether they called `ray.init`, and how many are open."""

    initialised_here = False
    sessions = 0


class RaySession:
    """Ray, ready for actors: the Ray this process runs already (left running at `close`), or
    the cluster at `address` (else `RAY_ADDRESS`) joined, or else a local one started; the last
    session to close shuts down (or leaves) what the sessions started (or joined)."""

    def __init__(self, address: str | None = None, purpose: str = "this") -> None:
        self.ray = import_ray(purpose)
        if not self.ray.is_initialized():
            _Connection.initialised_here, _Connection.sessions = False, 0
            target = address or os.environ.get("RAY_ADDRESS") or None
            try:
                if target:
                    self.ray.init(address=target, log_to_driver=False)
                else:  # "local": a new cluster, not one some other `ray start` left behind
                    self.ray.init(address="local", include_dashboard=False,
                                  log_to_driver=False)
            except (ConnectionError, ValueError, RuntimeError) as error:
                raise BoardLabError(f"cannot start or reach a Ray cluster at "
                                    f"{target or 'this machine'}: {error}") from None
            _Connection.initialised_here = True
        self.counted = _Connection.initialised_here
        if self.counted:
            _Connection.sessions += 1

    def close(self) -> None:
        if not self.counted:
            return
        self.counted = False
        _Connection.sessions -= 1
        if _Connection.sessions <= 0 and _Connection.initialised_here:
            _Connection.initialised_here, _Connection.sessions = False, 0
            self.ray.shutdown()


@contextmanager
def ray_cluster(address: str | None = None, purpose: str = "this") -> Iterator[Any]:
    """`with ray_cluster(address) as ray:` a `RaySession`'s `ray`, closed at the end."""
    session = RaySession(address, purpose)
    try:
        yield session.ray
    finally:
        session.close()


# --- the pool ------------------------------------------------------------------------------------
def _failure(error: BaseException) -> tuple[str, BaseException | None, str, str]:
    """An exception as a reply: itself where it crosses a pipe intact; its type, message and
    traceback always."""
    text = "".join(traceback.format_exception(error))
    sent: BaseException | None = error
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        sent = None
    return ("error", sent, type(error).__name__, text)


def _serve(pipe: Any, cls: type, args: tuple) -> None:
    """A worker process's main: build the worker, then answer calls until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's: it closes the pool
    worker: Any = None
    failed: tuple | None = None
    try:
        worker = cls(*args)
    except Exception as error:  # every call is answered with it
        failed = _failure(error)
    while True:
        try:
            message = pipe.recv()
        except (EOFError, OSError):  # the caller is gone
            return
        if message is None:
            return
        reply: tuple
        if failed is not None:
            reply = failed
        else:
            method, call_args = message
            try:
                reply = ("ok", getattr(worker, method)(*call_args))
            except Exception as error:
                reply = _failure(error)
        try:
            pipe.send(reply)
        except OSError:  # the caller is gone
            return
        except Exception as error:  # the value could not be pickled (nothing was written)
            pipe.send(_failure(error))


def _raise(who: str, reply: tuple) -> None:
    """Raise a worker's exception here, its type and message kept where it could be sent."""
    _, error, type_name, text = reply
    if error is None:
        last = text.strip().splitlines()[-1] if text.strip() else type_name
        raise BoardLabError(f"{who} failed: {last}")
    error.add_note(f"raised in {who}:\n{text.rstrip()}")
    raise error


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class ActorPool:
    """Long-lived workers built from one class (see the module doc); `args[i]` are worker i's
    constructor arguments, `name` says what a worker is in messages."""

    def __init__(self, cls: type, args: list[tuple], backend: str = "local", *,
                 name: str = "worker", address: str | None = None) -> None:
        if backend not in BACKENDS:
            raise BoardLabError(f"backend {backend!r} is not one of {', '.join(BACKENDS)}")
        if not args:
            raise BoardLabError("a worker pool needs at least one worker")
        self.backend, self.name = backend, name
        self.count = len(args)
        self.busy = [False] * self.count
        self.replies: list[Any] = [None] * self.count
        """Per worker: the Ray object ref (ray), or the reply made at submit (inline)."""
        self.session: RaySession | None = None
        self.closed = False
        self.workers: list[Any] = []
        if backend == "ray":
            self.session = RaySession(address, f"backend=ray ({name}s)")
            remote = self.session.ray.remote(num_cpus=1)(cls)
            self.workers = [remote.remote(*a) for a in args]
        elif backend == "local":
            context = multiprocessing.get_context("spawn")  # no forked torch state
            for i, a in enumerate(args):
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs, cls, a), daemon=True,
                                          name=f"boardlab {name} {i}")
                process.start()
                theirs.close()  # the child holds its end: the child's death is our EOF
                self.workers.append((process, mine))
        else:
            self.workers = [cls(*a) for a in args]

    def __len__(self) -> int:
        return self.count

    def __enter__(self) -> "ActorPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _who(self, i: int) -> str:
        where = {"local": "a local process", "ray": "a Ray actor", "inline": "this process"}
        return f"{self.name} {i} ({where[self.backend]})"

    def submit(self, i: int, method: str, *args: Any) -> None:
        """Start `method(*args)` on worker i."""
        if self.closed:
            raise BoardLabError(f"the {self.name} pool is closed")
        if self.busy[i]:
            raise BoardLabError(f"{self._who(i)} has a call in flight already")
        if self.backend == "ray":
            self.replies[i] = getattr(self.workers[i], method).remote(*args)
        elif self.backend == "local":
            _, pipe = self.workers[i]
            try:
                pipe.send((method, args))
            except OSError:
                raise self._died(i) from None
        else:
            try:
                self.replies[i] = ("ok", getattr(self.workers[i], method)(*args))
            except Exception as error:
                self.replies[i] = ("raised", error)
        self.busy[i] = True

    def result(self, i: int) -> Any:
        """The value of worker i's call, once it is there; its exception raised here."""
        if not self.busy[i]:
            raise BoardLabError(f"{self._who(i)} has no call in flight")
        self.busy[i] = False
        reply, self.replies[i] = self.replies[i], None
        if self.backend == "ray":
            return self._ray_result(i, reply)
        if self.backend == "inline":
            if reply[0] == "raised":
                raise reply[1]
            return reply[1]
        _, pipe = self.workers[i]
        try:
            reply = pipe.recv()
        except (EOFError, OSError):
            raise self._died(i) from None
        if reply[0] == "error":
            _raise(self._who(i), reply)
        return reply[1]

    def _ray_result(self, i: int, ref: Any) -> Any:
        assert self.session is not None
        ray = self.session.ray
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as error:
            cause = error.cause
            if isinstance(cause, Exception) and not isinstance(cause, ray.exceptions.RayError):
                cause.add_note(f"raised in {self._who(i)}:\n{str(error).rstrip()}")
                raise cause from None
            raise BoardLabError(f"{self._who(i)} failed: {_first_line(error)}") from None
        except ray.exceptions.RayError as error:  # the actor died, or its node did
            raise WorkerDied(f"{self._who(i)} died: {_first_line(error)}") from None

    def _died(self, i: int) -> WorkerDied:
        process, _ = self.workers[i]
        process.join(timeout=JOIN_S)
        return WorkerDied(f"{self._who(i)} died (exit code {process.exitcode})")

    def map(self, method: str, tasks: list[tuple]) -> list[Any]:
        """`method(*task)` for each task, task k on worker k % count; the values in order.
        If one raises, the calls in flight are waited for, then the first exception raised."""
        tasks = list(tasks)
        values: list[Any] = [None] * len(tasks)
        for k in range(min(len(tasks), self.count)):
            self.submit(k, method, *tasks[k])
        failure: BaseException | None = None
        for k in range(len(tasks)):
            i = k % self.count
            if not self.busy[i]:  # never sent: an earlier task failed
                continue
            try:
                values[k] = self.result(i)
            except Exception as error:
                failure = failure or error
                continue
            if failure is None and k + self.count < len(tasks):
                self.submit(i, method, *tasks[k + self.count])
        if failure is not None:
            raise failure
        return values

    def close(self) -> None:
        """Stop the workers: idle processes leave, busy ones are stopped at once; Ray actors
        are killed and the Ray session closed."""
        if self.closed:
            return
        self.closed = True
        if self.backend == "ray":
            assert self.session is not None
            for actor in self.workers:
                try:
                    self.session.ray.kill(actor)
                except Exception:  # an actor that died already
                    pass
            self.session.close()
        elif self.backend == "local":
            for i, (_, pipe) in enumerate(self.workers):
                if not self.busy[i]:
                    try:
                        pipe.send(None)
                    except OSError:
                        pass
            for i, (process, pipe) in enumerate(self.workers):
                if self.busy[i]:
                    process.terminate()
                process.join(timeout=JOIN_S)
                if process.is_alive():
                    process.kill()
                    process.join()
                pipe.close()
        self.busy = [False] * self.count

"""Shipped weights: package data in `boardlab/models/`, found through `importlib.resources`.

A shipped file is named `<game>-<kind><suffix>` (`GAME-dqn.pt`, `GAME-qlearning.npz`,
`GAME-minimax-dueling-dqn.pt`), beside its training record (`.metrics.csv`, `.curve.png`).
Agents load it when their `weights` setting is empty, so a plain `pip install boardlab` plays
`dqn`, `qlearning` and `alphazero` from any folder. Below them, the one way BoardLab writes
and reads a weights or checkpoint file (`save_payload`, `load_payload`), for agents and
trainers alike, and the thread setting a network agent moves under (`one_torch_thread`).
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from .game import BoardLabError

MODELS = "models"
"""The folder inside the `boardlab` package that holds the shipped weights."""

# Weights inside a zipped install are copied to a temporary file that must outlive the load.
_extracted = ExitStack()
atexit.register(_extracted.close)


@contextmanager
def one_torch_thread() -> Iterator[None]:
    """Torch on one intra-op thread for the block, the caller's setting restored after.

    A move's forwards are batch 1 on a small network: a second thread gains nothing, and when
    the cores are shared (arena workers, a training beside) every op waits for a thread that
    the scheduler has parked. Measured on a 6x5 board with a training on the other core:
    `alphazero` with 0.1 s a move searched 1 simulation in 0.36 s on torch's default of 2
    threads, and about 200 in 0.1 s on one."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def shipped_file(name: str) -> Traversable:
    """`boardlab/models/NAME` as a resource (it may not exist: check `is_file()`)."""
    return resources.files("boardlab") / MODELS / name


def ships_weights(game: str, kind: str, suffix: str) -> bool:
    """Whether `<game>-<kind><suffix>` is shipped with this install."""
    return shipped_file(f"{game}-{kind}{suffix}").is_file()


def shipped_weights(game: str, kind: str, suffix: str, train: str,
                    cannot_train: str | None = None) -> Path:
    """The path of `<game>-<kind><suffix>` shipped with BoardLab.

    `train` is what follows `boardlab train GAME` to make such a file (`dqn --params
    dueling=true`): when BoardLab ships none, the BoardLabError is one line that names it, or,
    where `cannot_train` says why no command can train them for this game, that reason.
    """
    name = f"{game}-{kind}{suffix}"
    resource = shipped_file(name)
    if not resource.is_file():
        missing = f"BoardLab ships no {kind} weights for {game} ({MODELS}/{name} is not installed)"
        if cannot_train:
            raise BoardLabError(f"{missing}, and `boardlab train` cannot make them: "
                                f"{cannot_train}; give weights=FILE or weights=none")
        raise BoardLabError(f"{missing}; train them with `boardlab train {game} {train} "
                            f"--out {name}` and play them as `{kind}:weights={name}`")
    if isinstance(resource, Path):  # an ordinary install: the file itself
        return resource
    return Path(_extracted.enter_context(resources.as_file(resource)))


# --- weights files BoardLab writes -----------------------------------------------------------

def save_payload(path: str | os.PathLike[str], payload: dict) -> int:
    """torch.save to a temporary file renamed over `path`, so a crash never leaves half a
    weights file; returns the bytes written."""
    import torch

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    torch.save(payload, tmp)
    os.replace(tmp, path)
    return path.stat().st_size


def load_payload(path: str | os.PathLike[str], fmt: str, game: str, what: str) -> dict:
    """torch.load(weights_only=True) with one-line BoardLabErrors naming the file."""
    import pickle
    import zipfile

    import torch

    path = Path(path)
    if not path.is_file():
        raise BoardLabError(f"{what} {path} does not exist (train them with "
                            f"`boardlab train {game} ... --out {path}`)")
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except (RuntimeError, EOFError, OSError, ValueError, pickle.UnpicklingError,
            zipfile.BadZipFile, AttributeError, KeyError, IndexError) as error:
        first = (str(error).splitlines() or [""])[0][:160]
        raise BoardLabError(f"{what} {path} cannot be read (truncated, or not a weights file "
                            f"saved by BoardLab): {type(error).__name__}: {first}") from None
    if not isinstance(payload, dict) or payload.get("format") != fmt:
        raise BoardLabError(f"{path} is not a BoardLab {what} file (format {fmt!r} expected)")
    if payload.get("game") != game:
        raise BoardLabError(f"{what} {path} were trained for {payload.get('game')}, not {game}")
    return payload

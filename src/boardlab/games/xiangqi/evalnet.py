"""Xiangqi's evaluation network (the `neural` heuristic): a small network that corrects the
tuned table's value (heuristics.tuned) towards what a deeper search finds.

Input: one feature per piece on the board, seen from the side to move: (its own piece or the
enemy's, piece type 1-7, square), the square as red sees it for red and with the ranks flipped
for black, so that one set of weights serves both sides; 2 x 7 x 90 = 1,260 features. Layers:
the features' rows of `w1` summed with `b1` (an NNUE-style accumulator), clipped to [0, 1];
then `w2`, `b2`, clipped to [0, 1]; then `w3`, `b3`: the correction, in the evaluation's
units (a soldier 10), added to `tuned` for the side to move. `correction` is compiled (numba)
and is what both the Python heuristic and the compiled search call, so their floats agree.

The shipped weights (boardlab/models/xiangqi-eval-net.npz) were fitted by
experiments/xiangqi_eval_net.py to Fairy-Stockfish's depth-8 search values of positions from
our own games (README.md#the-evaluation-network-neural says how and what it measured).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ...core.game import BoardLabError
from ...core.kernelcache import fresh_cache
from ...core.weights import shipped_file
from ..chesslike import npz_fields
from .rules import COLS, SOLDIER, SQUARES

KINDS = SOLDIER
"""Piece types 1-7 (general to soldier)."""
FEATURES = 2 * KINDS * SQUARES
"""Own pieces' features first (type, square), then the enemy's."""
NETWORK_FILE = "xiangqi-eval-net.npz"
NETWORK_FORMAT = "boardlab-eval-network-1"
LAYERS = ("w1", "b1", "w2", "b2", "w3", "b3")


class Network(NamedTuple):
    """The network's weights (float64): w1 (FEATURES, H1), b1 (H1,), w2 (H2, H1), b2 (H2,),
    w3 (H2,), b3 (1,). H1 = 0 is no network (`NO_NETWORK`: a correction of 0)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray


NO_NETWORK = Network(np.zeros((FEATURES, 0)), np.zeros(0), np.zeros((0, 0)), np.zeros(0),
                     np.zeros(0), np.zeros(1))


@njit(cache=True, inline="always")
def feature(cell, square, player):
    """The feature of piece `cell` (> 0 red's) on `square` for `player` to move."""
    if player == 1:
        row = square // COLS
        square = (9 - row) * COLS + square - row * COLS
    own = (cell > 0) == (player == 0)
    return (0 if own else KINDS * SQUARES) + (abs(cell) - 1) * SQUARES + square


@njit(cache=True)
def correction(board, player, network, hidden):
    """The network's output for `player` to move on `board` (0 without a network); `hidden`
    is a buffer of at least H1 floats, so that the call allocates nothing. Recomputed at each
    leaf, it makes the search's leaves dearer (README.md#the-evaluation-network-neural)."""
    width = network.b1.shape[0]
    if width == 0:
        return 0.0
    w1 = network.w1
    for j in range(width):
        hidden[j] = network.b1[j]
    for square in range(board.shape[0]):
        cell = board[square]
        if cell != 0:
            row = feature(cell, square, player)
            for j in range(width):
                hidden[j] += w1[row, j]
    for j in range(width):
        hidden[j] = min(max(hidden[j], 0.0), 1.0)
    out = network.b3[0]
    for k in range(network.b2.shape[0]):
        total = network.b2[k]
        for j in range(width):
            total += network.w2[k, j] * hidden[j]
        out += network.w3[k] * min(max(total, 0.0), 1.0)
    return out


def features(board, player: int) -> list[int]:
    """The active features of `board` for `player` to move (the training's input)."""
    return [int(feature(cell, square, player)) for square, cell in enumerate(board) if cell]


def read_network(path: str | Path) -> Network:
    """A network file's weights; a BoardLabError of one sentence naming the file when it is
    not one."""
    def wrong(reason: str) -> BoardLabError:
        return BoardLabError(f"{path} is not a xiangqi evaluation network ({reason}); make one "
                             f"with experiments/xiangqi_eval_net.py")
    fields = npz_fields(path, ("format", *LAYERS), wrong)
    if str(fields.get("format", "")) != NETWORK_FORMAT:
        raise wrong(f"format {str(fields.get('format', 'missing'))!r}, not {NETWORK_FORMAT!r}")
    missing = [name for name in LAYERS if name not in fields]
    if missing:
        raise wrong(f"no {', '.join(missing)}")
    layers = {name: np.ascontiguousarray(fields[name], dtype=np.float64) for name in LAYERS}
    width, second = layers["b1"].shape[0], layers["b2"].shape[0]
    shapes = {"w1": (FEATURES, width), "b1": (width,), "w2": (second, width),
              "b2": (second,), "w3": (second,), "b3": (1,)}
    for name, shape in shapes.items():
        if layers[name].shape != shape:
            raise wrong(f"{name} of shape {layers[name].shape}, not {shape}")
        if not np.all(np.isfinite(layers[name])):
            raise wrong(f"{name} is not finite")
    return Network(**layers)


def write_network(path: str | Path, network: Network, **record: object) -> None:
    """Save `network` (float32, the precision it was trained in) with `record` (how it was
    made) as strings."""
    arrays: dict[str, Any] = {key: str(value) for key, value in record.items()}
    arrays.update({name: np.asarray(getattr(network, name), dtype=np.float32)
                   for name in LAYERS})
    np.savez(path, format=NETWORK_FORMAT, **arrays)


@functools.cache
def shipped_network() -> Network:
    """The shipped network (boardlab/models/xiangqi-eval-net.npz), read once."""
    resource = shipped_file(NETWORK_FILE)
    if not resource.is_file():
        raise BoardLabError(f"BoardLab ships no xiangqi evaluation network (models/"
                            f"{NETWORK_FILE} is not installed): make one with "
                            f"experiments/xiangqi_eval_net.py and put it there")
    return read_network(str(resource))


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here

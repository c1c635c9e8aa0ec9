"""Xiangqi's evaluation network (the `neural` heuristic): a small network that corrects the
tuned table's value (heuristics.tuned) towards what a deeper search finds.

Input: one feature per piece on the board, seen from the side to move: (its own piece or the
enemy's, piece type 1-7, square), the square as red sees it for red and with the ranks flipped
for black, so that one set of weights serves both sides; 2 x 7 x 90 = 1,260 features. Layers:
the features' rows of `w1` summed with `b1` (the accumulator), clipped to [0, 1]; then `w2`,
`b2`, clipped to [0, 1]; then `w3`, `b3`: the correction, in the evaluation's units (a soldier
10), added to `tuned` for the side to move. A network of two views (`views`) feeds `w2` the
clipped accumulator of the other side's view as well, after the side to move's (NNUE's two
perspectives).

The first layer is computed in integers (`quantise`: w1 and b1 rounded to multiples of
1/SCALE, held as int32), so that its sums are exact in any order: the search keeps the
accumulator of both sides' views per ply and updates it move by move (`advance`: the moved
piece's row out and in, a captured piece's row out), NNUE-style, and it equals the one summed
from the board (`accumulate`) bit for bit, whatever the path to a position. Only the layers
after it run at a leaf (`output`), the second in integers too (the units and w2 rounded to
multiples of 2**-12), which the compiler vectorises. `correction` sums from the board and is
what the Python heuristic calls; the compiled search reads its accumulator with the same
`output`, so their floats agree (tests/games/xiangqi/test_xiangqi_evalnet.py).
README.md#the-accumulator has how far the rounding moves the correction and what the
accumulator saves.

The shipped weights (boardlab/models/xiangqi-eval-net.npz, float32) were fitted by
experiments/xiangqi_eval_net.py to Fairy-Stockfish's depth-8 search values of positions from
our own games and from the engine's games against itself (README.md#the-evaluation-network-neural
says how and what it measured).
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
    """The network's weights (float64, as trained and saved): w1 (FEATURES, H1), b1 (H1,),
    w2 (H2, VIEWS x H1), b2 (H2,), w3 (H2,), b3 (1,), VIEWS 1 or 2 (`views`). The compiled
    code reads it `quantise`d."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray



def views(network: Network | QuantisedNetwork) -> int:
    """How many views of the position the second layer reads: 1, the side to move's
    accumulator; 2, the side to move's and then the other side's (NNUE's two perspectives:
    the search keeps both accumulators anyway, so the second view costs only the second
    layer's extra inputs, not another first layer to update)."""
    width = network.b1.shape[0]
    return network.w2.shape[1] // width if width else 1


SCALE_BITS = 20
"""The first layer's fixed point: w1 and b1 in units of 2**-SCALE_BITS, so rounding moves a
weight by at most 2**-21; the accumulator stays within int32 while b1 plus the 32 largest rows
of a column do (`quantise` checks: the shipped network's reach 18.9, the limit 2,048)."""
SCALE = 1 << SCALE_BITS
UNIT_BITS = 12
"""The second layer's fixed point: a first-layer unit, clipped to [0, 1], in units of
2**-UNIT_BITS (the accumulator rounded to it), and w2 in units of 2**-W2_BITS, so that the
second layer is a sum of integer products, which the compiler vectorises (a sum of floats it
may not reorder): about three times faster than in float64 at 128 units. Its rounding moves
the shipped network's correction by a few hundredths of a unit (README.md#the-accumulator)."""
W2_BITS = 12
SECOND_SCALE = 1 << (UNIT_BITS + W2_BITS)
"""A second-layer sum's unit: 2**-(UNIT_BITS + W2_BITS) (b2 is held in it)."""


class QuantisedNetwork(NamedTuple):
    """A network as the compiled code reads it (`quantise`): w1 (FEATURES, H1) and b1 (H1,)
    int32 in units of 1/SCALE; w2 (H2, VIEWS x H1) int32 in units of 2**-W2_BITS and b2 (H2,)
    int32 in units of 1/SECOND_SCALE; w3 (H2,), b3 (1,) float64 as they were. H1 = 0 is no
    network (`NO_NETWORK`: a correction of 0)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray


def quantise(network: Network) -> QuantisedNetwork:
    """`network` with its first two layers rounded to integers (int32: w1 and b1 of 1/SCALE,
    w2 of 2**-W2_BITS, b2 of 1/SECOND_SCALE); a BoardLabError if a position could overflow
    a layer's int32 sums."""
    w1 = np.rint(np.asarray(network.w1, dtype=np.float64) * SCALE)
    b1 = np.rint(np.asarray(network.b1, dtype=np.float64) * SCALE)
    # At most 32 pieces: b1 and the 32 largest rows of a column bound every accumulator
    # (`advance` works in int64 and stores a position's sum).
    reach = np.abs(b1) + np.sort(np.abs(w1), axis=0)[-32:].sum(axis=0)
    if reach.size and reach.max() >= 2 ** 31:
        raise BoardLabError(f"the network's first layer reaches {reach.max() / SCALE:.1f}, "
                            f"past what int32 holds at a scale of 2**{SCALE_BITS}")
    w2 = np.rint(np.asarray(network.w2, dtype=np.float64) * (1 << W2_BITS))
    b2 = np.rint(np.asarray(network.b2, dtype=np.float64) * SECOND_SCALE)
    # Every unit at most 1 (2**UNIT_BITS): b2 and a row's weights bound every second sum.
    second_reach = np.abs(b2) + np.abs(w2).sum(axis=1) * (1 << UNIT_BITS)
    if second_reach.size and second_reach.max() >= 2 ** 31:
        raise BoardLabError(f"the network's second layer reaches "
                            f"{second_reach.max() / SECOND_SCALE:.1f}, past what int32 holds "
                            f"at a scale of 2**{UNIT_BITS + W2_BITS}")
    return QuantisedNetwork(np.ascontiguousarray(w1, dtype=np.int32),
                            np.ascontiguousarray(b1, dtype=np.int32),
                            np.ascontiguousarray(w2, dtype=np.int32),
                            np.ascontiguousarray(b2, dtype=np.int32),
                            np.ascontiguousarray(network.w3, dtype=np.float64),
                            np.ascontiguousarray(network.b3, dtype=np.float64))


NO_NETWORK = quantise(Network(np.zeros((FEATURES, 0)), np.zeros(0), np.zeros((0, 0)),
                              np.zeros(0), np.zeros(0), np.zeros(1)))


@njit(cache=True, inline="always")
def feature(cell, square, player):
    """The feature of piece `cell` (> 0 red's) on `square` for `player` to move."""
    if player == 1:
        row = square // COLS
        square = (9 - row) * COLS + square - row * COLS
    own = (cell > 0) == (player == 0)
    return (0 if own else KINDS * SQUARES) + (abs(cell) - 1) * SQUARES + square


@njit(cache=True)
def accumulate(board, network, accumulator):
    """Sum the first layer from `board` into accumulator[player] (a (2, H1) int32 array) for
    both players to move: b1 plus the rows of their features."""
    width = network.b1.shape[0]
    w1 = network.w1
    for player in range(2):
        for j in range(width):
            accumulator[player, j] = network.b1[j]
    for square in range(board.shape[0]):
        cell = board[square]
        if cell != 0:
            for player in range(2):
                row = feature(cell, square, player)
                for j in range(width):
                    accumulator[player, j] += w1[row, j]


@njit(cache=True, inline="always")
def advance(network, parent, child, moved, frm, to, captured):
    """The accumulator `child` of the position after piece `moved` went from `frm` to `to`,
    taking `captured` (0: nothing), from `parent`'s, the one before: its rows for both
    players. Integers, so it equals `accumulate` of the new board exactly."""
    w1 = network.w1
    for player in range(2):
        old = feature(moved, frm, player)
        new = feature(moved, to, player)
        if captured != 0:
            gone = feature(captured, to, player)
            for j in range(w1.shape[1]):
                child[player, j] = parent[player, j] - w1[old, j] + w1[new, j] - w1[gone, j]
        else:
            for j in range(w1.shape[1]):
                child[player, j] = parent[player, j] - w1[old, j] + w1[new, j]


@njit(cache=True, inline="always")
def output(accumulator, player, network, units):
    """The network's output for `player` to move from the first layer's sums `accumulator`
    (both players' views, `accumulate`'s (2, H1) layout; 0 without a network): the side to
    move's view, then, for a network of two views (`views`), the other side's. `units`: an
    int32 buffer of at least VIEWS x H1 (`buffer`), so that the call allocates nothing. The
    first two layers are integers (`quantise`), exact in any order; the last is float."""
    width = network.b1.shape[0]
    if width == 0:
        return 0.0
    inputs = network.w2.shape[1]
    shift = SCALE_BITS - UNIT_BITS
    half = 1 << (shift - 1)
    for view in range(inputs // width):
        summed = accumulator[player if view == 0 else 1 - player]
        for j in range(width):  # clipped to [0, 1], rounded to 2**-UNIT_BITS
            units[view * width + j] = min(max((summed[j] + half) >> shift, 0), 1 << UNIT_BITS)
    out = network.b3[0]
    for k in range(network.b2.shape[0]):
        second = network.b2[k]
        for i in range(inputs):
            second += network.w2[k, i] * units[i]
        out += network.w3[k] * min(max(second * (1.0 / SECOND_SCALE), 0.0), 1.0)
    return out


def buffer(network: QuantisedNetwork) -> np.ndarray:
    """The buffer `output` and `correction` work in, for `network`."""
    return np.zeros(max(network.w2.shape[1], 1), dtype=np.int32)


@njit(cache=True)
def correction(board, player, network, units):
    """The network's output for `player` to move on `board` (0 without a network), summed
    from the board (`accumulate`); `units`: as `output`'s. The Python heuristic's; the search
    updates its accumulator instead and gets the same value."""
    summed = np.empty((2, network.b1.shape[0]), dtype=np.int32)
    accumulate(board, network, summed)
    return output(summed, player, network, units)


def features(board, player: int) -> list[int]:
    """The active features of `board` for `player` to move (the training's input)."""
    return [int(feature(cell, square, player)) for square, cell in enumerate(board) if cell]


def _not_a_network(path: str | Path, reason: str) -> BoardLabError:
    """The one sentence that says the file `path` is not a network, and why."""
    return BoardLabError(f"{path} is not a xiangqi evaluation network ({reason}); make one "
                         f"with experiments/xiangqi_eval_net.py")


def read_network(path: str | Path) -> Network:
    """A network file's weights; a BoardLabError of one sentence naming the file when it is
    not one."""
    def wrong(reason: str) -> BoardLabError:
        return _not_a_network(path, reason)
    fields = npz_fields(path, ("format", *LAYERS), wrong)
    if str(fields.get("format", "")) != NETWORK_FORMAT:
        raise wrong(f"format {str(fields.get('format', 'missing'))!r}, not {NETWORK_FORMAT!r}")
    missing = [name for name in LAYERS if name not in fields]
    if missing:
        raise wrong(f"no {', '.join(missing)}")
    layers = {name: np.ascontiguousarray(fields[name], dtype=np.float64) for name in LAYERS}
    width, second = layers["b1"].shape[0], layers["b2"].shape[0]
    two_views = layers["w2"].ndim == 2 and layers["w2"].shape[1] == 2 * width > 0
    shapes = {"w1": (FEATURES, width), "b1": (width,),
              "w2": (second, 2 * width if two_views else width),
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


@functools.lru_cache(maxsize=8)
def _read_quantised(path: str, modified: int) -> QuantisedNetwork:
    return quantise(read_network(path))


def _modified(path: str | Path) -> int:
    """When `path` last changed (0 when it cannot be read: the reader then says why), so that
    a file read once is read again after it changes."""
    try:
        return Path(path).stat().st_mtime_ns
    except OSError:
        return 0


def read_quantised(path: str | Path) -> QuantisedNetwork:
    """The network file `path` as the compiled code reads it (`quantise`), read once while the
    file is unchanged (an agent asks at every game)."""
    return _read_quantised(str(path), _modified(path))


BASES = ("tuned", "tables")
"""What a network corrects (`network_base`): the tuned evaluation (heuristics.tuned), or its
tables alone without the activity term (heuristics.tuned_tables), whose leaves cost the search
no move generation for the side not to move."""


@functools.lru_cache(maxsize=8)
def _network_base(path: str, modified: int) -> str:
    def wrong(reason: str) -> BoardLabError:
        return _not_a_network(path, reason)
    base = str(npz_fields(path, ("base",), wrong).get("base", BASES[0]))
    if base not in BASES:
        raise wrong(f"base {base!r}, not one of {', '.join(BASES)}")
    return base


def network_base(path: str | Path) -> str:
    """What the network in `path` corrects, one of BASES: its `base` field (a file without
    one, as the first ones were written, corrects "tuned"); a BoardLabError of one sentence
    for another. Read once while the file is unchanged, as `read_quantised`."""
    return _network_base(str(path), _modified(path))


@functools.cache
def shipped_base() -> str:
    """What the shipped network corrects (`network_base`)."""
    shipped_network()  # says so when the file is missing
    return network_base(str(shipped_file(NETWORK_FILE)))


@functools.cache
def shipped_quantised() -> QuantisedNetwork:
    """The shipped network as the compiled code reads it (`quantise`), made once."""
    return quantise(shipped_network())


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here

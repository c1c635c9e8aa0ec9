"""Compiled Reversi kernels (numba) for whole hot jobs: random playouts and perft.

docs/design.md#whole-jobs-in-kernels: a numba call costs ~250 ns of dispatch, so a kernel
does a whole job (a
complete random game, a whole perft tree) per call rather than one move. The bit tricks are
those of `bitboard.py` (the readable reference), on np.uint64 so that shifts wrap at 64 bits;
tests/games/reversi/test_reversi_kernels.py checks them against `ReversiState` move by move.

Python-facing wrappers take and return plain ints: `random_playout`, `random_playouts`,
`traced_playout`, `perft`, `legal_move_bits`, `flip_bits`. `array_rules()` gives the rules
over rows of int64 words (core/arrayrules.py) for AlphaZero's compiled search.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ...core.arrayrules import ArrayRules
from ...core.game import TERMINAL
from ...core.kernelcache import fresh_cache
from .rules import BLACK, PASS

if TYPE_CHECKING:
    from .game import ReversiState

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_INNER = np.uint64(0x7E7E7E7E7E7E7E7E)  # not columns a or h: keeps sideways runs from wrapping
_S1, _S7, _S8, _S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S56 = np.uint64(56)
TRACE_LENGTH = 128
"""Room for the longest game (120 plies) in `traced_playout`."""


@njit(cache=True, inline="always")
def _popcount(x):
    # SWAR bit count: numba has no portable popcount intrinsic.
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return (x * _H01) >> _S56


@njit(cache=True, inline="always")
def _moves_along(own, o, empty, s):
    """Placements flanking runs of `o` (already masked) along shift s, both ways."""
    x = (own << s) & o
    x |= (x << s) & o
    x |= (x << s) & o
    x |= (x << s) & o
    x |= (x << s) & o
    x |= (x << s) & o
    y = (own >> s) & o
    y |= (y >> s) & o
    y |= (y >> s) & o
    y |= (y >> s) & o
    y |= (y >> s) & o
    y |= (y >> s) & o
    return ((x << s) | (y >> s)) & empty


@njit(cache=True)
def legal_moves(own, opp):
    """Bitmask (uint64) of the squares where `own` may place a disc."""
    empty = ~(own | opp)
    inner = opp & _INNER
    return (_moves_along(own, inner, empty, _S1) | _moves_along(own, opp, empty, _S8)
            | _moves_along(own, inner, empty, _S7) | _moves_along(own, inner, empty, _S9))


@njit(cache=True, inline="always")
def _flips_along(own, o, move, s):
    run = _ZERO
    x = (move << s) & o
    end = _ZERO
    while x != _ZERO:
        run |= x
        end = x << s
        x = end & o
    flipped = run if (end & own) != _ZERO else _ZERO
    run = _ZERO
    x = (move >> s) & o
    end = _ZERO
    while x != _ZERO:
        run |= x
        end = x >> s
        x = end & o
    if (end & own) != _ZERO:
        flipped |= run
    return flipped


@njit(cache=True)
def flips(own, opp, move):
    """Bitmask of `opp` discs turned over by `own` placing on the single-bit mask `move`."""
    inner = opp & _INNER
    return (_flips_along(own, inner, move, _S1) | _flips_along(own, opp, move, _S8)
            | _flips_along(own, inner, move, _S7) | _flips_along(own, inner, move, _S9))


@njit(cache=True)
def _random_game(black, white, side, trace):
    """Play uniformly random legal moves to the end; return black's discs minus white's.
    If `trace` has room, write each action id (64 = pass) there, -1 after the last."""
    own, opp = (black, white) if side == 0 else (white, black)
    player = side
    n = 0
    while True:
        moves = legal_moves(own, opp)
        if moves == _ZERO:
            if legal_moves(opp, own) == _ZERO:
                break
            if n < trace.shape[0]:
                trace[n] = PASS
        else:
            k = np.random.randint(0, np.int64(_popcount(moves)))
            for _ in range(k):  # drop the k lowest moves, then take the lowest left
                moves &= moves - _ONE
            move = moves & (~moves + _ONE)
            turned = flips(own, opp, move)
            own |= move | turned
            opp ^= turned
            if n < trace.shape[0]:
                trace[n] = np.int64(_popcount(move - _ONE))
        n += 1
        own, opp = opp, own
        player ^= 1
    if player == 0:
        black, white = own, opp
    else:
        black, white = opp, own
    for i in range(n, trace.shape[0]):
        trace[i] = -1
    return np.int64(_popcount(black)) - np.int64(_popcount(white))


@njit(cache=True)
def _seeded_playouts(black, white, side, seed, count, trace):
    np.random.seed(seed)  # numba's own generator: per thread, independent of numpy's
    out = np.empty(count, dtype=np.int64)
    for i in range(count):
        out[i] = _random_game(black, white, side, trace)
    return out


@njit(cache=True)
def _seeded_playout(black, white, side, seed):
    np.random.seed(seed)
    return _random_game(black, white, side, np.empty(0, dtype=np.int64))


@njit(cache=True)
def _perft(own, opp, depth):
    if depth == 0:
        return np.int64(1)
    moves = legal_moves(own, opp)
    if moves == _ZERO:
        if legal_moves(opp, own) == _ZERO:
            return np.int64(0)  # the game ended before `depth`: no leaf down here
        return _perft(opp, own, depth - 1)  # the forced pass counts as a move
    if depth == 1:
        return np.int64(_popcount(moves))  # bulk count at the frontier
    total = np.int64(0)
    while moves != _ZERO:
        move = moves & (~moves + _ONE)
        moves ^= move
        turned = flips(own, opp, move)
        total += _perft(opp ^ turned, own | move | turned, depth - 1)
    return total


# --- Python-facing wrappers: plain ints in and out -------------------------------------------

def _u64(bits: int, what: str) -> np.uint64:
    if not 0 <= bits < 1 << 64:
        raise ValueError(f"{what} = {bits!r} is not a 64-bit bitboard")
    return np.uint64(bits)


def _own_opp(black_bits: int, white_bits: int, side_to_move: int) -> None:
    if black_bits & white_bits:
        raise ValueError("black and white bitboards overlap")
    if side_to_move not in (0, 1):
        raise ValueError(f"side_to_move = {side_to_move!r}; 0 is black, 1 is white")


def random_playout(black_bits: int, white_bits: int, side_to_move: int, seed: int) -> int:
    """Play one uniformly random game to the end from the given position inside one compiled
    call; return the final disc difference, black minus white (> 0: black won). The same
    seed (taken modulo 2**32) gives the same game."""
    if black_bits & white_bits or side_to_move not in (0, 1):
        _own_opp(black_bits, white_bits, side_to_move)  # raises the explanation
    return int(_seeded_playout(_u64(black_bits, "black_bits"), _u64(white_bits, "white_bits"),
                               side_to_move, seed & 0xFFFFFFFF))


def random_playouts(black_bits: int, white_bits: int, side_to_move: int, seed: int,
                    count: int) -> np.ndarray:
    """`count` random games from one position in one call: their final disc differences
    (black minus white) as an int64 array. The first equals `random_playout(..., seed)`."""
    _own_opp(black_bits, white_bits, side_to_move)
    return _seeded_playouts(_u64(black_bits, "black_bits"), _u64(white_bits, "white_bits"),
                            np.int64(side_to_move), np.int64(seed & 0xFFFFFFFF),
                            np.int64(count), np.empty(0, dtype=np.int64))


def traced_playout(black_bits: int, white_bits: int, side_to_move: int,
                   seed: int) -> tuple[int, list[int]]:
    """`random_playout` that also returns the actions it played (64 = pass), for tests."""
    _own_opp(black_bits, white_bits, side_to_move)
    trace = np.empty(TRACE_LENGTH, dtype=np.int64)
    diff = _seeded_playouts(_u64(black_bits, "black_bits"), _u64(white_bits, "white_bits"),
                            np.int64(side_to_move), np.int64(seed & 0xFFFFFFFF),
                            np.int64(1), trace)[0]
    return int(diff), [int(a) for a in trace if a >= 0]


def perft(black_bits: int, white_bits: int, side_to_move: int, depth: int) -> int:
    """Leaves of the move tree `depth` plies deep, a forced pass counting as a move and a game
    that ends sooner contributing nothing. From the start: 4, 12, 56, 244, 1396, ..."""
    _own_opp(black_bits, white_bits, side_to_move)
    if depth < 0:
        raise ValueError(f"perft depth {depth} is negative")
    own, opp = (black_bits, white_bits) if side_to_move == 0 else (white_bits, black_bits)
    return int(_perft(_u64(own, "own"), _u64(opp, "opp"), np.int64(depth)))


def legal_move_bits(own_bits: int, opp_bits: int) -> int:
    """The kernel's legal placements for `own` as a Python int bitmask."""
    return int(legal_moves(_u64(own_bits, "own_bits"), _u64(opp_bits, "opp_bits")))


def flip_bits(own_bits: int, opp_bits: int, square: int) -> int:
    """The kernel's discs turned over by `own` placing on `square`, as a Python int."""
    return int(flips(_u64(own_bits, "own_bits"), _u64(opp_bits, "opp_bits"),
                     np.uint64(1) << np.uint64(square)))


@njit(cache=True)
def _encode_into(own, opp, moves, out):
    """One position's (3, 8, 8) planes: `own`'s discs, `opp`'s, `own`'s placements."""
    for square in range(64):
        bit = _ONE << np.uint64(square)
        row, column = square // 8, square % 8
        out[0, row, column] = 1.0 if own & bit else 0.0
        out[1, row, column] = 1.0 if opp & bit else 0.0
        out[2, row, column] = 1.0 if moves & bit else 0.0


@njit(cache=True)
def _encode_planes(own, opp, over, out):
    for i in range(own.shape[0]):
        moves = _ZERO if over[i] else legal_moves(own[i], opp[i])
        _encode_into(own[i], opp[i], moves, out[i])


def encode_planes(own_bits: list[int], opp_bits: list[int], over: list[bool]) -> np.ndarray:
    """`encode.network_input` for many positions in one call: (N, 3, 8, 8) float32 planes of
    the encoded side's discs, the other side's, and the encoded side's placements."""
    out = np.empty((len(own_bits), 3, 8, 8), dtype=np.float32)
    _encode_planes(np.array(own_bits, dtype=np.uint64), np.array(opp_bits, dtype=np.uint64),
                   np.array(over, dtype=np.bool_), out)
    return out


# --- array rules (core/arrayrules.py): a position as a row of 4 int64 words ---------------------
# row[0] black's discs and row[1] white's (bitboards, their 64 bits read as int64), row[2] the
# player to move or TERMINAL, row[3] the mover's placements (0: it must pass, or it is over).
ROW_WIDTH = 4


@njit(cache=True)
def _settle_row(black, white, player, out):
    """Write the row of `player` to move: its placements, and TERMINAL when neither side can
    place a disc (ReversiState._settle)."""
    own, opp = (black, white) if player == BLACK else (white, black)
    moves = legal_moves(own, opp)
    over = moves == _ZERO and legal_moves(opp, own) == _ZERO
    out[0] = np.int64(black)
    out[1] = np.int64(white)
    out[2] = TERMINAL if over else player
    out[3] = np.int64(moves)


@njit(cache=True)
def row_legal_actions(row, out):
    """The mover's placements ascending, [PASS] when it has none, [] when the game is over."""
    if row[2] == TERMINAL:
        return 0
    moves = np.uint64(row[3])
    if moves == _ZERO:
        out[0] = PASS
        return 1
    n = 0
    while moves != _ZERO:
        move = moves & (~moves + _ONE)
        out[n] = np.int64(_popcount(move - _ONE))
        moves ^= move
        n += 1
    return n


@njit(cache=True)
def row_play(row, action, out):
    """The row after the mover plays `action` (a square, or PASS)."""
    black, white, player = np.uint64(row[0]), np.uint64(row[1]), row[2]
    if action != PASS:
        move = _ONE << np.uint64(action)
        if player == BLACK:
            turned = flips(black, white, move)
            black |= move | turned
            white ^= turned
        else:
            turned = flips(white, black, move)
            white |= move | turned
            black ^= turned
    _settle_row(black, white, player ^ 1, out)


@njit(cache=True)
def row_current_player(row):
    return row[2]


@njit(cache=True)
def row_player0_return(row):
    """+1, -1 or 0 for black by the disc count (at the end of the game)."""
    difference = (np.int64(_popcount(np.uint64(row[0])))
                  - np.int64(_popcount(np.uint64(row[1]))))
    return 1.0 if difference > 0 else (-1.0 if difference < 0 else 0.0)


@njit(cache=True)
def row_encode(row, out):
    """`encode.network_input` for the player to move."""
    black, white = np.uint64(row[0]), np.uint64(row[1])
    own, opp = (black, white) if row[2] == BLACK else (white, black)
    _encode_into(own, opp, np.uint64(row[3]), out)


def _signed(bits: int) -> int:
    """A 64-bit bitboard's bits as an int64."""
    return bits - (1 << 64) if bits >> 63 else bits


def pack_row(state: ReversiState) -> np.ndarray:
    """The row of a Reversi State (its words as `_settle_row` writes them)."""
    return np.array([_signed(state.black), _signed(state.white), state.current_player(),
                     _signed(state.legal_moves_mask())], dtype=np.int64)


@cache
def array_rules() -> ArrayRules:
    """Reversi over rows of ROW_WIDTH words (ReversiGame.array_rules)."""
    return ArrayRules(ROW_WIDTH, pack_row, row_legal_actions, row_play,
                      row_current_player, row_player0_return, row_encode)


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here

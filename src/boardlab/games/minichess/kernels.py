"""Compiled MiniChess jobs (numba): move generation and perft as whole calls.

The same rules as rules.py over its tables as padded numpy arrays (-1 ends a list); tests
compare the two move by move. Boards are int8 arrays of 30 cells.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import rules
from .rules import BISHOP, KING, KNIGHT_, PAWN, QUEEN, ROOK, SQUARES

MAX_MOVES = 128
"""Above any MiniChess position's count (a lone queen has at most 15 moves)."""

RAYS = np.full((SQUARES, 8, 5), -1, dtype=np.int16)
"""RAYS[sq, d]: directions 0-3 orthogonal, 4-7 diagonal, squares nearest first."""
for _sq in range(SQUARES):
    _row, _col = divmod(_sq, rules.COLS)
    for _d, (_dr, _dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1),
                                     (-1, -1), (-1, 1), (1, -1), (1, 1))):
        _r, _c, _k = _row + _dr, _col + _dc, 0
        while 0 <= _r < rules.ROWS and 0 <= _c < rules.COLS:
            RAYS[_sq, _d, _k] = _r * rules.COLS + _c
            _r, _c, _k = _r + _dr, _c + _dc, _k + 1
KNIGHT_STEPS = np.full((SQUARES, 8), -1, dtype=np.int16)
KING_STEPS = np.full((SQUARES, 8), -1, dtype=np.int16)
for _sq in range(SQUARES):
    KNIGHT_STEPS[_sq, :len(rules.KNIGHT_STEPS[_sq])] = rules.KNIGHT_STEPS[_sq]
    KING_STEPS[_sq, :len(rules.KING_STEPS[_sq])] = rules.KING_STEPS[_sq]


@njit(cache=True)
def _moves(board, player, out, rays, knight, king):
    """Fill `out` with (from, to); return (count, whether one of them takes the king)."""
    sign = 1 if player == 0 else -1
    forward = -5 if player == 0 else 5
    n = 0
    takes_king = False
    for sq in range(30):
        cell = board[sq] * sign
        if cell <= 0:
            continue
        if cell == PAWN:
            t = sq + forward
            if 0 <= t < 30:
                if board[t] == 0:
                    out[n, 0] = sq
                    out[n, 1] = t
                    n += 1
                col = sq % 5
                for dc in (-1, 1):
                    if 0 <= col + dc < 5 and board[t + dc] * sign < 0:
                        out[n, 0] = sq
                        out[n, 1] = t + dc
                        n += 1
                        if board[t + dc] * sign == -KING:
                            takes_king = True
        elif cell == KNIGHT_ or cell == KING:
            steps = knight if cell == KNIGHT_ else king
            for k in range(8):
                t = steps[sq, k]
                if t < 0:
                    break
                other = board[t] * sign
                if other <= 0:
                    out[n, 0] = sq
                    out[n, 1] = t
                    n += 1
                    if other == -KING:
                        takes_king = True
        else:
            first = 4 if cell == BISHOP else 0  # directions 4-7 are the diagonals
            last = 4 if cell == ROOK else 8
            for d in range(first, last):
                for k in range(5):
                    t = rays[sq, d, k]
                    if t < 0:
                        break
                    other = board[t] * sign
                    if other <= 0:
                        out[n, 0] = sq
                        out[n, 1] = t
                        n += 1
                        if other == -KING:
                            takes_king = True
                    if other != 0:
                        break
    return n, takes_king


@njit(cache=True)
def _perft(board, player, depth, rays, knight, king):
    if depth == 0:
        return 1
    moves = np.empty((MAX_MOVES, 2), dtype=np.int16)
    n, takes_king = _moves(board, player, moves, rays, knight, king)
    if takes_king:
        return 0  # a final position: a leaf, nothing below it
    if depth == 1:
        return n
    last_row = 0 if player == 0 else 5
    total = 0
    for i in range(n):
        frm = moves[i, 0]
        to = moves[i, 1]
        moved = board[frm]
        captured = board[to]
        if (moved == PAWN or moved == -PAWN) and to // 5 == last_row:
            board[to] = QUEEN if moved > 0 else -QUEEN
        else:
            board[to] = moved
        board[frm] = 0
        total += _perft(board, 1 - player, depth - 1, rays, knight, king)
        board[frm] = moved
        board[to] = captured
    return total


def moves(board: list[int], player: int) -> tuple[list[tuple[int, int]], bool]:
    """The kernel's (from, to) moves and whether one takes the enemy king."""
    array = np.asarray(board, dtype=np.int8)
    out = np.empty((MAX_MOVES, 2), dtype=np.int16)
    n, takes_king = _moves(array, player, out, RAYS, KNIGHT_STEPS, KING_STEPS)
    return [(int(out[i, 0]), int(out[i, 1])) for i in range(n)], bool(takes_king)


def perft(board: list[int], player: int, depth: int) -> int:
    """Leaf count `depth` plies deep, as rules.perft counts it, in one compiled call."""
    array = np.asarray(board, dtype=np.int8)
    return int(_perft(array, player, depth, RAYS, KNIGHT_STEPS, KING_STEPS))

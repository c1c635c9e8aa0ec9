"""Compiled Xiangqi jobs (numba): legal-move generation and perft as whole calls.

The same rules as rules.py, over the same tables turned into padded numpy arrays (-1 ends a
list), so tests can compare the two move by move. Boards are int8 arrays of 90 cells.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import rules
from .rules import ADVISOR, CANNON, CHARIOT, ELEPHANT, GENERAL, HORSE, SOLDIER, SQUARES

MAX_MOVES = 128
"""More than any xiangqi position has (the record is about 110)."""


def _pad(rows: list, width: int, item_shape: tuple[int, ...] = ()) -> np.ndarray:
    table = np.full((len(rows), width, *item_shape), -1, dtype=np.int16)
    for i, items in enumerate(rows):
        for j, item in enumerate(items):
            table[i, j] = item
    return table


RAYS = np.full((SQUARES, 4, 9), -1, dtype=np.int16)
for _sq in range(SQUARES):
    _row, _col = divmod(_sq, rules.COLS)
    # rules.RAYS drops empty rays, so rebuild per direction to keep the 4 slots aligned.
    for _d, (_dr, _dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
        _r, _c, _k = _row + _dr, _col + _dc, 0
        while 0 <= _r < rules.ROWS and 0 <= _c < rules.COLS:
            RAYS[_sq, _d, _k] = _r * rules.COLS + _c
            _r, _c, _k = _r + _dr, _c + _dc, _k + 1
HORSE_MOVES = _pad(rules.HORSE_MOVES, 8, (2,))
HORSE_ATTACKERS = _pad(rules.HORSE_ATTACKERS, 8, (2,))
ELEPHANT_MOVES = _pad(rules.ELEPHANT_MOVES, 4, (2,))
STEPS_ORTHOGONAL = _pad(rules.STEPS_ORTHOGONAL, 4)
STEPS_DIAGONAL = _pad(rules.STEPS_DIAGONAL, 4)
PALACE = np.zeros((2, SQUARES), dtype=np.bool_)
OWN_SIDE = np.zeros((2, SQUARES), dtype=np.bool_)
for _p in (0, 1):
    PALACE[_p, list(rules.PALACE[_p])] = True
    OWN_SIDE[_p, list(rules.OWN_SIDE[_p])] = True


@njit(cache=True)
def _pseudo(board, player, out, rays, horse, elephant, orth, diag, palace, own_side):
    sign = 1 if player == 0 else -1
    n = 0
    for sq in range(90):
        cell = board[sq] * sign
        if cell <= 0:
            continue
        if cell == CHARIOT or cell == CANNON:
            for d in range(4):
                screened = False
                for k in range(9):
                    t = rays[sq, d, k]
                    if t < 0:
                        break
                    other = board[t] * sign
                    if cell == CHARIOT:
                        if other <= 0:
                            out[n, 0] = sq
                            out[n, 1] = t
                            n += 1
                        if other != 0:
                            break
                    elif not screened:
                        if other == 0:
                            out[n, 0] = sq
                            out[n, 1] = t
                            n += 1
                        else:
                            screened = True
                    elif other != 0:
                        if other < 0:
                            out[n, 0] = sq
                            out[n, 1] = t
                            n += 1
                        break
        elif cell == HORSE:
            for k in range(8):
                leg = horse[sq, k, 0]
                if leg < 0:
                    break
                t = horse[sq, k, 1]
                if board[leg] == 0 and board[t] * sign <= 0:
                    out[n, 0] = sq
                    out[n, 1] = t
                    n += 1
        elif cell == SOLDIER:
            t = sq - 9 if player == 0 else sq + 9
            if 0 <= t < 90 and board[t] * sign <= 0:
                out[n, 0] = sq
                out[n, 1] = t
                n += 1
            if not own_side[player, sq]:
                col = sq % 9
                if col > 0 and board[sq - 1] * sign <= 0:
                    out[n, 0] = sq
                    out[n, 1] = sq - 1
                    n += 1
                if col < 8 and board[sq + 1] * sign <= 0:
                    out[n, 0] = sq
                    out[n, 1] = sq + 1
                    n += 1
        elif cell == ELEPHANT:
            for k in range(4):
                eye = elephant[sq, k, 0]
                if eye < 0:
                    break
                t = elephant[sq, k, 1]
                if board[eye] == 0 and own_side[player, t] and board[t] * sign <= 0:
                    out[n, 0] = sq
                    out[n, 1] = t
                    n += 1
        else:  # advisor (diagonal) or general (orthogonal), both kept in the palace
            steps = diag if cell == ADVISOR else orth
            for k in range(4):
                t = steps[sq, k]
                if t < 0:
                    break
                if palace[player, t] and board[t] * sign <= 0:
                    out[n, 0] = sq
                    out[n, 1] = t
                    n += 1
    return n


@njit(cache=True)
def _attacked(board, sq, player, rays, horse_attackers, own_side):
    sign = 1 if player == 0 else -1
    for d in range(4):
        seen_screen = False
        for k in range(9):
            t = rays[sq, d, k]
            if t < 0:
                break
            other = board[t] * sign
            if other == 0:
                continue
            if not seen_screen:
                if other == -CHARIOT or other == -GENERAL:
                    return True
                seen_screen = True
            else:
                if other == -CANNON:
                    return True
                break
    for k in range(8):
        h = horse_attackers[sq, k, 0]
        if h < 0:
            break
        if board[h] * sign == -HORSE and board[horse_attackers[sq, k, 1]] == 0:
            return True
    behind = sq - 9 if player == 0 else sq + 9
    if 0 <= behind < 90 and board[behind] * sign == -SOLDIER:
        return True
    col = sq % 9
    if col > 0 and board[sq - 1] * sign == -SOLDIER and not own_side[1 - player, sq - 1]:
        return True
    if col < 8 and board[sq + 1] * sign == -SOLDIER and not own_side[1 - player, sq + 1]:
        return True
    return False


@njit(cache=True)
def _legal(board, player, out, rays, horse, horse_attackers, elephant, orth, diag, palace,
           own_side):
    pseudo = np.empty((MAX_MOVES, 2), dtype=np.int16)
    count = _pseudo(board, player, pseudo, rays, horse, elephant, orth, diag, palace, own_side)
    king = -1
    target = GENERAL if player == 0 else -GENERAL
    for sq in range(90):
        if board[sq] == target:
            king = sq
            break
    n = 0
    for i in range(count):
        frm = pseudo[i, 0]
        to = pseudo[i, 1]
        moved = board[frm]
        captured = board[to]
        board[to] = moved
        board[frm] = 0
        watched = to if frm == king else king
        if not _attacked(board, watched, player, rays, horse_attackers, own_side):
            out[n, 0] = frm
            out[n, 1] = to
            n += 1
        board[frm] = moved
        board[to] = captured
    return n


@njit(cache=True)
def _perft(board, player, depth, rays, horse, horse_attackers, elephant, orth, diag, palace,
           own_side):
    moves = np.empty((MAX_MOVES, 2), dtype=np.int16)
    n = _legal(board, player, moves, rays, horse, horse_attackers, elephant, orth, diag,
               palace, own_side)
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        frm = moves[i, 0]
        to = moves[i, 1]
        moved = board[frm]
        captured = board[to]
        board[to] = moved
        board[frm] = 0
        total += _perft(board, 1 - player, depth - 1, rays, horse, horse_attackers, elephant,
                        orth, diag, palace, own_side)
        board[frm] = moved
        board[to] = captured
    return total


def legal_moves(board: list[int], player: int) -> list[tuple[int, int]]:
    """The kernel's legal (from, to) moves, in generation order (tests compare as sets)."""
    array = np.asarray(board, dtype=np.int8)
    out = np.empty((MAX_MOVES, 2), dtype=np.int16)
    n = _legal(array, player, out, RAYS, HORSE_MOVES, HORSE_ATTACKERS, ELEPHANT_MOVES,
               STEPS_ORTHOGONAL, STEPS_DIAGONAL, PALACE, OWN_SIDE)
    return [(int(out[i, 0]), int(out[i, 1])) for i in range(n)]


def perft(board: list[int], player: int, depth: int) -> int:
    """Leaf count `depth` plies deep, as rules.perft counts it, in one compiled call."""
    if depth <= 0:
        return 1
    array = np.asarray(board, dtype=np.int8)
    return int(_perft(array, player, depth, RAYS, HORSE_MOVES, HORSE_ATTACKERS, ELEPHANT_MOVES,
                      STEPS_ORTHOGONAL, STEPS_DIAGONAL, PALACE, OWN_SIDE))

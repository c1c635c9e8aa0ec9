"""Reversi's exact end-game solver (numba), for the engine search (search.py's engine mode).

Near the end a Reversi position is not guessed but solved: searched to the end of the game,
its value the final disc difference (SOLVED + difference for a win, -SOLVED + difference for
a loss, 0 for a draw: a win by more is worth more). `solve` is negamax alpha-beta with
principal variation search over bitboards, ordered as end-game solvers are:

- far from the end (more than FASTEST_FIRST_EMPTIES empty squares): the table's move, then
  "fastest first", the move that leaves the opponent fewest replies, ties broken by parity
  and the square's class; solved positions are kept in the transposition table
  (alphabeta.py's, shared with the depth-limited search: an exact value holds at any depth,
  so it is stored as SOLVED_DEPTH deep) from TABLE_EMPTIES empty squares up;
- in the last plies, where ordering must cost nothing: parity first (a move into a quadrant
  with an odd number of empty squares, where the mover is likely to get the last move), then
  corners, the squares the positional table likes, C-squares and X-squares last.

search.py calls it at every node with at most LEAF_SOLVE empty squares, and at the children
of a root the minimax agent asks to solve (`minimax:endgame=N`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.alphabeta import WIN_VALUE
from ...core.kernelcache import fresh_cache
from ..alphabeta import (HASH_MOVE, MAX_PLY, STOPPED, above, count_node, pick, probe, store_node,
                         table_cutoff)
from .heuristics import POSITION_WEIGHTS
from .kernels import _popcount, flips, legal_moves

SOLVED = WIN_VALUE - 64
"""A won end is worth SOLVED + the disc difference (1..64), a lost one -SOLVED + it."""
SOLVED_DEPTH = 127
"""The table depth of a solved position: deeper than any search, so it always cuts off."""
FASTEST_FIRST_EMPTIES = 7
"""Above this many empty squares, moves are ordered by the opponent's replies (a flip and a
move generation per move); at or below, by parity and square class (free)."""
TABLE_EMPTIES = 8
"""From this many empty squares on, solved positions go to the transposition table (below
it a probe, a likely cache miss, costs more than the few nodes it saves)."""

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_MIX1 = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)
_MIX3 = np.uint64(0x94D049BB133111EB)
# The move groups in the last plies, tried in this order: corners, then the squares the table
# likes (edges and the centre), then C-squares, then X-squares.
_GROUPS = [sum(1 << s for s in range(64) if lo <= POSITION_WEIGHTS[s] <= hi)
           for lo, hi in ((100, 100), (-2, 10), (-20, -20), (-50, -50))]
SOLVE_GROUPS = np.array(_GROUPS, dtype=np.uint64)
assert sum(_GROUPS) == (1 << 64) - 1  # every square in exactly one group
SQUARE_CLASS = np.array([3 - next(g for g in range(4) if _GROUPS[g] >> s & 1)
                         for s in range(64)], dtype=np.int64)
"""A square's group as a score: 3 for a corner ... 0 for an X-square."""
QUADRANTS = np.array([0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000,
                      0xF0F0F0F000000000], dtype=np.uint64)
"""The board's four 4x4 quadrants, the regions whose empty squares' parity is counted."""
MAX_MOVES = 40


@njit(cache=True, inline="always")
def table_key(own, opp):
    """Table key of the position with `own` to move (splitmix64 of the two boards). The side's
    colour is not in it: Reversi is the same game for both colours, so (own, opp) has one
    negamax value whoever holds `own` (the plain mode's ply-dependent wins only use the table
    to order moves)."""
    h = own * _MIX1 ^ opp
    h = (h ^ (h >> np.uint64(30))) * _MIX2
    h = (h ^ (h >> np.uint64(27))) * _MIX3
    h ^= h >> np.uint64(31)
    return np.int64(h >> _ONE)  # 63 bits: a non-negative int64


@njit(cache=True, inline="always")
def final_value(own, opp):
    """A finished game's value for the side holding `own`: SOLVED + difference, or 0."""
    diff = np.int64(_popcount(own)) - np.int64(_popcount(opp))
    if diff == 0:
        return 0.0
    return (SOLVED if diff > 0 else -SOLVED) + diff


@njit(cache=True, inline="always")
def odd_quadrants(empty):
    """The union of the quadrants holding an odd number of the `empty` squares."""
    odd = _ZERO
    for q in range(4):
        if _popcount(empty & QUADRANTS[q]) & _ONE:
            odd |= QUADRANTS[q]
    return odd


@njit(cache=True)
def solve(moves, tables, own, opp, alpha, beta, ply):
    """The exact value of the position (`own` to move) within (alpha, beta): exact inside,
    a bound outside (fail-soft). `ply` is the row of the move buffer `moves` this node may use
    (fastest-first ordering sorts there). One self-recursive function."""
    if count_node(tables):
        return 0.0
    mine = legal_moves(own, opp)
    if mine == _ZERO:
        if legal_moves(opp, own) == _ZERO:
            return final_value(own, opp)
        return -solve(moves, tables, opp, own, -beta, -alpha, ply + 1)
    empty = ~(own | opp)
    empties = np.int64(_popcount(empty))
    if empties == 1:  # the last square, and it is ours: the game ends with it
        turned = flips(own, opp, mine)
        return final_value(own | mine | turned, opp ^ turned)
    odd = odd_quadrants(empty)
    best = -np.inf
    if empties <= FASTEST_FIRST_EMPTIES or ply >= MAX_PLY:
        # Parity, then square class; PVS: the first move with the full window.
        first = True
        for half in range(2):
            parity = odd if half == 0 else ~odd
            for group in range(4):
                left = mine & parity & SOLVE_GROUPS[group]
                while left != _ZERO:
                    bit = left & (~left + _ONE)
                    left ^= bit
                    turned = flips(own, opp, bit)
                    child_own, child_opp = opp ^ turned, own | bit | turned
                    if not first:
                        value = -solve(moves, tables, child_own, child_opp, -above(alpha),
                                       -alpha, ply + 1)
                    if first or alpha < value < beta:
                        value = -solve(moves, tables, child_own, child_opp, -beta, -alpha,
                                       ply + 1)
                    first = False
                    if tables.counters[STOPPED]:
                        return 0.0
                    if value > best:
                        best = value
                        if value > alpha:
                            alpha = value
                            if alpha >= beta:
                                return best
        return best
    key = np.int64(0)
    slot = -1
    if empties >= TABLE_EMPTIES:
        key = table_key(own, opp)
        slot = probe(tables, key)
        if table_cutoff(tables, slot, SOLVED_DEPTH, alpha, beta):
            return tables.table[slot].value
    hash_move = tables.table[slot].move if slot >= 0 else -1
    n = 0
    while mine != _ZERO:
        bit = mine & (~mine + _ONE)
        mine ^= bit
        square = np.int64(_popcount(bit - _ONE))
        if square == hash_move:
            score = HASH_MOVE
        else:
            turned = flips(own, opp, bit)
            replies = np.int64(_popcount(legal_moves(opp ^ turned, own | bit | turned)))
            score = ((MAX_MOVES - replies) << 4) + (8 if odd & bit else 0) + \
                SQUARE_CLASS[square]
        moves[ply, n, 0] = square
        moves[ply, n, 2] = score
        n += 1
    alpha0 = alpha
    best_move = -1
    for i in range(n):
        pick(moves, ply, i, n)
        square = moves[ply, i, 0]
        bit = _ONE << np.uint64(square)
        turned = flips(own, opp, bit)
        child_own, child_opp = opp ^ turned, own | bit | turned
        if i > 0:
            value = -solve(moves, tables, child_own, child_opp, -above(alpha), -alpha, ply + 1)
        if i == 0 or alpha < value < beta:
            value = -solve(moves, tables, child_own, child_opp, -beta, -alpha, ply + 1)
        if tables.counters[STOPPED]:
            return 0.0
        if value > best:
            best = value
            best_move = square
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    if empties >= TABLE_EMPTIES:
        store_node(tables, key, SOLVED_DEPTH, best, alpha0, beta, best_move)
    return best


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here

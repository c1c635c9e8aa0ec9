"""Compiled alpha-beta for Reversi (numba): the minimax agent's search in one call per
iteration, and the same search with an engine's tricks.

As xiangqi/search.py and minichess/search.py (over games/alphabeta.py: the transposition
table, killers, history, node budget): negamax alpha-beta with principal variation search,
each node's value from the side to move. A position is two bitboards, the mover's discs and
the opponent's, so a move is made by building the child's pair (nothing to take back). The
rules are kernels.py's: a side with no placement passes (a ply of depth, as the Python search
counts it), and when neither side can move the game is over. Leaves are scored by the
heuristic's compiled twin (`evaluate` below, integers as in heuristics.py, so the values
agree exactly). Move ordering: the table's move, then at interior nodes the move that leaves
the opponent fewest replies ("fastest first"), then squares by the positional table and the
history heuristic.

Two modes, as the other games':
- plain (`compiled_minimax`): the table only orders moves, a finished game is worth
  +-(WIN_VALUE - plies) as agents/evaluation.py's `terminal_value`, so the root's best move
  and value equal the Python agent's with `tt=false` (tests/games/reversi/test_search.py);
- engine (`compiled_quiescence`, `minimax:quiescence=true`): the table also cuts off, and a
  position with at most LEAF_SOLVE empty squares is not guessed but solved to the end of the
  game (endgame.py's solver), so that as iterative deepening goes deeper the end game is
  played perfectly (a root with e empties is solved whole once an iteration reaches depth
  e - LEAF_SOLVE), and a root with at most `endgame` empties (`minimax:endgame=N`) is solved
  whole from iteration SOLVE_ITERATION on (the ones before give a move should the solve run
  out of time). Reversi has no captures: the end game is what stands in for the
  quiet position a quiescence search looks for. A finished game is worth SOLVED + disc
  difference (a win), -SOLVED + difference (a loss) or 0, so a solved line prefers the
  larger margin; the agent stops deepening once the root is decided (|value| > WIN_VALUE /
  2) or solved (`solved`). Of alphabeta.py's pruning, aspiration windows of
  ASPIRATION_WINDOW at the root; late-move reductions (every Reversi move is quiet: a move
  late in the fastest-first order, not where the leaves are solved) are written but off
  (REDUCTIONS); never null-move pruning (NULL_MOVE_PRUNING): a pass is a real move here,
  taken only when no placement is left, and a side forced to give up a corner is the rule,
  not the exception (zugzwang).

The heuristics' numbers travel as arguments (`Weights`), so a tuned weight needs no compile;
the module ends with `fresh_cache(__name__)` (core/kernelcache.py), so that numba's disk cache
notices an edit to kernels.py, alphabeta.py or any other file the search reads.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ...core.alphabeta import WIN_VALUE
from ...core.game import CompiledSearch
from ...core.kernelcache import fresh_cache
from ..alphabeta import (ENGINE, HASH_MOVE, MAX_PLY, ROOT_MOVES, STOPPED, SearchMemory, above,
                         count_node, late_reduction, pick, probe, store_node, table_cutoff,
                         take_value)
from .bitboard import SQUARES
from .endgame import SOLVED as SOLVED  # the engine's values: search.SOLVED + margin
from .endgame import final_value, solve, table_key
from .heuristics import (CORNER_NEIGHBOURS, CORNERS, EDGE_STABLE_WEIGHT, MOBILITY_WEIGHT,
                         POSITION_WEIGHTS, POTENTIAL_MOBILITY_WEIGHT, ROW_SUMS)
from .kernels import _popcount, flips, legal_moves
from .patterns import (INSTANCE_OFFSET, INSTANCES, SCALAR_COLUMN, SCALE, SPAN, STAGES, WIDTH,
                       tuned_compiled_table)
from .rules import PASS

POSITIONAL, DISCS, MOBILITY, TUNED = 0, 1, 2, 3
"""The heuristics this file computes, by code (heuristics.positional_value, disc_difference,
mobility_value, patterns.tuned_value)."""
EVALUATORS = {"positional": POSITIONAL, "discs": DISCS, "mobility": MOBILITY, "tuned": TUNED}
"""The Reversi game's evaluator names (ReversiGame.evaluators, not its aliases) with a compiled
twin."""
MAX_MOVES = 40
"""Room for one position's moves: the most any reachable Othello position has is 33."""
LEAF_SOLVE = 8
"""Engine mode: a position with this many empty squares or fewer is searched to the game's
end."""
FASTEST_FIRST_DEPTH = 3
"""Remaining depth from which moves are ordered by the opponent's replies (a flip and a move
generation per move: worth it only above the last plies)."""
ASPIRATION_WINDOW = 20.0
"""Half the root's aspiration window, in the heuristics' units (a C-square's penalty)."""
SOLVE_ITERATION = 3
"""`minimax:endgame=N`: a root with at most N empty squares is solved from this iteration
(depth) on; the ones before are ordinary searches whose move stands if the solve runs out of
time."""
REDUCTIONS = False
"""Whether the engine search reduces late moves (`minimax:lmr=`): off. Measured on: 4.7x
fewer nodes to depth 10 but another move at 3 of 12 positions, and even at 0.2 s a move
(30-1-29 in 60 games against the search without; docs/speed.md#engine-search-ablation)."""
NULL_MOVE_PRUNING = False
"""Reversi's null-move hook: never (module docstring); `minimax:null_move=` changes nothing."""

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
_NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)
_S1, _S7, _S8, _S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)

CORNER_BITS = np.array([1 << c for c in CORNERS], dtype=np.uint64)
NEAR_CORNER = np.array(CORNER_NEIGHBOURS, dtype=np.uint64)
EDGE_STARTS = np.array([0, 0, 7, 7, 56, 56, 63, 63], dtype=np.int64)
EDGE_STEPS = np.array([1, 8, -1, 8, 1, -8, -1, -8], dtype=np.int64)
"""heuristics.EDGE_RAYS, split into two arrays for numba."""
ORDER_RANK = np.array([w + 64 for w in POSITION_WEIGHTS], dtype=np.int64)
"""A square's static ordering score: its table weight, made positive (corners first)."""


class Weights(NamedTuple):
    """heuristics.py's numbers, handed to the kernels as arguments: numba would freeze
    globals into its cached code (module docstring)."""

    rows: np.ndarray
    """rows[row, byte]: heuristics.ROW_SUMS, the positional table's sum over that row's
    squares set in `byte`: a bitboard's table value is eight look-ups."""
    terms: np.ndarray
    """The `mobility` heuristic's weights: per move, per potential move, per anchored disc."""
    patterns: np.ndarray
    """`tuned`: patterns.compiled_table, (STAGES, WIDTH) int64; a stand-in for the others."""
    reading: "PatternReading"


class PatternReading(NamedTuple):
    """Where search.py reads patterns.INSTANCES from (`pattern_reading`): a row or a column
    is a byte of the board (or of its transpose), a diagonal a byte gathered by one
    multiplication, and a byte's base-3 value one look-up; the rest square by square. A
    table the same under the pattern's own symmetries (patterns.CANONICAL) lets any of its
    readings stand for the one patterns.py writes."""

    ternary: np.ndarray
    """ternary[byte]: the byte's bits as base-3 digits (bit i worth 3**i)."""
    row_offsets: np.ndarray
    """The first column of the kind of pattern of each row (or column, by symmetry); -1: none."""
    diagonal_masks: np.ndarray
    diagonal_shifts: np.ndarray
    diagonal_offsets: np.ndarray
    """Each diagonal instance's squares, its lowest file and its kind's first column."""
    squares: np.ndarray
    lengths: np.ndarray
    offsets: np.ndarray
    """The other instances' squares in reading order (padded), lengths and first columns."""
    columns: np.ndarray
    """Room for one position's columns (a leaf allocates nothing)."""


def pattern_reading() -> PatternReading:
    """patterns.INSTANCES sorted into rows, columns, diagonals and the rest (the corners)."""
    ternary = np.array([sum(3 ** i for i in range(8) if byte >> i & 1) for byte in range(256)],
                       dtype=np.int64)
    row_offsets = np.full(8, -1, dtype=np.int64)
    column_offsets = np.full(8, -1, dtype=np.int64)
    masks, shifts, diagonal_offsets, others = [], [], [], []
    for instance, offset in zip(INSTANCES, INSTANCE_OFFSET):
        rows = {square // 8 for square in instance}
        files = sorted(square % 8 for square in instance)
        if len(rows) == 1 and len(instance) == 8:
            row_offsets[rows.pop()] = offset
        elif len(set(files)) == 1 and len(instance) == 8:
            column_offsets[files[0]] = offset
        elif len(rows) == len(instance) == len(set(files)) and \
                files == list(range(files[0], files[0] + len(files))):
            masks.append(sum(1 << square for square in instance))
            shifts.append(files[0])
            diagonal_offsets.append(offset)
        else:
            others.append((instance, offset))
    # The transposed board's rows are the columns: the same kinds, found by symmetry.
    assert np.array_equal(row_offsets, column_offsets) and (row_offsets >= 0).all()
    squares = np.zeros((len(others), max(len(i) for i, _ in others)), dtype=np.int64)
    for i, (instance, _) in enumerate(others):
        squares[i, :len(instance)] = instance
    return PatternReading(ternary, row_offsets, np.array(masks, dtype=np.uint64),
                          np.array(shifts, dtype=np.uint64),
                          np.array(diagonal_offsets, dtype=np.int64), squares,
                          np.array([len(i) for i, _ in others], dtype=np.int64),
                          np.array([offset for _, offset in others], dtype=np.int64),
                          np.zeros(len(INSTANCES), dtype=np.int64))


def heuristic_weights(evaluator: int = MOBILITY) -> Weights:
    """The numbers of the heuristic `evaluator` (the pattern tables read only for TUNED)."""
    # Stage by stage for a column: the two stages a position blends share a cache line.
    table = tuned_compiled_table() if evaluator == TUNED else np.zeros((2, WIDTH), np.int32)
    table = np.ascontiguousarray(table.T)
    return Weights(np.array(ROW_SUMS, dtype=np.int64),
                   np.array([MOBILITY_WEIGHT, POTENTIAL_MOBILITY_WEIGHT, EDGE_STABLE_WEIGHT],
                            dtype=np.int64),
                   table, pattern_reading())


# --- positions ----------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _lowest(bits):
    """Index of the lowest set bit of a non-zero bitboard."""
    return np.int64(_popcount((bits & (~bits + _ONE)) - _ONE))


@njit(cache=True, inline="always")
def _finished(own, opp, plies, engine):
    """A finished game's value for the side holding `own`: terminal_value's +-(WIN_VALUE -
    plies) in plain mode, the margin-aware SOLVED + difference in engine mode."""
    if engine:
        return final_value(own, opp)
    diff = np.int64(_popcount(own)) - np.int64(_popcount(opp))
    if diff == 0:
        return 0.0
    return WIN_VALUE - plies if diff > 0 else -(WIN_VALUE - plies)


# --- the heuristics, compiled ------------------------------------------------------------------

@njit(cache=True, inline="always")
def _weight_sum(bits, rows):
    total = np.int64(0)
    for row in range(8):
        total += rows[row, np.int64((bits >> np.uint64(8 * row)) & np.uint64(0xFF))]
    return total


@njit(cache=True, inline="always")
def _neighbours(bits):
    east = ((bits << _S1) | (bits << _S9) | (bits >> _S7)) & _NOT_A
    west = ((bits >> _S1) | (bits >> _S9) | (bits << _S7)) & _NOT_H
    return east | west | (bits << _S8) | (bits >> _S8)


@njit(cache=True)
def _edge_anchored(bits):
    stable = _ZERO
    for ray in range(8):
        square = EDGE_STARTS[ray]
        for _ in range(8):
            bit = _ONE << np.uint64(square)
            if bits & bit == _ZERO:
                break
            stable |= bit
            square += EDGE_STEPS[ray]
    return stable


@njit(cache=True)
def _side_score(own, opp, own_moves, unsettled, weights):
    """heuristics.side_score, with the side's moves and the unsettled mask computed once."""
    empty = ~(own | opp)
    terms = weights.terms
    return (_weight_sum(own & unsettled, weights.rows)
            + terms[0] * np.int64(_popcount(own_moves))
            + terms[1] * np.int64(_popcount(_neighbours(opp) & empty))
            + terms[2] * np.int64(_popcount(_edge_anchored(own))))


@njit(cache=True, inline="always")
def _transposed(bits):
    """The board flipped about the a1-h8 diagonal (three delta swaps): columns become rows."""
    t = np.uint64(0x0F0F0F0F00000000) & (bits ^ (bits << np.uint64(28)))
    bits ^= t ^ (t >> np.uint64(28))
    t = np.uint64(0x3333000033330000) & (bits ^ (bits << np.uint64(14)))
    bits ^= t ^ (t >> np.uint64(14))
    t = np.uint64(0x5500550055005500) & (bits ^ (bits << _S7))
    bits ^= t ^ (t >> _S7)
    return bits


@njit(cache=True)
def _pattern_columns(own, opp, reading, columns):
    """Fills `columns` with each instance's column (its kind's first column plus its base-3
    number): the same entries patterns.pattern_columns reads, in another order."""
    ternary = reading.ternary
    n = 0
    own_t, opp_t = _transposed(own), _transposed(opp)
    for row in range(8):
        shift = np.uint64(8 * row)
        offset = reading.row_offsets[row]
        columns[n] = offset + ternary[(own >> shift) & np.uint64(0xFF)] \
            + 2 * ternary[(opp >> shift) & np.uint64(0xFF)]
        columns[n + 1] = offset + ternary[(own_t >> shift) & np.uint64(0xFF)] \
            + 2 * ternary[(opp_t >> shift) & np.uint64(0xFF)]
        n += 2
    gather = np.uint64(0x0101010101010101)
    for i in range(reading.diagonal_masks.shape[0]):
        mask = reading.diagonal_masks[i]
        # One square a file: the product's top byte holds the diagonal by file.
        own_byte = (((own & mask) * gather) >> np.uint64(56)) >> reading.diagonal_shifts[i]
        opp_byte = (((opp & mask) * gather) >> np.uint64(56)) >> reading.diagonal_shifts[i]
        columns[n] = reading.diagonal_offsets[i] + ternary[own_byte] + 2 * ternary[opp_byte]
        n += 1
    for i in range(reading.lengths.shape[0]):
        index = np.int64(0)
        for j in range(reading.lengths[i] - 1, -1, -1):
            square = np.uint64(reading.squares[i, j])
            index = (index * 3 + np.int64((own >> square) & _ONE)
                     + 2 * np.int64((opp >> square) & _ONE))
        columns[n] = reading.offsets[i] + index
        n += 1
    return n


@njit(cache=True)
def _pattern_value(own, opp, own_moves, weights):
    """patterns.table_value: each anchor stage's integer sum over the instances' entries and
    the counts, blended, in points."""
    discs = np.int64(_popcount(own | opp))
    stage, share = divmod((discs - 4) * (STAGES - 1), SPAN)
    if stage >= STAGES - 1:
        stage, share = np.int64(STAGES - 2), np.int64(SPAN)
    table = weights.patterns
    columns = weights.reading.columns
    low = np.int64(0)
    high = np.int64(0)
    for i in range(_pattern_columns(own, opp, weights.reading, columns)):
        low += table[columns[i], stage]
        high += table[columns[i], stage + 1]
    empty = ~(own | opp)
    amounts = (np.int64(_popcount(own_moves)) - np.int64(_popcount(legal_moves(opp, own))),
               np.int64(_popcount(_neighbours(opp) & empty))
               - np.int64(_popcount(_neighbours(own) & empty)),
               np.int64(1))
    for i in range(3):
        low += amounts[i] * table[SCALAR_COLUMN + i, stage]
        high += amounts[i] * table[SCALAR_COLUMN + i, stage + 1]
    return ((SPAN - share) * low + share * high) / (SPAN * SCALE)


@njit(cache=True)
def evaluate(own, opp, own_moves, evaluator, weights):
    """The heuristic `evaluator` for the side holding `own` (to move, with `own_moves`):
    exactly heuristics.positional_value, disc_difference, mobility_value or
    patterns.tuned_value, as a float."""
    if evaluator == TUNED:
        return _pattern_value(own, opp, own_moves, weights)
    if evaluator == POSITIONAL:
        return float(_weight_sum(own, weights.rows) - _weight_sum(opp, weights.rows))
    if evaluator == DISCS:
        return float(np.int64(_popcount(own)) - np.int64(_popcount(opp)))
    unsettled = _FULL
    occupied = own | opp
    for c in range(4):
        if occupied & CORNER_BITS[c]:
            unsettled &= ~NEAR_CORNER[c]
    opp_moves = legal_moves(opp, own)
    return float(_side_score(own, opp, own_moves, unsettled, weights)
                 - _side_score(opp, own, opp_moves, unsettled, weights))


# --- the search --------------------------------------------------------------------------------

@njit(cache=True)
def _order(own, opp, moves, ply, n, slot, tables, depth):
    """Ordering scores for moves[ply, :n]: the table's move; then, `depth` plies from the
    leaves or more, fewer opponent replies first; then the square's table weight and its
    history."""
    hash_move = tables.table[slot].move if slot >= 0 else -1
    history = tables.history
    for i in range(n):
        square = moves[ply, i, 0]
        if square == hash_move:
            moves[ply, i, 2] = HASH_MOVE
            continue
        score = (ORDER_RANK[square] << 20) + min(history[square], (1 << 20) - 1)
        if depth >= FASTEST_FIRST_DEPTH:
            bit = _ONE << np.uint64(square)
            turned = flips(own, opp, bit)
            replies = np.int64(_popcount(legal_moves(opp ^ turned, own | bit | turned)))
            score += (MAX_MOVES - replies) << 28
        moves[ply, i, 2] = score


@njit(cache=True, nogil=True)
def _node(moves, tables, weights, own, opp, plies, depth, alpha, beta, ply, evaluator, mode,
          solve_from):
    """The value for the side holding `own` (to move) searched `depth` plies deep within
    (alpha, beta): exact inside, a bound outside. At ply 0 the moves are the caller's (the
    root's actions, 64 = pass), in its order. `plies` is the game's ply count (plain mode's
    wins count it). `mode`: alphabeta.py's bits (0: the plain search; NULL is never read);
    in engine mode a position with at most `solve_from` empty squares is solved exactly.
    One self-recursive function: numba's cache reloads mutually recursive ones wrongly.
    Releases the GIL, so that the timer of `SearchMemory.stop_at` can stop it."""
    if count_node(tables):
        return 0.0
    engine = (mode & ENGINE) != 0
    if ply == 0:
        n = tables.counters[ROOT_MOVES]
        key = table_key(own, opp)
        slot = probe(tables, key)
    else:
        mine = legal_moves(own, opp)
        if mine == _ZERO and legal_moves(opp, own) == _ZERO:
            return _finished(own, opp, plies, engine)
        if engine and 64 - np.int64(_popcount(own | opp)) <= solve_from:
            return solve(moves, tables, own, opp, alpha, beta, ply)
        if depth <= 0 or ply >= MAX_PLY:
            return evaluate(own, opp, mine, evaluator, weights)
        # The table only past the leaves: a probe is a likely cache miss.
        key = table_key(own, opp)
        slot = probe(tables, key)
        if engine and table_cutoff(tables, slot, depth, alpha, beta):
            return tables.table[slot].value
        if mine == _ZERO:
            # A forced pass: a ply of its own, as in the Python search and the rules.
            return -_node(moves, tables, weights, opp, own, plies + 1, depth - 1, -beta,
                          -alpha, ply + 1, evaluator, mode, solve_from)
        n = 0
        while mine != _ZERO:
            moves[ply, n, 0] = _lowest(mine)
            mine &= mine - _ONE
            n += 1
        _order(own, opp, moves, ply, n, slot, tables, depth)
    alpha0 = alpha
    best = -np.inf
    best_move = -1
    # Late-move reductions below the root, and only where the leaves are not solved: a
    # reduction there would make an exact value a guess.
    reducing = ply > 0 and 64 - np.int64(_popcount(own | opp)) - depth > solve_from
    for i in range(n):
        if ply > 0:
            pick(moves, ply, i, n)
        square = moves[ply, i, 0]
        if square == PASS:
            child_own, child_opp = opp, own
        else:
            bit = _ONE << np.uint64(square)
            turned = flips(own, opp, bit)
            child_own, child_opp = opp ^ turned, own | bit | turned
        # PVS: the first move with the full window; the others with a null window (a late
        # one reduced first), and again in full when they beat alpha.
        if i > 0:
            reduction = late_reduction(mode, depth, i, 0) if reducing else 0
            value = -_node(moves, tables, weights, child_own, child_opp, plies + 1,
                           depth - 1 - reduction, -above(alpha), -alpha, ply + 1, evaluator,
                           mode, solve_from)
            if reduction > 0 and value > alpha and not tables.counters[STOPPED]:
                value = -_node(moves, tables, weights, child_own, child_opp, plies + 1,
                               depth - 1, -above(alpha), -alpha, ply + 1, evaluator, mode,
                               solve_from)
        if i == 0 or alpha < value < beta:
            value = -_node(moves, tables, weights, child_own, child_opp, plies + 1,
                           depth - 1, -beta, -alpha, ply + 1, evaluator, mode, solve_from)
        if tables.counters[STOPPED]:
            return 0.0
        best, best_move, alpha, cut = take_value(tables, ply, i, square, value, best,
                                                 best_move, alpha, beta, depth, True)
        if cut:
            break
    store_node(tables, key, depth, best, alpha0, beta, best_move)
    return best


class ReversiSearch(SearchMemory):
    """The compiled search as the minimax agent calls it (`Game.compiled_minimax`)."""

    window = ASPIRATION_WINDOW
    reductions = REDUCTIONS

    def __init__(self, evaluator: int, engine: bool) -> None:
        super().__init__(SQUARES, MAX_MOVES, engine)
        self.evaluator = evaluator
        self.weights = heuristic_weights(evaluator)

    def __call__(self, state, root_actions: list[int], depth: int, player: int,
                 max_nodes: int) -> tuple[int, float, int, bool]:
        """(index of the best of `root_actions`, its value for `player`, nodes, completed)."""
        mover = state.player
        self.start(state.key(), depth, max_nodes, [(action, 0) for action in root_actions])
        own, opp = np.uint64(state.discs(mover)), np.uint64(state.discs(1 - mover))
        empties = 64 - (int(own) | int(opp)).bit_count()
        solve_from = LEAF_SOLVE
        if self.quiescence and empties <= self.endgame and depth >= SOLVE_ITERATION:
            solve_from = empties  # the root's children solved: the root is
        self.solved = self.quiescence and empties <= solve_from

        def window_search(alpha: float, beta: float) -> float:
            # As the Python root (plain mode, full window): each move with (best so far,
            # +inf), the first strictly better.
            return _node(self.moves, self.tables, self.weights, own, opp,
                         np.int64(state.plies), np.int64(depth), alpha, beta, 0,
                         self.evaluator, np.int64(self.mode), np.int64(solve_from))
        return self.result(float(self.search(window_search)), player != mover)


def compiled_minimax(evaluator: str) -> CompiledSearch | None:
    """The numba alpha-beta with the Python minimax agent's values (`tt=false`) for the
    Reversi heuristic named `evaluator`, or None if it has no compiled twin here."""
    code = EVALUATORS.get(evaluator)
    return None if code is None else ReversiSearch(code, engine=False)


def compiled_quiescence(evaluator: str) -> CompiledSearch | None:
    """The engine-mode search (table cutoffs, end games solved at the leaves) for the
    heuristic named `evaluator`, or None; its values are its own (module docstring)."""
    code = EVALUATORS.get(evaluator)
    return None if code is None else ReversiSearch(code, engine=True)


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here

"""Compiled alpha-beta for Xiangqi (numba): the minimax agent's search in one call per
iteration, and the same search with an engine's tricks.

The search is negamax (each node's value from the side to move, so the root's is the Python
`MinimaxAgent`'s value for the root player) with alpha-beta and principal variation search:
the first move of a node gets the full window, the others a null window that only asks
"better than alpha?" and are searched again in full when they are. The rules are those of
kernels.py, played in place with make/unmake; a node ends the game as `XiangqiState.apply`
does: no legal move loses, then a threefold repetition (perpetual check loses), then the ply
cap draws. Leaves are scored by a table per heuristic, carried in `Line` (`heuristics.
material_and_position`, material plus hand-set piece-square bonuses, or `heuristics.tuned`, the
tables Texel's method fitted), plus, for `tuned`, its endgame table blended in by the phase
(`_blend`) and its activity term (`activity`: pseudo-legal moves by piece type and into the
enemy palace), and, for `neural`, the evaluation network's correction (evalnet.py,
`Line.network`): its first layer, in integers, is kept per ply in `Line.accumulators` and
updated as moves are made (`_play_accumulator`, `_pass_accumulator` for a null move), and a
leaf runs only the layers after it (`_correction`); all summed in the same order as the
Python heuristics so the floats agree. Move ordering (alphabeta.py): the transposition
table's move, captures by MVV-LVA, killers, history.

Two modes:
- plain (`quiescence=False`): the table only orders moves, so every node's value is the
  minimax value and the root's best move and value equal the Python agent's with `tt=false`
  (tests/games/xiangqi/test_xiangqi_search.py);
- engine (`quiescence=True`): at depth 0 a quiescence search plays captures (all moves when
  in check) until the position is quiet, a move that gives check is searched one ply deeper,
  a repeated position is judged at its second occurrence (the cycle's verdict, reached one
  cycle earlier), and the table also cuts off: stronger, and its values differ from the
  plain search. With alphabeta.py's pruning, each a minimax setting: null-move pruning,
  never in check nor for a side without a chariot, horse or cannon (`null_move_allowed`:
  there zugzwang is common, and a side without a move loses); late-move reductions of quiet
  moves (log-shaped, `log_lmr`: on here, as measured), never in check nor for a move that
  gives check; futility pruning (`shallow_scout`:
  a scout node up to 3 plies from the leaves, not in check, cuts when its evaluation is
  FUTILITY_MARGIN a ply above beta, and tries no quiet move that gives no check when it is
  that far below alpha) and late-move pruning (`late_move_count`), as in MiniChess, with
  delta pruning in the quiescence search (a capture after which even standing pat stays at
  or below alpha is not tried, unless it gives check: the table's sum makes its gain exact,
  though not the activity term's change, which it leaves out);
  static exchange pruning (`see`, off by default: a capture by a piece worth more than its
  victim, onto a square the opponent attacks, is not tried); the quiescence search in the
  transposition table (`quiet_table`, off by default). No aspiration windows
  (ASPIRATION_WINDOW: they measured worse here). A capture that gives material away (a piece
  worth more than its victim, onto a square the other side attacks: `_hangs`) is ordered after
  the killers (`late_losses`, off), and like every capture never reduced nor pruned; checks may
  be extended only when they do not give the checking piece away (`safe_checks`, off).
  docs/speed.md has the measurements.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ...core.alphabeta import WIN_VALUE
from ...core.kernelcache import fresh_cache
from ..alphabeta import (AFTER_NULL, DEEP_PRUNE, ENGINE, FIRST_QUIET, FUTILE, HASH_MOVE, KILLER,
                         LATE_LOSSES, LOSING_CAPTURE, MAX_PLY, QUIET_CHECKS, QUIET_TABLE,
                         ROOT_MOVES, SAFE_CHECKS, SEE, STOPPED, SearchMemory, above, below,
                         count_node, deep_pruning, evaluate, improving, keeps_sorting,
                         late_reduction, null_move_worth, null_reduction, pick, probe,
                         prunes_quiet, punish_quiets, reduces, score_moves, scout_pruning,
                         shallow_scout, store_node, table_cutoff, table_static, take_value)
from ..chesslike import piece_square_parameters, signed_table
from .actions import ACTION_FROM, ACTION_TO
from .evalnet import NO_NETWORK, QuantisedNetwork, accumulate, advance, buffer, output
from .heuristics import PHASE_MAX, PHASE_WEIGHTS, PIECE_SQUARE, PIECE_VALUES, ZONE
from .kernels import (DRAW, MAX_MOVES, ONGOING, PALACE, SIDE_KEY, _attacked, _has_legal,
                      _pseudo, attacked_square, general_square, history_keys, history_rows,
                      in_check, is_safe, next_key, play, repetition, take_back)
from .rules import CANNON, CHARIOT, COLS, HORSE, ROWS, SQUARES

EVALUATION = signed_table(piece_square_parameters(PIECE_VALUES, PIECE_SQUARE, SQUARES), ROWS,
                          COLS)
"""EVALUATION[cell + 7, sq]: what a piece adds to red's material_and_position score (the
`positional` search's `Line.evaluation`)."""
PHASE_WEIGHTS_ARRAY = np.array(PHASE_WEIGHTS, dtype=np.int64)
PIECE_VALUES_ARRAY = np.array(PIECE_VALUES, dtype=np.float64)
"""PIECE_VALUES as a numba global (static exchange pruning compares the taker and the
victim)."""
ORDER_VALUES = np.array((0, 200, 20, 20, 40, 90, 45, 10), dtype=np.int64)
"""Piece worth for MVV-LVA; the general attacks last (it is the piece most at risk)."""
FUTILITY_MARGIN = 20.0
"""Futility pruning's margin per ply (alphabeta.py `shallow_scout`): two soldiers (PIECE_VALUES:
with one, the piece-square bonuses moved a value of tests/search/test_pruning.py's tactical
positions at depth 3)."""
ASPIRATION_WINDOW = 0.0
"""Half the root's aspiration window; 0: none. Measured with a soldier (10.0): 1% more nodes
to depth 6, and 4-6-10 in 20 games at 0.2 s a move against the same search without
(docs/speed.md#engine-search-ablation)."""


class Line(NamedTuple):
    """The searched game as it stands: the board, the positions since the last capture before
    the root and then along the searched line (Zobrist keys), whether each move into them
    gave check, and the move buffer (moves[ply, i] = from, to, ordering score; the root's
    moves in moves[0]); the leaves' evaluation table (EVALUATION's layout), the endgame table
    the phase blends with it (`_blend`; an empty array: the one table alone) and activity
    weights (`activity`; an empty array: none), and the buffers `activity` counts in (its
    own: a node's moves are in moves[ply] when it is evaluated); the evaluation network that
    corrects the leaves' value (evalnet.py, quantised; NO_NETWORK: none), its buffer
    (evalnet.py `buffer`), and its first layer's sums per ply (accumulators[ply]: evalnet.py
    `accumulate`'s of the board at that ply, updated move by move: `_play_accumulator`,
    `_pass_accumulator`)."""

    board: np.ndarray
    keys: np.ndarray
    checks: np.ndarray
    moves: np.ndarray
    evaluation: np.ndarray
    endgame: np.ndarray
    activity: np.ndarray
    scratch: np.ndarray
    counts: np.ndarray
    network: QuantisedNetwork = NO_NETWORK
    units: np.ndarray = np.zeros(1, dtype=np.int32)
    accumulators: np.ndarray = np.zeros((1, 2, 0), dtype=np.int32)


@njit(cache=True)
def activity(board, weights, scratch, counts):
    """Red's activity minus black's (heuristics.activity, the same sum in the same order).
    Per side, its pseudo-legal moves (`_pseudo`, into `scratch`, a (MAX_MOVES, 3) buffer) are
    counted by the type of the moving piece (counts[side, 1-7]) and by whether they land in
    the enemy palace (counts[side, ZONE]); then weights[k] * (red's count - black's) is added
    for k = 1..ZONE in order. Counting integers first makes the float sum independent of the
    order moves are generated in; the caller's buffers make the call allocate nothing."""
    return _activity(board, weights, scratch, counts, -1, scratch, 0)


@njit(cache=True, inline="always")
def _activity(board, weights, scratch, counts, known_side, known_moves, known_n):
    """`activity`, with the pseudo-legal moves of `known_side` already in known_moves[:known_n]
    (-1: neither side's): the quiescence search has generated the side to move's, so only the
    other side's are generated here."""
    for side in range(2):
        for k in range(ZONE + 1):
            counts[side, k] = 0
        listed = known_moves
        n = known_n
        if side != known_side:
            listed = scratch
            n = _pseudo(board, side, scratch)
        for i in range(n):
            counts[side, abs(board[listed[i, 0]])] += 1
            if PALACE[1 - side, listed[i, 1]]:
                counts[side, ZONE] += 1
    score = 0.0
    for k in range(1, ZONE + 1):
        score += weights[k] * (counts[0, k] - counts[1, k])
    return score


@njit(cache=True, inline="always")
def _static(line, player, ply):
    """The leaves' value for `player` at `ply`: the piece-square sum (the two tables blended
    by the phase where the evaluation has an endgame table), plus the activity term when the
    evaluation has one, plus the network's correction (`_correction`)."""
    return _static_after(line, player, line.scratch, -1, ply)


@njit(cache=True, inline="always")
def _static_after(line, player, moves, n, ply):
    """`_static`, with the pseudo-legal moves of `player` already in moves[:n] (n = -1: not
    generated)."""
    if line.endgame.shape[0] == 0:
        value = evaluate(line.board, line.evaluation, player)
    else:
        early, late, weight = _table_parts(line)
        value = _blend(early, late, weight, player)
    value = value + _activity_for(line, player, moves, n)
    return value + _correction(line, player, ply)


@njit(cache=True, inline="always")
def _node_static(line, tables, slot, player, n, ply, mode):
    """The static value the pruning rules of a node at `ply` read, its own pseudo-legal moves
    in line.moves[ply, :n]: `_static_after`, bounded by the node's table entry in `slot` where
    the engine asks (alphabeta.py `table_static`)."""
    return table_static(mode, tables, slot, _static_after(line, player, line.moves[ply], n, ply))


@njit(cache=True, inline="always")
def _correction(line, player, ply):
    """The network's correction for `player` to move at `ply`, from that ply's accumulator:
    only the layers after the first run here (evalnet.py `output`, what `correction` ends
    with, so the value is the Python heuristic's)."""
    return output(line.accumulators[ply], player, line.network, line.units)


@njit(cache=True, inline="always")
def _play_accumulator(line, ply, moved, frm, to, captured):
    """The accumulator of ply + 1 after `moved` went from `frm` to `to` taking `captured`,
    from ply's (nothing without a network). Done once a child is sure to be searched: the
    moves only tried (is it legal, does it give check, is it pruned) never pay for it."""
    if line.network.b1.shape[0] != 0:
        advance(line.network, line.accumulators[ply], line.accumulators[ply + 1], moved, frm,
                to, captured)


@njit(cache=True, inline="always")
def _pass_accumulator(line, ply):
    """The accumulator of ply + 1 after a null move: the same board, and both players' views
    are kept, so the other side to move needs no other sum."""
    if line.network.b1.shape[0] != 0:
        line.accumulators[ply + 1, :, :] = line.accumulators[ply]


@njit(cache=True, inline="always")
def _activity_for(line, player, moves, n):
    """The activity term for `player` (0 where the evaluation has none), `player`'s moves in
    moves[:n] where n >= 0."""
    if line.activity.shape[0] == 0:
        return 0.0
    active = _activity(line.board, line.activity, line.scratch, line.counts,
                       player if n >= 0 else -1, moves, max(n, 0))
    return active if player == 0 else -active


@njit(cache=True, inline="always")
def _table_parts(line):
    """Red's midgame and endgame piece-square sums (material included), in square order as
    chesslike.tapered_sum adds them, and the board's phase weight before the cap."""
    board = line.board
    midgame = line.evaluation
    endgame = line.endgame
    offset = midgame.shape[0] // 2
    early = 0.0
    late = 0.0
    weight = 0
    for sq in range(board.shape[0]):
        cell = board[sq]
        if cell != 0:
            early += midgame[cell + offset, sq]
            late += endgame[cell + offset, sq]
            weight += PHASE_WEIGHTS_ARRAY[abs(cell)]
    return early, late, weight


@njit(cache=True, inline="always")
def _blend(early, late, weight, player):
    """The tables' value for `player` at phase min(weight, PHASE_MAX) (chesslike.tapered_sum:
    the same operations in the same order)."""
    phase = min(weight, PHASE_MAX)
    value = (phase * early + (PHASE_MAX - phase) * late) / PHASE_MAX
    return value if player == 0 else -value


@njit(cache=True, inline="always")
def _lost(plies):
    """The value, for the side to move, of a game it has lost at `plies`."""
    return -(WIN_VALUE - plies)


@njit(cache=True, inline="always")
def _hangs(board, player, to, moved, captured):
    """Whether `player`'s piece `moved`, just played to `to` (taking `captured`), can be taken
    there at a loss: the other side attacks the square and the piece is worth more than what
    it took (one step of a static exchange evaluation: the quiescence search's `see` skips
    such a capture, SAFE_CHECKS extends no such check, LATE_LOSSES orders such a capture
    late)."""
    return PIECE_VALUES_ARRAY[abs(moved)] > PIECE_VALUES_ARRAY[abs(captured)] and \
        attacked_square(board, to, player)


@njit(cache=True)
def _demote_losing_captures(board, player, moves, ply, n):
    """Give the captures of moves[ply, :n] that `_hangs` finds giving material away (a chariot
    taking a defended soldier) the score LOSING_CAPTURE, after the killers: MVV-LVA alone put
    them before every quiet move, and a node cut off on its first move less often (0.81 of
    cutoffs against 0.88, docs/speed.md). The table's move keeps its place."""
    for i in range(n):
        frm = moves[ply, i, 0]
        to = moves[ply, i, 1]
        if board[to] != 0 and moves[ply, i, 2] < HASH_MOVE:
            moved = board[frm]
            captured = play(board, frm, to)
            if _hangs(board, player, to, moved, captured):
                moves[ply, i, 2] = LOSING_CAPTURE
            take_back(board, frm, to, captured)


@njit(cache=True)
def null_move_allowed(board, player):
    """Whether `player` may pass in the search (null-move pruning): only with a chariot, a
    horse or a cannon. Xiangqi has no passing and a side without a move loses; with soldiers,
    advisors and elephants alone a move is often a burden (zugzwang), which a null move would
    not see."""
    sign = 1 if player == 0 else -1
    for sq in range(SQUARES):
        kind = board[sq] * sign
        if kind == CHARIOT or kind == HORSE or kind == CANNON:
            return True
    return False


@njit(cache=True, nogil=True)
def _node(line, tables, player, plies, start, top, depth, alpha, beta, ply, max_plies,
          mode):
    """The value for `player` (to move) of the position line.keys[top], searched `depth`
    plies deep within (alpha, beta): exact inside the window, a bound outside (fail-soft).
    At ply 0 (the root) the moves are the caller's, in its order. `mode`: alphabeta.py's bits
    (0: the plain search). One self-recursive function: numba's cache reloads mutually
    recursive ones wrongly. Releases the GIL, so that the timer of `SearchMemory.stop_at`
    can stop it."""
    if count_node(tables):
        return 0.0
    engine = mode & ENGINE
    board = line.board
    moves = line.moves
    futile = -np.inf  # above it: quiet moves are not searched (futility pruning)
    searched_at_most = 1 << 30  # from this legal move on, quiet ones are not (late-move pruning)
    # Has the game ended here? (XiangqiState.apply's order: no legal move first.) Below the
    # root, the engine judges a cycle as soon as it closes: what it would come to, found a
    # cycle earlier.
    verdict = repetition(line.keys, line.checks, start, top, player,
                         2 if engine and ply > 0 else 3)
    if verdict != ONGOING or plies >= max_plies or (depth <= 0 and not engine) or \
            ply >= MAX_PLY:
        if not _has_legal(board, player, moves[ply]):
            return _lost(plies)
        if verdict == DRAW:
            return 0.0
        if verdict != ONGOING:
            return -_lost(plies) if verdict == player else _lost(plies)
        if plies >= max_plies:
            return 0.0
        return _static(line, player, ply)
    if depth <= 0:
        return _quiet(line, tables, player, plies, line.keys[top], alpha, beta, ply,
                      mode | FIRST_QUIET if mode & QUIET_CHECKS else mode)

    key = line.keys[top]
    slot = probe(tables, key)
    static = np.nan  # the static evaluation, once a pruning rule has needed it
    rising = True  # (deep pruning) the evaluation rose since the side's last move
    if ply == 0:
        n = tables.counters[ROOT_MOVES]
        if mode & DEEP_PRUNE:
            improving(tables, ply, static)  # unknown at the root
    else:
        if engine and table_cutoff(tables, slot, depth, alpha, beta):
            return tables.table[slot].value
        # Near the leaves, off the principal variation, not in check, the cap out of reach:
        # futility (far enough above beta, cut; far enough below alpha, try no quiet move)
        # and late-move pruning (the last quiet moves are not tried).
        # The static value is computed once, by the first of them that needs it, from the
        # node's own moves (generated first: the activity term counts them).
        n = _pseudo(board, player, moves[ply])
        # Deep pruning compares every node's evaluation with its grandparent's (`improving`).
        if mode & DEEP_PRUNE:
            if not line.checks[top]:
                static = _node_static(line, tables, slot, player, n, ply, mode)
            rising = improving(tables, ply, static)
        if engine and not line.checks[top] and plies + depth < max_plies and \
                shallow_scout(mode, ply, depth, alpha, beta):
            if np.isnan(static):
                static = _node_static(line, tables, slot, player, n, ply, mode)
            cut, value, futile, searched_at_most = scout_pruning(
                mode, static, FUTILITY_MARGIN, depth, alpha, beta)
            if cut:
                return value
        # Null move: if passing and a shallower search still reach beta, so would a move. The
        # pass starts a new stretch for repetitions (no cycle runs through it).
        if engine and not line.checks[top] and plies + depth < max_plies and \
                null_move_worth(mode, ply, depth, alpha, beta) and \
                (_node_static(line, tables, slot, player, n, ply, mode) if np.isnan(static)
                 else static) >= beta and \
                null_move_allowed(board, player):
            child = top + 1
            _pass_accumulator(line, ply)
            line.keys[child] = key ^ SIDE_KEY
            line.checks[child] = False
            value = -_node(line, tables, 1 - player, plies + 1, child, child,
                           depth - 1 - null_reduction(mode, depth), -beta, -below(beta), ply + 1,
                           max_plies, mode | AFTER_NULL)
            if tables.counters[STOPPED]:
                return 0.0
            if value >= beta:
                return beta if value >= 0.5 * WIN_VALUE else value
        score_moves(board, moves, ply, n, 90, slot, tables, ORDER_VALUES)
        if mode & LATE_LOSSES:
            _demote_losing_captures(board, player, moves, ply, n)
    mode &= ~AFTER_NULL
    # Late-move reductions only at nodes not in check (a reply to check is never reduced).
    reducing = engine and ply > 0 and reduces(mode, depth) and not line.checks[top]
    # Deep pruning where the static evaluation is known (not in check, DEEP_PRUNE).
    pruning = engine and not np.isnan(static) and plies + depth < max_plies and \
        deep_pruning(mode, ply, depth, alpha, beta)
    # Near the leaves, quiet moves may be tried in generation order (`keeps_sorting`).
    sorting = ply > 0
    general = general_square(board, player)
    alpha0 = alpha
    best = -np.inf
    best_move = -1
    legal = 0
    child = top + 1
    for i in range(n):
        if sorting:
            pick(moves, ply, i, n)
            sorting = keeps_sorting(mode, depth, moves[ply, i, 2])
        frm = moves[ply, i, 0]
        to = moves[ply, i, 1]
        if not is_safe(board, player, general, frm, to):
            continue  # legality checked only for moves reached: a cutoff skips the rest
        legal += 1
        moved = board[frm]
        captured = play(board, frm, to)
        line.keys[child] = next_key(key, moved, frm, to, captured)
        line.checks[child] = in_check(board, 1 - player)
        # (A capture is never pruned nor reduced, even one ordered late: `late_losses`.)
        if legal > 1 and moves[ply, i, 2] < KILLER and captured == 0 and \
                not line.checks[child] and (
                    futile > -np.inf or legal > searched_at_most or
                    pruning and prunes_quiet(mode, static, FUTILITY_MARGIN, depth, legal - 1,
                                             moves[ply, i, 2], rising, alpha, reducing)):
            take_back(board, frm, to, captured)  # a quiet move that cannot reach alpha
            best = max(best, futile if futile > -np.inf else alpha0)
            continue
        _play_accumulator(line, ply, moved, frm, to, captured)
        # A capture starts a new stretch of positions that may repeat.
        child_start = child if captured != 0 else start
        child_depth = depth - 1
        if engine and line.checks[child] and not (
                mode & SAFE_CHECKS and _hangs(board, player, to, moved, captured)):
            child_depth = depth  # check extension: a check is answered before the horizon
        # PVS: the first move with the full window; the others with a null window (a late
        # quiet one, not giving check, reduced first), and again in full when they beat alpha.
        if legal > 1:
            reduction = 0
            if reducing and captured == 0 and not line.checks[child]:
                reduction = late_reduction(mode, depth, legal - 1, moves[ply, i, 2])
            value = -_node(line, tables, 1 - player, plies + 1, child_start, child,
                           child_depth - reduction, -above(alpha), -alpha, ply + 1,
                           max_plies, mode)
            if reduction > 0 and value > alpha and not tables.counters[STOPPED]:
                value = -_node(line, tables, 1 - player, plies + 1, child_start, child,
                               child_depth, -above(alpha), -alpha, ply + 1, max_plies, mode)
        if legal == 1 or alpha < value < beta:
            value = -_node(line, tables, 1 - player, plies + 1, child_start, child,
                           child_depth, -beta, -alpha, ply + 1, max_plies, mode)
        take_back(board, frm, to, captured)
        if tables.counters[STOPPED]:
            return 0.0
        best, best_move, alpha, cut = take_value(tables, ply, i, frm * 90 + to, value, best,
                                                 best_move, alpha, beta, depth, captured == 0)
        if cut:
            punish_quiets(tables, moves, ply, i, 90, depth, mode)
            break
    if legal == 0:
        return _lost(plies)  # checkmate or stalemate: both lose in xiangqi
    store_node(tables, key, depth, best, alpha0, beta, best_move)
    return best


@njit(cache=True)
def _quiet(line, tables, player, plies, key, alpha, beta, ply, mode):
    """Quiescence search of the position with Zobrist `key`: the side to move may stand pat
    on the evaluation or capture; in check it must answer, with any legal move. Without a
    legal move it has lost. With QUIET_TABLE its values go in the transposition table as
    searches of depth 0 (never over a deeper entry), and cut off there as the table does."""
    if count_node(tables):
        return 0.0
    slot = -1
    if mode & QUIET_TABLE:
        slot = probe(tables, key)
        if table_cutoff(tables, slot, 0, alpha, beta):
            return tables.table[slot].value
    alpha0 = alpha
    board = line.board
    general = general_square(board, player)
    checked = _attacked(board, general, player)
    if ply >= MAX_PLY:
        return _static(line, player, ply)
    moves = line.moves
    n = _pseudo(board, player, moves[ply])
    best = -np.inf
    if not checked:
        # No legal move at all (stalemate) loses too; usually the first move tried is legal.
        for i in range(n + 1):
            if i == n:
                return _lost(plies)
            if is_safe(board, player, general, moves[ply, i, 0], moves[ply, i, 1]):
                break
        # The static value from the tables' parts, kept for delta pruning's gains below.
        evaluation = line.evaluation
        endgame = line.endgame
        tapered = endgame.shape[0] > 0
        early = late = 0.0
        weight = 0
        if tapered:
            early, late, weight = _table_parts(line)
            table_now = _blend(early, late, weight, player)
        else:
            table_now = evaluate(board, evaluation, player)
        best = table_now + _activity_for(line, player, moves[ply], n)
        best = best + _correction(line, player, ply)
        if best >= beta:
            return best
        alpha = max(alpha, best)
        # Delta pruning: a capture after which even standing pat stays at or below alpha
        # (the table's part of the evaluation is a sum, so the capture's gain there is exact:
        # the victim's entry, the mover's change of square and, blending two tables, the
        # phase the victim takes with it; a change of the activity term is left out) is not
        # tried, unless it gives check (the reply must then answer it, not stand pat).
        sign = 1 if player == 0 else -1
        stand_pat = best
        captures = 0
        for i in range(n):
            frm = moves[ply, i, 0]
            to = moves[ply, i, 1]
            if board[to] == 0:
                if not mode & FIRST_QUIET:
                    continue
                # The first ply also tries quiet moves that give check: a mate or a check
                # that wins material past the horizon is seen.
                play(board, frm, to)
                checks = in_check(board, 1 - player)
                take_back(board, frm, to, 0)
                if checks:
                    moves[ply, captures, 0] = frm
                    moves[ply, captures, 1] = to
                    captures += 1
                continue
            if mode & FUTILE:
                mover = board[frm] + 7
                victim = board[to] + 7
                if tapered:
                    gain = _blend(early + evaluation[mover, to] - evaluation[mover, frm]
                                  - evaluation[victim, to],
                                  late + endgame[mover, to] - endgame[mover, frm]
                                  - endgame[victim, to],
                                  weight - PHASE_WEIGHTS_ARRAY[abs(board[to])],
                                  player) - table_now
                else:
                    gain = sign * (evaluation[mover, to] - evaluation[mover, frm]
                                   - evaluation[victim, to])
                if stand_pat + gain <= alpha:
                    captured = play(board, frm, to)
                    checks = in_check(board, 1 - player)
                    take_back(board, frm, to, captured)
                    if not checks:
                        # What it could reach stays in the fail-soft value: a bound below it
                        # would be wrong in the table.
                        best = max(best, stand_pat + gain)
                        continue
            moves[ply, captures, 0] = frm
            moves[ply, captures, 1] = to
            captures += 1
        n = captures
    score_moves(board, moves, ply, n, 90, slot, tables, ORDER_VALUES)
    legal = 0
    best_move = -1
    for i in range(n):
        pick(moves, ply, i, n)
        frm = moves[ply, i, 0]
        to = moves[ply, i, 1]
        if not is_safe(board, player, general, frm, to):
            continue
        legal += 1
        captured = play(board, frm, to)
        if mode & SEE and not checked and _hangs(board, player, to, board[to], captured) and \
                not in_check(board, 1 - player):
            take_back(board, frm, to, captured)  # a defended victim worth less: lost
            continue
        child_key = next_key(key, board[to], frm, to, captured)
        _play_accumulator(line, ply, board[to], frm, to, captured)
        value = -_quiet(line, tables, 1 - player, plies + 1, child_key, -beta, -alpha,
                        ply + 1, mode & ~FIRST_QUIET)
        take_back(board, frm, to, captured)
        if tables.counters[STOPPED]:
            return 0.0
        if value > best:
            best = value
            best_move = frm * 90 + to
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    if checked and legal == 0:
        return _lost(plies)
    if mode & QUIET_TABLE and tables.table[key & (tables.table.shape[0] - 1)].depth <= 0:
        store_node(tables, key, 0, best, alpha0, beta, best_move)
    return best


class XiangqiSearch(SearchMemory):
    """The compiled search as the minimax agent calls it (`Game.compiled_minimax`)."""

    window = ASPIRATION_WINDOW
    futility_margin = FUTILITY_MARGIN
    prunes_late = True
    exchanges = True
    quiet_table = True
    checks_in_quiescence = True
    guards_checks = True
    orders_losses = True
    log_reductions = True  # 0.566 over 160 games at 0.2 s a move (docs/speed.md)
    prunes_deep = True

    def __init__(self, quiescence: bool, evaluation: np.ndarray,
                 activity_weights: np.ndarray | None = None,
                 endgame: np.ndarray | None = None,
                 network: QuantisedNetwork = NO_NETWORK) -> None:
        """`evaluation`: the leaves' table (EVALUATION's layout: chesslike.signed_table);
        `activity_weights`: the activity term's (`activity`; None or all 0: none); `endgame`:
        the endgame table the phase blends with `evaluation` (the same layout; None: none);
        `network`: the evaluation network that corrects the leaves' value (evalnet.py
        `quantise`)."""
        super().__init__(SQUARES, MAX_MOVES, quiescence)
        self.evaluation = np.ascontiguousarray(evaluation, dtype=np.float64)
        self.endgame_table = (np.zeros((0, SQUARES)) if endgame is None
                              else np.ascontiguousarray(endgame, dtype=np.float64))
        """`endgame` (SearchMemory's `endgame` is the end-game solver's setting)."""
        self.activity = (np.zeros(0) if activity_weights is None or not activity_weights.any()
                         else np.ascontiguousarray(activity_weights, dtype=np.float64))
        self.scratch = np.zeros((MAX_MOVES, 3), dtype=np.int64)
        """`activity`'s move buffer, the layout of one ply of `moves`."""
        self.counts = np.zeros((2, ZONE + 1), dtype=np.int64)
        self.network = network
        self.units = buffer(network)
        self.accumulators = np.zeros((MAX_PLY + 2, 2, network.b1.shape[0]), dtype=np.int32)

    def __call__(self, state, root_actions: list[int], depth: int, player: int,
                 max_nodes: int) -> tuple[int, float, int, bool]:
        """(index of the best of `root_actions`, its value for `player`, nodes, completed)."""
        self.start(state.key(), depth, max_nodes,
                   [(ACTION_FROM[action], ACTION_TO[action]) for action in root_actions])
        rows = history_rows(state)
        top = rows.shape[0] - 1
        keys = history_keys(rows, MAX_PLY + 2)
        checks = np.zeros(keys.shape[0], dtype=np.bool_)
        checks[:top + 1] = state.checks
        line = Line(rows[top, :SQUARES].copy(), keys, checks, self.moves, self.evaluation,
                    self.endgame_table, self.activity, self.scratch, self.counts,
                    self.network, self.units, self.accumulators)
        accumulate(line.board, self.network, self.accumulators[0])

        def window_search(alpha: float, beta: float) -> float:
            # The Python root searches each move with (best so far, +inf) and keeps the first
            # strictly better: a node with the full window at ply 0 does exactly that.
            return _node(line, self.tables, np.int64(state.player), np.int64(state.plies), 0,
                         top, np.int64(depth), alpha, beta, 0, state.game.settings.max_plies,
                         np.int64(self.mode))
        return self.result(float(self.search(window_search)), player != state.player)


def compiled_search(game, evaluator: str, quiescence: bool,
                    weights: str = "") -> XiangqiSearch | None:
    """The search for `evaluator` if it is a heuristic this file computes (`positional`,
    `tuned`, `neural`: the tuned evaluation, or its tables alone, as the network's file says
    (evalnet.py `network_base`), corrected by the shipped network, or by the network file
    `weights`), else None."""
    from .evalnet import network_base, read_quantised, shipped_base, shipped_quantised
    from .heuristics import ACTIVITY, ENDGAME, material_and_position, neural, parameters, tuned

    named = {material_and_position: "positional", tuned: "tuned", neural: "neural"}
    name = named.get(game.evaluators.get(evaluator))
    if name is None:
        return None
    table = parameters("positional" if name == "positional" else "tuned")
    network = NO_NETWORK
    active = True
    if name == "neural":
        network = read_quantised(weights) if weights else shipped_quantised()
        active = (network_base(weights) if weights else shipped_base()) == "tuned"
    return XiangqiSearch(quiescence, signed_table(table[:ACTIVITY], ROWS, COLS),
                         table[ACTIVITY, :ZONE + 1] if active else None,
                         signed_table(table[ENDGAME:], ROWS, COLS) if name != "positional"
                         else None, network)


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here

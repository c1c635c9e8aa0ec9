"""Compiled alpha-beta for MiniChess (numba): the minimax agent's search in one call per
iteration, and the same search with an engine's tricks.

As xiangqi/search.py (read that first): negamax alpha-beta with principal variation search,
moves made and taken back in place, ordering by alphabeta.py (the table's move, MVV-LVA
captures and promotions, killers, history). A node ends the game as `MiniChessState._settle`
does: the side to move wins if it could capture the king, then the ply cap counts material,
then a side without a move loses. Leaves are scored by a table per heuristic
(`heuristics.material`, seed 004's material count, `heuristics.positional`, material plus
piece-square bonuses, or `heuristics.tuned`, the shipped table Texel's method fitted), plus,
for `tuned`, its activity term (`activity`: moves by piece type, attacks next to the enemy
king), summed in the same order as the Python heuristics so the floats agree.

- plain (`quiescence=False`): the table only orders moves, so the root's best move and value
  equal the Python agent's with `tt=false` (tests/games/minichess/test_minichess_search.py);
- engine (`quiescence=True`): at depth 0 a quiescence search plays captures and promotions
  until quiet (every move when its king could be taken: standing pat is then no option), and
  the table also cuts off. Zobrist keys include the ply count, as the cap makes it matter.
  With alphabeta.py's pruning, each a minimax setting: null-move pruning, never in check
  nor for a side with only pawns and its king (`null_move_allowed`: with no move a side
  loses, so zugzwang is real), nor where the ply cap is within reach; late-move reductions
  of quiet moves, never in check nor for a move that gives check; futility pruning
  (`shallow_scout`: a scout node up to 3 plies from the leaves, not in check, cuts when its
  evaluation is FUTILITY_MARGIN a ply above beta, and tries no quiet move that gives no check
  when it is that far below alpha) with delta pruning in the quiescence search (a capture
  whose victim is worth less than the gap to alpha plus the margin is not tried); late-move
  pruning (`late_move_count`). No aspiration windows (ASPIRATION_WINDOW: they measured
  worse here).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ...core.alphabeta import WIN_VALUE
from ...core.kernelcache import fresh_cache
from ..alphabeta import (AFTER_NULL, CAPTURE, ENGINE, FUTILE, KILLER, MAX_PLY, ROOT_MOVES, SEE,
                         STOPPED, SearchMemory, above, below, count_node, evaluate,
                         keeps_sorting, late_reduction, null_move_worth, null_reduction, pick,
                         probe, punish_quiets, reduces,
                         score_moves, scout_pruning, shallow_scout, store_node, table_cutoff,
                         take_value)
from ..chesslike import signed_table
from .heuristics import MATERIAL_VALUES
from .kernels import (BISHOP, DRAW, KING, KING_STEPS, KNIGHT_, KNIGHT_STEPS, MAX_MOVES, PAWN,
                      RAYS, ROOK, adjudicate, attacks, generate, has_move, king_capturable, play,
                      take_back)
from .rules import COLS, ROWS, SQUARES

ORDER_VALUES = np.array((0, 1, 5, 3, 3, 9, 20), dtype=np.int64)
"""Piece worth for MVV-LVA (chess's), by type: pawn, rook, knight, bishop, queen, king."""
PROMOTION = CAPTURE + 64 * 8
"""A pawn's step to the last row ranks with taking a queen (it becomes one)."""
FUTILITY_MARGIN = 2.0
"""Futility pruning's margin per ply (alphabeta.py `shallow_scout`): a pawn of seed 004's
material count (the tuned table's pawns are worth about as much)."""
ASPIRATION_WINDOW = 0.0
"""Half the root's aspiration window; 0: none. Measured with half a pawn (1.0): 3% fewer
nodes to depth 10, but 54-16-70 in 140 games at 0.2 s a move against the same search
without (docs/speed.md#engine-search-ablation)."""
_KEYS = np.random.default_rng(4).integers(-2**63, 2**63 - 1, size=(SQUARES * 13 + 1 + 256,),
                                          dtype=np.int64)
ZOBRIST = _KEYS[:SQUARES * 13].reshape(SQUARES, 13)
ZOBRIST[:, 6] = 0  # an empty square adds nothing
SIDE_KEY = _KEYS[SQUARES * 13]
PLY_KEYS = _KEYS[SQUARES * 13 + 1:]
"""PLY_KEYS[plies % 256]: the ply count's part of a key."""


class Line(NamedTuple):
    """The board, the move buffer (moves[ply, i] = from, to, ordering score; the root's
    moves in moves[0]), the leaves' evaluation table and activity weights (`activity`; an
    empty array: none)."""

    board: np.ndarray
    moves: np.ndarray
    evaluation: np.ndarray
    activity: np.ndarray


ZONE = 7
"""activity weights[ZONE]: the weight of an attack next to the enemy king (1-6: a move of a
piece of that type)."""


@njit(cache=True, inline="always")
def _near(square, king):
    """Whether `square` is the king's or next to it (-1: no king)."""
    return king >= 0 and abs(square // 5 - king // 5) <= 1 and abs(square % 5 - king % 5) <= 1


@njit(cache=True)
def activity(board, weights):
    """White's activity minus black's (heuristics.activity, the same sum in the same order):
    for each piece, weights[kind] a move it has (a pawn: its step forward, when free) plus
    weights[ZONE] a square it attacks or defends on or next to the enemy king (a king's own
    steps are not counted there)."""
    kings = (-1, -1)
    for sq in range(30):
        if board[sq] == KING:
            kings = (sq, kings[1])
        elif board[sq] == -KING:
            kings = (kings[0], sq)
    score = 0.0
    for sq in range(30):
        cell = board[sq]
        if cell == 0:
            continue
        sign = 1 if cell > 0 else -1
        kind = cell * sign
        enemy_king = kings[1] if cell > 0 else kings[0]
        moves = 0
        zone = 0
        if kind == PAWN:
            t = sq - 5 if cell > 0 else sq + 5
            if 0 <= t < 30:
                if board[t] == 0:
                    moves += 1
                col = sq % 5
                for dc in (-1, 1):
                    if 0 <= col + dc < 5 and _near(t + dc, enemy_king):
                        zone += 1
        elif kind == KNIGHT_ or kind == KING:
            for k in range(8):
                t = KNIGHT_STEPS[sq, k] if kind == KNIGHT_ else KING_STEPS[sq, k]
                if t < 0:
                    break
                if board[t] * sign <= 0:
                    moves += 1
                if kind == KNIGHT_ and _near(t, enemy_king):
                    zone += 1
        else:
            first = 4 if kind == BISHOP else 0  # directions 4-7 are the diagonals
            last = 4 if kind == ROOK else 8
            for d in range(first, last):
                for k in range(5):
                    t = RAYS[sq, d, k]
                    if t < 0:
                        break
                    if board[t] * sign <= 0:
                        moves += 1
                    if _near(t, enemy_king):
                        zone += 1
                    if board[t] != 0:
                        break
        score += sign * (moves * weights[kind] + zone * weights[ZONE])
    return score


@njit(cache=True, inline="always")
def _static(line, player):
    """The leaves' value for `player`: the piece-square sum, plus the activity term when
    the evaluation has one."""
    value = evaluate(line.board, line.evaluation, player)
    if line.activity.shape[0] == 0:
        return value
    active = activity(line.board, line.activity)
    return value + (active if player == 0 else -active)


@njit(cache=True)
def position_key(board, player, plies):
    key = SIDE_KEY if player == 1 else np.int64(0)
    for sq in range(30):
        key ^= ZOBRIST[sq, board[sq] + 6]
    return key ^ PLY_KEYS[plies % 256]


@njit(cache=True, inline="always")
def _ended(board, player, plies, max_plies, n, takes_king):
    """kernels.settle as a value for the side to move: (ended, value); `n` counts the moves
    (or is a bool: any move at all)."""
    if takes_king:
        return True, WIN_VALUE - plies
    if plies >= max_plies:
        winner = adjudicate(board)
        if winner == DRAW:
            return True, 0.0
        return True, WIN_VALUE - plies if winner == player else -(WIN_VALUE - plies)
    if n == 0:
        return True, -(WIN_VALUE - plies)
    return False, 0.0


@njit(cache=True)
def _order(board, player, moves, ply, n, slot, tables):
    """alphabeta.score_moves, with a pawn's step to the last row ranked as a capture."""
    score_moves(board, moves, ply, n, 30, slot, tables, ORDER_VALUES)
    last_row = 0 if player == 0 else 5
    for i in range(n):
        frm = moves[ply, i, 0]
        to = moves[ply, i, 1]
        if abs(board[frm]) == PAWN and to // 5 == last_row and board[to] == 0:
            moves[ply, i, 2] = max(moves[ply, i, 2], PROMOTION)


@njit(cache=True)
def null_move_allowed(board, player):
    """Whether `player` may pass in the search (null-move pruning): only with a piece besides
    pawns and the king. MiniChess has no passing, and a side without a move loses, so with
    pawns alone a move is often a burden (zugzwang), which a null move would not see."""
    sign = 1 if player == 0 else -1
    for sq in range(30):
        kind = board[sq] * sign
        if kind > PAWN and kind != KING:
            return True
    return False


@njit(cache=True, nogil=True)
def _node(line, tables, player, plies, key, depth, alpha, beta, ply, max_plies, mode):
    """The value for `player` (to move) of the position on line.board (Zobrist `key`),
    searched `depth` plies deep within (alpha, beta): exact inside, a bound outside. At ply 0
    the moves are the caller's, in its order. `mode`: alphabeta.py's bits (0: the plain
    search). One self-recursive function: numba's cache reloads mutually recursive ones
    wrongly. Releases the GIL, so that the timer of `SearchMemory.stop_at` can stop it."""
    if count_node(tables):
        return 0.0
    engine = mode & ENGINE
    futile = -np.inf  # above it: quiet moves are not searched (futility pruning)
    searched_at_most = 1 << 30  # from this move on, quiet moves are not (late-move pruning)
    in_check = False  # the opponent could take our king (no pruning then); below the root
    board = line.board
    moves = line.moves
    slot = probe(tables, key)
    if ply == 0:
        n = tables.counters[ROOT_MOVES]
    elif ply >= MAX_PLY or (depth <= 0 and not engine):
        # A leaf: whether the game ended, without generating the moves.
        ended, value = _ended(board, player, plies, max_plies, has_move(board, player),
                              king_capturable(board, player))
        return value if ended else _static(line, player)
    else:
        n, takes_king = generate(board, player, moves[ply])
        ended, value = _ended(board, player, plies, max_plies, n, takes_king)
        if ended:
            return value
        if depth <= 0:
            return _quiet(line, tables, player, plies, alpha, beta, ply, max_plies, mode)
        if engine and table_cutoff(tables, slot, depth, alpha, beta):
            return tables.table[slot].value
        in_check = engine != 0 and king_capturable(board, 1 - player)
        # Near the leaves, off the principal variation, not in check, the cap out of reach:
        # futility (far enough above beta, cut; far enough below alpha, try no quiet move)
        # and late-move pruning (the last quiet moves are not tried).
        # The static value is computed once, by the first of them that needs it.
        static = np.nan
        if engine and not in_check and plies + depth < max_plies and \
                shallow_scout(mode, ply, depth, alpha, beta):
            static = _static(line, player)
            cut, value, futile, searched_at_most = scout_pruning(
                mode, static, FUTILITY_MARGIN, depth, alpha, beta)
            if cut:
                return value
        # Null move: if passing and a shallower search still reach beta, so would a move.
        if engine and not in_check and plies + depth < max_plies and \
                null_move_worth(mode, ply, depth, alpha, beta) and \
                (_static(line, player) if np.isnan(static) else static) >= beta and \
                null_move_allowed(board, player):
            null_key = key ^ SIDE_KEY ^ PLY_KEYS[plies % 256] ^ PLY_KEYS[(plies + 1) % 256]
            value = -_node(line, tables, 1 - player, plies + 1, null_key,
                           depth - 1 - null_reduction(mode, depth), -beta, -below(beta), ply + 1,
                           max_plies, mode | AFTER_NULL)
            if tables.counters[STOPPED]:
                return 0.0
            if value >= beta:
                return beta if value >= 0.5 * WIN_VALUE else value
        _order(board, player, moves, ply, n, slot, tables)
    mode &= ~AFTER_NULL
    # Late-move reductions only at nodes not in check (a reply to check is never reduced).
    reducing = engine and ply > 0 and reduces(mode, depth) and not in_check
    # Near the leaves, quiet moves may be tried in generation order (`keeps_sorting`).
    sorting = ply > 0
    alpha0 = alpha
    best = -np.inf
    best_move = -1
    for i in range(n):
        if sorting:
            pick(moves, ply, i, n)
            sorting = keeps_sorting(mode, depth, moves[ply, i, 2])
        frm = moves[ply, i, 0]
        to = moves[ply, i, 1]
        moved = board[frm]
        captured = play(board, player, frm, to)
        if (futile > -np.inf or i >= searched_at_most) and i > 0 and \
                moves[ply, i, 2] < KILLER and not king_capturable(board, player):
            take_back(board, frm, to, moved, captured)  # a quiet move that cannot reach alpha
            best = max(best, futile if futile > -np.inf else alpha0)
            continue
        child_key = key ^ ZOBRIST[frm, moved + 6] ^ ZOBRIST[to, board[to] + 6] ^ \
            ZOBRIST[to, captured + 6] ^ SIDE_KEY ^ PLY_KEYS[plies % 256] ^ \
            PLY_KEYS[(plies + 1) % 256]
        # PVS: the first move with the full window; the others with a null window (a late
        # quiet one, not giving check, reduced first), and again in full when they beat alpha.
        if i > 0:
            reduction = late_reduction(mode, depth, i, moves[ply, i, 2]) if reducing else 0
            if reduction > 0 and king_capturable(board, player):
                reduction = 0
            value = -_node(line, tables, 1 - player, plies + 1, child_key,
                           depth - 1 - reduction, -above(alpha), -alpha, ply + 1, max_plies,
                           mode)
            if reduction > 0 and value > alpha and not tables.counters[STOPPED]:
                value = -_node(line, tables, 1 - player, plies + 1, child_key, depth - 1,
                               -above(alpha), -alpha, ply + 1, max_plies, mode)
        if i == 0 or alpha < value < beta:
            value = -_node(line, tables, 1 - player, plies + 1, child_key, depth - 1, -beta,
                           -alpha, ply + 1, max_plies, mode)
        take_back(board, frm, to, moved, captured)
        if tables.counters[STOPPED]:
            return 0.0
        best, best_move, alpha, cut = take_value(tables, ply, i, frm * 30 + to, value, best,
                                                 best_move, alpha, beta, depth, captured == 0)
        if cut:
            punish_quiets(tables, moves, ply, i, 30, depth, mode)
            break
    store_node(tables, key, depth, best, alpha0, beta, best_move)
    return best


@njit(cache=True)
def _quiet(line, tables, player, plies, alpha, beta, ply, max_plies, mode):
    """Quiescence search: stand pat on the evaluation, or capture or promote; when the
    opponent could take our king next, every move must be tried (standing pat loses). With
    futility pruning on (`mode`), delta pruning: a capture that would leave us below alpha
    even with a pawn more than its victim is worth is not tried, unless it threatens the king
    (which may win the game whatever the material)."""
    if count_node(tables):
        return 0.0
    board = line.board
    moves = line.moves
    n, takes_king = generate(board, player, moves[ply])
    ended, value = _ended(board, player, plies, max_plies, n, takes_king)
    if ended:
        return value
    if ply >= MAX_PLY:
        return _static(line, player)
    threatened = king_capturable(board, 1 - player)
    best = -np.inf
    if not threatened:
        best = _static(line, player)
        if best >= beta:
            return best
        alpha = max(alpha, best)
        last_row = 0 if player == 0 else 5
        # Delta pruning (futility in the quiescence search): below this victim, hopeless.
        hopeless = -np.inf
        if mode & FUTILE and plies + 1 < max_plies:
            hopeless = alpha - best - FUTILITY_MARGIN
        kept = 0
        for i in range(n):
            frm = moves[ply, i, 0]
            to = moves[ply, i, 1]
            promotes = abs(board[frm]) == PAWN and to // 5 == last_row
            if board[to] != 0 and not promotes and \
                    MATERIAL_VALUES[abs(board[to])] < hopeless:
                moved = board[frm]
                captured = play(board, player, frm, to)
                checks = king_capturable(board, player)  # a threat may still win the game
                take_back(board, frm, to, moved, captured)
                if not checks:
                    continue
            if board[to] != 0 or promotes:
                moves[ply, kept, 0] = frm
                moves[ply, kept, 1] = to
                kept += 1
        n = kept
    _order(board, player, moves, ply, n, -1, tables)
    for i in range(n):
        pick(moves, ply, i, n)
        frm = moves[ply, i, 0]
        to = moves[ply, i, 1]
        moved = board[frm]
        captured = play(board, player, frm, to)
        if mode & SEE and not threatened and captured != 0 and \
                MATERIAL_VALUES[abs(moved)] > MATERIAL_VALUES[abs(captured)] and \
                attacks(board, 1 - player, to) and not king_capturable(board, player):
            take_back(board, frm, to, moved, captured)  # a defended victim worth less: lost
            continue
        value = -_quiet(line, tables, 1 - player, plies + 1, -beta, -alpha, ply + 1, max_plies,
                        mode)
        take_back(board, frm, to, moved, captured)
        if tables.counters[STOPPED]:
            return 0.0
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


class MiniChessSearch(SearchMemory):
    """The compiled search as the minimax agent calls it (`Game.compiled_minimax`)."""

    window = ASPIRATION_WINDOW
    futility_margin = FUTILITY_MARGIN
    prunes_late = True
    exchanges = True

    def __init__(self, quiescence: bool, evaluation: np.ndarray,
                 activity_weights: np.ndarray | None = None) -> None:
        super().__init__(SQUARES, MAX_MOVES, quiescence)
        self.evaluation = evaluation
        self.activity = (np.zeros(0) if activity_weights is None or not activity_weights.any()
                         else np.ascontiguousarray(activity_weights, dtype=np.float64))

    def __call__(self, state, root_actions: list[int], depth: int, player: int,
                 max_nodes: int) -> tuple[int, float, int, bool]:
        """(index of the best of `root_actions`, its value for `player`, nodes, completed)."""
        self.start(state.key(), depth, max_nodes,
                   [divmod(action, SQUARES) for action in root_actions])
        board = np.asarray(state.board, dtype=np.int8)
        line = Line(board, self.moves, self.evaluation, self.activity)
        key = position_key(board, state.player, state.plies)

        def window_search(alpha: float, beta: float) -> float:
            # As the Python root (plain mode, full window): each move with (best so far,
            # +inf), the first strictly better.
            return _node(line, self.tables, np.int64(state.player), np.int64(state.plies),
                         key, np.int64(depth), alpha, beta, 0, state.game.settings.max_plies,
                         np.int64(self.mode))
        return self.result(float(self.search(window_search)), player != state.player)


def compiled_search(game, evaluator: str, quiescence: bool) -> MiniChessSearch | None:
    """The search for `evaluator` if it is a heuristic this file computes, else None."""
    from .heuristics import ACTIVITY, material, parameters, positional, tuned

    named = {material: "material", positional: "positional", tuned: "tuned"}
    name = named.get(game.evaluators.get(evaluator))
    if name is None:
        return None
    table = parameters(name)
    return MiniChessSearch(quiescence, signed_table(table[:ACTIVITY], ROWS, COLS),
                           table[ACTIVITY, :ZONE + 1])


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here

"""Compiled Jungle dark chess kernels (numba): the whole minimax search in one call.

docs/design.md#whole-jobs-in-kernels: a search's inner loop is a whole hot job, so
`search_root` runs the
generic minimax agent's alpha-beta expectiminimax (agents/minimax.py with `tt=False`)
entirely compiled, with the rules of `game.py` and the leaf evaluation of `heuristics.py`
(`minimax_evaluation` + `hunt_weight` x `hunt`) written again over an int8 board:
0 empty, +k / -k a face-up piece of strength k of player 0 / 1, +-9 face down. Hidden pools
are bitmasks (bit k = strength k), as `JungleDarkState.hidden`.

The search moves in place on one board and undoes each move (make/unmake): a move touches two
cells, so undoing is cheaper than copying 56. Values must equal the Python agent's to the last
bit, so every float is computed in the same order as in the Python code.
tests/games/jungle/test_kernels.py checks actions, evaluation and search values against the
Python State and `MinimaxAgent`.

Why this search does not run on games/alphabeta.py, the compiled core of the other games'
searches (docs/design.md#compiled-search-one-alpha-beta-core): it takes the core's
numbers (core/alphabeta.py's WIN_VALUE, alphabeta.py's NO_LIMIT) but not its code, because
that code is another algorithm than the one this kernel copies.
- The core is negamax with principal variation search: a child's value is negated for its
  parent, and a leaf is scored from the mover's side by a piece-square sum, which is
  antisymmetric. Jungle's evaluation is not (a face-down piece counts +5 for its owner and -10
  for the other side, a threat +20 against -15, a hunt +3 against -4), so a negamax Jungle
  search would score each leaf from the root player's side and flip the sign by mover: the
  same values, but no longer `MinimaxAgent._value` line by line (maximising at the root
  player's nodes, minimising at the other's), which is what makes this kernel checkable.
- Reveals and blind attacks are chance nodes, averaged with a full window below them; the
  core has no chance node, and its null windows and table cutoffs assume none.
- The core orders (from, to) moves by the table's move, MVV-LVA over piece codes, killers per
  ply and history. A reveal has no destination and a face-down piece no type to rank, and
  the agent orders captures first, then the two killers of the remaining depth, kept as it
  keeps them, with no table (`tt=False`): with that ordering both search the same tree and
  count the same nodes, so the node budget means the same in both; with the core's they
  would not.
Sharing only the node budget (`count_node`, a few lines) would bring the core's table, killer
and history arrays into this search for nothing.

Python-facing: `legal_actions`, `evaluate`, `search_root`, and `compiled_search(state, ...)`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.alphabeta import WIN_VALUE
from ...core.kernelcache import fresh_cache
from ..alphabeta import NO_LIMIT
from . import heuristics
from .game import JungleDarkState
from .rules import HIDDEN, NEIGHBOURS, NUM_ACTIONS, NUM_REVEALS, SQUARES

_INF = np.inf
EVALUATION_WEIGHTS = {
    "minimax": (100.0, heuristics.HUNT_WEIGHT, heuristics.SIMPLIFY_WEIGHT),
    "course-minimax": (100.0, 0.0, 0.0),
    "course-minimax-boxed": (1.0, 0.0, 0.0),
}
"""(piece_count_weight, hunt_weight, simplify_weight) of the game's evaluators that `evaluate`
computes, by name (`Game.evaluator_name`: not by an alias); the greedy ones it does not."""
ONGOING, DRAW = -2, -1
"""`end_of_turn_status` results besides a winner 0 or 1 (dark.JungleDarkState.winner's -1 is a
draw too)."""


# The Python reference's own tables, as arrays numba freezes into the compiled code.
NEIGHBOUR = np.full((SQUARES, 4), -1, dtype=np.int64)
"""NEIGHBOUR[sq, d]: the square next to sq in dark.DIRECTIONS[d], -1 off the board."""
for _square, _pairs in enumerate(NEIGHBOURS):
    for _direction, _to in _pairs:
        NEIGHBOUR[_square, _direction] = _to
CAPTURES = np.array(heuristics.CAPTURES, dtype=np.bool_)
"""CAPTURES[a, d]: strength a captures strength d (pieces.can_capture; False off 1..8)."""
DISTANCE = np.array(heuristics.DISTANCE, dtype=np.int64)
"""Manhattan distance between two squares."""


@njit(cache=True, inline="always")
def _may_enter(cell, target):
    """Whether own face-up piece `cell` may step onto `target` (both seen from its owner's side:
    positive own, negative enemy): empty, a face-down enemy (a blind attack), an equal enemy
    (both die) or one it captures."""
    if target == 0 or target == -HIDDEN:
        return True
    return target < 0 and (cell == -target or CAPTURES[cell, -target])


ALL_MOVES, CAPTURES_ONLY, QUIET_ONLY = 0, 1, 2
"""Which of its moves `_write_moves` writes: every one, those onto an enemy (face down
included), those onto an empty square."""


@njit(cache=True, inline="always")
def _write_reveals(board, sign, out, n):
    """Writes the reveals of the side `sign` (+1 player 0, -1 player 1) into out[n:], by
    square; returns the new count."""
    for sq in range(SQUARES):
        if board[sq] * sign == HIDDEN:
            out[n] = sq
            n += 1
    return n


@njit(cache=True, inline="always")
def _write_moves(board, sign, out, n, which):
    """Writes the moves of the side `sign`'s face-up pieces that `which` selects into out[n:],
    by square and direction; returns the new count."""
    for sq in range(SQUARES):
        cell = board[sq] * sign
        if cell <= 0 or cell == HIDDEN:
            continue
        for d in range(4):
            to = NEIGHBOUR[sq, d]
            if to < 0:
                continue
            target = board[to] * sign
            if which == QUIET_ONLY:
                wanted = target == 0
            else:
                wanted = _may_enter(cell, target) and (which == ALL_MOVES or target < 0)
            if wanted:
                out[n] = NUM_REVEALS + sq * 4 + d
                n += 1
    return n


@njit(cache=True)
def legal_actions(board, player, out):
    """Writes `player`'s actions into `out` in `JungleDarkState.actions_of` order (reveals by
    square, then moves by square and direction); returns how many."""
    sign = 1 if player == 0 else -1
    return _write_moves(board, sign, out, _write_reveals(board, sign, out, 0), ALL_MOVES)


@njit(cache=True)
def _ordered_actions(board, player, out, killer0, killer1):
    """MinimaxAgent._ordered without a table: captures (moves onto any enemy, face down
    included) first, then the killer moves, then the rest, each group in `actions_of` order."""
    sign = 1 if player == 0 else -1
    quiet = _write_moves(board, sign, out, 0, CAPTURES_ONLY)
    n = _write_moves(board, sign, out, _write_reveals(board, sign, out, quiet), QUIET_ONLY)
    if killer0 >= 0:
        # Lift the (at most two) killers to the front of the quiet moves, keeping order.
        front = quiet
        for j in range(quiet, n):
            action = out[j]
            if action == killer0 or action == killer1:
                for i in range(j, front, -1):
                    out[i] = out[i - 1]
                out[front] = action
                front += 1
    return n


@njit(cache=True)
def _has_action(board, player):
    sign = 1 if player == 0 else -1
    for sq in range(SQUARES):
        cell = board[sq] * sign
        if cell <= 0:
            continue
        if cell == HIDDEN:
            return True
        for d in range(4):
            to = NEIGHBOUR[sq, d]
            if to >= 0 and _may_enter(cell, board[to] * sign):
                return True
    return False


@njit(cache=True)
def end_of_turn_status(board, player, no_capture, no_capture_limit):
    """dark.JungleDarkState._end_turn's verdict on a finished ply, `player` now to move:
    ONGOING, DRAW, or the winner."""
    zero = one = 0
    for sq in range(SQUARES):
        if board[sq] > 0:
            zero += 1
        elif board[sq] < 0:
            one += 1
    mover = 1 - player
    to_move_count = zero if player == 0 else one
    mover_count = one if player == 0 else zero
    if zero == 0 and one == 0:
        return DRAW
    if to_move_count == 0:
        return mover
    if mover_count == 0:
        return player
    if no_capture >= no_capture_limit:
        return DRAW
    if not _has_action(board, player):
        return mover
    return ONGOING


@njit(cache=True, inline="always")
def _odds_against_hidden(hidden_mask, strength):
    """heuristics._odds_against_hidden: (P(strength captures it), P(it captures strength)) for
    a face-down enemy drawn uniformly from `hidden_mask`."""
    size = wins = losses = 0
    for k in range(1, 9):
        if hidden_mask >> k & 1:
            size += 1
            wins += CAPTURES[strength, k]
            losses += CAPTURES[k, strength]
    if size == 0:
        return 0.0, 0.0
    return wins / size, losses / size


@njit(cache=True)
def evaluate(board, player, enemy_hidden, piece_count_weight, hunt_weight, simplify_weight=0.0):
    """heuristics.minimax_evaluation(state, player, piece_count_weight, simplify_weight)
    + hunt_weight * heuristics.hunt(state, player); `enemy_hidden` = state.hidden[1 - player]."""
    return _evaluate(board, player, enemy_hidden, piece_count_weight, hunt_weight,
                     simplify_weight, np.empty(2 * SQUARES, dtype=np.int64))


@njit(cache=True)
def _evaluate(board, player, enemy_hidden, piece_count_weight, hunt_weight, simplify_weight,
              squares):
    """`evaluate` with scratch room (`squares`, >= 32 ints) for the lists of own face-up and
    enemy squares. The same sums in the same order as the Python code, so the floats agree
    bit for bit."""
    sign = 1 if player == 0 else -1
    count = strength_sum = information = tactics = 0
    own = enemies = own_pieces = 0  # own face-up squares go to squares[0:16], enemy ones to [16:32]
    for sq in range(SQUARES):
        cell = board[sq] * sign
        if cell == 0:
            continue
        if cell > 0:
            own_pieces += 1
        if cell < 0:
            count -= 1
            squares[16 + enemies] = sq
            enemies += 1
            if cell == -HIDDEN:
                information -= 10
            else:
                strength_sum += cell
            continue
        count += 1
        if cell == HIDDEN:
            information += 5
            continue
        strength_sum += cell
        squares[own] = sq
        own += 1
        for d in range(4):
            nb = NEIGHBOUR[sq, d]
            if nb < 0:
                continue
            enemy = -board[nb] * sign
            if 0 < enemy < HIDDEN:
                if CAPTURES[cell, enemy]:
                    tactics += 20
                elif CAPTURES[enemy, cell]:
                    tactics -= 15
    value = piece_count_weight * count + 10 * strength_sum + information + tactics
    if simplify_weight != 0.0:  # heuristics.minimax_evaluation's trade-when-ahead term
        value = value + simplify_weight * count / (own_pieces + enemies)
    if hunt_weight == 0.0 or enemies == 0:  # heuristics.hunt is then 0
        return value
    # heuristics.hunt: each own face-up piece and its nearest enemy (the first in square order
    # at the least Manhattan distance d): 3 / (1 + d) if it can take it, -4 / (1 + d) if taken.
    # The defaults' trade-when-ahead (heuristics.hunt(trade_when_ahead=True)) goes with a
    # non-zero simplify weight: ahead in pieces, an equal enemy is one to take.
    trade = simplify_weight != 0.0 and own_pieces > enemies
    opp = threat = 0.0
    for i in range(own):
        sq = squares[i]
        strength = board[sq] * sign
        distance, nearest = 99, 0
        for j in range(enemies):
            esq = squares[16 + j]
            d = DISTANCE[sq, esq]
            if d < distance:
                distance, nearest = d, esq
        enemy = -board[nearest] * sign
        if enemy == HIDDEN:
            win, lose = _odds_against_hidden(enemy_hidden, strength)
        else:
            win = 1.0 if CAPTURES[strength, enemy] or (trade and strength == enemy) else 0.0
            lose = 1.0 if CAPTURES[enemy, strength] else 0.0
        opp += win * 3.0 / (1 + distance)
        threat -= lose * 4.0 / (1 + distance)
    return value + hunt_weight * (opp + threat)


@njit(cache=True, inline="always")
def _make(board, no_capture, action):
    """Plays decision `action` on `board` in place. Returns (from, to, pending, next no_capture,
    moved cell, target cell): pending = a chance node follows (a reveal, from == to, or a blind
    attack), and the board is untouched; else the ply is finished and `_unmake` undoes it."""
    if action < NUM_REVEALS:
        return action, action, True, no_capture, board[action], board[action]
    frm = (action - NUM_REVEALS) // 4
    to = NEIGHBOUR[frm, (action - NUM_REVEALS) % 4]
    moved = board[frm]
    target = board[to]
    if target == HIDDEN or target == -HIDDEN:  # a blind attack: the defender's reveal first
        return frm, to, True, no_capture, moved, target
    if target == 0:
        board[to] = moved
        next_no_capture = no_capture + 1
    elif CAPTURES[abs(moved), abs(target)]:
        board[to] = moved
        next_no_capture = 0
    else:  # equal strengths destroy each other
        board[to] = 0
        next_no_capture = 0
    board[frm] = 0
    return frm, to, False, next_no_capture, moved, target


@njit(cache=True, inline="always")
def _unmake(board, frm, to, moved, target):
    """Undoes `_make` given what it returned (after a pending move, which left the board as
    it was, this changes nothing)."""
    board[frm] = moved
    board[to] = target


@njit(cache=True)
def _value(board, hidden0, hidden1, player, no_capture, plies, frm, to, depth, alpha, beta,
           ctx, weights, buffer, killers, counter):
    """MinimaxAgent._value (tt=False) at the node reached by a finished action.

    `to` >= 0: a chance node waiting for the strength of the face-down piece on `to` (`frm`
    == `to` a reveal, else a blind attack from `frm`), `player` the side that acted. `to` < 0:
    a finished ply, `player` to move. ctx = (me, no_capture_limit, reveal_is_progress,
    max_nodes); weights = (piece_count_weight, hunt_weight); buffer[d] holds the actions of
    the node with d plies left (row 0, as depth-0 nodes do not expand, is the evaluation's
    scratch), killers[d] the two latest moves that cut off there (newest first, -1 none) as
    the Python agent keeps them, so both search the same tree. counter[0] counts nodes as the
    Python agent does (every call); counter[1] = 1 once past max_nodes, and the search unwinds.
    One self-recursive function: numba could not type the mutual recursion of separate
    decision, move and chance functions."""
    counter[0] += 1
    if counter[0] > ctx[3]:
        counter[1] = 1
        return 0.0
    me = ctx[0]
    none = to - to - 1  # -1 typed like the other square arguments
    if to >= 0:
        # Chance: the expectation over the pool's strengths, each with a full window.
        face_down = board[to]
        attacker = board[frm]
        owner = 0 if face_down > 0 else 1
        sign = 1 if owner == 0 else -1
        pool = hidden0 if owner == 0 else hidden1
        size = 0
        for k in range(1, 9):
            size += pool >> k & 1
        p = 1.0 / size
        total = 0.0
        for k in range(1, 9):
            if not pool >> k & 1:
                continue
            rest = pool & ~(1 << k)
            if frm == to:
                board[to] = sign * k
                next_no_capture = 0 if ctx[2] != 0 else no_capture + 1
            else:
                strength = abs(attacker)
                if CAPTURES[strength, k]:
                    board[to] = attacker
                elif strength == k:
                    board[to] = 0
                else:  # the defender is stronger: the attacker dies, the defender shows
                    board[to] = sign * k
                board[frm] = 0
                next_no_capture = no_capture - no_capture
            value = _value(board, rest if owner == 0 else hidden0,
                           hidden1 if owner == 0 else rest, 1 - player, next_no_capture, plies,
                           none, none, depth, -_INF, _INF, ctx, weights, buffer, killers,
                           counter)
            board[frm] = attacker
            board[to] = face_down
            if counter[1]:
                return 0.0
            total += p * value
        return total

    status = end_of_turn_status(board, player, no_capture, ctx[1])
    if status != ONGOING:
        if status == DRAW:
            return 0.0
        return WIN_VALUE - plies if status == me else -(WIN_VALUE - plies)
    if depth <= 0:
        return _evaluate(board, me, hidden1 if me == 0 else hidden0, weights[0], weights[1],
                         weights[2], buffer[0])
    actions = buffer[depth]
    n = _ordered_actions(board, player, actions, killers[depth, 0], killers[depth, 1])
    maximising = player == me
    best = -_INF if maximising else _INF
    for i in range(n):
        cfrm, cto, pending, next_no_capture, moved, target = _make(board, no_capture,
                                                                  actions[i])
        # A pending move leads to a chance node on `cto`, the same side having acted.
        value = _value(board, hidden0, hidden1, player if pending else 1 - player,
                       next_no_capture, plies + 1, cfrm if pending else none,
                       cto if pending else none, depth - 1, alpha, beta, ctx, weights, buffer,
                       killers, counter)
        _unmake(board, cfrm, cto, moved, target)
        if counter[1]:
            return 0.0
        if maximising:
            if value > best:
                best = value
            if value > alpha:
                alpha = value
        else:
            if value < best:
                best = value
            if value < beta:
                beta = value
        if alpha >= beta:
            action = actions[i]
            if action != killers[depth, 0] and action != killers[depth, 1]:
                killers[depth, 1] = killers[depth, 0]
                killers[depth, 0] = action
            break
    return best


@njit(cache=True)
def search_root(board, hidden0, hidden1, player, no_capture, plies, no_capture_limit,
                reveal_is_progress, root_actions, depth, me, piece_count_weight, hunt_weight,
                max_nodes, simplify_weight=0.0):
    """MinimaxAgent._root with tt=False over `root_actions` in the given order: each action's
    value is searched with window (best so far, +inf) and the first strictly better is kept.
    Returns (best_index, best_value, nodes, completed); completed is False when the search
    passed `max_nodes` nodes and stopped (best_* then cover the actions finished so far)."""
    work = board.astype(np.int8)
    ctx = np.array([me, no_capture_limit, 1 if reveal_is_progress else 0, max_nodes],
                   dtype=np.int64)
    weights = np.array([piece_count_weight, hunt_weight, simplify_weight], dtype=np.float64)
    buffer = np.zeros((depth + 1, NUM_ACTIONS), dtype=np.int64)
    killers = np.full((depth + 1, 2), -1, dtype=np.int64)
    counter = np.zeros(2, dtype=np.int64)
    h0, h1 = np.int64(hidden0), np.int64(hidden1)
    mover, other = np.int64(player), np.int64(1 - player)
    none = np.int64(-1)
    alpha = -_INF
    best_index = 0
    for i in range(len(root_actions)):
        frm, to, pending, next_no_capture, moved, target = _make(work, np.int64(no_capture),
                                                                 np.int64(root_actions[i]))
        value = _value(work, h0, h1, mover if pending else other, np.int64(next_no_capture),
                       np.int64(plies + 1), np.int64(frm) if pending else none,
                       np.int64(to) if pending else none, np.int64(depth - 1), alpha, _INF,
                       ctx, weights, buffer, killers, counter)
        _unmake(work, frm, to, moved, target)
        if counter[1]:
            return best_index, alpha, counter[0], False
        if value > alpha:
            alpha = value
            best_index = i
    return best_index, alpha, counter[0], True


def compiled_search(state: JungleDarkState, depth: int, me: int, piece_count_weight: float,
                    hunt_weight: float, root_actions: list[int],
                    max_nodes: int | None = None,
                    simplify_weight: float = 0.0) -> tuple[int, float, int, bool]:
    """`MinimaxAgent._root(state, root_actions, depth, root_actions[0])` with tt=False and the
    leaf evaluation minimax_evaluation(w) + hunt_weight x hunt, compiled.

    Returns (best action, its value from `me`'s view, nodes searched, completed); the search
    stops once it has searched more than `max_nodes` nodes (None: no limit) and then returns
    completed False with the best of the root actions finished so far."""
    if state.is_terminal() or state.pending is not None:
        raise ValueError("compiled_search needs a position with a player to move, not a "
                         f"{'finished game' if state.is_terminal() else 'pending reveal'}:\n"
                         f"{state}")
    if depth < 1:
        raise ValueError(f"compiled_search depth must be at least 1, not {depth}")
    if not root_actions:
        raise ValueError("compiled_search needs at least one root action")
    settings = state.game.settings
    index, value, nodes, completed = search_root(
        np.asarray(state.board, dtype=np.int8), state.hidden[0], state.hidden[1], state.player,
        state.no_capture, state.plies, settings.no_capture_limit, settings.reveal_is_progress,
        np.asarray(root_actions, dtype=np.int64), depth, me, float(piece_count_weight),
        float(hunt_weight), NO_LIMIT if max_nodes is None else int(max_nodes),
        float(simplify_weight))
    return int(root_actions[index]), float(value), int(nodes), bool(completed)


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here

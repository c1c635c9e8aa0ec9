"""Compiled MiniChess jobs (numba): what tree search asks of a position, as whole calls.

The same rules as rules.py and game.py over its tables as padded numpy arrays (-1 ends a
list), on int8 boards of 30 cells: move generation, the verdict on a position (a king capture
on offer wins, then the ply cap's material count, then no move loses), a whole random game in
one call (MCTS rollouts), perft, and the 12x6x5 network planes for a batch of positions. The
alpha-beta search (search.py) is built from these. tests/games/minichess/
test_minichess_kernels.py checks each against `MiniChessState` move by move.

Python-facing: `moves`, `perft`, `verdict`, `random_playout`, `encode_batch`;
`array_rules()`, the rules over rows of int64 words (core/arrayrules.py) for AlphaZero's
compiled search.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ...core.arrayrules import ArrayRules
from ...core.game import TERMINAL
from ...core.kernelcache import fresh_cache
from ..chesslike import DIAGONAL, ORTHOGONAL, padded, padded_ray_table
from . import rules
from .rules import ADJUDICATION_VALUES, BISHOP, KING, KNIGHT_, PAWN, QUEEN, ROOK, SQUARES

if TYPE_CHECKING:
    from .game import MiniChessState

MAX_MOVES = 128
"""Above any MiniChess position's count (a lone queen has at most 15 moves)."""
ONGOING, DRAW = -2, -1
"""Verdicts besides a winner 0 or 1 (`MiniChessState.winner` uses -1 for a draw too)."""
MATERIAL = np.array(ADJUDICATION_VALUES, dtype=np.int64)
"""The ply cap's material count (P2 R6 N7 B8 Q20 K100), by piece type."""

RAYS = padded_ray_table(rules.ROWS, rules.COLS, ORTHOGONAL + DIAGONAL)
"""RAYS[sq, d]: directions 0-3 orthogonal, 4-7 diagonal, squares nearest first."""
KNIGHT_STEPS = padded(rules.KNIGHT_STEPS, 8)
KING_STEPS = padded(rules.KING_STEPS, 8)


@njit(cache=True)
def generate(board, player, out):
    """rules.moves into out[:, 0:2] = (from, to); returns (count, whether one of them takes
    the enemy king)."""
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
            for k in range(8):
                t = KNIGHT_STEPS[sq, k] if cell == KNIGHT_ else KING_STEPS[sq, k]
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
                    t = RAYS[sq, d, k]
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
def king_capturable(board, player):
    """Whether `player` could capture the enemy king (`generate`'s second answer, without
    generating)."""
    sign = 1 if player == 0 else -1
    for sq in range(30):
        if board[sq] == -KING * sign:
            return attacks(board, player, sq)
    return False


@njit(cache=True, inline="always")
def attacks(board, player, target):
    """Whether a piece of `player` could capture on `target`: the square looked at from each
    kind of piece's moves backwards."""
    sign = 1 if player == 0 else -1
    behind = target + 5 if player == 0 else target - 5  # where a pawn taking there stands
    col = target % 5
    if 0 <= behind < 30:
        for dc in (-1, 1):
            if 0 <= col + dc < 5 and board[behind + dc] * sign == PAWN:
                return True
    for k in range(8):
        if KNIGHT_STEPS[target, k] >= 0 and board[KNIGHT_STEPS[target, k]] * sign == KNIGHT_:
            return True
        if KING_STEPS[target, k] >= 0 and board[KING_STEPS[target, k]] * sign == KING:
            return True
    for d in range(8):  # 0-3 orthogonal (rook, queen), 4-7 diagonal (bishop, queen)
        for k in range(5):
            t = RAYS[target, d, k]
            if t < 0:
                break
            piece = board[t] * sign
            if piece != 0:
                if piece == QUEEN or piece == (ROOK if d < 4 else BISHOP):
                    return True
                break
    return False


@njit(cache=True)
def has_move(board, player):
    """Whether `player` has any move (a king always has a step unless walled in)."""
    sign = 1 if player == 0 else -1
    forward = -5 if player == 0 else 5
    for sq in range(30):
        cell = board[sq] * sign
        if cell <= 0:
            continue
        if cell == PAWN:
            t = sq + forward
            if 0 <= t < 30:
                col = sq % 5
                if board[t] == 0 or (col > 0 and board[t - 1] * sign < 0) or (
                        col < 4 and board[t + 1] * sign < 0):
                    return True
        elif cell == KNIGHT_:
            for k in range(8):
                if KNIGHT_STEPS[sq, k] >= 0 and board[KNIGHT_STEPS[sq, k]] * sign <= 0:
                    return True
        else:  # a king or a slider: its first step in some direction is free or a capture
            for k in range(8):
                t = KING_STEPS[sq, k]
                if t < 0:
                    break
                diagonal = t // 5 != sq // 5 and t % 5 != sq % 5
                if (cell == KING or cell == QUEEN or (cell == ROOK) != diagonal) and \
                        board[t] * sign <= 0:
                    return True
    return False


@njit(cache=True, inline="always")
def play(board, player, frm, to):
    """rules.play: move, promoting a pawn on its last row; returns the captured cell. Undo
    with `take_back` and the moved cell as it was."""
    captured = board[to]
    moved = board[frm]
    if (moved == PAWN or moved == -PAWN) and to // 5 == (0 if player == 0 else 5):
        moved = QUEEN if moved > 0 else -QUEEN
    board[to] = moved
    board[frm] = 0
    return captured


@njit(cache=True, inline="always")
def take_back(board, frm, to, moved, captured):
    board[frm] = moved
    board[to] = captured


@njit(cache=True)
def _perft(board, player, depth):
    if depth == 0:
        return 1
    moves = np.empty((MAX_MOVES, 2), dtype=np.int16)
    n, takes_king = generate(board, player, moves)
    if takes_king:
        return 0  # a final position: a leaf, nothing below it
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        frm = moves[i, 0]
        to = moves[i, 1]
        moved = board[frm]
        captured = play(board, player, frm, to)
        total += _perft(board, 1 - player, depth - 1)
        take_back(board, frm, to, moved, captured)
    return total


# --- the end of a game ---------------------------------------------------------------------------

@njit(cache=True)
def adjudicate(board):
    """The material count at the ply cap: the winner, or DRAW."""
    white = black = 0
    for sq in range(30):
        if board[sq] > 0:
            white += MATERIAL[board[sq]]
        elif board[sq] < 0:
            black += MATERIAL[-board[sq]]
    return 0 if white > black else 1 if black > white else DRAW


@njit(cache=True, inline="always")
def settle(board, player, plies, max_plies, count, takes_king):
    """MiniChessState._settle given the position's moves (`count`, `takes_king`): the side to
    move wins if it could take the king, then the ply cap counts material, then a side
    without a move loses. ONGOING, DRAW or the winner."""
    if takes_king:
        return player
    if plies >= max_plies:
        return adjudicate(board)
    if count == 0:
        return 1 - player
    return ONGOING


@njit(cache=True)
def _random_game(board, player, plies, max_plies, seed, trace):
    """Play uniformly random moves to the end; return (winner or DRAW, moves played), the moves
    in `trace` as from * 30 + to while it has room."""
    np.random.seed(seed)  # numba's own generator: per thread, independent of numpy's
    moves = np.empty((MAX_MOVES, 2), dtype=np.int16)
    played = 0
    while True:
        n, takes_king = generate(board, player, moves)
        verdict = settle(board, player, plies, max_plies, n, takes_king)
        if verdict != ONGOING:
            return verdict, played
        i = np.random.randint(0, n)
        play(board, player, moves[i, 0], moves[i, 1])
        if played < trace.shape[0]:
            trace[played] = moves[i, 0] * 30 + moves[i, 1]
        played += 1
        player = 1 - player
        plies += 1


# --- network input -------------------------------------------------------------------------------

@njit(cache=True)
def _encode_into(board, player, out):
    """MiniChessState.encode of one board from `player`'s seat into `out`, all zeros."""
    white = player == 0
    for sq in range(30):
        cell = board[sq]
        if cell == 0:
            continue
        # Black sees the board turned 180 degrees, its own pieces positive.
        seen = sq if white else 29 - sq
        own = cell if white else -cell
        out[own - 1 if own > 0 else 5 - own, seen // 5, seen % 5] = 1.0


@njit(cache=True)
def _encode(boards, players, out):
    """MiniChessState.encode for each board from players[i]'s seat."""
    for i in range(boards.shape[0]):
        _encode_into(boards[i], players[i], out[i])


# --- Python-facing -------------------------------------------------------------------------------

def moves(board: list[int], player: int) -> tuple[list[tuple[int, int]], bool]:
    """The kernel's (from, to) moves and whether one takes the enemy king."""
    out = np.empty((MAX_MOVES, 2), dtype=np.int16)
    n, takes_king = generate(np.asarray(board, dtype=np.int8), player, out)
    return [(int(out[i, 0]), int(out[i, 1])) for i in range(n)], bool(takes_king)


def perft(board: list[int], player: int, depth: int) -> int:
    """Leaf count `depth` plies deep, as rules.perft counts it, in one compiled call."""
    return int(_perft(np.asarray(board, dtype=np.int8), player, depth))


def verdict(state) -> int:
    """`settle` on `state`'s position: ONGOING, DRAW or the winner."""
    board = np.asarray(state.board, dtype=np.int8)
    n, takes_king = generate(board, state.player, np.empty((MAX_MOVES, 2), dtype=np.int16))
    return int(settle(board, state.player, state.plies, state.game.settings.max_plies, n,
                      takes_king))


def random_playout(state, seed: int,
                   trace_length: int = 0) -> tuple[list[float], list[int]]:
    """One uniformly random game from `state` (not finished) in one compiled call: (returns
    per player; the first `trace_length` moves played, as from * 30 + to). The same seed
    (modulo 2**32) gives the same game."""
    trace = np.empty(trace_length, dtype=np.int64)
    winner, played = _random_game(np.asarray(state.board, dtype=np.int8), state.player,
                                  state.plies, state.game.settings.max_plies,
                                  seed & 0xFFFFFFFF, trace)
    returns = [0.0, 0.0] if winner == DRAW else [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
    return returns, trace[:min(played, trace_length)].tolist()


def encode_batch(states, players) -> np.ndarray:
    """float32 (n, 12, 6, 5): `states[i].encode(players[i])` for all, in one compiled call."""
    boards = np.array([s.board for s in states], dtype=np.int8).reshape(-1, SQUARES)
    out = np.zeros((len(states), 12, rules.ROWS, rules.COLS), dtype=np.float32)
    _encode(boards, np.asarray(players, dtype=np.int64), out)
    return out


# --- array rules (core/arrayrules.py): a position as a row of 34 int64 words ---------------------
# row[0:30] the board's cells, row[PLAYER] the side to move, row[PLIES] the plies played,
# row[VERDICT] ONGOING, DRAW or the winner (`settle`), row[MAX_PLIES] the game's ply cap.
PLAYER, PLIES, VERDICT, MAX_PLIES = 30, 31, 32, 33
ROW_WIDTH = 34


@njit(cache=True)
def row_legal_actions(row, out):
    """The mover's actions (from * 30 + to) ascending, as MiniChessState.legal_actions."""
    if row[VERDICT] != ONGOING:
        return 0
    moves = np.empty((MAX_MOVES, 2), dtype=np.int16)
    n, _ = generate(row[:SQUARES], row[PLAYER], moves)
    for i in range(n):  # insertion sort: generate gives them by from-square, not by target
        action = np.int64(moves[i, 0]) * SQUARES + moves[i, 1]
        j = i
        while j > 0 and out[j - 1] > action:
            out[j] = out[j - 1]
            j -= 1
        out[j] = action
    return n


@njit(cache=True)
def row_play(row, action, out):
    """The row after the mover plays `action`, settled as MiniChessState._settle: a king
    capture on offer, then the ply cap, then no move."""
    out[:] = row
    board = out[:SQUARES]
    player = row[PLAYER]
    play(board, player, action // SQUARES, action % SQUARES)
    player = 1 - player
    out[PLAYER] = player
    out[PLIES] = row[PLIES] + 1
    out[VERDICT] = settle(board, player, out[PLIES], row[MAX_PLIES],
                          1 if has_move(board, player) else 0, king_capturable(board, player))


@njit(cache=True)
def row_current_player(row):
    return row[PLAYER] if row[VERDICT] == ONGOING else TERMINAL


@njit(cache=True)
def row_player0_return(row):
    verdict = row[VERDICT]
    return 1.0 if verdict == 0 else (-1.0 if verdict == 1 else 0.0)


@njit(cache=True)
def row_encode(row, out):
    """`encode.network_input` for the player to move."""
    out[:] = 0.0
    _encode_into(row[:SQUARES], row[PLAYER], out)


def pack_row(state: MiniChessState) -> np.ndarray:
    """The row of a MiniChess State."""
    verdict = ONGOING if state.winner is None else state.winner  # -1 is DRAW in both
    return np.array([*state.board, state.player, state.plies, verdict,
                     state.game.settings.max_plies], dtype=np.int64)


@cache
def array_rules() -> ArrayRules:
    """MiniChess over rows of ROW_WIDTH words (MiniChessGame.array_rules)."""
    return ArrayRules(ROW_WIDTH, pack_row, row_legal_actions, row_play, row_current_player,
                      row_player0_return, row_encode)


fresh_cache(__name__)  # numba's disk cache notices edits to every file read here

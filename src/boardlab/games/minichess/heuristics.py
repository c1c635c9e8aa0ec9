"""MiniChess state values, from `player`'s point of view: seed 004's material count, the same
count with piece-square bonuses (what the engine-strength search plays with), and a table of
piece-square values fitted to game results by Texel's method (`tuned`, shipped as
models/minichess-tuned-eval.npz: README.md#how-the-tuned-evaluation-was-made)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np

from ...core.game import LinearEvaluation
from ..chesslike import (material_and_position, piece_square_parameters, read_tuned_table,
                         shipped_tuned_rows, table_and_activity, with_counted_features)
from .game import MiniChessState
from .rules import (COLS, KING, KING_STEPS, KNIGHT_, KNIGHT_STEPS, PAWN, ROWS, SLIDER_RAYS,
                    SQUARES)

MATERIAL_VALUES = (0, 2, 6, 7, 8, 20, 1000)
"""Seed 004's `material_value`: empty, pawn, rook, knight, bishop, queen, king."""


def _by_row(*row_bonus: float) -> tuple[float, ...]:
    """A piece-square table (player 0's view, row 0 on top) giving each row one bonus."""
    return tuple(bonus for bonus in row_bonus for _ in range(COLS))


def _centre(inner: float, edge: float, corner: float) -> tuple[float, ...]:
    """A piece-square table that pays `inner` off the edges, `edge` on them, `corner` in the
    four corners."""
    table = []
    for row in range(ROWS):
        for col in range(COLS):
            on_rows, on_cols = row in (0, ROWS - 1), col in (0, COLS - 1)
            table.append(corner if on_rows and on_cols else edge if on_rows or on_cols
                         else inner)
    return tuple(table)


POSITION_BONUS = (
    _by_row(0.0, 0.0, 0.0, 0.0, 0.0, 0.0),       # empty
    # A pawn nearer its last row is nearer a queen (worth 20 to its 2): the bonus grows as
    # the promotion comes within reach, yet stays below a pawn so no piece is given for it.
    _by_row(0.0, 1.5, 0.8, 0.3, 0.0, 0.0),
    _centre(0.2, 0.1, 0.0),                      # rook: a little more room inside
    _centre(0.5, 0.0, -0.4),                     # knight: attacks few squares on the edge
    _centre(0.3, 0.1, 0.0),                      # bishop
    _centre(0.2, 0.0, 0.0),                      # queen
    # No check here: a king that walks out is taken by the first attacker that reaches it.
    _by_row(-0.6, -0.6, -0.6, -0.4, 0.0, 0.3),
)
"""POSITION_BONUS[kind][square]: what a piece adds beside its material value, as player 0
sees the board (player 1 reads the mirrored square). Hand-set: small against a pawn (2), so
material decides and the bonuses break ties between quiet moves."""


def material(state: MiniChessState, player: int) -> float:
    """Sum of `player`'s piece values minus the opponent's (seed 004's `evaluate`)."""
    return material_and_position(state.board, player, MATERIAL_VALUES, None, ROWS, COLS)


def positional(state: MiniChessState, player: int) -> float:
    """Seed 004's material plus `POSITION_BONUS` for each piece, minus the opponent's."""
    return material_and_position(state.board, player, MATERIAL_VALUES, POSITION_BONUS, ROWS,
                                 COLS)


ACTIVITY = len(MATERIAL_VALUES)
"""The row of a heuristic's parameters (`parameters`) below its piece-square table that holds
its activity weights: [ACTIVITY, kind] per move of a piece of that type, [ACTIVITY, ZONE] per
square attacked or defended next to the enemy king (`activity`); the rest of the row is 0."""
ZONE = KING + 1
TUNED_FILE = "minichess-tuned-eval.npz"
"""The shipped tuned table's name in boardlab/models/."""


def parameters(name: str) -> np.ndarray:
    """The heuristic `name`'s (material, positional, tuned) parameters, shape (8, 30): the
    piece-square table (value plus bonus per piece type and square, white's view) in rows 0-6,
    activity weights in row ACTIVITY (0 but for the tuned one); KeyError for another."""
    if name == "tuned":
        return np.array(tuned_parameters(), dtype=np.float64)
    bonus = {"material": None, "positional": POSITION_BONUS}[name]
    table = piece_square_parameters(MATERIAL_VALUES, bonus, SQUARES)
    return np.vstack([table, np.zeros((1, SQUARES))])


def read_tuned(path: str | Path) -> np.ndarray:
    """A tuned file's (8, 30) parameters (a BoardLabError of one sentence if it is not one);
    a file from before the activity weights (a (7, 30) table) reads with them 0."""
    table = read_tuned_table(path, "minichess", (ACTIVITY + 1, SQUARES),
                             older=((ACTIVITY, SQUARES),))
    return np.vstack([table, np.zeros((ACTIVITY + 1 - len(table), SQUARES))])


@functools.cache
def tuned_parameters() -> tuple[tuple[float, ...], ...]:
    """The shipped tuned parameters (boardlab/models/minichess-tuned-eval.npz), read once, as
    tuples of floats."""
    return shipped_tuned_rows("minichess", TUNED_FILE, read_tuned)


def _near(square: int, king: int) -> bool:
    return king >= 0 and abs(square // COLS - king // COLS) <= 1 and \
        abs(square % COLS - king % COLS) <= 1


def piece_activity(board: Sequence[int]) -> Iterator[tuple[int, int, int, int]]:
    """(sign, kind, moves, zone) for each piece in square order: its side (+1 white), its type,
    the moves it has (a pawn: its step forward, when free) and the squares on or next to the
    enemy king it attacks or defends (a king's own are not counted)."""
    kings = [board.index(KING) if KING in board else -1,
             board.index(-KING) if -KING in board else -1]
    for square, cell in enumerate(board):
        if cell == 0:
            continue
        sign = 1 if cell > 0 else -1
        kind = cell * sign
        enemy_king = kings[1] if cell > 0 else kings[0]
        moves = zone = 0
        if kind == PAWN:
            target = square - COLS if cell > 0 else square + COLS
            if 0 <= target < SQUARES:
                moves += board[target] == 0
                col = square % COLS
                zone += sum(_near(target + dc, enemy_king) for dc in (-1, 1)
                            if 0 <= col + dc < COLS)
        elif kind in (KNIGHT_, KING):
            for target in (KNIGHT_STEPS if kind == KNIGHT_ else KING_STEPS)[square]:
                moves += board[target] * sign <= 0
                zone += kind == KNIGHT_ and _near(target, enemy_king)
        else:
            for ray in SLIDER_RAYS[kind][square]:
                for target in ray:
                    moves += board[target] * sign <= 0
                    zone += _near(target, enemy_king)
                    if board[target] != 0:
                        break
        yield sign, kind, moves, zone


def activity(board: Sequence[int], weights: Sequence[float]) -> float:
    """White's activity minus black's: for each piece (`piece_activity`), `weights[kind]` per
    move plus `weights[ZONE]` per square next to the enemy king, summed piece by piece in
    square order, as the compiled search (search.py `activity`) sums it, so the floats
    agree."""
    score = 0.0
    for sign, kind, moves, zone in piece_activity(board):
        score += sign * (moves * weights[kind] + zone * weights[ZONE])
    return score


def with_activity(table: LinearEvaluation, parameters_of: Callable[[str], np.ndarray]
                  ) -> LinearEvaluation:
    """The tuner's view of the heuristics (`MiniChessGame.linear_evaluation`): the piece-square
    `table`'s features, and a feature per move and per square next to the enemy king of each
    piece (`piece_activity`), white's +1 and black's -1, in the ACTIVITY row; of that row only
    the weights `activity` reads are free. `parameters_of(evaluator)`: all eight rows."""
    def counted(board: Sequence[int]) -> Iterator[tuple[int, int, int]]:
        for side, kind, moves, zone in piece_activity(board):
            yield side, kind, moves
            yield side, ZONE, zone

    return with_counted_features(table, parameters_of, ACTIVITY, range(1, ZONE + 1), counted)


def tuned(state: MiniChessState, player: int) -> float:
    """The tuned table's piece-square sum (material included) plus its activity term, for
    `player`, minus the opponent's."""
    return table_and_activity(state.board, player, tuned_parameters(), activity, ROWS, COLS)

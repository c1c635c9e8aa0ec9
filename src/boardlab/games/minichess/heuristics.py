"""MiniChess state values, from `player`'s point of view: seed 004's material count, the same
count with piece-square bonuses (what the engine-strength search plays with), and a table of
piece-square values fitted to game results by Texel's method (`tuned`, shipped as
models/minichess-tuned-eval.npz: README.md#how-the-tuned-evaluation-was-made)."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from ...core.game import BoardLabError
from ...core.weights import shipped_file, shipped_weights
from ..chesslike import material_and_position, piece_square_parameters, read_tuned_table
from .game import MiniChessState
from .rules import COLS, ROWS, SQUARES

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


TUNED_FILE = "minichess-tuned-eval.npz"
"""The shipped tuned table's name in boardlab/models/."""
NO_VALUES = (0.0,) * len(MATERIAL_VALUES)
"""The tuned table holds material and position in one number per piece and square."""


def parameters(name: str) -> np.ndarray:
    """The piece-square table (value plus bonus per piece type and square, white's view) of
    the heuristic `name` (material, positional, tuned); KeyError for another."""
    if name == "tuned":
        return np.array(tuned_parameters(), dtype=np.float64)
    bonus = {"material": None, "positional": POSITION_BONUS}[name]
    return piece_square_parameters(MATERIAL_VALUES, bonus, SQUARES)


def read_tuned(path: str | Path) -> np.ndarray:
    """A tuned table file's (7, 30) table (a BoardLabError of one sentence if it is not one)."""
    return read_tuned_table(path, "minichess", (len(MATERIAL_VALUES), SQUARES))


@functools.cache
def tuned_parameters() -> tuple[tuple[float, ...], ...]:
    """The shipped tuned table (boardlab/models/minichess-tuned-eval.npz), read once, as
    tuples of floats."""
    if not shipped_file(TUNED_FILE).is_file():
        raise BoardLabError(f"BoardLab ships no tuned minichess evaluation (models/{TUNED_FILE} "
                            f"is not installed): make one with `boardlab train minichess texel "
                            f"--out {TUNED_FILE}` and put it there")
    path = shipped_weights("minichess", "tuned-eval", ".npz", "texel")
    return tuple(tuple(float(x) for x in row) for row in read_tuned(path))


def tuned(state: MiniChessState, player: int) -> float:
    """The tuned table's piece-square sum (material included) for `player`, minus the
    opponent's."""
    return material_and_position(state.board, player, NO_VALUES, tuned_parameters(), ROWS,
                                 COLS)

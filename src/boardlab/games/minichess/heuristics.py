"""MiniChess state values, from `player`'s point of view: seed 004's material count, and the
same count with piece-square bonuses (what the engine-strength search plays with)."""

from __future__ import annotations

from ..chesslike import material_and_position
from .game import MiniChessState
from .rules import COLS, ROWS

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

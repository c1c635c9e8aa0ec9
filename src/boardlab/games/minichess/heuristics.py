"""Seed 004's state value: material difference, from `player`'s point of view."""

from __future__ import annotations

from ..chesslike import material_and_position
from .game import MiniChessState
from .rules import COLS, ROWS

MATERIAL_VALUES = (0, 2, 6, 7, 8, 20, 1000)
"""Seed 004's `material_value`: empty, pawn, rook, knight, bishop, queen, king."""


def material(state: MiniChessState, player: int) -> float:
    """Sum of `player`'s piece values minus the opponent's (seed 004's `evaluate`)."""
    return material_and_position(state.board, player, MATERIAL_VALUES, None, ROWS, COLS)

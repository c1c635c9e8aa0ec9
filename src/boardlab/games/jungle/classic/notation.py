"""Classic Jungle as text: squares (files a-g, ranks 1-9 from player 0's side), the terrain
of a square in words, and the start position in the position notation that
`JungleClassicState.to_text` writes and `parse_position` reads (README.md)."""

from __future__ import annotations

from .. import common
from ..pieces import square_name
from .rules import COLS, DENS, IS_WATER, ROWS, TRAP_OWNER

START_TEXT = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L 0 0"
"""The standard setup: player 0 tiger a1, lion g1, cat b2, dog f2, elephant a3, wolf c3,
leopard e3, rat g3; player 1 the same turned half a circle (lion a9 ... rat a7)."""


def sq_name(square: int) -> str:
    return square_name(*divmod(square, COLS))


def parse_square(text: str) -> int:
    return common.parse_square(text, ROWS, COLS, "7x9 Jungle board")


def terrain_name(square: int) -> str:
    if IS_WATER[square]:
        return "water"
    if square in DENS:
        return f"player {DENS.index(square)}'s den"
    if TRAP_OWNER[square] >= 0:
        return f"player {TRAP_OWNER[square]}'s trap"
    return "land"

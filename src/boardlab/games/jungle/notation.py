"""Jungle dark chess as text, both ways: squares (files a-h, ranks 1-7 from player 0's home
row, `a1`) and the letters of a position's board field (ranks 7..1 as in FEN, written and read
by `chesslike.board_field`: the animals' letters and X face down, lower case player 1). The
State writes and reads the whole position (`to_text`, `parse_position`)."""

from __future__ import annotations

from . import common
from .pieces import ANIMAL_LETTERS, square_name
from .rules import COLS, HIDDEN, ROWS

LETTER_OF = {**ANIMAL_LETTERS, HIDDEN: "X"}
"""Cell kind -> its upper-case letter (lower case for player 1's)."""
LETTERS = {letter: kind for kind, letter in LETTER_OF.items()}


def sq_name(square: int) -> str:
    return square_name(*divmod(square, COLS))


def parse_square(text: str) -> int:
    return common.parse_square(text, ROWS, COLS, "8x7 board")

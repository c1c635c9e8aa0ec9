"""Jungle dark chess as text, both ways: squares (files a-h, ranks 1-7 from player 0's home
row, `a1`) and the letters of a position's board field (ranks 7..1 as in FEN, written and read
by `chesslike.board_field`: the animals' letters and X face down, lower case player 1). The
State writes and reads the whole position (`to_text`, `parse_position`)."""

from __future__ import annotations

from ...core.game import ParseError
from .pieces import ANIMAL_LETTERS, square_name
from .rules import COLS, HIDDEN

LETTER_OF = {**ANIMAL_LETTERS, HIDDEN: "X"}
"""Cell kind -> its upper-case letter (lower case for player 1's)."""
LETTERS = {letter: kind for kind, letter in LETTER_OF.items()}


def sq_name(square: int) -> str:
    return square_name(*divmod(square, COLS))


def parse_square(text: str) -> int:
    text = text.strip().lower()
    if len(text) != 2 or not ("a" <= text[0] <= "h") or not ("1" <= text[1] <= "7"):
        raise ParseError(f"{text!r} is not a square of the 8x7 board (a1..h7)")
    return (int(text[1]) - 1) * COLS + ord(text[0]) - ord("a")

"""Jungle dark chess's squares as text, both ways: files a-h, ranks 1-7 from player 0's home
row (`a1`). Moves and positions are written by the State (`action_to_str`, `to_text`)."""

from __future__ import annotations

from ...core.game import ParseError
from .pieces import square_name
from .rules import COLS

def sq_name(square: int) -> str:
    return square_name(*divmod(square, COLS))


def parse_square(text: str) -> int:
    text = text.strip().lower()
    if len(text) != 2 or not ("a" <= text[0] <= "h") or not ("1" <= text[1] <= "7"):
        raise ParseError(f"{text!r} is not a square of the 8x7 board (a1..h7)")
    return (int(text[1]) - 1) * COLS + ord(text[0]) - ord("a")

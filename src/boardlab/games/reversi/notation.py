"""Reversi positions as text, both ways: 64 cells from a1 row by row (x black, o white,
- empty), a space, the side to move. Moves are squares (`d3`, `bitboard.square_name`) or
`pass`; the State's `action_to_str`/`str_to_action` write and read them."""

from __future__ import annotations

from ...core.game import ParseError
from .bitboard import SQUARES, square_name
from .rules import MARKS

START_TEXT = "---------------------------ox------xo--------------------------- x"


def position_text(black: int, white: int, player: int) -> str:
    """The position text of bitboards `black`, `white` with `player` to move."""
    cells = []
    for square in range(SQUARES):
        if black >> square & 1:
            cells.append("x")
        elif white >> square & 1:
            cells.append("o")
        else:
            cells.append("-")
    return "".join(cells) + " " + MARKS[player]


def parse_cells(text: str) -> tuple[int, int, int]:
    """Inverse of `position_text`: (black, white, player to move). The 64 cells may be split
    by spaces, new lines or `/` (one row each, say); `.` is accepted for an empty square."""
    if not isinstance(text, str):
        raise ParseError(f"a Reversi position is text, not {type(text).__name__}")
    parts = text.replace("/", " ").split()
    if len(parts) < 2:
        raise ParseError(f"Reversi position {text!r}: expected 64 cells of x, o or - and the "
                         f"side to move (x or o), e.g. {START_TEXT!r}")
    side, cells = parts[-1].lower(), "".join(parts[:-1]).lower()
    if side not in MARKS:
        raise ParseError(f"Reversi position {text!r}: the side to move is {parts[-1]!r}; "
                         "write x (black) or o (white)")
    if len(cells) != SQUARES:
        raise ParseError(f"Reversi position {text!r}: {len(cells)} cells, expected 64")
    black = white = 0
    for square, cell in enumerate(cells):
        if cell == "x":
            black |= 1 << square
        elif cell == "o":
            white |= 1 << square
        elif cell not in "-.":
            raise ParseError(f"Reversi position {text!r}: {cell!r} on {square_name(square)} "
                             "is not a cell; use x (black), o (white) or - (empty)")
    return black, white, MARKS.index(side)

"""Xiangqi as text, both ways: ICCS squares and moves, and standard xiangqi FEN.

ICCS names a square by its file a-i (left to right as red sees the board) and its rank 0-9
(red's back rank is 0), so red's first cannon move to the centre is `h2e2`. FEN lists the
ranks from black's side (rank 9) down, upper case for red, then the side to move (`w` red,
`b` black); the fields after it are optional, the last one the move number.
"""

from __future__ import annotations

from ...core.game import ParseError
from .. import chesslike
from ..chesslike import Board
from .rules import (ADVISOR, ADVISOR_SQUARES, COLS, ELEPHANT, ELEPHANT_SQUARES, GENERAL, HORSE,
                    LETTER_OF, OWN_SIDE, PALACE, ROWS, SOLDIER)

FILES = "abcdefghi"


def square_name(square: int) -> str:
    row, col = divmod(square, COLS)
    return f"{FILES[col]}{ROWS - 1 - row}"


def parse_square(text: str, where: str) -> int:
    if len(text) != 2 or text[0] not in FILES or not "0" <= text[1] <= "9":
        raise ParseError(f"{where}: {text!r} is not an ICCS square (files a-i, ranks 0-9, "
                         "e.g. h2)")
    return (ROWS - 1 - int(text[1])) * COLS + FILES.index(text[0])



def parse_move(text: str) -> tuple[int, int]:
    """`h2e2`, `h2-e2` or `H2E2` -> (from square, to square)."""
    cleaned = text.strip().lower().replace("-", "").replace(" ", "")
    if len(cleaned) != 4:
        raise ParseError(f"{text!r} is not an ICCS move: write from and to squares, e.g. h2e2")
    return parse_square(cleaned[:2], repr(text)), parse_square(cleaned[2:], repr(text))


# --- positions ---------------------------------------------------------------------------------

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
LETTERS = {letter: kind for kind, letter in LETTER_OF.items()}
LETTERS.update({"E": ELEPHANT, "H": HORSE})  # the other common FEN letters, read only
SIDE_NAMES = ("red", "black")


def fen_text(board: Board, player: int, plies: int) -> str:
    """Standard xiangqi FEN: board, side (`w` red, `b` black), `- -`, 0, move number."""
    return chesslike.fen_text(board, player, plies, ROWS, COLS, LETTER_OF)


def parse_fen_fields(text: str) -> tuple[Board, int, int]:
    """(board, player to move, plies) of a standard xiangqi FEN (`chesslike.parse_fen_text`);
    ParseError for a board no game reaches (`_check_placement`)."""
    where = f"xiangqi FEN {text!r}"
    board, player, plies = chesslike.parse_fen_text(text, ROWS, COLS, LETTERS, where)
    _check_placement(board, where)
    return board, player, plies


def _check_placement(board: Board, where: str) -> None:
    """Reject positions no game reaches in a way that breaks the rules engine: the count of
    generals, and pieces outside the squares their moves confine them to."""
    for player in (0, 1):
        sign = 1 if player == 0 else -1
        side = SIDE_NAMES[player]
        generals = [s for s in range(len(board)) if board[s] == sign * GENERAL]
        if len(generals) != 1:
            raise ParseError(f"{where}: {side} has {len(generals)} generals, expected one")
        if generals[0] not in PALACE[player]:
            raise ParseError(f"{where}: {side}'s general on {square_name(generals[0])} is "
                             "outside its palace")
        for square, cell in enumerate(board):
            if cell == sign * ADVISOR and square not in ADVISOR_SQUARES[player]:
                raise ParseError(f"{where}: {side}'s advisor on {square_name(square)} is not on "
                                 "a palace point it can reach")
            if cell == sign * ELEPHANT and square not in ELEPHANT_SQUARES[player]:
                raise ParseError(f"{where}: {side}'s elephant on {square_name(square)} is not "
                                 "on a point it can reach on its side of the river")
            if cell == sign * SOLDIER and square in OWN_SIDE[player]:
                row = square // COLS
                behind = row > 6 if player == 0 else row < 3
                if behind:
                    raise ParseError(f"{where}: {side}'s soldier on {square_name(square)} is "
                                     "behind its starting rank")

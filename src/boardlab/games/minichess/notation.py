"""MiniChess as text, both ways: squares (files a-e, ranks 1-6 from white's side), moves in
coordinate notation (`a2a3`) or the framework's `from_row from_col to_row to_col` (`4 0 3 0`),
and positions as FEN (`kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1`)."""

from __future__ import annotations

from ...core.game import ParseError
from .. import chesslike
from ..chesslike import Board, count_pieces
from .rules import COLS, KING, LAST_ROW, LETTER_OF, PAWN, ROWS

START_FEN = "kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1"
LETTERS = {letter: kind for kind, letter in LETTER_OF.items()}
FILES = "abcde"
SIDE_NAMES = ("white", "black")


def square_name(square: int) -> str:
    row, col = divmod(square, COLS)
    return f"{FILES[col]}{ROWS - row}"


def _parse_square(text: str, where: str) -> int:
    if len(text) != 2 or text[0] not in FILES or not "1" <= text[1] <= str(ROWS):
        raise ParseError(f"{where}: {text!r} is not a square of the 5x6 board (a1..e6)")
    return (ROWS - int(text[1])) * COLS + FILES.index(text[0])


def parse_move(text: str) -> tuple[int, int]:
    """`a2a3` / `a2-a3` / `a5a6q`, or the framework's `from_row from_col to_row to_col`
    (0-based, row 0 on top): `4 0 3 0`."""
    where = repr(text)
    numbers = text.replace(",", " ").split()
    if len(numbers) == 4 and all(n.isascii() and n.isdigit() for n in numbers):
        fr, fc, tr, tc = (int(n) for n in numbers)
        if not (fr < ROWS and tr < ROWS and fc < COLS and tc < COLS):
            raise ParseError(f"{where}: rows are 0-{ROWS - 1} and columns 0-{COLS - 1}")
        return fr * COLS + fc, tr * COLS + tc
    cleaned = text.strip().lower().replace("-", "").replace(" ", "")
    if len(cleaned) == 5 and cleaned[4] == "q":
        cleaned = cleaned[:4]  # promotion is always to a queen; accept the UCI suffix
    if len(cleaned) != 4:
        raise ParseError(f"{where} is not a MiniChess move: write `a2a3` or `4 0 3 0` "
                         "(from_row from_col to_row to_col)")
    return _parse_square(cleaned[:2], where), _parse_square(cleaned[2:], where)


def fen_text(board: Board, player: int, plies: int) -> str:
    """FEN: board, side, `- -` (no castling, no en passant), 0, move number."""
    return chesslike.fen_text(board, player, plies, ROWS, COLS, LETTER_OF)


def parse_fen_fields(text: str) -> tuple[Board, int, int]:
    """(board, player to move, plies) of a FEN (`chesslike.parse_fen_text`); ParseError for a
    side without exactly one king, or a pawn left on its last row."""
    where = f"minichess FEN {text!r}"
    board, player, plies = chesslike.parse_fen_text(text, ROWS, COLS, LETTERS, where,
                                                    first=("w",))
    for side in (0, 1):
        kings = count_pieces(board, KING)[side]
        if kings != 1:
            raise ParseError(f"{where}: {SIDE_NAMES[side]} has {kings} kings, expected one")
        pawn = PAWN if side == 0 else -PAWN
        for col in range(COLS):
            if board[LAST_ROW[side] * COLS + col] == pawn:
                raise ParseError(f"{where}: {SIDE_NAMES[side]}'s pawn on "
                                 f"{square_name(LAST_ROW[side] * COLS + col)} should have "
                                 "become a queen")
    return board, player, plies

"""Reversi (Othello) as a picture: row 1 on top as in the notation, black (player 0) first."""

from __future__ import annotations

from ...render.grid import Picture, Piece
from .bitboard import SIZE, SQUARES, square_name
from .game import ReversiState
from .rules import PASS

DISCS = (Piece("", "#111", stroke="#000", title="black disc"),
         Piece("", "#f7f7f7", stroke="#444", title="white disc"))
COLOUR_NAMES = ("black", "white")
PLAYER_NAMES = COLOUR_NAMES


def picture(state: ReversiState, viewer: int | None = None) -> Picture:
    pieces = {}
    for square in range(SQUARES):
        if state.black >> square & 1:
            pieces[square] = DISCS[0]
        elif state.white >> square & 1:
            pieces[square] = DISCS[1]
    black, white = state.disc_counts()
    if state.is_terminal():
        status = "draw" if black == white else f"{COLOUR_NAMES[0 if black > white else 1]} wins"
    elif state.legal_moves_mask() == 0:
        status = f"{COLOUR_NAMES[state.player]} has no move and must pass"
    else:
        status = f"{COLOUR_NAMES[state.player]} to move"
    return Picture(rows=SIZE, cols=SIZE, square_names=[square_name(s) for s in range(SQUARES)],
                   pieces=pieces, style="plain", light="#2e8b57", line="#0b3d20",
                   file_labels="abcdefgh", rank_labels=[str(r + 1) for r in range(SIZE)],
                   caption=f"{status}; black {black}, white {white}")


def end_reason(state: ReversiState) -> str:
    """Why a finished game ended: a full board, or no move for either side."""
    black, white = state.disc_counts()
    why = "the board is full" if black + white == SQUARES else "neither side can move"
    return f"{why}: black {black}, white {white}"


def action_cells(state: ReversiState, action: int) -> tuple[int, ...]:
    return () if action == PASS else (action,)

"""MiniChess (6 rows x 5 columns) as a picture: rank 6 on top, white (player 0) below."""

from __future__ import annotations

from ...render.grid import Picture, Piece
from .game import MiniChessState
from .notation import SIDE_NAMES, square_name
from . import rules
from .rules import COLS, PIECE_NAMES, ROWS, SQUARES

PLAYER_NAMES = SIDE_NAMES

GLYPHS = {1: "\u265f", 2: "\u265c", 3: "\u265e", 4: "\u265d", 5: "\u265b", 6: "\u265a"}
"""Filled chess symbols for P R N B Q K; the side shows by fill and outline colour."""
INKS = (("#fffdf5", "#222"), ("#1b1b1b", "#1b1b1b"))
"""(fill, outline) of white's and black's symbols."""


def picture(state: MiniChessState, viewer: int | None = None) -> Picture:
    pieces = {}
    for square in range(SQUARES):
        value = state.board[square]
        if value:
            side = 0 if value > 0 else 1
            ink, outline = INKS[side]
            pieces[square] = Piece(GLYPHS[abs(value)], "none", ink=ink, stroke=outline,
                                   shape="glyph",
                                   title=f"{SIDE_NAMES[side]} {PIECE_NAMES[abs(value)]}")
    return Picture(rows=ROWS, cols=COLS, square_names=[square_name(s) for s in range(SQUARES)],
                   pieces=pieces, style="checkered", file_labels="abcde",
                   alert_cells=kings_in_danger(state),
                   rank_labels=[str(ROWS - r) for r in range(ROWS)],
                   caption=state.ply_status())


def kings_in_danger(state: MiniChessState) -> tuple[int, ...]:
    """The king the opponent can take: the side to move's king under attack (its check), or
    at the end the king that was left to be taken."""
    side = state.player
    if state.is_terminal():
        if not state.end_reason.endswith("capture the king"):
            return ()
        side = 1 - state.player  # the side to move could take the other king
    attacker = 1 - side
    if not rules.can_capture_king(state.board, attacker, rules.moves(state.board, attacker)):
        return ()
    king = rules.KING if side == 0 else -rules.KING
    return tuple(square for square in range(SQUARES) if state.board[square] == king)


def end_reason(state: MiniChessState) -> str:
    return state.end_reason


def action_cells(state: MiniChessState, action: int) -> tuple[int, ...]:
    return divmod(action, SQUARES)

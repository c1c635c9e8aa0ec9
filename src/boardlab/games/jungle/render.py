"""Jungle dark chess (7 rows x 8 columns) as a picture: rank 7 on top, player 0 (red) below.

A face-down piece shows only its owner's colour and a question mark: its strength is not
decided until it is revealed, so no viewer can know more.
"""

from __future__ import annotations

from ...render.grid import Picture, Piece
from .animals import ICONS, animal_piece
from .game import JungleDarkState
from .notation import sq_name
from .rules import COLS, HIDDEN, NUM_REVEALS, ROWS, decode_move
from .pieces import ANIMAL_LETTERS, ANIMAL_NAMES

SIDE_COLOURS = ("#c0392b", "#2c5aa0")
SIDE_NAMES = ("red", "blue")
PLAYER_NAMES = SIDE_NAMES
LETTERS_KEY = ("Letters: " + ", ".join(f"{ANIMAL_LETTERS[s]} {ANIMAL_NAMES[s]} ({s})"
                                       for s in sorted(ANIMAL_NAMES))
               + ". Upper case = player 0 (red), lower case = player 1 (blue).")
"""The text board's animal letters, shared with classic Jungle."""
TEXT_KEY = (LETTERS_KEY + " X / x = a face-down piece. `face down: RCDWPTLE / rcdwptle` lists "
            "the animals each side still has face down: a reveal draws one of them at random.")


def cell_of(square: int) -> int:
    """Game square (row 0 = rank 1) -> picture cell (row 0 = the top, rank 7)."""
    row, col = divmod(square, COLS)
    return (ROWS - 1 - row) * COLS + col


def picture(state: JungleDarkState, viewer: int | None = None) -> Picture:
    names = [""] * (ROWS * COLS)
    pieces: dict[int, Piece] = {}
    for square in range(ROWS * COLS):
        cell = cell_of(square)
        names[cell] = sq_name(square)
        value = state.board[square]
        if value == 0:
            continue
        owner = 0 if value > 0 else 1
        colour = SIDE_COLOURS[owner]
        if abs(value) == HIDDEN:
            pieces[cell] = Piece("?", colour, ink="#fff", stroke="#111", face_down=True,
                                 title=f"{SIDE_NAMES[owner]} face-down piece")
        else:
            pieces[cell] = animal_piece(abs(value), SIDE_NAMES[owner], colour)
    fills = {cell_of(c): "#f3d9d5" for c in range(COLS)}
    fills.update({cell_of((ROWS - 1) * COLS + c): "#d8e2f3" for c in range(COLS)})
    if state.is_terminal():
        status = ("draw" if state.winner is None or state.winner == -1
                  else f"{SIDE_NAMES[state.winner]} (player {state.winner}) wins")
    else:
        status = f"{SIDE_NAMES[state.player]} (player {state.player}) to move"
    limit = state.game.settings.no_capture_limit
    return Picture(
        icons=ICONS, rows=ROWS, cols=COLS, square_names=names, pieces=pieces, style="plain",
        light="#eef3e2", line="#7a8b6a", cell_fills=fills,
        file_labels="abcdefgh"[:COLS], rank_labels=[str(ROWS - r) for r in range(ROWS)],
        caption=f"{status}; {state.no_capture}/{limit} plies without capture")


def end_reason(state: JungleDarkState) -> str:
    """Why a finished game ended: pieces gone, no capture for too long, or no move."""
    counts = state.piece_counts()
    if counts[0] == 0 and counts[1] == 0:
        return "both sides lost their last pieces"
    for side in (0, 1):
        if counts[side] == 0:
            return f"{SIDE_NAMES[side]} has no pieces left"
    limit = state.game.settings.no_capture_limit
    if state.no_capture >= limit:
        return f"{limit} plies without a capture"
    return f"{SIDE_NAMES[state.player]} has no legal move"


def action_cells(state: JungleDarkState, action: int) -> tuple[int, ...]:
    if action < NUM_REVEALS:
        return (cell_of(action),)
    frm, to = decode_move(action)
    return cell_of(frm), cell_of(to)

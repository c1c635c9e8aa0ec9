"""Classic Jungle (7 columns x 9 rows) as a picture: rank 9 on top, player 0 (red) below;
rivers blue, traps brown, dens dark."""

from __future__ import annotations

from ....render.grid import Picture, Piece
from ..animals import ICONS, animal_piece
from ..render import LETTERS_KEY, SIDE_COLOURS, SIDE_NAMES
from .game import JungleClassicState
from .notation import sq_name
from .rules import COLS, DENS, IS_WATER, JUMP, ROWS, SQUARES, STEP, TRAP_OWNER

TEXT_KEY = LETTERS_KEY

PLAYER_NAMES = SIDE_NAMES


def cell_of(square: int) -> int:
    """Game square (row 0 = rank 1) -> picture cell (row 0 = the top, rank 9)."""
    row, col = divmod(square, COLS)
    return (ROWS - 1 - row) * COLS + col


def picture(state: JungleClassicState, viewer: int | None = None) -> Picture:
    names = [""] * SQUARES
    pieces: dict[int, Piece] = {}
    fills: dict[int, str] = {}
    for square in range(SQUARES):
        cell = cell_of(square)
        names[cell] = sq_name(square)
        if IS_WATER[square]:
            fills[cell] = "#8ec3e6"
        elif square in DENS:
            fills[cell] = "#5b4636"
        elif TRAP_OWNER[square] >= 0:
            fills[cell] = "#c9a27a"
        value = state.board[square]
        if value:
            owner = 0 if value > 0 else 1
            strength = abs(value)
            pieces[cell] = animal_piece(strength, SIDE_NAMES[owner], SIDE_COLOURS[owner])
    if state.is_terminal():
        status = ("draw" if state.winner is None or state.winner == -1
                  else f"{SIDE_NAMES[state.winner]} (player {state.winner}) wins")
    else:
        status = f"{SIDE_NAMES[state.player]} (player {state.player}) to move"
    return Picture(icons=ICONS, rows=ROWS, cols=COLS, square_names=names, pieces=pieces,
                   style="plain", light="#e4efd4", line="#6f7f5f", cell_fills=fills,
                   file_labels="abcdefg"[:COLS], rank_labels=[str(ROWS - r) for r in range(ROWS)],
                   caption=f"{status}; {state.no_capture}/{state.game.settings.no_capture_limit}"
                           " plies without capture")


def end_reason(state: JungleClassicState) -> str:
    """Why a finished game ended: a den entered, pieces gone, no move, or a draw rule."""
    if state.winner in (0, 1):
        winner, loser = state.winner, 1 - state.winner
        if state.board[DENS[loser]] * (1 if winner == 0 else -1) > 0:
            return f"{SIDE_NAMES[winner]} entered the den"
        if state.counts[loser] == 0:
            return f"{SIDE_NAMES[loser]} has no pieces left"
        return f"{SIDE_NAMES[loser]} has no legal move"
    if state.game.settings.repetition_draw and state.history.count(state.hash) >= 3:
        return "the same position three times"
    return f"{state.game.settings.no_capture_limit} plies without a capture"


def action_cells(state: JungleClassicState, action: int) -> tuple[int, ...]:
    frm, direction = divmod(action, 4)
    step = STEP[frm][direction]
    if step < 0:
        return (cell_of(frm),)
    if state.board[frm]:  # before the move: the state knows where it lands
        return cell_of(frm), cell_of(state.destination(action))
    # After the move (the last move shown): a lion or tiger that jumped left the river
    # empty behind it, while a rat that swam stands on the water square itself.
    jump = JUMP[frm][direction]
    if IS_WATER[step] and jump is not None and not state.board[step]:
        return cell_of(frm), cell_of(jump[0])
    return cell_of(frm), cell_of(step)

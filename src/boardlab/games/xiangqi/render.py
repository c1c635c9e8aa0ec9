"""Xiangqi as a picture: pieces on the crossings of 10 x 9 lines, red (player 0) below.

Pieces carry their Chinese characters where this machine has a font for them (fontconfig
finds one: the browser of `boardlab serve` runs here too), else their FEN letters
(K A B N R C P); the tooltip gives both.
"""

from __future__ import annotations

import functools
import shutil
import subprocess

from ...render.grid import Picture, Piece
from .actions import ACTION_FROM, ACTION_TO
from .game import XiangqiState
from .notation import FILES, SIDE_NAMES, square_name
from . import rules
from .rules import COLS, LETTER_OF, PIECE_NAMES, ROWS, SQUARES

CHARACTERS = ({1: "帥", 2: "仕", 3: "相", 4: "傌", 5: "俥", 6: "炮", 7: "兵"},
              {1: "將", 2: "士", 3: "象", 4: "馬", 5: "車", 6: "砲", 7: "卒"})
INKS = ("#b22222", "#1b1b1b")
PALACE_LINES = [(0, 3, 2, 5), (0, 5, 2, 3), (7, 3, 9, 5), (7, 5, 9, 3)]
PLAYER_NAMES = SIDE_NAMES


@functools.lru_cache(maxsize=1)
def has_chinese_font() -> bool:
    """Whether fontconfig knows a font with every piece's character (asked once)."""
    if shutil.which("fc-list") is None:
        return False
    wanted = {ord(char) for side in CHARACTERS for char in side.values()}
    charset = " ".join(f"{code:x}" for code in sorted(wanted))
    try:
        found = subprocess.run(["fc-list", f":charset={charset}", "family"], capture_output=True,
                               text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(found.strip())


def picture(state: XiangqiState, viewer: int | None = None) -> Picture:
    pieces = {}
    characters = has_chinese_font()
    for square in range(SQUARES):
        value = state.board[square]
        if value:
            side = 0 if value > 0 else 1
            kind = abs(value)
            label = CHARACTERS[side][kind] if characters else LETTER_OF[kind]
            pieces[square] = Piece(label, "#f5deb3", ink=INKS[side],
                                   stroke=INKS[side],
                                   title=f"{SIDE_NAMES[side]} {PIECE_NAMES[kind]} "
                                         f"({CHARACTERS[side][kind]}, "
                                         f"{LETTER_OF[kind]})",
                                   name=f"{SIDE_NAMES[side]} {PIECE_NAMES[kind]}")
    return Picture(rows=ROWS, cols=COLS, square_names=[square_name(s) for s in range(SQUARES)],
                   pieces=pieces, style="points", light="#e8c98f", line="#5a3a1a",
                   file_labels=FILES, rank_labels=[str(ROWS - 1 - r) for r in range(ROWS)],
                   extra_lines=PALACE_LINES, banner="river", banner_after_row=4,
                   alert_cells=generals_in_check(state),
                   caption=state.ply_status())


def generals_in_check(state: XiangqiState) -> tuple[int, ...]:
    """The side to move's general when it is in check (checkmate included)."""
    try:
        if not state.in_check():
            return ()
        return (rules.general_square(state.board, state.player),)
    except ValueError:  # a position without that general (none is in danger)
        return ()


def end_reason(state: XiangqiState) -> str:
    return state.end_reason


def action_cells(state: XiangqiState, action: int) -> tuple[int, ...]:
    return ACTION_FROM[action], ACTION_TO[action]

"""Xiangqi evaluation: material plus piece-square tables, from `player`'s point of view.

Values in soldier units x10 (a soldier 10, a chariot 90). The tables are small hand-set
bonuses, written for red (row 9 = red's back rank) and mirrored for black: soldiers gain as
they cross the river and near the enemy palace, horses and cannons like the centre, chariots
like open files near the enemy. The general's value is 0: both always stand on the board.
"""

from __future__ import annotations

from ..chesslike import material_and_position as _score
from .game import XiangqiState
from .rules import COLS, ROWS, SOLDIER, SQUARES

PIECE_VALUES = (0, 0, 20, 20, 40, 90, 45, 10)
"""Indexed by piece type: -, general, advisor, elephant, horse, chariot, cannon, soldier."""


def _table(bonus) -> list[float]:
    return [float(bonus(*divmod(s, COLS))) for s in range(SQUARES)]


def _soldier(row: int, col: int) -> float:
    crossed = row <= 4
    if not crossed:
        return 0.0
    advance = 4 - row  # 0 on the far bank, 4 on black's back rank
    central = 2 - abs(col - 4) // 2
    # Reaching the back rank makes a soldier almost useless: it can only step sideways.
    return 10 + 2 * min(advance, 3) + 2 * central - (6 if row == 0 else 0)


def _central(row: int, col: int) -> float:
    return 4 - abs(col - 4) - abs(row - 4.5) / 2


PIECE_SQUARE = [
    [0.0] * SQUARES,                                        # (unused type 0)
    _table(lambda r, c: -2.0 * (r != 9) - 2.0 * (c != 4)),  # general: stay home, centre file
    [0.0] * SQUARES,                                        # advisor
    [0.0] * SQUARES,                                        # elephant
    _table(lambda r, c: 1.5 * _central(r, c)),              # horse
    _table(lambda r, c: 2.0 * (r <= 4) + (2.0 if c in (3, 5) else 0.0)),   # chariot
    _table(lambda r, c: 3.0 if c == 4 else 1.0 if c in (1, 7) else 0.0),  # cannon
    _table(_soldier),                                       # soldier
]
assert len(PIECE_SQUARE) == SOLDIER + 1 and ROWS == 10


def material_and_position(state: XiangqiState, player: int) -> float:
    """Material + piece-square bonus of `player` minus the opponent's."""
    return _score(state.board, player, PIECE_VALUES, PIECE_SQUARE, ROWS, COLS)

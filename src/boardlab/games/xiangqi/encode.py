"""Network input for Xiangqi: seed 003's 14 planes of 10x9, from one player's seat."""

from __future__ import annotations

import numpy as np

from .game import XiangqiState
from .rules import COLS, ROWS

NETWORK_PLANES = 14


def network_input(state: XiangqiState, player: int) -> np.ndarray:
    """(14, 10, 9) float32. Planes 0-6: `player`'s general, advisors, elephants, horses,
    chariots, cannons, soldiers; planes 7-13 the opponent's in the same order. Plane row i is
    rank i counted from `player`'s own back rank (the seed's layout: red's pieces in the top
    rows of the array for red); for black the board is turned 180 degrees, so files also run
    from black's left."""
    board = np.asarray(state.board, dtype=np.int8).reshape(ROWS, COLS)
    # Our row 0 is black's back rank: red reads the rows bottom-up, black the columns reversed.
    seen = board[::-1, :] if player == 0 else -board[:, ::-1]
    planes = np.zeros((NETWORK_PLANES, ROWS, COLS), dtype=np.float32)
    for kind in range(1, 8):
        planes[kind - 1] = seen == kind
        planes[kind + 6] = seen == -kind
    return planes

"""MiniChess network input: twelve 6x5 planes seen from one side, so that one network plays
both colours. `kernels.encode_batch` computes the same planes for a batch in one call."""

from __future__ import annotations

import numpy as np

from .game import MiniChessState
from .rules import COLS, ROWS

NETWORK_PLANES = 12


def network_input(state: MiniChessState, player: int) -> np.ndarray:
    """(12, 6, 5) float32: planes 0-5 `player`'s P R N B Q K, 6-11 the opponent's; the
    board turned 180 degrees for black, so `player`'s pawns always move up the array."""
    board = np.asarray(state.board, dtype=np.int8).reshape(ROWS, COLS)
    seen = board if player == 0 else -board[::-1, ::-1]
    planes = np.zeros((NETWORK_PLANES, ROWS, COLS), dtype=np.float32)
    for kind in range(1, 7):
        planes[kind - 1] = seen == kind
        planes[kind + 5] = seen == -kind
    return planes

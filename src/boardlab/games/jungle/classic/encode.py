"""Classic Jungle's network input: the animals and the terrain, seen from one side."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .rules import COLS, DENS, IS_WATER, ROWS, SQUARES, TRAP_OWNER

if TYPE_CHECKING:
    from .game import JungleClassicState

NETWORK_PLANES = 21
"""Planes of `network_input`: 8 own animals, 8 enemy animals, water, own traps, enemy traps,
own den, enemy den."""


def _terrain_planes() -> np.ndarray:
    """Terrain planes 16..20 from player 0's view; player 1 sees them turned half a circle."""
    planes = np.zeros((5, ROWS, COLS), dtype=np.float32)
    for sq in range(SQUARES):
        r, c = divmod(sq, COLS)
        planes[0, r, c] = IS_WATER[sq]
        planes[1, r, c] = TRAP_OWNER[sq] == 0
        planes[2, r, c] = TRAP_OWNER[sq] == 1
        planes[3, r, c] = sq == DENS[0]
        planes[4, r, c] = sq == DENS[1]
    return planes


TERRAIN = _terrain_planes()


def network_input(state: JungleClassicState, player: int) -> np.ndarray:
    """(21, 9, 7) float32 from `player`'s side: row 0 is `player`'s home rank and the board is
    turned half a circle for player 1 (the setup is symmetric under that turn, so both players
    see the same picture at the start). Planes 0-7: `player`'s rat..elephant, 8-15: the
    opponent's, 16 water, 17 `player`'s traps, 18 the opponent's traps, 19 `player`'s den,
    20 the opponent's den."""
    board = np.asarray(state.board, dtype=np.int8).reshape(ROWS, COLS)
    if player == 1:
        board = -board[::-1, ::-1]
    planes = np.zeros((NETWORK_PLANES, ROWS, COLS), dtype=np.float32)
    for rank in range(1, 9):
        planes[rank - 1] = board == rank
        planes[7 + rank] = board == -rank
    planes[16:] = TERRAIN  # symmetric under the half turn, so the same for both players
    return planes

"""Network input for Reversi: three 8x8 planes seen from one side, so that a single network
plays both colours (the seed's DQN multiplies the board by -1 for the same reason)."""

from __future__ import annotations

import numpy as np

from .bitboard import SIZE
from .game import ReversiState

NETWORK_PLANES = 3


def bits_to_plane(bits: int) -> np.ndarray:
    """An (8, 8) float32 plane with 1 on the squares set in `bits` ([row, column], a1 at
    [0, 0])."""
    raw = np.frombuffer(bits.to_bytes(8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little").reshape(SIZE, SIZE).astype(np.float32)


def network_input(state: ReversiState, player: int) -> np.ndarray:
    """(3, 8, 8) float32: 0 `player`'s discs, 1 the opponent's discs, 2 the squares where
    `player` could place a disc now (its legal placements when it is to move; all zero at
    the end of the game)."""
    planes = np.empty((NETWORK_PLANES, SIZE, SIZE), dtype=np.float32)
    planes[0] = bits_to_plane(state.discs(player))
    planes[1] = bits_to_plane(state.discs(1 - player))
    moves = 0 if state.is_terminal() else state.moves_of(player)
    planes[2] = bits_to_plane(moves)
    return planes

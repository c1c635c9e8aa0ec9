"""Seed 001's positional heuristic for Reversi, and the plain disc count.

The seed (a paper) shows its square values only in a figure (the top-left 4x4 quadrant of a
symmetric board) that is not in its text, so we use the classic positional table of the
Othello literature, which has the properties the paper describes: corners highest, the
squares next to a corner lowest, edges good.
"""

from __future__ import annotations

from .bitboard import SIZE, SQUARES
from .game import ReversiState

POSITION_WEIGHTS: tuple[int, ...] = (
    100, -20,  10,   5,   5,  10, -20, 100,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
     10,  -2,  -1,  -1,  -1,  -1,  -2,  10,
      5,  -2,  -1,  -1,  -1,  -1,  -2,   5,
      5,  -2,  -1,  -1,  -1,  -1,  -2,   5,
     10,  -2,  -1,  -1,  -1,  -1,  -2,  10,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
    100, -20,  10,   5,   5,  10, -20, 100,
)  # fmt: skip
"""V(square), a1 first, row by row: corners 100, C-squares (beside a corner on the edge) -20,
X-squares (diagonal to a corner) -50, A-squares 10, B-squares 5, the rest -1 or -2."""

# One table per row of the 256 sums of that row's weights, so that a board's value is eight
# look-ups instead of a loop over 64 squares.
_ROW_SUMS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(POSITION_WEIGHTS[row * SIZE + col] for col in range(SIZE) if byte >> col & 1)
          for byte in range(256))
    for row in range(SIZE)
)


def weight_sum(bits: int) -> int:
    """Sum of V over the squares set in `bits`."""
    total = 0
    for row in range(SIZE):
        total += _ROW_SUMS[row][bits >> (row * SIZE) & 0xFF]
    return total


def positional_value(state: ReversiState, player: int) -> float:
    """Sum of V over `player`'s discs minus the sum over the opponent's (the "greedy" and
    "minimax" heuristic)."""
    return float(weight_sum(state.discs(player)) - weight_sum(state.discs(1 - player)))


def disc_difference(state: ReversiState, player: int) -> float:
    """`player`'s discs minus the opponent's (the "discs" heuristic)."""
    return float(state.discs(player).bit_count() - state.discs(1 - player).bit_count())


assert len(POSITION_WEIGHTS) == SQUARES

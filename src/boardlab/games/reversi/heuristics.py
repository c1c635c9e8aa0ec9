"""Seed 001's positional heuristic for Reversi, the plain disc count, and `mobility` (the
table plus mobility, potential mobility and edge-stable discs: the ladder's evaluator).

The seed (a paper) shows its square values only in a figure (the top-left 4x4 quadrant of a
symmetric board) that is not in its text, so we use the classic positional table of the
Othello literature, which has the properties the paper describes: corners highest, the
squares next to a corner lowest, edges good.
"""

from __future__ import annotations

from .bitboard import SIZE, SQUARES, legal_moves
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
ROW_SUMS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(POSITION_WEIGHTS[row * SIZE + col] for col in range(SIZE) if byte >> col & 1)
          for byte in range(256))
    for row in range(SIZE)
)


def weight_sum(bits: int) -> int:
    """Sum of V over the squares set in `bits`."""
    total = 0
    for row in range(SIZE):
        total += ROW_SUMS[row][bits >> (row * SIZE) & 0xFF]
    return total


def positional_value(state: ReversiState, player: int) -> float:
    """Sum of V over `player`'s discs minus the sum over the opponent's (the "positional"
    heuristic, which the greedy and minimax agents play by default)."""
    return float(weight_sum(state.discs(player)) - weight_sum(state.discs(1 - player)))


def disc_difference(state: ReversiState, player: int) -> float:
    """`player`'s discs minus the opponent's (the "discs" heuristic)."""
    return float(state.discs(player).bit_count() - state.discs(1 - player).bit_count())


# --- the `mobility` heuristic: the positional table plus what it cannot see ------------------
# A table alone plays the squares, not the position: it still fears an X-square whose corner
# is already taken, and it cannot tell a cramped side (few moves, many discs facing empty
# squares) from a free one, which is what decides Othello middle games. Each term below is
# `player`'s count minus the opponent's, in whole points, so the value is an exact integer
# and the compiled search (search.py) can repeat it bit for bit.

MOBILITY_WEIGHT = 10
"""Per legal move more than the opponent (either side counted as if it were to move)."""
POTENTIAL_MOBILITY_WEIGHT = 4
"""Per empty square beside an opponent disc (a future move) more than the opponent has."""
EDGE_STABLE_WEIGHT = 15
"""Per disc on an edge run from an own corner (it can never turn over)."""
CORNERS = (0, 7, 56, 63)
CORNER_NEIGHBOURS: tuple[int, ...] = tuple(
    sum(1 << (r * SIZE + c) for r in range(SIZE) for c in range(SIZE)
        if max(abs(r - corner // SIZE), abs(c - corner % SIZE)) == 1)
    for corner in CORNERS)
"""For each corner, its X-square and two C-squares: dangerous only while the corner is empty
(a disc there can let the opponent in); once it is taken, their table weights no longer
apply."""
EDGE_RAYS = ((0, 1), (0, SIZE), (7, -1), (7, SIZE), (56, 1), (56, -SIZE), (63, -1), (63, -SIZE))
"""(corner, step) for the eight walks along an edge away from a corner."""
NOT_COLUMN_A = 0xFEFEFEFEFEFEFEFE
NOT_COLUMN_H = 0x7F7F7F7F7F7F7F7F
FULL = (1 << SQUARES) - 1


def neighbours(bits: int) -> int:
    """The squares next to (8 directions) some square of `bits`; the column masks stop a
    shift from wrapping round a row's end."""
    east = (bits << 1 | bits << 9 | bits >> 7) & NOT_COLUMN_A
    west = (bits >> 1 | bits >> 9 | bits << 7) & NOT_COLUMN_H
    return (east | west | bits << 8 | bits >> 8) & FULL


def edge_anchored(bits: int) -> int:
    """The discs of `bits` on an unbroken edge run starting at a corner it holds: no move can
    flank them, so they are stable."""
    stable = 0
    for corner, step in EDGE_RAYS:
        square = corner
        for _ in range(SIZE):
            if not bits >> square & 1:
                break
            stable |= 1 << square
            square += step
    return stable


def unsettled(occupied: int) -> int:
    """Every square except the X- and C-squares of corners that are already occupied."""
    mask = FULL
    for corner, near in zip(CORNERS, CORNER_NEIGHBOURS):
        if occupied >> corner & 1:
            mask &= ~near
    return mask


def side_score(own: int, opp: int) -> int:
    """One side's points in `mobility_value`, for the side holding `own`."""
    empty = ~(own | opp) & FULL
    return (weight_sum(own & unsettled(own | opp))
            + MOBILITY_WEIGHT * legal_moves(own, opp).bit_count()
            + POTENTIAL_MOBILITY_WEIGHT * (neighbours(opp) & empty).bit_count()
            + EDGE_STABLE_WEIGHT * edge_anchored(own).bit_count())


def mobility_value(state: ReversiState, player: int) -> float:
    """The `mobility` heuristic: `player`'s `side_score` minus the opponent's. The positional
    table (X- and C-squares of a taken corner weigh nothing), plus 10 per legal move, 4 per
    empty square beside an opponent disc (potential mobility: the opposite of a frontier),
    15 per disc anchored on an edge to an own corner."""
    own, opp = state.discs(player), state.discs(1 - player)
    return float(side_score(own, opp) - side_score(opp, own))


assert len(POSITION_WEIGHTS) == SQUARES

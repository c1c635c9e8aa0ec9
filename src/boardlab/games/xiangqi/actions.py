"""Xiangqi's fixed action space (seed 003: 2086 moves), named in ICCS (notation.py).

The action space
is every from-to move some piece could make on an empty board: chariot/cannon lines (which
contain every general and soldier step), horse leaps, advisor steps inside either palace and
elephant leaps on either side of the river. Action id = position of the move's ICCS string in
the sorted list of them, so ids order moves by from-file, from-rank, to-file, to-rank.
"""

from __future__ import annotations

from .notation import parse_square, square_name
from .rules import (ADVISOR_SQUARES, ELEPHANT_MOVES, ELEPHANT_SQUARES, HORSE_MOVES, RAYS, SQUARES,
                    STEPS_DIAGONAL)

def _geometric_moves() -> set[tuple[int, int]]:
    moves: set[tuple[int, int]] = set()
    for square in range(SQUARES):
        for ray in RAYS[square]:
            moves.update((square, target) for target in ray)
        moves.update((square, target) for _, target in HORSE_MOVES[square])
    for player in (0, 1):
        points = ADVISOR_SQUARES[player]
        for square in points:
            moves.update((square, t) for t in STEPS_DIAGONAL[square] if t in points)
        points = ELEPHANT_SQUARES[player]
        for square in points:
            moves.update((square, t) for _, t in ELEPHANT_MOVES[square] if t in points)
    return moves


MOVE_NAMES: list[str] = sorted(square_name(f) + square_name(t) for f, t in _geometric_moves())
NUM_ACTIONS = len(MOVE_NAMES)
ACTION_OF_NAME = {name: i for i, name in enumerate(MOVE_NAMES)}
ACTION_FROM: list[int] = [parse_square(name[:2], "table") for name in MOVE_NAMES]
ACTION_TO: list[int] = [parse_square(name[2:], "table") for name in MOVE_NAMES]
ACTION_OF_MOVE: dict[tuple[int, int], int] = {
    (f, t): i for i, (f, t) in enumerate(zip(ACTION_FROM, ACTION_TO))}
assert NUM_ACTIONS == 2086, NUM_ACTIONS  # seed 003's count; a table bug shows up at import

TURNED: list[int] = [ACTION_OF_MOVE[(SQUARES - 1 - f, SQUARES - 1 - t)]
                     for f, t in zip(ACTION_FROM, ACTION_TO)]
"""Each action id's move turned 180 degrees, as black's planes draw it (encode.py); the action
set is closed under the turn."""

"""Xiangqi's fixed action space (seed 003: 2086 moves) and ICCS coordinate notation.

ICCS names a square by its file a-i (left to right as red sees the board) and its rank 0-9
(red's back rank is 0), so red's first cannon move to the centre is `h2e2`. The action space
is every from-to move some piece could make on an empty board: chariot/cannon lines (which
contain every general and soldier step), horse leaps, advisor steps inside either palace and
elephant leaps on either side of the river. Action id = position of the move's ICCS string in
the sorted list of them, so ids order moves by from-file, from-rank, to-file, to-rank.
"""

from __future__ import annotations

from ...core.game import ParseError
from .rules import (ADVISOR_SQUARES, COLS, ELEPHANT_MOVES, ELEPHANT_SQUARES, HORSE_MOVES, RAYS,
                    ROWS, SQUARES, STEPS_DIAGONAL)

FILES = "abcdefghi"


def square_name(square: int) -> str:
    row, col = divmod(square, COLS)
    return f"{FILES[col]}{ROWS - 1 - row}"


def parse_square(text: str, where: str) -> int:
    if len(text) != 2 or text[0] not in FILES or not "0" <= text[1] <= "9":
        raise ParseError(f"{where}: {text!r} is not an ICCS square (files a-i, ranks 0-9, "
                         "e.g. h2)")
    return (ROWS - 1 - int(text[1])) * COLS + FILES.index(text[0])


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


def parse_move(text: str) -> tuple[int, int]:
    """`h2e2`, `h2-e2` or `H2E2` -> (from square, to square)."""
    cleaned = text.strip().lower().replace("-", "").replace(" ", "")
    if len(cleaned) != 4:
        raise ParseError(f"{text!r} is not an ICCS move: write from and to squares, e.g. h2e2")
    return parse_square(cleaned[:2], repr(text)), parse_square(cleaned[2:], repr(text))

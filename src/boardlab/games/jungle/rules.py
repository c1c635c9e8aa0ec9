"""Jungle dark chess's board, action ids and moves as plain data and functions: what
`game.py`'s State plays by and the encodings, heuristics, rewards, kernels and picture read.
Action ids (seed 000): reveal = square (0..55); move = 56 + square * 4 + direction."""

from __future__ import annotations

ROWS, COLS = 7, 8
SQUARES = ROWS * COLS
HIDDEN = 9
"""Board cell value of a face-down piece (player 0 +9, player 1 -9); revealed pieces are +-k."""
NUM_REVEALS = SQUARES
NUM_ACTIONS = SQUARES + SQUARES * 4  # 56 reveals + 224 moves = 280, the seed's action space
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""The seed's direction map: (-1,0) 0, (1,0) 1, (0,-1) 2, (0,1) 3."""
ALL_STRENGTHS_MASK = 0b111111110  # bits 1..8


def _neighbours() -> list[list[tuple[int, int]]]:
    table = []
    for sq in range(SQUARES):
        r, c = divmod(sq, COLS)
        table.append([(d, (r + dr) * COLS + c + dc) for d, (dr, dc) in enumerate(DIRECTIONS)
                      if 0 <= r + dr < ROWS and 0 <= c + dc < COLS])
    return table


NEIGHBOURS = _neighbours()
"""NEIGHBOURS[sq] = [(direction, neighbour square), ...] inside the board."""


def move_action(square: int, direction: int) -> int:
    return NUM_REVEALS + square * 4 + direction


def decode_move(action: int) -> tuple[int, int]:
    """Move id -> (from square, to square)."""
    square, direction = divmod(action - NUM_REVEALS, 4)
    r, c = divmod(square, COLS)
    dr, dc = DIRECTIONS[direction]
    return square, (r + dr) * COLS + c + dc


def owner_of(cell: int) -> int:
    return 0 if cell > 0 else 1

"""Classic Jungle's board as plain data and functions: squares, dens, traps, rivers, the step
and jump tables, who may take whom, position keys. `game.py`'s State plays by these.

Squares are numbered `row * 7 + col`, row 0 = rank 1 (player 0's home row), col 0 = file a.
Board cells hold +rank for player 0's animals, -rank for player 1's, 0 for empty.
"""

from __future__ import annotations

import random

from ..pieces import LION, TIGER, can_capture

ROWS, COLS = 9, 7
SQUARES = ROWS * COLS
DIRECTIONS = ((1, 0), (-1, 0), (0, -1), (0, 1))
"""d = 0 north (towards rank 9), 1 south (towards rank 1), 2 west (towards a), 3 east."""
DIRECTION_NAMES = ("north", "south", "west", "east")
NUM_ACTIONS = SQUARES * 4
"""Action id = from_square * 4 + direction; a lion's or tiger's move into a river is its jump."""

DENS = (3, 8 * COLS + 3)
"""DENS[p]: player p's own den (d1, d9); p may not enter it, the enemy wins by entering it."""
TRAPS = ((2, 4, COLS + 3), (8 * COLS + 2, 8 * COLS + 4, 7 * COLS + 3))
"""TRAPS[p]: the traps around p's den (c1 e1 d2; c9 e9 d8). An enemy standing on one of them
can be taken by any of p's pieces."""
WATER = frozenset(r * COLS + c for r in (3, 4, 5) for c in (1, 2, 4, 5))
"""The two rivers: b4-c6 and e4-f6."""
TRAP_OWNER = [-1] * SQUARES
for _owner, _squares in enumerate(TRAPS):
    for _sq in _squares:
        TRAP_OWNER[_sq] = _owner
IS_WATER = [sq in WATER for sq in range(SQUARES)]
JUMPERS = (LION, TIGER)

def _tables() -> tuple[list[list[int]], list[list[tuple[int, tuple[int, ...]] | None]]]:
    """STEP[sq][d]: the neighbour square or -1; JUMP[sq][d]: (landing, water squares crossed)
    when the neighbour is water, i.e. where a lion or tiger jumps instead of stepping."""
    step: list[list[int]] = []
    jump: list[list[tuple[int, tuple[int, ...]] | None]] = []
    for sq in range(SQUARES):
        r, c = divmod(sq, COLS)
        steps: list[int] = []
        jumps: list[tuple[int, tuple[int, ...]] | None] = []
        for dr, dc in DIRECTIONS:
            nr, nc = r + dr, c + dc
            if not (0 <= nr < ROWS and 0 <= nc < COLS):
                steps.append(-1)
                jumps.append(None)
                continue
            steps.append(nr * COLS + nc)
            if sq in WATER or nr * COLS + nc not in WATER:
                jumps.append(None)
                continue
            crossed = []
            while nr * COLS + nc in WATER:
                crossed.append(nr * COLS + nc)
                nr, nc = nr + dr, nc + dc
            jumps.append((nr * COLS + nc, tuple(crossed)))
        step.append(steps)
        jump.append(jumps)
    return step, jump


STEP, JUMP = _tables()

_ZOBRIST_RNG = random.Random(20261122)
ZOBRIST = [[_ZOBRIST_RNG.getrandbits(64) for _ in range(17)] for _ in range(SQUARES)]
"""ZOBRIST[sq][cell + 8]: position hashing for the repetition rule (cell 0 hashes to 0)."""
for _row in ZOBRIST:
    _row[8] = 0
ZOBRIST_SIDE = _ZOBRIST_RNG.getrandbits(64)


def captures(attacker: int, defender: int, defender_square: int, attacker_owner: int) -> bool:
    """Whether an animal of rank `attacker` owned by `attacker_owner` may take an enemy of rank
    `defender` standing on land square `defender_square` (water rules are checked by the caller).

    Ranks as in `pieces.can_capture` (the rat takes the elephant, never the other way), equal
    ranks take each other (the attacker wins), and an enemy on one of the attacker's own traps
    counts as rank 0: any piece takes it.
    """
    if TRAP_OWNER[defender_square] == attacker_owner:
        return True
    return attacker == defender or can_capture(attacker, defender)


def position_hash(board: list[int], player: int) -> int:
    """The Zobrist key of `board` with `player` to move (the repetition rule compares these)."""
    value = ZOBRIST_SIDE if player == 1 else 0
    for sq, cell in enumerate(board):
        value ^= ZOBRIST[sq][cell + 8]
    return value

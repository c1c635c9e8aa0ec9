"""Reversi's rules as constants over the bitboards of `bitboard.py` (which holds the move
generation: `legal_moves`, `flips`): the action space, the start position, the sides.
`game.py` plays them as a `State`; `kernels.py` compiles the same rules.
"""

from __future__ import annotations

from .bitboard import SQUARES

PASS = SQUARES
"""Action 64: pass, legal only when the player to move has no placement."""
NUM_ACTIONS = SQUARES + 1
MAX_LENGTH = 2 * (SQUARES - 4)
"""60 placements at most, and a pass is always followed by a placement, so at most 120 plies."""
BLACK, WHITE = 0, 1
MARKS = ("x", "o")
"""The sides' letters in positions and boards: black `x` (player 0), white `o`."""
COLOUR_NAMES = ("black", "white")
START_BLACK = (1 << 28) | (1 << 35)   # e4, d5
START_WHITE = (1 << 27) | (1 << 36)   # d4, e5

"""Sequence's board cells, action ids, turn phases and the lines a sequence is read along:
the constants `game.py`'s State plays by and its heuristics, encodings, notation and picture
read. README.md beside this file gives the action ids in full."""

from __future__ import annotations

from .cards import NUM_CARDS, SQUARES, SIZE

# --- board cells -----------------------------------------------------------------------------
EMPTY = 0
CHIP = (1, 2)
"""CHIP[team]: an ordinary chip."""
SEQ_CHIP = (3, 4)
"""SEQ_CHIP[team]: a chip that belongs to a completed sequence (cannot be removed)."""
CORNER_CELL = 5
"""A free corner: counts for every team, never placed on or removed."""
CELL_LETTERS = ".rbRB*"

# --- action ids ------------------------------------------------------------------------------
PLAY_BASE = 0
"""card * 100 + square: place (normal card, two-eyed jack) or remove (one-eyed jack)."""
DRAFT_BASE = NUM_CARDS * SQUARES  # 5200
"""DRAFT_BASE + card: take that card from the draft."""
TRADE_BASE = DRAFT_BASE + NUM_CARDS  # 5252
"""TRADE_BASE + dead card * 52 + draft card: trade a dead card for a draft card."""
DECLINE = TRADE_BASE + NUM_CARDS * NUM_CARDS  # 7956
"""Keep the dead cards and go on to the play."""
BURN_BASE = DECLINE + 1  # 7957
"""BURN_BASE + card: discard a card unplayed (only when no card can be played)."""
NUM_ACTIONS = BURN_BASE + NUM_CARDS  # 8009


def action_parts(action: int) -> tuple[str, int, int]:
    """What an action id says, by the layout above: ("play", card, square), ("draft", card,
    0), ("trade", dead card, draft card), ("decline", 0, 0) or ("burn", card, 0)."""
    if action < DRAFT_BASE:
        card, square = divmod(action - PLAY_BASE, SQUARES)
        return "play", card, square
    if action < TRADE_BASE:
        return "draft", action - DRAFT_BASE, 0
    if action < DECLINE:
        dead, pick = divmod(action - TRADE_BASE, NUM_CARDS)
        return "trade", dead, pick
    if action == DECLINE:
        return "decline", 0, 0
    return "burn", action - BURN_BASE, 0

PLAY_PHASE, DRAFT_PHASE = 0, 1
DRAFT_SIZE, HAND_SIZE = 5, 6
SEQUENCES_TO_WIN = 2


def _lines_through() -> list[list[list[int]]]:
    """LINES[square][direction] = the 9 squares at offsets -4..4 (-1 where off the board)."""
    table = []
    for sq in range(SQUARES):
        r, c = divmod(sq, SIZE)
        per_direction = []
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            line = []
            for k in range(-4, 5):
                rr, cc = r + k * dr, c + k * dc
                line.append(rr * SIZE + cc if 0 <= rr < SIZE and 0 <= cc < SIZE else -1)
            per_direction.append(line)
        table.append(per_direction)
    return table


LINES = _lines_through()

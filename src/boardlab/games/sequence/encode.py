"""Network input for Sequence from one player's side (only what that player may know)."""

from __future__ import annotations

import numpy as np

from .cards import LAYOUT, NUM_CARDS, ONE_EYED_JACKS, SIZE, SQUARES, TWO_EYED_JACKS
from .game import SequenceState
from .rules import CHIP, CORNER_CELL, DRAFT_PHASE, EMPTY, SEQ_CHIP, SEQUENCES_TO_WIN

NETWORK_PLANES = 18
"""Planes of 10x10, channels first: see `network_input`."""

_SQUARE_OF_CARD = np.zeros((NUM_CARDS, SQUARES), dtype=np.float32)
for _sq, _card in enumerate(LAYOUT):
    if _card >= 0:
        _SQUARE_OF_CARD[_card, _sq] = 1.0


def _card_counts(cards: list[int]) -> np.ndarray:
    return np.bincount(np.asarray(cards, dtype=np.int64), minlength=NUM_CARDS).astype(np.float32)


def network_input(state: SequenceState, player: int) -> np.ndarray:
    """Planes (18, 10, 10): 0-3 own chips, opponent chips, own sequence chips, opponent
    sequence chips; 4 corners; 5 empty; 6-8 per space, copies of its card in `player`'s hand,
    in the draft, in the discards (0-2, halved); 9-12 two-eyed and one-eyed jacks in hand and
    in the draft (constant planes, quartered); 13 draft step; 14 trade step; 15-16 own and
    opponent sequences (halved, capped at the winning two); 17 deck left (fraction). Other
    hands and the deck order are never used, so a view and the true state encode alike."""
    team = player % 2
    board = np.asarray(state.board, dtype=np.int8)
    planes = np.zeros((NETWORK_PLANES, SQUARES), dtype=np.float32)
    planes[0] = board == CHIP[team]
    planes[1] = board == CHIP[1 - team]
    planes[2] = board == SEQ_CHIP[team]
    planes[3] = board == SEQ_CHIP[1 - team]
    planes[4] = board == CORNER_CELL
    planes[5] = board == EMPTY
    hand = state.hands[player]
    hand_counts = _card_counts(hand)
    draft_counts = _card_counts(state.draft)
    planes[6] = hand_counts @ _SQUARE_OF_CARD / 2
    planes[7] = draft_counts @ _SQUARE_OF_CARD / 2
    planes[8] = _card_counts(state.discards) @ _SQUARE_OF_CARD / 2
    # Two decks hold four jacks of each kind; a hand or the draft may hold all four.
    planes[9] = sum(hand_counts[c] for c in TWO_EYED_JACKS) / 4
    planes[10] = sum(hand_counts[c] for c in ONE_EYED_JACKS) / 4
    planes[11] = sum(draft_counts[c] for c in TWO_EYED_JACKS) / 4
    planes[12] = sum(draft_counts[c] for c in ONE_EYED_JACKS) / 4
    planes[13] = float(state.phase == DRAFT_PHASE)
    planes[14] = float(state.seat == player and state.in_trade_step())
    # One chip can complete two sequences at once (a line of nine), so a finished game may
    # count three; every count past the winning two reads as a win.
    planes[15] = min(state.sequences[team], SEQUENCES_TO_WIN) / SEQUENCES_TO_WIN
    planes[16] = min(state.sequences[1 - team], SEQUENCES_TO_WIN) / SEQUENCES_TO_WIN
    planes[17] = len(state.deck) / 104
    return planes.reshape(NETWORK_PLANES, SIZE, SIZE)

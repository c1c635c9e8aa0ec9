"""Sequence, the board and card game of seed 002 (the COMP90054 framework's rules)."""

from .game import SequenceGame, SequenceSettings, SequenceState
from .rules import NUM_ACTIONS

__all__ = ["SequenceGame", "SequenceSettings", "SequenceState", "NUM_ACTIONS"]

"""Sequence, the board and card game of seed 002 (the COMP90054 framework's rules)."""

from .rules import NUM_ACTIONS, SequenceGame, SequenceSettings, SequenceState

__all__ = ["SequenceGame", "SequenceSettings", "SequenceState", "NUM_ACTIONS"]

"""Reversi (Othello), seed 001: an 8x8 bitboard engine, notation, heuristics, rewards and
numba kernels for whole random games and perft."""

from .game import ReversiGame, ReversiSettings, ReversiState
from .rules import NUM_ACTIONS, PASS

__all__ = ["NUM_ACTIONS", "PASS", "ReversiGame", "ReversiSettings", "ReversiState"]

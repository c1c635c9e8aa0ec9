"""tictactoe, a game for BoardLab (its entry point is in pyproject.toml)."""

from .game import TictactoeGame, TictactoeState

__all__ = ["TictactoeGame", "TictactoeState"]

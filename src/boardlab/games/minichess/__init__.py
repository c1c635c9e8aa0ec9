"""MiniChess (6x5, the NTHU I2P(II) 2023 framework's rules), seed 004."""

from .game import MiniChessGame, MiniChessState

__all__ = ["MiniChessGame", "MiniChessState"]

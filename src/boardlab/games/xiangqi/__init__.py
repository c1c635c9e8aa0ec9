"""Xiangqi (Chinese chess), seed 003."""

from .game import XiangqiGame, XiangqiState

__all__ = ["XiangqiGame", "XiangqiState"]

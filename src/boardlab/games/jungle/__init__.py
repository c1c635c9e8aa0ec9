"""Jungle (斗兽棋): the dark 7x8 variant of seed 000."""

from .game import JungleDarkGame, JungleDarkState

__all__ = ["JungleDarkGame", "JungleDarkState"]

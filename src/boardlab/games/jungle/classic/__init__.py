"""Classic Jungle (the seed's "optional expansion"): the open 7x9 game with dens, traps and
rivers, a game of its own (`jungle-classic`) sharing the animals of `games/jungle/`."""

from .game import JungleClassicGame, JungleClassicSettings, JungleClassicState

__all__ = ["JungleClassicGame", "JungleClassicSettings", "JungleClassicState"]

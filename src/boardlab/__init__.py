"""BoardLab: exact rule engines, classic and learned agents, tournaments, browser play."""

from .core.agent import Agent, Clock
from .core.game import (
    CHANCE,
    TERMINAL,
    BoardLabError,
    Game,
    GameFacts,
    IllegalActionError,
    ParseError,
    State,
)
from .core.match import GameRecord, play_match
from .core.registry import make_agent, make_game

__version__ = "0.1.0"
__all__ = [
    "Agent", "Clock", "CHANCE", "TERMINAL", "BoardLabError", "Game", "GameFacts",
    "IllegalActionError", "ParseError", "State", "GameRecord", "play_match", "make_agent",
    "make_game", "__version__",
]

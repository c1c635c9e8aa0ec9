"""Reversi for engines, declared through `Game.engine_dialects`: the Go Text Protocol as
GRhino speaks it (`play black D3`, black first), and OpenSpiel's `othello`, whose move texts
are ours."""

from __future__ import annotations

from ...core.game import EngineDialect
from .bitboard import SIZE
from .rules import COLOUR_NAMES

DIALECTS = (EngineDialect("gtp", colours=COLOUR_NAMES, board_size=SIZE),
            EngineDialect("openspiel", variant="othello"))

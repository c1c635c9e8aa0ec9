"""Xiangqi for engines: UCCI speaks our ICCS moves (`h2e2`, ranks 0-9); Fairy-Stockfish's UCI
`xiangqi` numbers the ranks 1-10 (`h3e3`, `a10a9`). Declared through `Game.engine_dialects`."""

from __future__ import annotations

import re

from ...core.game import EngineDialect, ParseError, State

_FAIRY_MOVE = re.compile(r"([a-i])(10|[1-9])([a-i])(10|[1-9])")


def to_fairy_stockfish(state: State, action: int) -> str:
    """ICCS `h2e2` -> Fairy-Stockfish `h3e3`: each rank one higher."""
    iccs = state.action_to_str(action)
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def from_fairy_stockfish(state: State, text: str) -> int:
    """Fairy-Stockfish `h3e3` -> the action; ParseError for text that is not such a move."""
    found = _FAIRY_MOVE.fullmatch(text.strip())
    if found is None:
        raise ParseError(f"{text!r} is not a Fairy-Stockfish xiangqi move (file a-i, rank "
                         "1-10, twice, as h3e3)")
    frm_file, frm_rank, to_file, to_rank = found.groups()
    return state.str_to_action(f"{frm_file}{int(frm_rank) - 1}{to_file}{int(to_rank) - 1}")


DIALECTS = (
    EngineDialect("ucci"),
    EngineDialect("uci", variant="xiangqi", move_to_engine=to_fairy_stockfish,
                  move_from_engine=from_fairy_stockfish),
)

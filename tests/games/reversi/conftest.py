"""What Reversi's search tests share: the exact end-game value by brute force."""

from __future__ import annotations

from typing import Callable

import pytest


def _exact_margin(state, player: int, known: dict | None = None) -> int:
    """Perfect play's final disc difference for `player`: plain minimax to the end, each
    position once (`known`: end games transpose a lot)."""
    known = {} if known is None else known
    key = state.key()
    if key not in known:
        if state.is_terminal():
            known[key] = state.discs(player).bit_count() - state.discs(1 - player).bit_count()
        else:
            values = [_exact_margin(state.child(a), player, known)
                      for a in state.legal_actions()]
            known[key] = max(values) if state.current_player() == player else min(values)
    return known[key]


@pytest.fixture
def exact_margin() -> Callable[..., int]:
    return _exact_margin

"""What Reversi's search tests share: the exact end-game value by brute force, and the check
that an agent's move keeps it."""

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


def _keeps_margin(agent, state) -> None:
    """`agent`'s move from `state` keeps perfect play's final margin for the mover (a best
    move by the exact value); AssertionError naming the position if not."""
    from boardlab.core.agent import Clock

    mover = state.current_player()
    agent.start_game(mover, 0)
    action = agent.act(state.clone(), Clock())
    known: dict = {}
    assert _exact_margin(state.child(action), mover, known) == \
        _exact_margin(state, mover, known), state.to_text()


@pytest.fixture
def keeps_margin() -> Callable[..., None]:
    return _keeps_margin

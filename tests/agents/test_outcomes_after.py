"""agents.evaluation.outcomes_after: the states an action leads to, chance resolved."""

import pytest

from boardlab.agents.evaluation import outcomes_after
from boardlab.core.game import CHANCE
from boardlab.core.registry import make_game


def test_a_reveal_yields_every_piece_it_may_show_with_its_probability():
    state = make_game("jungle").initial_state(seed=4)
    reveal = state.legal_actions()[0]
    assert state.child(reveal).current_player() == CHANCE
    outcomes = outcomes_after(state, reveal)
    assert len(outcomes) > 1
    assert sum(p for p, _ in outcomes) == pytest.approx(1.0)
    shown = {after.board[reveal] for _, after in outcomes}
    assert len(shown) == len(outcomes)  # one state per piece, each different
    assert all(after.current_player() != CHANCE for _, after in outcomes)


def test_a_move_without_chance_yields_its_child_alone():
    state = make_game("reversi").initial_state(seed=0)
    action = state.legal_actions()[0]
    [(p, after)] = outcomes_after(state, action)
    assert p == 1.0 and after.to_text() == state.child(action).to_text()
    assert state.to_text() == make_game("reversi").initial_state(seed=0).to_text()

"""Seed 001's positional heuristic, the disc count, the flip reward R(p) and the network
input; and the generic agents playing Reversi through the evaluators."""

from __future__ import annotations

import numpy as np
import pytest

from boardlab.core.game import IllegalActionError
from boardlab.core.match import play_match
from boardlab.core.registry import make_agent
from boardlab.games.reversi import PASS, ReversiGame
from boardlab.games.reversi.heuristics import POSITION_WEIGHTS, disc_difference, positional_value
from boardlab.games.reversi.rewards import flip_reward

GAME = ReversiGame()


def square(name: str) -> int:
    """A square's id from its name, legal or not (str_to_action accepts legal moves only)."""
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def test_weight_table_is_symmetric_with_corners_high_and_x_squares_low():
    table = np.array(POSITION_WEIGHTS).reshape(8, 8)
    assert (table == table.T).all() and (table == table[::-1]).all()
    assert (table == table[:, ::-1]).all()
    assert table[0, 0] == 100 and table[1, 1] == -50 and table[0, 1] == -20
    assert table.max() == 100 and table.min() == -50


def test_evaluators_are_named_for_what_they_compute_with_the_agents_names_as_aliases():
    assert set(GAME.evaluators) == {"positional", "discs", "mobility", "tuned"}
    assert GAME.evaluators["greedy"] is GAME.evaluators["minimax"] is positional_value
    assert "minimax" in GAME.evaluators and GAME.evaluator_name("greedy") == "positional"


def test_positional_value_is_own_minus_opponent():
    state = GAME.state_from_text("x------o" + "-" * 48 + "-o------" + " x")
    # x on a1 (100); o on h1 (100) and b8 (-20)
    assert positional_value(state, 0) == 100 - 100 + 20
    assert positional_value(state, 1) == -(100 - 100 + 20)


def test_start_position_is_even_for_both_heuristics():
    state = GAME.initial_state()
    assert positional_value(state, 0) == positional_value(state, 1) == 0
    assert disc_difference(state, 0) == 0


def test_disc_difference_from_each_side():
    state = GAME.initial_state()
    state.apply(state.str_to_action("d3"))
    assert disc_difference(state, 0) == 3 and disc_difference(state, 1) == -3


def test_flip_reward_is_square_value_plus_flipped_values():
    state = GAME.state_from_text("""
        --------
        -o------
        --x-----
        --------
        --------
        --------
        --------
        --------  x""")
    # a1 is worth 100, the flipped b2 -50
    assert flip_reward(state, square("a1"), 0) == 100 - 50


def test_flip_reward_sums_every_flipped_disc():
    state = GAME.initial_state()
    # d3 (-1) flips d4 (-1)
    assert flip_reward(state, square("d3"), 0) == -2
    state = GAME.state_from_text("xoooo---" + "-" * 56 + " x")
    # f1 (10) flips b1 (-20), c1 (10), d1 (5), e1 (5)
    assert flip_reward(state, square("f1"), 0) == 10 + (-20 + 10 + 5 + 5)


def test_flip_reward_of_a_pass_is_zero_and_illegal_squares_raise():
    state = GAME.initial_state()
    assert flip_reward(state, PASS, 0) == 0.0
    with pytest.raises(IllegalActionError, match="occupied"):
        flip_reward(state, square("d4"), 0)
    with pytest.raises(IllegalActionError, match="flips no disc"):
        flip_reward(state, square("a1"), 0)


def test_flip_reward_scores_the_opponents_reply_too():
    state = GAME.initial_state()
    # white is not to move, but its reward for f4 (flipping e4) can be asked
    assert flip_reward(state, square("f4"), 1) == -1 + -1


def test_encode_planes_are_own_opponent_and_legal_moves():
    state = GAME.initial_state()
    planes = state.encode(0)
    assert planes.shape == (3, 8, 8) and planes.dtype == np.float32
    assert planes[0, 4, 3] == 1 and planes[0, 3, 4] == 1  # black d5, e4
    assert planes[1, 3, 3] == 1 and planes[1, 4, 4] == 1  # white d4, e5
    assert sorted(np.flatnonzero(planes[2])) == state.legal_actions()
    other = state.encode(1)
    assert (other[0] == planes[1]).all() and (other[1] == planes[0]).all()


def test_encode_is_the_same_for_the_mover_after_swapping_colours():
    """One network plays both colours: a position and its colour swap look alike."""
    state = GAME.initial_state()
    state.apply(state.str_to_action("d3"))
    text, side = state.to_text().split()
    swapped = GAME.state_from_text(text.translate(str.maketrans("xo", "ox")) + " x")
    assert (state.encode(1) == swapped.encode(0)).all()


@pytest.mark.parametrize("spec", ["greedy", "minimax:depth=2", "greedy:eval=discs"])
def test_generic_agents_play_reversi_to_the_end(spec):
    agents = [make_agent(spec, GAME), make_agent("random", GAME)]
    record = play_match(GAME, agents, seed=3)
    assert record.reason == "normal"
    final = record.replay(GAME)
    assert final.is_terminal() and record.returns == final.returns()

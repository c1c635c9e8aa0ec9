"""FEN and moves in and out, the action space, the evaluators, malformed input."""

import random
import re

import numpy as np
import pytest

from boardlab.core.game import ParseError
from boardlab.games.minichess import MiniChessGame

GAME = MiniChessGame()


def test_coordinate_and_framework_move_forms_are_the_same_action():
    state = GAME.initial_state()
    assert state.str_to_action("a2a3") == state.str_to_action("4 0 3 0")
    assert state.str_to_action("b1-c3") == state.str_to_action("5 1 3 2")
    assert state.action_to_str(state.str_to_action("4 4 3 4")) == "e2e3"


def test_action_ids_are_from_square_times_30_plus_to_square():
    state = GAME.initial_state()
    assert GAME.num_actions == 900
    assert state.str_to_action("a2a3") == (4 * 5 + 0) * 30 + (3 * 5 + 0)
    assert state.legal_actions() == sorted(state.legal_actions())


def test_fen_round_trips_on_random_game_positions():
    rng = random.Random(5)
    checked = 0
    for _ in range(30):
        state = GAME.initial_state()
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            again = GAME.state_from_text(state.to_text())
            assert again.to_text() == state.to_text()
            assert (again.board, again.player, again.plies) == (state.board, state.player,
                                                                state.plies)
            assert again.legal_actions() == state.legal_actions()
            assert again.returns() == state.returns()
            checked += 1
    assert checked > 300


def test_seed_material_evaluator():
    state = GAME.state_from_text("k4/5/5/5/1P3/K1R2 w")
    assert GAME.evaluators["greedy"](state, 0) == 8.0
    assert GAME.evaluators["minimax"](state, 1) == -8.0


def test_network_input_from_each_side():
    state = GAME.initial_state()
    white, black = state.encode(0), state.encode(1)
    assert white.shape == (12, 6, 5)
    assert white[5, 5, 4] == 1 and black[5, 5, 4] == 1  # own king, board turned for black
    assert white[0, 4].sum() == 5 and black[0, 4].sum() == 5


@pytest.mark.parametrize("fen, complaint", [
    ("kqbnr/ppppp/5/5/RNBQK w", "5 ranks, expected 6"),
    ("kqbnr/ppppp/5/5/PPPP/RNBQK w", "4 squares wide"),
    ("kqbnr/ppppp/6/5/PPPPP/RNBQK w", "6 squares wide"),
    ("kqbnr/ppppp/5/5/PPPPP/RNBQX w", "unknown piece 'X'"),
    ("kqbnr/ppppp/5/5/PPPPP/RNBQK", "side to move is missing"),
    ("kqbnr/ppppp/5/5/PPPPP/RNBQK r", "side to move 'r'"),
    ("kqbnr/ppppp/5/5/PPPPP/RNBQQ w", "white has 0 kings"),
    ("kqbnk/ppppp/5/5/PPPPP/RNBQK w", "black has 2 kings"),
    ("Pqbnk/5/5/5/5/K4 w", "should have become a queen"),
])
def test_malformed_fen_is_refused_naming_the_fault(fen, complaint):
    with pytest.raises(ParseError, match=re.escape(complaint)):
        GAME.state_from_text(fen)


def test_malformed_moves_are_refused():
    state = GAME.initial_state()
    with pytest.raises(ParseError):
        state.str_to_action("a7a8")
    with pytest.raises(ParseError):
        state.str_to_action("9 0 3 0")
    with pytest.raises(ValueError, match="empty"):
        state.str_to_action("a3a4")


def test_clone_is_independent():
    state = GAME.initial_state()
    copy = state.clone()
    copy.apply(copy.str_to_action("a2a3"))
    assert np.array_equal(state.board, GAME.initial_state().board)

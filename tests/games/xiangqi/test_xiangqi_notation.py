"""FEN and ICCS in and out, the action space, the network input, malformed input."""

import random
import re

import numpy as np
import pytest

from boardlab.core.game import ParseError
from boardlab.games.xiangqi import XiangqiGame
from boardlab.games.xiangqi.actions import MOVE_NAMES, NUM_ACTIONS

GAME = XiangqiGame()
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"


def test_start_fen_and_first_moves():
    state = GAME.initial_state()
    assert state.to_text() == START + " - - 0 1"
    assert GAME.state_from_text(START).key() == state.key()
    assert state.action_to_str(state.str_to_action("h2e2")) == "h2e2"
    assert state.str_to_action("H2-E2") == state.str_to_action("h2e2")


def test_fen_round_trips_on_random_game_positions():
    rng = random.Random(11)
    checked = 0
    for _ in range(5):
        state = GAME.initial_state()
        while not state.is_terminal() and state.plies < 150:
            state.apply(rng.choice(state.legal_actions()))
            again = GAME.state_from_text(state.to_text())
            assert again.to_text() == state.to_text()
            assert again.board == state.board and again.player == state.player
            assert again.plies == state.plies
            assert again.legal_actions() == state.legal_actions()
            checked += 1
    assert checked > 300


def test_action_space_is_the_2086_sorted_iccs_moves():
    assert NUM_ACTIONS == GAME.num_actions == 2086
    assert MOVE_NAMES == sorted(MOVE_NAMES) and len(set(MOVE_NAMES)) == 2086
    assert MOVE_NAMES[0] == "a0a1" and MOVE_NAMES[-1] == "i9i8"
    assert "e1d0" in MOVE_NAMES and "e8f9" in MOVE_NAMES  # advisor steps in both palaces
    assert "c0e2" in MOVE_NAMES and "e4c6" not in MOVE_NAMES  # elephants never cross
    assert "d1e2" not in MOVE_NAMES  # no diagonal step outside the advisor's palace points


def test_network_input_planes_from_each_players_side():
    state = GAME.initial_state()
    red, black = state.encode(0), state.encode(1)
    assert red.shape == (14, 10, 9) and red.dtype == np.float32
    # The start is symmetric: both sides see their own general on rank 0, file e.
    assert red[0, 0, 4] == 1 and black[0, 0, 4] == 1 and red[7, 9, 4] == 1
    assert np.array_equal(red, black)
    state.apply(state.str_to_action("h2e2"))  # red's right cannon (file h) to the centre
    red, black = state.encode(0), state.encode(1)
    assert red[5, 2, 4] == 1 and red[5, 2, 7] == 0
    assert black[12, 7, 4] == 1  # black sees it on its own rank 7, file e (turned board)


def test_text_board_shows_the_river_and_the_side_to_move():
    text = str(GAME.initial_state())
    assert "river" in text and "red to move" in text


@pytest.mark.parametrize("fen, complaint", [
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "9 ranks, expected 10"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "8 squares wide"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w", "10 squares wide"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unknown piece 'X'"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "side to move is missing"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side to move 'x'"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAAABNR w", "red has 0 generals"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "red has 2 generals"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 x", "move number"),
    ("3k5/9/9/9/9/9/9/9/9/K8 w", "outside its palace"),
    ("3k5/9/9/9/4B4/9/9/9/9/4K4 w", "elephant on e5"),
    ("4k4/9/9/9/9/9/9/9/9/4K4 w", "in check (or the generals face each other)"),
])
def test_malformed_fen_is_refused_naming_the_fault(fen, complaint):
    with pytest.raises(ParseError, match=re.escape(complaint)):
        GAME.state_from_text(fen)


def test_clone_is_independent():
    state = GAME.initial_state()
    copy = state.clone()
    copy.apply(copy.str_to_action("h2e2"))
    assert state.to_text() != copy.to_text() and state.plies == 0

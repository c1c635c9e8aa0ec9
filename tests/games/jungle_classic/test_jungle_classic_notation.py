"""Classic Jungle notation: action ids, moves as text both ways, positions as text both ways,
the text board, the network input, and clear errors on malformed input
(games/jungle/classic/README.md)."""

import random

import numpy as np
import pytest

from boardlab import IllegalActionError, ParseError, make_game
from boardlab.games.jungle.classic.encode import NETWORK_PLANES
from boardlab.games.jungle.classic.notation import START_TEXT
from boardlab.games.jungle.classic.rules import NUM_ACTIONS


@pytest.fixture
def game():
    return make_game("jungle-classic")


def test_action_ids_are_from_square_times_four_plus_direction(game):
    state = game.state_from_text("6l/7/7/7/7/7/2L4/7/T6 0 0")
    assert game.num_actions == NUM_ACTIONS == 252
    assert state.str_to_action("a1-a2") == 0 * 4 + 0  # north
    assert state.str_to_action("a1-b1") == 0 * 4 + 3  # east
    c3 = 2 * 7 + 2
    assert state.str_to_action("c3-c2") == c3 * 4 + 1  # south
    assert state.str_to_action("c3-b3") == c3 * 4 + 2  # west
    assert state.str_to_action("c3-c7") == c3 * 4 + 0  # the jump is the lion's move north
    assert state.action_to_str(c3 * 4) == "c3-c7"
    assert state.legal_actions() == sorted(state.legal_actions())


def test_a_step_into_the_river_reads_as_a_rat_move_for_other_animals(game):
    state = game.state_from_text("6l/7/7/7/7/7/2R4/7/7 0 0")
    assert state.action_to_str(state.str_to_action("c3-c4")) == "c3-c4"


def test_alternative_move_spellings(game):
    state = game.initial_state()
    assert state.str_to_action("a1a2") == state.str_to_action("A1-A2") == 0
    state = game.state_from_text("6l/7/7/7/7/7/1c5/1D5/7 0 0")
    assert state.str_to_action("b2xb3") == state.str_to_action("b2-b3")


@pytest.mark.parametrize("text, error, complaint", [
    ("a1", ParseError, "not a Jungle move"),
    ("a1-a2-a3", ParseError, "not a Jungle move"),
    ("h1-h2", ParseError, "not a square"),
    ("a0-a1", ParseError, "not a square"),
    ("a1-a3", IllegalActionError, "move one square"),
    ("a1-b2", IllegalActionError, "move one square"),
    ("a4-a5", IllegalActionError, "a4 is empty"),
    ("a7-a6", IllegalActionError, "opponent's"),
    ("a1-a0", ParseError, "not a square"),
])
def test_malformed_or_illegal_moves_are_explained(game, text, error, complaint):
    with pytest.raises(error, match=complaint):
        game.initial_state().str_to_action(text)


def test_a_move_onto_an_own_piece_is_explained(game):
    state = game.state_from_text("6l/7/7/7/7/7/7/1CD4/7 0 0")
    with pytest.raises(IllegalActionError, match="c2 holds your own dog"):
        state.str_to_action("b2-c2")


def test_an_off_board_action_id_has_a_name_and_is_rejected(game):
    state = game.initial_state()
    assert state.action_to_str(0 * 4 + 1) == "a1-off-board-south"
    with pytest.raises(IllegalActionError):
        state.apply(1)
    with pytest.raises(ParseError, match="outside"):
        state.action_to_str(NUM_ACTIONS)


def test_start_position_text(game):
    assert game.initial_state().to_text() == START_TEXT
    assert START_TEXT == "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L 0 0"


def test_move_and_position_round_trips_over_random_games(game):
    rng = random.Random(7)
    for _ in range(30):
        state = game.initial_state()
        while not state.is_terminal():
            for action in state.legal_actions():
                assert state.str_to_action(state.action_to_str(action)) == action
            text = state.to_text()
            again = game.state_from_text(text)
            assert again.to_text() == text
            assert again.board == state.board and again.player == state.player
            assert again.legal_actions() == state.legal_actions()
            state.apply(rng.choice(state.legal_actions()))


def test_the_plies_without_capture_field_may_be_left_out(game):
    assert game.state_from_text("6l/7/7/7/7/7/7/7/L6 1").to_text() == "6l/7/7/7/7/7/7/7/L6 1 0"


@pytest.mark.parametrize("text, complaint", [
    ("", "expected"),
    ("6l/7/7/7/7/7/7/7/L6", "expected"),
    ("6l/7/7/7/7/7/7/L6 0 0", "8 ranks"),
    ("6l/7/7/7/7/7/7/7/L7 0 0", "8 squares"),
    ("6l/7/7/7/7/7/7/7/L5 0 0", "6 squares"),
    ("6l/7/7/7/7/7/7/7/L5Q 0 0", "unknown piece 'Q'"),
    ("6l/7/7/7/7/7/7/7/L6 2 0", "side to move"),
    ("6l/7/7/7/7/7/7/7/L6 0 x", "must be a number"),
    ("6l/7/7/7/7/7/7/7/L6 0 100", "draw limit"),
    ("6l/7/7/7/7/7/7/7/LL5 0 0", "same animal twice"),
    ("7/7/7/7/7/7/7/7/L6 0 0", "player 1 has no pieces"),
    ("6l/7/7/7/1C5/7/7/7/L6 0 0", "cat on b5 stands in the water"),
    ("6l/7/7/7/7/7/7/7/3L3 0 0", "its own den"),
    ("3L2l/7/7/7/7/7/7/7/7 0 0", "enemy den"),
    ("6l/7/7/7/7/7/7/7/L6 0 0 extra", "expected"),
])
def test_malformed_positions_are_explained(game, text, complaint):
    with pytest.raises(ParseError, match=complaint):
        game.state_from_text(text)


def test_a_position_whose_side_to_move_is_stuck_is_already_lost(game):
    state = game.state_from_text("rC5/L6/7/7/7/7/7/7/7 1 0")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_the_text_board_shows_water_traps_and_dens(game):
    shown = str(game.initial_state())
    lines = shown.splitlines()
    assert lines[0].split() == list("abcdefg")
    assert lines[1].split() == ["9", "l", ".", "#", "@", "#", ".", "t"]
    assert lines[5].split() == ["5", ".", "~", "~", ".", "~", "~", "."]
    assert lines[9].split() == ["1", "T", ".", "#", "@", "#", ".", "L"]
    assert "player 0 to move" in shown and "~ water, # trap, @ den" in shown


def test_network_input_planes(game):
    state = game.state_from_text("6l/7/7/7/7/1R5/7/2e4/7 0 0")
    planes = state.encode(0)
    assert planes.shape == (NETWORK_PLANES, 9, 7) and planes.dtype == np.float32
    assert planes[0, 3, 1] == 1 and planes[0].sum() == 1          # own rat on b4
    assert planes[8 + 7, 1, 2] == 1 and planes[15].sum() == 1     # enemy elephant on c2
    assert planes[8 + 6, 8, 6] == 1                               # enemy lion on g9
    assert planes[16].sum() == 12 and planes[16, 3, 1] == 1       # water
    assert planes[17, 0, 2] == planes[17, 1, 3] == planes[17, 0, 4] == 1  # own traps
    assert planes[18, 8, 2] == planes[18, 7, 3] == planes[18, 8, 4] == 1  # enemy traps
    assert planes[19, 0, 3] == 1 and planes[20, 8, 3] == 1        # dens
    other = state.encode(1)  # turned half a circle: player 1's home rank is row 0
    assert other[0 + 6, 0, 0] == 1                                 # its lion, from g9
    assert other[8 + 0, 5, 5] == 1                                 # the enemy rat, from b4
    assert other[7, 7, 4] == 1                                     # its elephant, from c2
    assert np.array_equal(other[16:], planes[16:])


def test_both_players_see_the_same_start(game):
    state = game.initial_state()
    assert np.array_equal(state.encode(0), state.encode(1))

"""Reversi notation both ways: moves (`d3`, `pass`) and positions (64 cells + side to move),
and the board's symmetries checked through the position text."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.core.game import IllegalActionError, ParseError
from boardlab.games.reversi import PASS, ReversiGame

GAME = ReversiGame()
START_TEXT = "---------------------------ox------xo--------------------------- x"


def random_states(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        state = GAME.initial_state()
        for _ in range(rng.randrange(0, 70)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        yield state


def test_square_names_follow_othello_books():
    state = GAME.initial_state()
    assert state.action_to_str(0) == "a1"
    assert state.action_to_str(7) == "h1"
    assert state.action_to_str(19) == "d3"
    assert state.action_to_str(63) == "h8"
    assert state.action_to_str(PASS) == "pass"


def test_move_text_round_trip_for_every_legal_move():
    for state in random_states(200, seed=1):
        for action in state.legal_actions():
            assert state.str_to_action(state.action_to_str(action)) == action


def test_move_text_ignores_case_and_spaces():
    assert GAME.initial_state().str_to_action("  D3 ") == 19


def test_malformed_move_text_is_a_parse_error():
    state = GAME.initial_state()
    for text in ("z9", "d9", "i1", "d", "d33", "", "passs"):
        with pytest.raises(ParseError, match="is not a Reversi move"):
            state.str_to_action(text)


def test_action_id_outside_the_action_space_has_no_name():
    with pytest.raises(ParseError, match="outside"):
        GAME.initial_state().action_to_str(65)


def test_occupied_square_is_an_illegal_action_naming_the_square():
    with pytest.raises(IllegalActionError, match="e4 is occupied by a black disc"):
        GAME.initial_state().str_to_action("e4")


def test_start_position_text():
    assert GAME.initial_state().to_text() == START_TEXT
    assert GAME.state_from_text(START_TEXT).key() == GAME.initial_state().key()


def test_position_text_round_trip():
    for state in random_states(300, seed=2):
        again = GAME.state_from_text(state.to_text())
        assert again.key() == state.key()
        assert again.legal_actions() == state.legal_actions()
        assert again.is_terminal() == state.is_terminal()


def test_position_text_may_be_split_into_rows():
    rows = "\n".join(START_TEXT[i:i + 8] for i in range(0, 64, 8))
    assert GAME.state_from_text(rows + "\nx").key() == GAME.initial_state().key()
    slashed = "/".join(START_TEXT[i:i + 8] for i in range(0, 64, 8)) + " x"
    assert GAME.state_from_text(slashed).key() == GAME.initial_state().key()
    assert GAME.state_from_text(START_TEXT.replace("-", ".")).key() == GAME.initial_state().key()


@pytest.mark.parametrize("text, complaint", [
    ("", "expected 64 cells"),
    ("x", "expected 64 cells"),
    (START_TEXT[:-2], "side to move"),
    (START_TEXT[:-1] + "b", "side to move is 'b'"),
    (START_TEXT[1:], "63 cells, expected 64"),
    ("-" + START_TEXT, "65 cells, expected 64"),
    (START_TEXT.replace("ox", "oz", 1), "'z' on e4 is not a cell"),
])
def test_malformed_position_text_is_a_parse_error(text, complaint):
    with pytest.raises(ParseError, match=complaint):
        GAME.state_from_text(text)


def test_position_text_knows_a_forced_pass_and_a_finished_game():
    must_pass = GAME.state_from_text("ox" + "-" * 62 + " x")
    assert must_pass.legal_actions() == [PASS]
    finished = GAME.state_from_text("x" * 64 + " o")
    assert finished.is_terminal()


def test_board_printout_shows_discs_legal_moves_and_whose_turn():
    text = str(GAME.initial_state())
    assert "4 - - * o x - - -" in text
    assert "black (x) to move" in text
    assert "discs x 2, o 2" in text


def test_bad_action_type_is_an_illegal_action():
    with pytest.raises(IllegalActionError, match="not an action id"):
        GAME.initial_state().apply("d3")  # type: ignore[arg-type]


# --- the board's symmetries (the learning kit's), checked through the position text: a position
# turned square by square parses to a state whose network input, legal moves and every move's
# result are the symmetry's images of the original's

SYMMETRIES = GAME.learning_kit().symmetries
SQUARES = 64


def turned_state(state, symmetry):
    """The position with every square moved where the symmetry sends it (through the text)."""
    board, side = state.to_text().split()
    cells = np.array(list(board))
    # the square s of the turned position shows the original square symmetry.actions[s]
    return GAME.state_from_text("".join(cells[symmetry.actions[:SQUARES]]) + " " + side)


def test_eight_distinct_symmetries_with_the_identity_first():
    assert len(SYMMETRIES) == 8
    assert np.array_equal(SYMMETRIES[0].actions, np.arange(SQUARES + 1))
    assert len({view.actions.tobytes() for view in SYMMETRIES}) == 8
    for view in SYMMETRIES:
        assert view.actions[SQUARES] == SQUARES  # the pass stays the pass
        assert sorted(view.inputs) == list(range(len(view.inputs)))


@pytest.mark.parametrize("index", range(8))
def test_a_turned_position_plays_as_the_image_of_the_original(index):
    view = SYMMETRIES[index]
    for state in random_states(12, seed=index):
        turned = turned_state(state, view)
        for player in (0, 1):
            assert np.array_equal(turned.encode(player).reshape(-1),
                                  state.encode(player).reshape(-1)[view.inputs])
        assert sorted(turned.legal_actions()) == sorted(int(view.where[a])
                                                        for a in state.legal_actions())
        for action in state.legal_actions():
            after, turned_after = state.child(action), turned.child(int(view.where[action]))
            assert turned_after.to_text() == turned_state(after, view).to_text()

"""The rules of Reversi as docs/design.md#reversi-seed-001 decides them, one test per rule,
from text positions.

Positions are 8 rows of 8 cells (row 1 at the top, column a on the left; x black, o white,
- empty) and the side to move.
"""

from __future__ import annotations

import pytest

from boardlab.core.game import TERMINAL, IllegalActionError
from boardlab.games.reversi import PASS, ReversiGame

GAME = ReversiGame()


def position(text: str):
    return GAME.state_from_text(text)


def moves(state) -> list[str]:
    return [state.action_to_str(a) for a in state.legal_actions()]


def play(state, *names: str):
    for name in names:
        state.apply(state.str_to_action(name))
    return state


def test_start_position_white_on_d4_e5_black_on_d5_e4():
    state = GAME.initial_state()
    assert state.to_text() == (
        "--------" "--------" "--------" "---ox---" "---xo---" "--------" "--------" "--------"
        " x")


def test_black_moves_first_with_d3_c4_f5_e6():
    state = GAME.initial_state()
    assert state.current_player() == 0
    assert moves(state) == ["d3", "c4", "f5", "e6"]


def test_move_flips_the_flanked_disc_and_passes_the_turn():
    state = play(GAME.initial_state(), "d3")
    assert state.to_text().split()[0][24:40] == "---xx---" "---xo---"
    assert state.current_player() == 1
    assert state.disc_counts() == (4, 1)


def test_flips_in_all_eight_directions():
    state = position("""
        --------
        -x-x-x--
        --ooo---
        -xo-ox--
        --ooo---
        -x-x-x--
        --------
        --------  x""")
    play(state, "d4")
    assert state.disc_counts() == (17, 0)
    assert state.is_terminal()  # white has no disc left, so nobody can move


def test_flips_stop_at_the_first_own_disc():
    state = position("""
        oxoo----
        --------
        --------
        --------
        --------
        --------
        --------
        -------o  x""")
    play(state, "e1")
    assert state.to_text().split()[0][:8] == "oxxxx---"


def test_no_flip_past_an_empty_square():
    state = position("""
        xo-oo---
        --------
        --------
        --------
        --------
        --------
        --------
        --------  x""")
    play(state, "c1")  # b1 is flanked by a1; d1 and e1 are not: f1 is empty
    assert state.to_text().split()[0][:8] == "xxxoo---"


def test_a_disc_that_flanks_nothing_is_illegal():
    state = position("""
        x-oo----
        --------
        --------
        --------
        --------
        --------
        --------
        xo------  x""")
    assert moves(state) == ["c8"]  # the run c1-d1 is closed by no black disc
    with pytest.raises(IllegalActionError, match="e1 would flip no white disc"):
        state.str_to_action("e1")


def test_several_lines_flip_at_once():
    state = position("""
        x-------
        o-------
        -o------
        oo------
        x-x-----
        --------
        --------
        --------  x""")
    play(state, "a3")  # a2 (north), a4 (south), b4 (south-east); b3 is not closed by c3
    assert state.to_text().split()[0][:40] == "x-------" "x-------" "xo------" "xx------" "x-x-----"


def test_moves_do_not_wrap_around_the_board_edge():
    # h1 and a2 are neighbours in bit order (7, 8) but not on the board: no b2 for black
    # from h1 across a2, and no g1 for black from a2 across h1.
    east = position("""
        -------x
        o-------
        --------
        --------
        --------
        --------
        --------
        --------  x""")
    west = position("""
        -------o
        x-------
        --------
        --------
        --------
        --------
        --------
        --------  x""")
    for state in (east, west):
        assert state.moves_of(0) == 0 and state.moves_of(1) == 0
        assert state.is_terminal()


def test_forced_pass_when_only_the_opponent_can_move():
    state = position("""
        ox------
        --------
        --------
        --------
        --------
        --------
        --------
        --------  x""")
    assert moves(state) == ["pass"]
    assert not state.is_terminal()
    play(state, "pass")
    assert state.current_player() == 1
    assert moves(state) == ["c1"]


def test_pass_is_illegal_when_a_move_exists():
    state = GAME.initial_state()
    with pytest.raises(IllegalActionError, match="may pass only without a move"):
        state.str_to_action("pass")
    with pytest.raises(IllegalActionError):
        state.apply(PASS)


def test_game_ends_when_neither_player_can_move():
    state = play(position("""
        ox------
        --------
        --------
        --------
        --------
        --------
        --------
        --------  x"""), "pass", "c1")
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.returns() == [-1.0, 1.0]
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(PASS)


def test_game_ends_with_empty_squares_left_and_more_discs_wins():
    # a1 is empty, but every line from it is black to the edge: nobody can play there.
    state = position("""
        -xxxxxxx
        xxoooooo
        xoxooooo
        xooxoooo
        xoooxooo
        xooooxoo
        xoooooxo
        xoooooox  o""")
    assert state.is_terminal()
    assert state.disc_counts() == (21, 42)
    assert state.returns() == [-1.0, 1.0]


def test_full_board_with_equal_discs_is_a_draw():
    state = position("x" * 32 + "o" * 32 + " x")
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]


def test_full_board_score_more_discs_wins():
    state = position("x" * 33 + "o" * 31 + " o")
    assert state.is_terminal()
    assert state.disc_difference() == 2
    assert state.returns() == [1.0, -1.0]


def test_move_on_an_occupied_square_is_illegal():
    state = GAME.initial_state()
    with pytest.raises(IllegalActionError, match="d4 is occupied by a white disc"):
        state.str_to_action("d4")


def test_returns_are_zero_before_the_end():
    assert GAME.initial_state().returns() == [0.0, 0.0]


def test_clone_is_independent():
    state = GAME.initial_state()
    copy = state.clone()
    play(copy, "d3")
    assert state.to_text() != copy.to_text()
    assert state.key() == GAME.initial_state().key()


def test_game_facts():
    facts = GAME.facts
    assert (facts.num_players, facts.num_actions) == (2, 65)
    assert not facts.has_chance and not facts.hidden_information

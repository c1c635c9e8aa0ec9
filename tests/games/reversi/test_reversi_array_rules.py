"""Reversi's array rules (kernels.py, core/arrayrules.py) against the Python State, move by
move: the rows the compiled search plays must say what the State says at every position."""

from __future__ import annotations


from boardlab.core.game import TERMINAL
from boardlab.games.reversi import PASS, ReversiGame
from boardlab.testing import array_legal, array_played, check_array_row, check_array_rules

GAME = ReversiGame()
RULES = GAME.array_rules()
GAMES = 400


def position(text: str):
    return GAME.state_from_text(text)


def test_random_games_agree_with_the_state_move_by_move():
    """400 seeded random games: the row made by `play` from the start equals the packed State
    at every position, and says the same moves, passes, end, returns and planes."""
    finals = check_array_rules(GAME, GAMES, seed=7)
    assert sum(state.move_number() for state in finals) > 20_000
    assert {state.returns()[0] for state in finals} == {-1.0, 0.0, 1.0}


def test_forced_pass_then_the_end():
    state = position("""
        ox------
        --------
        --------
        --------
        --------
        --------
        --------
        --------  x""")
    row = RULES.pack(state)
    assert array_legal(GAME, row) == [PASS]
    state.apply(PASS)
    row = array_played(GAME, row, PASS)
    assert RULES.current_player(row) == 1
    c1 = state.str_to_action("c1")
    assert array_legal(GAME, row) == [c1]
    row = array_played(GAME, row, c1)
    assert RULES.current_player(row) == TERMINAL
    assert array_legal(GAME, row) == []
    assert RULES.player0_return(row) == -1.0


def test_discs_on_the_sign_bit_square_survive_the_int64_words():
    """h8 is bit 63: a row keeps it through play, encode and the count although the words
    are signed."""
    state = position("""
        --------
        --------
        --------
        --------
        --------
        --------
        ------o-
        -------x  x""")
    row = RULES.pack(state)
    assert row[0] < 0  # black's h8 disc is the sign bit
    check_array_row(GAME, row, state)
    f6 = state.str_to_action("f6")
    assert array_legal(GAME, row) == [f6]
    state.apply(f6)
    row = array_played(GAME, row, f6)
    check_array_row(GAME, row, state)
    assert RULES.current_player(row) == TERMINAL and RULES.player0_return(row) == 1.0

"""MiniChess's array rules (kernels.py, core/arrayrules.py) against the Python State, move by
move: the rows the compiled search plays must say what the State says at every position."""

from __future__ import annotations


from boardlab.core.game import TERMINAL
from boardlab.games.minichess import MiniChessGame
from boardlab.testing import array_legal, array_played, check_array_row, check_array_rules

GAME = MiniChessGame()
RULES = GAME.array_rules()


def play_random_games(game: MiniChessGame, count: int, seed: int) -> set[str]:
    """`count` seeded random games, the row played alongside the State; the ways they ended."""
    assert game.array_rules() is RULES  # one compiled set for every max_plies: the cap is in
    # the row
    return {state.end_reason.split()[1] for state in check_array_rules(game, count, seed)}


def test_random_games_agree_with_the_state_move_by_move():
    """300 seeded random games to the 50-ply cap and 100 to a 12-ply one: king captures on
    offer, material counts (wins and draws) and promotions all come up."""
    ends = play_random_games(GAME, 300, 3) | play_random_games(MiniChessGame(max_plies=12),
                                                                100, 4)
    assert {"can", "after"} <= ends, ends


def test_side_to_move_that_can_capture_the_king_wins_at_once():
    state = GAME.state_from_text("k4/5/5/5/1r3/K4 w")
    row = RULES.pack(state)
    a1b1 = state.str_to_action("a1b1")
    assert a1b1 in array_legal(GAME, row)
    state.apply(a1b1)
    row = array_played(GAME, row, a1b1)
    assert RULES.current_player(row) == TERMINAL and RULES.player0_return(row) == -1.0
    check_array_row(GAME, row, state)


def test_side_without_a_legal_move_loses():
    state = GAME.state_from_text("4k/5/1p3/pPp2/PRP2/KP3 w")
    row = RULES.pack(state)
    assert RULES.current_player(row) == TERMINAL and RULES.player0_return(row) == -1.0
    check_array_row(GAME, row, state)


def test_pawn_on_the_last_row_becomes_a_queen():
    state = GAME.state_from_text("k4/3P1/5/5/5/K4 w")
    action = state.str_to_action("d5d6")
    row = array_played(GAME, RULES.pack(state), action)
    state.apply(action)
    check_array_row(GAME, row, state)

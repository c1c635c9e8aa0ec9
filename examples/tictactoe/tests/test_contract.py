"""BoardLab's contract tests run on this game, then its own rules tests (add yours)."""

from boardlab.testing import check_game

from boardlab_tictactoe import TictactoeGame


def test_the_game_keeps_boardlabs_contract() -> None:
    check_game(TictactoeGame())


def test_three_in_a_row_wins() -> None:
    state = TictactoeGame().state_from_text("xx./oo./... x")
    state.apply(state.str_to_action("c1"))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_a_full_board_without_a_line_is_a_draw() -> None:
    state = TictactoeGame().state_from_text("xox/xoo/ox. x")
    state.apply(state.str_to_action("c3"))
    assert state.is_terminal() and state.returns() == [0.0, 0.0]

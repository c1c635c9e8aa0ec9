"""The rules of MiniChess (NTHU I2P(II) 2023), one test each, on FEN positions."""

import pytest

from boardlab.games.minichess import MiniChessGame

GAME = MiniChessGame()


def moves_from(state, square: str) -> set[str]:
    return {m[2:4] for m in map(state.action_to_str, state.legal_actions()) if m[:2] == square}


def play(state, *moves: str):
    for move in moves:
        state.apply(state.str_to_action(move))
    return state


def test_pawn_steps_one_square_never_two():
    state = GAME.initial_state()
    assert moves_from(state, "c2") == {"c3"}
    with pytest.raises(ValueError, match="cannot move"):
        state.str_to_action("c2c4")


def test_pawn_captures_diagonally_forward_only():
    state = GAME.state_from_text("k4/5/1p1p1/2P2/5/4K w")
    assert moves_from(state, "c3") == {"c4", "b4", "d4"}


def test_pawn_on_the_last_row_becomes_a_queen():
    state = GAME.state_from_text("4k/P4/5/5/5/K4 w")
    action = state.str_to_action("a5a6")
    assert state.action_to_str(action) == "a5a6q"
    state.apply(action)
    assert state.to_text().startswith("Q3k/")
    black = GAME.state_from_text("k4/5/5/5/4p/K4 b")
    play(black, "e2e1")
    assert black.to_text().startswith("k4/5/5/5/5/K3q")


def test_moving_into_attack_is_legal_there_is_no_check():
    state = GAME.state_from_text("k4/5/5/5/1r3/K4 w")
    assert "b1" in moves_from(state, "a1")  # onto the rook's file: allowed


def test_side_to_move_that_can_capture_the_king_wins_at_once():
    state = GAME.state_from_text("k4/5/5/5/5/Q3K w")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.can_capture_king() and state.legal_actions() == []
    walk_in = GAME.state_from_text("k4/5/5/5/1r3/K4 w")
    play(walk_in, "a1b1")  # now black could take the king: black wins, no capture played
    assert walk_in.is_terminal() and walk_in.returns() == [-1.0, 1.0]
    assert walk_in.to_text().startswith("k4/5/5/5/1r3/1K3")


def test_ply_limit_adjudicates_by_material():
    # Move 25, black to move: ply 49. After one more ply the count decides (P2 R6 N7 B8 Q20).
    state = GAME.state_from_text("k4/5/5/5/1P3/K1R2 b - - 0 25")
    assert state.plies == 49
    play(state, "a6a5")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.end_reason == "material after 50 plies: 108 to 100"
    equal = GAME.state_from_text("k3r/5/5/5/5/K1R2 b - - 0 25")
    play(equal, "a6a5")
    assert equal.is_terminal() and equal.returns() == [0.0, 0.0]
    short = play(MiniChessGame(max_plies=2).initial_state(), "a2a3", "a5a4")
    assert short.is_terminal() and short.returns() == [0.0, 0.0]


def test_side_without_a_legal_move_loses():
    # White's king is walled in by its own pieces, all blocked: no move at all.
    state = GAME.state_from_text("4k/5/1p3/pPp2/PRP2/KP3 w")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    assert "no legal move" in state.end_reason


def test_no_castling_no_en_passant_fields_are_dashes():
    assert GAME.initial_state().to_text() == "kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1"

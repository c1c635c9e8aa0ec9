"""The rules of xiangqi, one test each, on positions written as FEN."""

import pytest

from boardlab.games.xiangqi import XiangqiGame

GAME = XiangqiGame()


def position(pieces: str, side: str = "w", game: XiangqiGame = GAME):
    """A position from `square:piece` pairs in ICCS squares, e.g. `e0:K d9:k h2:C`."""
    board = [["1"] * 9 for _ in range(10)]
    for item in pieces.split():
        square, piece = item.split(":")
        board[9 - int(square[1])]["abcdefghi".index(square[0])] = piece
    ranks = []
    for row in board:
        text, empty = "", 0
        for cell in row:
            if cell == "1":
                empty += 1
                continue
            text += (str(empty) if empty else "") + cell
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    return game.state_from_text("/".join(ranks) + " " + side)


def moves_from(state, square: str) -> set[str]:
    return {m[2:] for m in map(state.action_to_str, state.legal_actions()) if m[:2] == square}


def play(state, *moves: str):
    for move in moves:
        state.apply(state.str_to_action(move))
    return state


def test_horse_leg_blocks_the_leaps_past_it():
    state = position("e0:K d9:k e4:N e5:p")
    assert moves_from(state, "e4") == {"c5", "g5", "c3", "g3", "d2", "f2"}
    free = position("e0:K d9:k e4:N")
    assert moves_from(free, "e4") == {"c5", "g5", "c3", "g3", "d2", "f2", "d6", "f6"}


def test_elephant_eye_blocks_and_river_stops_the_elephant():
    state = position("e0:K d9:k e2:B d3:P")
    assert moves_from(state, "e2") == {"c0", "g0", "g4"}  # the eye d3 is taken
    at_river = position("e0:K d9:k c4:B")
    assert moves_from(at_river, "c4") == {"a2", "e2"}  # a6 and e6 lie across the river


def test_advisor_and_general_stay_in_the_palace():
    state = position("d0:K e9:k e1:A")
    assert moves_from(state, "e1") == {"f0", "d2", "f2"}  # d0 holds the general
    assert moves_from(state, "d0") == {"d1", "e0"}  # c0 is outside; the advisor screens e0
    corner = position("f2:K d9:k")
    assert moves_from(corner, "f2") == {"e2", "f1"}  # f3 and g2 are outside the palace


def test_cannon_captures_only_over_exactly_one_screen():
    state = position("e0:K d9:k b2:C b5:p b7:r b8:n")
    assert moves_from(state, "b2") >= {"b3", "b4", "b7"}
    assert "b5" not in moves_from(state, "b2")  # no capture without a screen
    assert "b8" not in moves_from(state, "b2")  # two screens
    assert "b6" not in moves_from(state, "b2")  # it moves, without capturing, only up to one


def test_flying_general_generals_may_not_face_on_an_open_file():
    state = position("e0:K e9:k e4:C")
    # The cannon is the only piece between the generals: it may not leave the file.
    assert moves_from(state, "e4") == {"e1", "e2", "e3", "e5", "e6", "e7", "e8"}
    step = position("d0:K e9:k")
    assert moves_from(step, "d0") == {"d1"}  # e0 would face the black general


def test_soldier_steps_sideways_only_after_crossing_the_river():
    home = position("e0:K d9:k c3:P")
    assert moves_from(home, "c3") == {"c4"}
    crossed = position("e0:K d9:k c5:P")
    assert moves_from(crossed, "c5") == {"c6", "b5", "d5"}  # never backward
    black = position("e0:K d9:k c4:p", side="b")
    assert moves_from(black, "c4") == {"c3", "b4", "d4"}


def test_checkmate_loses():
    state = position("d0:K e9:k a7:R b8:R", side="w")
    play(state, "a7a9")
    assert state.is_terminal() and state.end_reason == "checkmate"
    assert state.returns() == [1.0, -1.0]


def test_stalemate_loses_for_the_side_that_cannot_move():
    # Black's general on d9 may go to d8 (the chariot's rank) or e9 (facing the red general on
    # the open e-file), both attacked, and black has no other piece, yet it is not in check.
    state = position("e0:K d9:k a8:R", side="w")
    play(state, "e0e1")
    assert state.legal_actions() == [] and state.is_terminal()
    assert not state.in_check()
    assert state.end_reason.startswith("stalemate") and state.returns() == [1.0, -1.0]


def test_perpetual_check_in_a_threefold_repetition_loses_for_the_checker():
    state = position("d0:K f9:k f5:R", side="b")  # black is in check from the chariot
    play(state, "f9e9", "f5e5", "e9f9", "e5f5", "f9e9", "f5e5", "e9f9")
    assert not state.is_terminal()
    play(state, "e5f5")  # the start position for the third time; red checked every move
    assert state.is_terminal() and state.end_reason == "perpetual check by red"
    assert state.returns() == [-1.0, 1.0]


def test_threefold_repetition_without_perpetual_check_draws():
    state = position("e0:K d9:k a0:R i9:r")
    cycle = ("a0a1", "i9i8", "a1a0", "i8i9")
    play(state, *cycle, *cycle[:3])
    assert not state.is_terminal()
    play(state, cycle[3])
    assert state.is_terminal() and state.end_reason == "threefold repetition"
    assert state.returns() == [0.0, 0.0]


def test_ply_cap_draws():
    state = XiangqiGame(max_plies=4).initial_state()
    play(state, "h2e2", "h7e7", "b0c2", "b9c7")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert XiangqiGame().facts.max_length == 300


def test_illegal_move_is_refused_with_a_reason():
    state = GAME.initial_state()
    with pytest.raises(ValueError, match="cannot move"):
        state.str_to_action("h2h8")  # past the screen, no capture
    with pytest.raises(ValueError, match="empty"):
        state.str_to_action("e4e5")

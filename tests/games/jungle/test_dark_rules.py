"""Jungle dark chess rules, one test per rule, built from text positions
(docs/design.md#jungle-dark-chess-seed-000, seed 000).

Position text: ranks 7..1 (player 0's home row is rank 1), upper case player 0, lower case
player 1, X/x face down, then side to move, plies without progress, and each side's hidden
strengths (`-` for none).
"""

import pytest

from boardlab import CHANCE, IllegalActionError, ParseError, TERMINAL, make_game
from boardlab.games.jungle.notation import parse_square
from boardlab.games.jungle.rules import HIDDEN, NUM_ACTIONS


@pytest.fixture
def game():
    return make_game("jungle")


def position(game, text):
    return game.state_from_text(text)


def play(state, *moves):
    for move in moves:
        state.apply(state.str_to_action(move))
    return state


def piece_at(state, square):
    return state.board[parse_square(square)]


def test_home_rows_setup(game):
    state = game.initial_state()
    assert state.current_player() == 0
    assert [piece_at(state, f"{c}1") for c in "abcdefgh"] == [HIDDEN] * 8
    assert [piece_at(state, f"{c}7") for c in "abcdefgh"] == [-HIDDEN] * 8
    assert sum(1 for cell in state.board if cell == 0) == 56 - 16
    assert state.hidden_strengths(0) == state.hidden_strengths(1) == list(range(1, 9))
    assert [state.action_to_str(a) for a in state.legal_actions()] == [
        f"reveal {c}1" for c in "abcdefgh"]
    assert game.num_actions == NUM_ACTIONS == 280


def test_reveal_is_a_chance_node_over_the_remaining_strengths(game):
    state = play(game.initial_state(), "reveal c1")
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [k for k, _ in outcomes] == list(range(1, 9))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply(state.str_to_action("lion"))
    assert piece_at(state, "c1") == 7
    play(state, "reveal a7", "tiger", "reveal d1")
    outcomes = state.chance_outcomes()
    assert [k for k, _ in outcomes] == [1, 2, 3, 4, 5, 6, 8]  # the lion is already face up
    assert all(p == pytest.approx(1 / 7) for _, p in outcomes)


def test_action_ids_follow_the_seed(game):
    state = game.state_from_text("x7/8/8/8/8/8/XR6 0 0 C E")
    assert state.str_to_action("reveal a1") == 0
    assert state.str_to_action("b1-b2") == 56 + 0 * 32 + 1 * 4 + 1  # (r1, c1) = (0, 1), up 1
    assert state.str_to_action("b1-c1") == 56 + 0 * 32 + 1 * 4 + 3
    assert state.action_to_str(61) == "b1-b2"


def test_stronger_piece_captures_weaker(game):
    state = position(game, "7d/8/8/8/8/1c6/1T6 0 0 - -")
    play(state, "b1-b2")
    assert piece_at(state, "b2") == 6 and piece_at(state, "b1") == 0
    assert state.no_capture == 0


def test_rat_captures_elephant(game):
    state = position(game, "7d/8/8/8/8/1e6/1R6 0 0 - -")
    play(state, "b1-b2")
    assert piece_at(state, "b2") == 1


def test_elephant_cannot_capture_rat(game):
    state = position(game, "7d/8/8/8/8/1r6/1E6 0 0 - -")
    with pytest.raises(IllegalActionError, match="would die"):
        state.str_to_action("b1-b2")
    assert state.str_to_action("b1-a1") in state.legal_actions()


def test_equal_strengths_destroy_each_other(game):
    state = position(game, "7d/8/8/8/8/1w6/1W5E 0 0 - -")
    play(state, "b1-b2")
    assert piece_at(state, "b1") == 0 and piece_at(state, "b2") == 0
    assert state.piece_counts() == (1, 1)


def test_moving_onto_a_stronger_revealed_enemy_is_illegal(game):
    state = position(game, "7d/8/8/8/8/1l6/1C6 0 0 - -")
    with pytest.raises(IllegalActionError, match="cat would die attacking the lion"):
        state.str_to_action("b1-b2")


def test_own_piece_blocks(game):
    state = position(game, "7d/8/8/8/8/1D6/1C6 0 0 - -")
    with pytest.raises(IllegalActionError, match="your own piece"):
        state.str_to_action("b1-b2")


def test_face_down_piece_cannot_move(game):
    state = game.initial_state()
    with pytest.raises(IllegalActionError, match="face down; reveal it first"):
        state.str_to_action("a1-a2")


@pytest.mark.parametrize("defender, attacker_survives, defender_survives", [
    ("cat", True, False),       # blind attack won: the tiger takes the cat's square
    ("tiger", False, False),    # equal: both destroyed
    ("elephant", False, True),  # lost: the tiger dies, the elephant stays face up
])
def test_blind_attack(game, defender, attacker_survives, defender_survives):
    state = position(game, "6xx/8/8/8/8/1x6/1T5E 0 0 - cte")
    play(state, "b1-b2")
    assert state.current_player() == CHANCE
    assert [k for k, _ in state.chance_outcomes()] == [2, 6, 8]
    state.apply(state.str_to_action(defender))
    assert (piece_at(state, "b2") == 6) == attacker_survives
    assert (piece_at(state, "b2") < 0) == defender_survives
    assert piece_at(state, "b1") == 0
    assert state.current_player() == 1
    assert state.no_capture == 0


def test_rat_blind_attack_on_hidden_elephant_wins_and_elephant_on_hidden_rat_loses(game):
    state = position(game, "7x/8/8/8/8/1x6/1R6 0 0 - re")
    play(state, "b1-b2", "elephant")
    assert piece_at(state, "b2") == 1
    state = position(game, "7x/8/8/8/8/1x6/1E6 0 0 - re")
    play(state, "b1-b2", "rat")
    assert piece_at(state, "b2") == -1 and piece_at(state, "b1") == 0


def test_capturing_the_last_piece_wins(game):
    state = position(game, "8/8/8/8/8/1c6/1T6 0 0 - -")
    play(state, "b1-b2")
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0, -1.0]


def test_mutual_destruction_of_the_last_pieces_is_a_draw(game):
    state = position(game, "8/8/8/8/8/1c6/1C6 0 0 - -")
    play(state, "b1-b2")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_no_legal_action_loses(game):
    # Player 1's rat on a7: after the cat steps to b7 it can neither move nor attack.
    state = position(game, "r7/CD6/8/8/8/8/8 0 0 - -")
    play(state, "b6-b7")
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]


def test_draw_after_the_no_capture_limit(game):
    state = position(game, "7d/8/8/8/8/8/1T6 0 39 - -")
    play(state, "b1-b2")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    short = make_game("jungle:no_capture_limit=5")
    state = short.state_from_text("7d/8/8/8/8/8/1T6 0 3 - -")
    play(state, "b1-b2")
    assert not state.is_terminal()
    play(state, "h7-h6")
    assert state.is_terminal()


def test_a_reveal_restarts_the_draw_count_unless_configured_otherwise(game):
    state = position(game, "7d/8/8/8/8/8/1TX5 0 39 C -")
    play(state, "reveal c1", "cat")
    assert not state.is_terminal() and state.no_capture == 0
    strict = make_game("jungle:reveal_is_progress=false")
    state = strict.state_from_text("7d/8/8/8/8/8/1TX5 0 39 C -")
    play(state, "reveal c1", "cat")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_position_text_round_trip_and_board(game):
    text = "6xx/8/8/8/8/1x6/1T6 0 7 - cte"
    state = position(game, text)
    assert state.to_text() == text
    shown = str(state)
    assert "T" in shown and "x" in shown and "player 0 to move" in shown


@pytest.mark.parametrize("text, complaint", [
    ("8/8/8/8/8/8 0 0", "6 ranks"),
    ("9/8/8/8/8/8/8 0 0", "9 squares"),
    ("7d/8/8/8/8/8/1Q6 0 0 - -", "unknown piece 'Q'"),
    ("7d/8/8/8/8/8/1T6 2 0 - -", "side to move"),
    ("7d/8/8/8/8/8/1TT5 0 0 - -", "same animal twice"),
    ("7d/8/8/8/8/8/1TX5 0 0 - -", "1 face-down pieces but 0 hidden"),
    ("7d/8/8/8/8/8/1TX5 0 0 T -", "already face up"),
    ("8/8/8/8/8/8/1T6 0 0 - -", "already lost"),
    ("7d/8/8/8/8/8/1T6", "expected"),
])
def test_malformed_positions_are_rejected_with_the_reason(game, text, complaint):
    with pytest.raises(ParseError, match=complaint):
        game.state_from_text(text)


@pytest.mark.parametrize("move, complaint", [
    ("reveal z9", "not a square"),
    ("b1-b3", "one square"),
    ("hello", "not a Jungle move"),
    ("reveal a7", "opponent's"),
    ("reveal d4", "empty"),
])
def test_bad_moves_typed_by_a_person(game, move, complaint):
    state = game.initial_state()
    with pytest.raises((ParseError, IllegalActionError), match=complaint):
        state.str_to_action(move)


def test_illegal_action_id_names_the_move_and_position(game):
    state = game.initial_state()
    with pytest.raises(IllegalActionError, match="a1-a2.*not legal for player 0"):
        state.apply(56 + 1)


def test_bad_game_parameter(game):
    with pytest.raises(ParseError, match="unknown parameter 'depth'.*no_capture_limit"):
        make_game("jungle:depth=3")
    with pytest.raises(ParseError, match="no_capture_limit must be at least 1"):
        make_game("jungle:no_capture_limit=0")

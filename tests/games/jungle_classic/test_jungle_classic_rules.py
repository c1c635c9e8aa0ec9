"""Classic Jungle rules, one test per rule, built from text positions
(games/jungle/classic/README.md).

Position text: ranks 9..1 separated by `/`, upper case player 0 (den d1, moves up the board),
lower case player 1 (den d9), digits count empty squares, then the side to move and the plies
without capture. Letters: R rat, C cat, D dog, W wolf, P leopard, T tiger, L lion, E elephant.
Terrain: rivers b4-c6 and e4-f6; player 0's traps c1 e1 d2, player 1's c9 e9 d8.
"""

import pytest

from boardlab import IllegalActionError, TERMINAL, make_game
from boardlab.games.jungle.classic.notation import parse_square, sq_name
from boardlab.games.jungle.classic.rules import DENS, TRAPS, WATER


@pytest.fixture
def game():
    return make_game("jungle-classic")


def play(state, *moves):
    for move in moves:
        state.apply(state.str_to_action(move))
    return state


def at(state, square):
    return state.board[parse_square(square)]


def moves_from(state, square):
    return sorted(state.action_to_str(a) for a in state.legal_actions()
                  if state.action_to_str(a).startswith(square + "-"))


# --- board and setup ----------------------------------------------------------------------------

def test_board_terrain(game):
    assert sorted(sq_name(s) for s in WATER) == sorted(
        f"{c}{r}" for c in "bcef" for r in (4, 5, 6))
    assert [sq_name(s) for s in DENS] == ["d1", "d9"]
    assert [sorted(sq_name(s) for s in traps) for traps in TRAPS] == [
        ["c1", "d2", "e1"], ["c9", "d8", "e9"]]


def test_standard_setup(game):
    state = game.initial_state()
    expected = {"a1": 6, "g1": 7, "b2": 2, "f2": 3, "a3": 8, "c3": 4, "e3": 5, "g3": 1,
                "g9": -6, "a9": -7, "f8": -2, "b8": -3, "g7": -8, "e7": -4, "c7": -5,
                "a7": -1}
    assert {sq_name(s): v for s, v in enumerate(state.board) if v} == expected
    assert state.current_player() == 0
    assert len(state.legal_actions()) == 24


# --- movement -----------------------------------------------------------------------------------

def test_animals_step_one_square_orthogonally(game):
    state = game.state_from_text("6l/7/7/7/7/7/3W3/7/7 0 0")
    assert moves_from(state, "d3") == ["d3-c3", "d3-d2", "d3-d4", "d3-e3"]


def test_only_the_rat_enters_the_water(game):
    state = game.state_from_text("6l/7/7/7/7/7/1C5/7/1R5 0 0")
    assert moves_from(state, "b3") == ["b3-a3", "b3-b2", "b3-c3"]
    with pytest.raises(IllegalActionError, match="only the rat may enter the water"):
        state.str_to_action("b3-b4")
    state = game.state_from_text("6l/7/7/7/7/7/1R5/7/7 0 0")
    assert "b3-b4" in moves_from(state, "b3")


def test_rat_swims_through_the_river_and_out(game):
    state = game.state_from_text("6l/7/7/7/7/7/1R5/7/7 0 0")
    play(state, "b3-b4", "g9-g8", "b4-c4", "g8-g9", "c4-c5", "g9-g8", "c5-c6", "g8-g9",
         "c6-c7")
    assert at(state, "c7") == 1


@pytest.mark.parametrize("rank3, move", [
    ("2L4", "c3-c7"), ("1T5", "b3-b7"), ("4L2", "e3-e7"), ("5T1", "f3-f7"),
])
def test_lion_and_tiger_jump_the_river_vertically(game, rank3, move):
    state = game.state_from_text(f"6l/7/7/7/7/7/{rank3}/7/7 0 0")
    jumper = at(state, move[:2])
    play(state, move)
    assert at(state, move[3:]) == jumper and at(state, move[:2]) == 0


@pytest.mark.parametrize("rank5, move", [
    ("L6", "a5-d5"), ("3L3", "d5-a5"), ("3T3", "d5-g5"), ("6T", "g5-d5"),
])
def test_lion_and_tiger_jump_the_river_horizontally(game, rank5, move):
    state = game.state_from_text(f"5l1/7/7/7/{rank5}/7/7/7/7 0 0")
    jumper = at(state, move[:2])
    play(state, move)
    assert at(state, move[3:]) == jumper and at(state, move[:2]) == 0


def test_jump_back_the_other_way(game):
    state = game.state_from_text("6l/7/2L4/7/7/7/7/7/7 0 0")
    play(state, "c7-c3")
    assert at(state, "c3") == 7


@pytest.mark.parametrize("rat", ["R", "r"])
def test_a_rat_of_either_side_in_the_water_blocks_a_vertical_jump(game, rat):
    state = game.state_from_text(f"6l/7/7/7/2{rat}4/7/2L4/7/7 0 0")
    assert "c3-c7" not in moves_from(state, "c3")
    with pytest.raises(IllegalActionError, match="rat on c5 blocks the lion's jump"):
        state.str_to_action("c3-c7")


@pytest.mark.parametrize("rat", ["R", "r"])
def test_a_rat_of_either_side_in_the_water_blocks_a_horizontal_jump(game, rat):
    state = game.state_from_text(f"6l/7/7/7/T{rat}5/7/7/7/7 0 0")
    with pytest.raises(IllegalActionError, match="rat on b5 blocks the tiger's jump"):
        state.str_to_action("a5-d5")
    assert "a5-a6" in moves_from(state, "a5")


def test_a_rat_outside_the_jump_line_does_not_block(game):
    state = game.state_from_text("6l/7/7/7/1r5/7/2L4/7/7 0 0")
    assert "c3-c7" in moves_from(state, "c3")


def test_a_jump_may_capture_what_the_jumper_outranks(game):
    state = game.state_from_text("6l/7/2p4/7/7/7/2T4/7/7 0 0")
    play(state, "c3-c7")
    assert at(state, "c7") == 6 and state.piece_counts() == (1, 1)
    assert state.no_capture == 0


def test_a_jump_may_not_land_on_a_stronger_animal_or_an_own_piece(game):
    state = game.state_from_text("6l/7/2e1E2/7/7/7/2T1L2/7/7 0 0")
    with pytest.raises(IllegalActionError, match="tiger cannot take the elephant"):
        state.str_to_action("c3-c7")
    with pytest.raises(IllegalActionError, match="your own elephant"):
        state.str_to_action("e3-e7")


def test_other_animals_do_not_jump(game):
    state = game.state_from_text("6l/7/7/7/7/7/2E4/7/7 0 0")
    with pytest.raises(IllegalActionError, match="only a lion or tiger jumps"):
        state.str_to_action("c3-c7")


# --- captures -----------------------------------------------------------------------------------

def test_a_stronger_animal_captures_a_weaker_one(game):
    state = game.state_from_text("6l/7/7/7/7/7/1c5/1D5/7 0 0")
    play(state, "b2-b3")
    assert at(state, "b3") == 3 and state.piece_counts() == (1, 1)


def test_a_weaker_animal_cannot_capture_a_stronger_one(game):
    state = game.state_from_text("6l/7/7/7/7/7/1d5/1C5/7 0 0")
    with pytest.raises(IllegalActionError, match="cat cannot take the dog"):
        state.str_to_action("b2-b3")


def test_equal_ranks_the_attacker_takes_the_defender(game):
    state = game.state_from_text("6l/7/7/7/7/7/1w5/1W5/7 0 0")
    play(state, "b2-b3")
    assert at(state, "b3") == 4 and at(state, "b2") == 0 and state.piece_counts() == (1, 1)


def test_rat_captures_elephant(game):
    state = game.state_from_text("6l/7/7/7/7/7/e6/R6/7 0 0")
    play(state, "a2-a3")
    assert at(state, "a3") == 1


def test_elephant_cannot_capture_rat(game):
    state = game.state_from_text("6l/7/7/7/7/7/r6/E6/7 0 0")
    with pytest.raises(IllegalActionError, match="elephant cannot take the rat"):
        state.str_to_action("a2-a3")


def test_rat_in_the_water_cannot_capture_the_elephant_on_land(game):
    state = game.state_from_text("6l/7/7/7/7/1R5/1e5/7/7 0 0")
    with pytest.raises(IllegalActionError, match="rat in the water cannot take the elephant"):
        state.str_to_action("b4-b3")


def test_rat_in_the_water_cannot_capture_a_rat_on_land(game):
    state = game.state_from_text("6l/7/7/7/7/1R5/1r5/7/7 0 0")
    with pytest.raises(IllegalActionError, match="rat in the water cannot take the rat"):
        state.str_to_action("b4-b3")


def test_rat_on_land_cannot_capture_a_rat_in_the_water(game):
    state = game.state_from_text("6l/7/7/7/7/1r5/1R5/7/7 0 0")
    with pytest.raises(IllegalActionError, match="rat in the water at b4 can only be taken"):
        state.str_to_action("b3-b4")


def test_land_animal_cannot_capture_a_rat_in_the_water(game):
    state = game.state_from_text("6l/7/7/7/7/1r5/1L5/7/7 0 0")
    # The lion's move north from b3 would be a jump, and the rat in the water blocks it.
    assert "b3-b7" not in moves_from(state, "b3")
    state = game.state_from_text("6l/7/7/7/7/Dr5/7/7/7 0 0")
    with pytest.raises(IllegalActionError, match="only the rat may enter the water"):
        state.str_to_action("a4-b4")


def test_rats_in_the_water_capture_each_other(game):
    state = game.state_from_text("6l/7/7/7/1r5/1R5/7/7/7 0 0")
    play(state, "b4-b5")
    assert at(state, "b5") == 1 and state.piece_counts() == (1, 1)


def test_a_rat_leaves_the_water_onto_an_empty_square(game):
    state = game.state_from_text("6l/7/7/7/7/1R5/7/7/7 0 0")
    play(state, "b4-a4")
    assert at(state, "a4") == 1


# --- traps --------------------------------------------------------------------------------------

def test_any_animal_captures_an_enemy_in_its_own_trap(game):
    state = game.state_from_text("6l/7/7/7/7/7/7/7/1Ce4 0 0")
    play(state, "b1-c1")
    assert at(state, "c1") == 2 and state.piece_counts() == (1, 1)


def test_the_elephant_takes_a_rat_in_its_trap(game):
    state = game.state_from_text("6l/7/7/7/7/7/7/2Er3/7 0 0")
    play(state, "c2-d2")
    assert at(state, "d2") == 8


def test_an_animal_on_its_own_trap_keeps_its_rank(game):
    state = game.state_from_text("6l/7/7/7/7/7/7/7/1cE4 1 0")
    with pytest.raises(IllegalActionError, match="cat cannot take the elephant"):
        state.str_to_action("b1-c1")


def test_an_animal_in_an_enemy_trap_keeps_its_attack(game):
    # The rank-0 rule only makes the trapped animal easy prey; it still attacks at full rank.
    state = game.state_from_text("1cE4/7/7/7/7/7/7/7/6l 0 0")
    play(state, "c9-b9")
    assert at(state, "b9") == 8


# --- dens and the end ---------------------------------------------------------------------------

def test_an_animal_may_not_enter_its_own_den(game):
    state = game.state_from_text("6l/7/7/7/7/7/7/7/2C4 0 0")
    assert moves_from(state, "c1") == ["c1-b1", "c1-c2"]
    with pytest.raises(IllegalActionError, match="may not enter its own den"):
        state.str_to_action("c1-d1")


def test_entering_the_enemy_den_wins(game):
    state = game.state_from_text("6l/3C3/7/7/7/7/7/7/6e 0 0")
    play(state, "d8-d9")
    assert state.current_player() == TERMINAL and state.returns() == [1.0, -1.0]


def test_the_weakest_animal_wins_in_the_den_even_next_to_stronger_enemies(game):
    state = game.state_from_text("6E/7/7/7/7/7/7/7/1Lr4 1 0")
    play(state, "c1-d1")
    assert state.returns() == [-1.0, 1.0]


def test_capturing_the_last_enemy_piece_wins(game):
    state = game.state_from_text("7/7/7/7/7/7/1c5/1D5/7 0 0")
    play(state, "b2-b3")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_a_side_with_no_legal_move_loses(game):
    # After the cat steps to b9, player 1's rat on a9 can neither take the cat nor the lion.
    state = game.state_from_text("r6/LC5/7/7/7/7/7/7/7 0 0")
    play(state, "b8-b9")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


# --- draws --------------------------------------------------------------------------------------

def test_draw_after_the_no_capture_limit(game):
    state = game.state_from_text("6l/7/7/7/7/7/7/7/L6 0 99")
    play(state, "a1-a2")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    short = make_game("jungle-classic:no_capture_limit=4")
    state = short.state_from_text("6l/7/7/7/7/7/7/7/L6 0 2")
    play(state, "a1-a2")
    assert not state.is_terminal()
    play(state, "g9-g8")
    assert state.is_terminal()


def test_a_capture_restarts_the_no_capture_count(game):
    state = game.state_from_text("6l/7/7/7/7/7/1c5/1D5/6W 0 98")
    play(state, "b2-b3")
    assert state.no_capture == 0 and not state.is_terminal()


def test_threefold_repetition_is_a_draw(game):
    state = game.state_from_text("6l/7/7/7/7/7/7/7/L6 0 0")
    play(state, "a1-a2", "g9-g8", "a2-a1", "g8-g9")  # the start position, second time
    assert state.repetitions() == 2 and not state.is_terminal()
    play(state, "a1-a2", "g9-g8", "a2-a1")
    assert not state.is_terminal()
    play(state, "g8-g9")  # third time
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_a_capture_clears_the_repetition_history(game):
    state = game.state_from_text("6l/7/7/7/7/7/7/c6/L5W 0 0")
    play(state, "g1-g2", "g9-g8", "g2-g1", "g8-g9")
    assert state.repetitions() == 2
    play(state, "a1-a2")
    assert state.repetitions() == 1 and state.history == [state.hash]


def test_repetition_draw_can_be_switched_off(game):
    free = make_game("jungle-classic:repetition_draw=false")
    state = free.state_from_text("6l/7/7/7/7/7/7/7/L6 0 0")
    for _ in range(3):
        play(state, "a1-a2", "g9-g8", "a2-a1", "g8-g9")
    assert not state.is_terminal() and state.repetitions() == 4

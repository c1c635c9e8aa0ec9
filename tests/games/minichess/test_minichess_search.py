"""The compiled MiniChess alpha-beta (search.py): without quiescence it plays exactly as the
Python minimax agent without a table (same move, same value) on positions of seeded games,
king captures, the ply cap's material count included; with quiescence it sees through trades."""

import random

import numpy as np
import pytest


from boardlab.testing import check_compiled_search
from boardlab.testing import search_decision as decide
from boardlab.games.alphabeta import NO_LIMIT
from boardlab.games.minichess import MiniChessGame
from boardlab.games.minichess.heuristics import ACTIVITY, activity, material, positional, tuned
from boardlab.games.minichess.search import Line, compiled_search
from boardlab.games.minichess.search import activity as compiled_activity
from boardlab.games.minichess.search import _static as compiled_static

GAME = MiniChessGame()


def positions(game, seeds, picks) -> list:
    """Decision positions of seeded random games (the last ones near their ends)."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        states = []
        while not state.is_terminal():
            states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        found += [states[p] for p in picks if -len(states) <= p < len(states)]
    return found




@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_compiled_search_equals_the_python_agent(depth):
    cases = positions(GAME, range(15), [0, 4, 9, -1, -2, -3])
    assert len(cases) >= 60
    for state in cases[:: 1 if depth < 4 else 3]:
        check_compiled_search(state, depth)


def test_the_ply_cap_inside_the_search_equals_the_python_agent():
    # A cap of 14 plies: the searches from plies 8-13 end in the material count.
    for state in positions(MiniChessGame(max_plies=14), range(6), [8, 10, 12]):
        check_compiled_search(state, 4)


@pytest.mark.parametrize("depth", [1, 3])
@pytest.mark.parametrize("evaluator", ["positional", "tuned"])
def test_compiled_search_with_a_piece_square_heuristic_equals_the_python_agent(depth, evaluator):
    for state in positions(GAME, range(8), [0, 5, -1, -3]):
        check_compiled_search(state, depth, evaluator=evaluator)


def test_evaluation_equals_the_heuristic_bit_for_bit():
    searches = {heuristic: compiled_search(GAME, name, True)
                for name, heuristic in (("material", material), ("positional", positional),
                                        ("tuned", tuned))}
    for state in positions(GAME, range(10), [3, 10, -1]):
        board = np.asarray(state.board, dtype=np.int8)
        for heuristic, search in searches.items():
            line = Line(board, search.moves, search.evaluation, search.activity)
            for player in (0, 1):
                assert compiled_static(line, player) == heuristic(state, player)
    weights = tuple(searches[tuned].activity)
    assert len(weights) == ACTIVITY + 1 and any(weights)  # the shipped table has activity


def test_activity_counts_moves_and_squares_next_to_the_enemy_king():
    # White: a rook on a1 (moves a2-a5, the capture on a6, b1-d1: 8; on or next to the black
    # king: a5 and a6) and a king on e1 (d1, d2, e2: 3, never counted near the other king);
    # black: a king on a6 (a5, b5, b6: 3).
    state = GAME.state_from_text("k4/5/5/5/5/R3K w - - 0 1")
    weights = np.array([0, 0, 1.0, 0, 0, 0, 10.0, 100.0])
    expected = (8 * 1 + 2 * 100 + 3 * 10) - 3 * 10
    assert activity(state.board, weights) == expected
    assert compiled_activity(np.asarray(state.board, dtype=np.int8), weights) == expected
    # Pawns: a free step is a move, a diagonal on or next to the enemy king (b4) counts:
    # a3 steps to a4 and attacks b4; c2 steps to c3 and attacks b3 (next to b4) and d3.
    board = GAME.state_from_text("5/5/1k3/P4/2P2/4K w - - 0 1").board
    weights = np.array([0, 1.0, 0, 0, 0, 0, 0, 100.0])
    assert activity(board, weights) == 2 * 1 + 2 * 100
    assert compiled_activity(np.asarray(board, dtype=np.int8), weights) == 2 * 1 + 2 * 100


def test_positional_bonuses_mirror_between_the_sides():
    # The start position is symmetric, so it is worth 0 (up to rounding); a white pawn pushed
    # one row is worth more to white than the same pawn on its start row.
    start = GAME.initial_state()
    assert positional(start, 0) == pytest.approx(0.0, abs=1e-9)
    pushed = GAME.state_from_text("kqbnr/ppppp/5/2P2/PP1PP/RNBQK b")
    assert positional(pushed, 0) > 0.0 > positional(pushed, 1)


def test_quiescence_sees_the_recapture():
    # White's queen can take the pawn on c3, but the pawn on b4 takes it back.
    state = GAME.state_from_text("k4/5/1p3/2p2/5/2Q1K w")
    plain = decide("minimax:depth=1", state)[0]
    quiet = decide("minimax:depth=1,quiescence=true", state)[0]
    assert plain == "c1c3" and quiet != "c1c3", (plain, quiet)


def test_search_stops_past_max_nodes():
    search = GAME.compiled_minimax("minimax")
    state = GAME.initial_state()
    _, _, nodes, completed = search(state, state.legal_actions(), 8, 0, 500)
    assert not completed and 500 < nodes < 520
    assert search(state, state.legal_actions(), 1, 0, NO_LIMIT)[3]

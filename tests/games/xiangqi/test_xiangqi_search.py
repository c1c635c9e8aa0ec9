"""The compiled Xiangqi alpha-beta (search.py): without quiescence it plays exactly as the
Python minimax agent without a table (same move, same value) on positions of seeded games,
repetitions, mates and the ply cap included; with quiescence it sees through trades."""

import random
import time

import numpy as np
import pytest


from boardlab import Clock, make_agent
from boardlab.testing import check_compiled_search
from boardlab.testing import search_decision as decide
from boardlab.games.alphabeta import NO_LIMIT, evaluate
from boardlab.games.xiangqi import XiangqiGame
from boardlab.games.xiangqi.heuristics import material_and_position
from boardlab.games.xiangqi.search import EVALUATION

from xiangqi_games import perpetual_check_game, repeating_game

GAME = XiangqiGame()


def positions(seeds, picks) -> list:
    """Decision positions of seeded games (play-back games repeat; see repeating_game)."""
    found = []
    for seed in seeds:
        states = [s for s in repeating_game(seed) if not s.is_terminal()]
        for pick in picks:
            if -len(states) <= pick < len(states):
                found.append(states[pick])
    return found




@pytest.mark.parametrize("depth", [1, 2])
def test_compiled_search_equals_the_python_agent(depth):
    # Middlegames, the last positions before games end (mates, repetitions) and positions
    # where playing back a move repeats a position a third time.
    cases = positions(range(12), [10, 40, -1, -2, -3]) + perpetual_check_game()[:-1]
    assert len(cases) >= 50
    for state in cases:
        check_compiled_search(state, depth)


def test_compiled_search_equals_the_python_agent_at_depth_3():
    for state in positions(range(2), [20, -1, -3]) + perpetual_check_game()[5:-1]:
        check_compiled_search(state, 3)


def test_ply_cap_and_mate_values_equal_the_python_agent():
    capped = XiangqiGame(max_plies=12)
    state = capped.initial_state()
    rng = random.Random(2)
    while state.plies < 10:
        state.apply(rng.choice(state.legal_actions()))
    check_compiled_search(state, 3)  # the cap (a draw) falls inside the search
    mate_in_one = GAME.state_from_text("3k5/9/4R4/9/9/9/9/9/9/4K4 w")
    move, value = decide("minimax:depth=2", mate_in_one)
    assert value == 1_000_000.0 - 1 and decide("minimax:depth=2,kernel=false,tt=false",
                                                mate_in_one) == (move, value)


def test_evaluation_equals_the_heuristic_bit_for_bit():
    for state in positions(range(6), [5, 30, 60, -1]):
        board = np.asarray(state.board, dtype=np.int8)
        for player in (0, 1):
            assert evaluate(board, EVALUATION, player) == material_and_position(state, player)


def test_quiescence_sees_the_recapture():
    # Red's chariot may take the soldier on e5 (+10) but the black chariot on e9 takes back:
    # depth 1 without quiescence grabs it; with quiescence the trade is seen as a loss.
    state = GAME.state_from_text("4r4/5k3/9/9/4p4/9/9/9/9/3KR4 w")
    plain = decide("minimax:depth=1", state)[0]
    quiet = decide("minimax:depth=1,quiescence=true", state)[0]
    assert plain == "e0e5" and quiet != "e0e5"


def test_search_stops_past_max_nodes():
    search = GAME.compiled_minimax("minimax")
    state = GAME.initial_state()
    best, value, nodes, completed = search(state, state.legal_actions(), 4, 0, 500)
    assert not completed and 500 < nodes < 520
    assert search(state, state.legal_actions(), 1, 0, NO_LIMIT)[3]


def test_time_setting_stops_a_search_without_depth_limit():
    agent = make_agent("minimax:depth=0,time=0.3,quiescence=true", GAME)
    agent.start_game(0, 1)
    agent.act(GAME.initial_state(), Clock.start(0.05))  # compiled code loaded
    started = time.perf_counter()
    agent.act(GAME.initial_state(), Clock())
    # depth=0 would search on for ever: ending at all is the time setting at work. The bound
    # is ten times the 0.3 s, wide enough for a loaded machine, whose slower kernel overruns
    # a node budget sized by the rate measured earlier.
    assert time.perf_counter() - started < 10 * 0.3
    assert agent.last_info()["depth"] >= 3


def test_the_engine_search_judges_a_cycle_when_it_first_closes():
    # Red checked with every move of the cycle so far; playing e0f0 closes it a second time:
    # the plain search (the rules: threefold) sees nothing yet, the engine sees the loss a
    # perpetual check comes to. The position itself repeats one, which must not end it.
    state = perpetual_check_game()[6]
    cycle = state.child(state.str_to_action("e0f0"))
    assert not cycle.is_terminal()
    search = GAME.compiled_quiescence("minimax")
    close, value, _, _ = search(state, [state.str_to_action("e0f0")], 1, 0, NO_LIMIT)
    assert value == -(1_000_000.0 - 7)
    plain = GAME.compiled_minimax("minimax")
    assert plain(state, [state.str_to_action("e0f0")], 1, 0, NO_LIMIT)[1] > -1000


def test_the_engine_search_sees_a_stalemate_past_the_horizon():
    # e0e8 leaves black's general no move (no check): a loss for black in xiangqi, which the
    # quiescence search must see as the plain search does.
    state = perpetual_check_game()[6]
    for spec in ("minimax:depth=1", "minimax:depth=1,quiescence=true"):
        assert decide(spec, state) == ("e0e8", 1_000_000.0 - 7)

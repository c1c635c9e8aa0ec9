"""The compiled Reversi alpha-beta (search.py): in plain mode it plays exactly as the Python
minimax agent without a table (same move, same value) for each heuristic it compiles, on
positions of seeded games, forced passes and finished games inside the search included; its
heuristics equal heuristics.py's; in engine mode it solves end games exactly."""

from __future__ import annotations

import numpy as np
import pytest

from boardlab.core.registry import make_agent
from boardlab.games.alphabeta import NO_LIMIT
from boardlab.games.reversi import PASS, ReversiGame
from boardlab.games.reversi import search
from boardlab.games.reversi.heuristics import (disc_difference, edge_anchored,
                                               mobility_value, positional_value, unsettled)
from boardlab.games.reversi.kernels import traced_playout
from boardlab.testing import check_compiled_search


GAME = ReversiGame()
HEURISTICS = {"positional": positional_value, "discs": disc_difference,
              "mobility": mobility_value}


def random_games(seeds) -> list[list]:
    """The decision positions of random games (kernels.traced_playout's), one list a seed."""
    games = []
    for seed in seeds:
        state = GAME.initial_state()
        games.append([])
        for action in traced_playout(state.black, state.white, state.player, seed)[1]:
            games[-1].append(state.clone())
            state.apply(action)
    return games


def positions(seeds, picks) -> list:
    """Decision positions of seeded random games (negative picks: near their ends, where the
    search meets passes and finished games)."""
    return [states[p] for states in random_games(seeds) for p in picks
            if -len(states) <= p < len(states)]


def passing_positions(seeds) -> list:
    """Positions where the mover must pass, and the two before each."""
    found = []
    for states in random_games(seeds):
        for i, state in enumerate(states):
            if state.legal_actions() == [PASS]:
                found += states[max(i - 2, 0):i + 1]
    return found


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_compiled_search_equals_the_python_agent(depth):
    cases = positions(range(12), [0, 6, 20, 40, -1, -3, -6])
    assert len(cases) >= 80
    for state in cases[:: 1 if depth < 4 else 3]:
        check_compiled_search(state, depth)


@pytest.mark.parametrize("evaluator", ["discs", "mobility"])
@pytest.mark.parametrize("depth", [1, 3])
def test_compiled_search_with_other_heuristics_equals_the_python_agent(evaluator, depth):
    for state in positions(range(6), [3, 25, -2, -5]):
        check_compiled_search(state, depth, evaluator=evaluator)


def test_forced_passes_inside_and_at_the_root_equal_the_python_agent():
    cases = passing_positions(range(60))
    assert len(cases) >= 6, "the seeds should give some passes"
    for state in cases:
        check_compiled_search(state, 3)
        check_compiled_search(state, 2, evaluator="mobility")


def test_compiled_heuristics_equal_the_python_ones():
    weights = search.heuristic_weights()
    for state in positions(range(10), [0, 5, 15, 30, 45, -1]):
        for player in (0, 1):
            own = np.uint64(state.discs(player))
            opp = np.uint64(state.discs(1 - player))
            mine = np.uint64(state.moves_of(player))
            for name, heuristic in HEURISTICS.items():
                code = search.EVALUATORS[name]
                assert search.evaluate(own, opp, mine, code, weights) == heuristic(state, player), (
                    name, player, state.to_text())


def test_edge_anchored_discs_run_from_an_own_corner():
    state = GAME.state_from_text("xxxo----" + "x-------" + "--------" * 5 + "o-------" + " x")
    # a1 b1 c1 along the top (d1 is white), a2 down the side; a8 is white but h8 is empty.
    assert edge_anchored(state.discs(0)) == (1 << 0) | (1 << 1) | (1 << 2) | (1 << 8)
    assert edge_anchored(state.discs(1)) == 1 << 56


def test_mobility_heuristic_is_antisymmetric_and_forgets_a_taken_corners_x_square():
    for state in positions(range(4), [10, 30]):
        assert mobility_value(state, 0) == -mobility_value(state, 1)
    b2, b1, a2 = 9, 1, 8
    assert unsettled(0) >> b2 & 1  # a1 empty: a disc on b2 weighs the table's -50
    assert not unsettled(1 << 0) & ((1 << b2) | (1 << b1) | (1 << a2))  # a1 taken: nothing
    assert unsettled(1 << 0) >> 63 & 1 and unsettled(1 << 0) >> 54 & 1  # h8 still empty



def test_engine_mode_solves_end_games_exactly(exact_margin):
    engine = search.compiled_quiescence("mobility")
    cases = positions(range(8), [-6, -8])
    assert len(cases) == 16
    for state in cases:
        mover = state.current_player()
        margin = exact_margin(state, mover)
        _, value, _, completed = engine(state, state.legal_actions(), 1, mover, NO_LIMIT)
        expected = 0.0 if margin == 0 else margin + (search.SOLVED if margin > 0
                                                     else -search.SOLVED)
        assert completed and value == expected, (value, margin, state.to_text())


def test_engine_mode_agent_plays_perfectly_near_the_end(keeps_margin):
    agent = make_agent("minimax:depth=12,eval=mobility,quiescence=true", GAME)
    for state in positions(range(8), [-8]):
        keeps_margin(agent, state)


def test_both_modes_stop_past_max_nodes():
    state = GAME.initial_state()
    for make in (search.compiled_minimax, search.compiled_quiescence):
        engine = make("mobility")
        nodes, completed = engine(state, state.legal_actions(), 10, 0, 500)[2:]
        assert not completed and 500 < nodes < 520
        assert engine(state, state.legal_actions(), 1, 0, NO_LIMIT)[3]


def test_only_the_compiled_heuristics_are_offered():
    assert search.compiled_minimax("no such heuristic") is None
    assert set(search.EVALUATORS) >= set(GAME.evaluators)

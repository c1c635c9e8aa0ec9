"""Reversi's exact end-game solver (games/reversi/endgame.py): its value is the game's exact
final margin (checked by brute force, and against the depth-limited engine search once it is
deep enough to reach the end), the plain search agrees on who wins, and the minimax agent's
`endgame=N` solves the root and plays a move that keeps the margin."""

from __future__ import annotations

import random

import pytest

from boardlab import make_agent
from boardlab.core.registry import make_game
from boardlab.games.alphabeta import NO_LIMIT
from boardlab.games.reversi import search
from boardlab.games.reversi.endgame import SOLVED

GAME = make_game("reversi")


def empties(state) -> int:
    return 64 - (state.black | state.white).bit_count()


def end_positions(count: int, low: int, high: int, seed: int) -> list:
    """Positions of seeded random games with low..high empty squares, the game not over."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.initial_state()
        target = rng.randrange(low, high + 1)
        while not state.is_terminal() and empties(state) > target:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state)
    return found



def engine_value(margin: int) -> float:
    return 0.0 if margin == 0 else margin + (SOLVED if margin > 0 else -SOLVED)


def root_solve(state, endgame: int = 64) -> tuple[int, float]:
    """The engine search asked to solve the root, run as the agent runs it."""
    engine = search.compiled_quiescence("mobility")
    engine.configure(endgame=endgame)
    for depth in range(1, search.SOLVE_ITERATION + 1):
        best, value, _, completed = engine(state, state.legal_actions(), depth,
                                           state.current_player(), NO_LIMIT)
        assert completed
    assert engine.solved
    return best, value


def test_the_solver_finds_the_exact_margin(exact_margin):
    for state in end_positions(10, 7, 10, seed=1):
        mover = state.current_player()
        assert root_solve(state)[1] == engine_value(exact_margin(state, mover)), state.to_text()


def test_the_solver_agrees_with_the_plain_search_and_the_deep_engine_search():
    plain = search.compiled_minimax("discs")
    for state in end_positions(6, 11, 13, seed=2):
        e = empties(state)
        _, value = root_solve(state)
        # The plain search, deep enough to see every end (passes included): who wins.
        _, plain_value, _, _ = plain(state, state.legal_actions(), 2 * e, state.current_player(),
                                     NO_LIMIT)
        assert (value > 0) == (plain_value > 0) and (value < 0) == (plain_value < 0)
        # The engine search without reductions, deep enough that all its leaves are solved.
        deep = search.compiled_quiescence("mobility")
        deep.configure(lmr=False)
        _, deep_value, _, _ = deep(state, state.legal_actions(), e, state.current_player(),
                                   NO_LIMIT)
        assert deep_value == value, state.to_text()


@pytest.mark.parametrize("endgame", [0, 14])
def test_the_agent_keeps_the_margin_near_the_end(endgame, keeps_margin):
    agent = make_agent(f"minimax:depth=30,eval=mobility,quiescence=true,endgame={endgame}",
                       GAME)
    for state in end_positions(4, 9, 10, seed=3):
        keeps_margin(agent, state)
        if endgame:  # decided (a win or loss) or solved: no iteration after the solve
            assert agent.last_info()["depth"] <= search.SOLVE_ITERATION

"""AlphaZero under a clock: `time=` and the arena's clock stop the search, as in mcts."""

import pytest

from boardlab import Clock, make_agent, make_game

pytest.importorskip("torch")

UNTRAINED = "alphazero:weights=none,channels=8,blocks=1"


TICK = 1 / 128
"""Seconds the ticking clock (tests/agents/conftest.py) moves per read: a 0.2 s budget lasts
25.6 reads, one read a simulation, whatever the machine's load."""


def test_time_setting_stops_the_search(ticking_time):
    game = make_game("reversi")
    # sims=0: only the time stops it; one leaf a network call, so one clock read a simulation
    agent = make_agent(UNTRAINED + ",sims=0,time=0.2,leaves=1", game)
    agent.start_game(0, 1)
    ticking_time(TICK)
    agent.act(game.initial_state(), Clock())
    # Stopped when 0.2 s were read off the clock, not before.
    assert 0.15 / TICK <= agent.last_info()["simulations"] <= 0.2 / TICK + 1


def test_arena_clock_stops_the_search(ticking_time):
    game = make_game("reversi")
    agent = make_agent(UNTRAINED + ",sims=10000000", game)
    ticking_time(TICK)
    agent.act(game.initial_state(), Clock.start(0.2))
    assert 1 < agent.last_info()["simulations"] <= 0.2 / TICK + 1


def test_simulations_without_a_limit_need_a_time():
    with pytest.raises(ValueError, match="sims=0"):
        make_agent(UNTRAINED + ",sims=0", make_game("reversi"))


def test_network_input_comes_from_the_games_batch_encoder():
    game = make_game("xiangqi")
    agent = make_agent(UNTRAINED + ",sims=4", game)
    calls = []
    original = game.encode_batch

    def spy(states, players):
        calls.append(len(states))
        return original(states, players)

    game.encode_batch = spy
    agent.act(game.initial_state(), Clock())
    assert calls and sum(calls) >= 4


def test_first_move_searches_because_torch_was_warmed_up_when_the_agent_was_built():
    game = make_game("reversi")
    agent = make_agent(UNTRAINED + ",sims=0,time=0.2", game)
    agent.start_game(0, 1)
    agent.act(game.initial_state(), Clock())
    assert agent.last_info()["simulations"] > 10


def test_a_move_runs_the_network_on_one_thread_and_restores_the_callers_setting():
    """Batch-1 forwards on shared cores: a second thread made a 0.1 s move search once."""
    import torch

    game = make_game("reversi")
    agent = make_agent(UNTRAINED + ",sims=8", game)
    seen = []
    agent.network.register_forward_hook(lambda *_: seen.append(torch.get_num_threads()))
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        agent.act(game.initial_state(), Clock())
        assert seen and set(seen) == {1}
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(threads)

"""`deepening`, seed 004's iterative deepening under a name: depths 4, 6, 8, ... until the
time per move is spent, the deepest finished iteration's move."""

from boardlab.core.match import Clock
from boardlab.core.registry import make_agent
from boardlab.games.minichess import MiniChessGame


def test_the_seed_settings_are_the_defaults():
    agent = make_agent("deepening", MiniChessGame())
    settings = agent.settings
    assert (settings.start_depth, settings.step, settings.depth) == (4, 2, 0)
    assert settings.time > 0 and settings.eval == "" and not settings.quiescence


def test_iterations_go_four_six_eight_until_the_clock_stops_them():
    game = MiniChessGame()
    state = game.initial_state()
    agent = make_agent("deepening:time=0.3", game)
    agent.start_game(0, seed=1)
    action = agent.act(state.clone(), Clock())
    assert action in state.legal_actions()
    depth = agent.last_info()["depth"]
    assert depth >= 4 and depth % 2 == 0  # only depths the seed's schedule visits
    capped = make_agent("deepening:depth=6,time=5", game)
    capped.start_game(0, seed=1)
    capped.act(state.clone(), Clock())
    assert capped.last_info()["depth"] == 6

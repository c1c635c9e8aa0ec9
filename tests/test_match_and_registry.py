"""The match runner and the registry: forfeits with reasons, seeds, spec strings."""

import pytest

from boardlab import Agent, ParseError, make_agent, make_game, play_match


class IllegalMover(Agent):
    name = "illegal"

    def act(self, state, clock):
        return 279  # an id of the action space that is never legal at the start


class Crasher(Agent):
    name = "crasher"

    def act(self, state, clock):
        raise ZeroDivisionError("my bug")


class Sleeper(Agent):
    name = "sleeper"

    def act(self, state, clock):
        import time
        time.sleep(0.3)
        return state.legal_actions()[0]


@pytest.fixture
def game():
    return make_game("jungle")


def test_an_illegal_action_loses_the_game_with_the_reason(game):
    record = play_match(game, [make_agent("random", game), IllegalMover(game)], seed=1)
    assert record.forfeit == 1 and record.returns == [1.0, -1.0]
    assert record.reason.startswith("illegal: seat 1")


def test_a_crashing_agent_loses_with_its_exception_recorded(game):
    record = play_match(game, [Crasher(game), make_agent("random", game)], seed=1)
    assert record.forfeit == 0 and record.returns == [-1.0, 1.0]
    assert "ZeroDivisionError: my bug" in record.reason


def test_an_agent_over_its_time_loses_on_time(game):
    record = play_match(game, [Sleeper(game), make_agent("random", game)], seed=1,
                        time_per_move=0.05, grace=0.1)
    assert record.forfeit == 0 and record.reason.startswith("time: seat 0")


def test_agents_receive_views_not_the_state(game):
    seen = []

    class Spy(Agent):
        def act(self, state, clock):
            seen.append(state)
            return state.legal_actions()[0]

    record = play_match(game, [Spy(game), make_agent("random", game)], seed=3)
    assert seen and record.reason == "normal"
    assert len({id(s) for s in seen}) == len(seen)


def test_same_seed_same_game_different_seed_different_game(game):
    agents = [make_agent("greedy", game), make_agent("random", game)]
    a = play_match(game, agents, seed=5)
    b = play_match(game, agents, seed=5)
    c = play_match(game, agents, seed=6)
    assert a.actions == b.actions and a.actions != c.actions


def test_spec_strings_build_agents_with_typed_parameters(game):
    agent = make_agent("minimax:depth=2,eval=course-minimax-boxed,tt=false", game)
    assert agent.settings.depth == 2 and agent.settings.tt is False
    assert agent.eval_name == "course-minimax-boxed"


@pytest.mark.parametrize("spec, complaint", [
    ("nosuchagent", "unknown agent 'nosuchagent'; agents: .*greedy.*minimax.*random"),
    ("minimax:depht=3", "unknown parameter 'depht'; it takes: depth"),
    ("minimax:depth=three", "'three' is not an int"),
    ("minimax:depth", "not of the form name=value"),
    ("minimax:depth=0", "depth, start_depth and step must be at least 1"),
    ("greedy:eval=nosuch", "jungle has no heuristic 'nosuch'; it has: greedy, minimax"),
    ("random:x=1", "unknown parameter 'x'"),
    ("missing_file.py:Bot", "no file missing_file.py"),
])
def test_bad_agent_specs_say_what_is_wrong(game, spec, complaint):
    with pytest.raises(ParseError, match=complaint):
        make_agent(spec, game)


def test_unknown_game_lists_the_games():
    with pytest.raises(ParseError, match="unknown game 'chezz'; games: .*jungle"):
        make_game("chezz")


def test_user_agent_from_a_file(tmp_path, game):
    bot = tmp_path / "mybot.py"
    bot.write_text(
        "from dataclasses import dataclass\n"
        "import boardlab\n"
        "@dataclass\n"
        "class Settings:\n"
        "    first: bool = True\n"
        "class MyBot(boardlab.Agent):\n"
        "    Settings = Settings\n"
        "    def act(self, state, clock):\n"
        "        actions = state.legal_actions()\n"
        "        return actions[0] if self.settings.first else actions[-1]\n")
    agent = make_agent(f"{bot}:MyBot:first=false", game)
    assert agent.settings.first is False
    record = play_match(game, [agent, make_agent("random", game)], seed=0)
    assert record.reason == "normal"
    broken = tmp_path / "broken.py"
    broken.write_text("import nosuchmodule\n")
    with pytest.raises(ParseError, match="importing .*broken.py failed: ModuleNotFoundError"):
        make_agent(f"{broken}:Bot", game)
    notagent = tmp_path / "notagent.py"
    notagent.write_text("class Bot:\n    pass\n")
    with pytest.raises(ParseError, match="is not a boardlab Agent"):
        make_agent(f"{notagent}:Bot", game)


def test_minimax_refuses_a_game_it_cannot_play():
    class ThreePlayers:
        name = "three"
        num_players = 3

    from boardlab.agents.minimax import MinimaxAgent
    assert "two-player" in MinimaxAgent.cannot_play(ThreePlayers())

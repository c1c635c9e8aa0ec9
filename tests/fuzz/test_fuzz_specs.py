"""Spec strings (`minimax:depth=3`, `jungle:no_capture_limit=60`, `mybot.py:MyBot:depth=4`)
attacked with generated names, parameters and values.

The property (issue #15): make_game and make_agent build the thing or raise a BoardLabError
that names the input; an agent they do build plays a legal move within its clock.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core.agent import Clock
from boardlab.core.game import State
from boardlab.core.registry import agent_class, agent_names, game_class, make_agent, make_game
from boardlab.core.registry import game_names
from fuzz_support import documented, fuzz_settings

GAMES = game_names()
AGENTS = agent_names()
ACTING_GAMES = ["jungle", "reversi", "minichess"]
"""Where built agents are asked for a move: quick games, chance included (jungle)."""


def field_names(cls: type) -> list[str]:
    settings = getattr(cls, "Settings", None)
    if settings is None or not dataclasses.is_dataclass(settings):
        return []
    return [f.name for f in dataclasses.fields(settings)]


AGENT_KEYS = sorted({key for name in AGENTS for key in field_names(agent_class(name))})
GAME_KEYS = sorted({key for name in GAMES for key in field_names(game_class(name))})

VALUES = st.one_of(
    st.sampled_from(["", "0", "1", "-1", "2", "3", "true", "false", "yes", "none", "None",
                     "nan", "inf", "-inf", "1e309", "0.5", "-0.5", "random", "heuristic:greedy",
                     "heuristic:nope", "seed", "greedy", "minimax", "seed-greedy", "²", "1_0",
                     " 2 ", "0x10", "=", "4", "reward", "dqn", "/nonexistent/file.pt"]),
    st.integers(-3, 5).map(str),
    st.text(st.sampled_from("abcxyz019-_.:=, /²"), max_size=8),
)
"""Values that reach int/float/bool/Literal/str coercion. Integers stay small: a built agent
is asked to move, and a network of 10**9 hidden units is a resource question, not parsing."""

KEYS = st.one_of(st.sampled_from(AGENT_KEYS + GAME_KEYS),
                 st.sampled_from(["", "1a", "a b", "depth ", " depth", "Depth", "__class__",
                                  "__init__", "self", "x", "é"]))


@st.composite
def params_text(draw: st.DrawFn) -> str:
    items = []
    for _ in range(draw(st.integers(0, 3))):
        key, value = draw(KEYS), draw(VALUES)
        items.append(draw(st.sampled_from([f"{key}={value}", f"{key}={value}", key,
                                           f"{key}=={value}", f"{key}={value}="])))
    return draw(st.sampled_from([",", ",", ", ", ",,"])).join(items)


@st.composite
def spec(draw: st.DrawFn, names: list[str]) -> str:
    name = draw(st.one_of(
        st.sampled_from(names), st.sampled_from(names),
        st.sampled_from(["", " ", "Random", "rand om", "nope", "human ", ":", "::",
                         "x.py", "zz_fuzz_missing.module", "/nonexistent/bot.py", "é"]),
        st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz-_"), min_size=1, max_size=10)))
    params = draw(params_text())
    joint = draw(st.sampled_from([":", ":", "::", " : ", ""]))
    return f"{name}{joint}{params}" if params or draw(st.booleans()) else name


@pytest.fixture(scope="module", autouse=True)
def torch_imported() -> None:
    """dqn imports torch on first use (seconds): not a parse taking that long."""
    pytest.importorskip("torch")


@pytest.fixture(scope="module")
def user_files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """User agent files that fail in each way a student's file can, and one that works."""
    folder = tmp_path_factory.mktemp("user_agents")
    files = {
        "syntax.py": "class Bot(:\n",
        "raises.py": "1 / 0\n",
        "exits.py": "raise SystemExit(3)\n",  # BaseException: must not end the session
        "plain.py": "class Bot:\n    pass\n",
        "good.py": ("from dataclasses import dataclass\nfrom boardlab import Agent\n\n\n"
                    "@dataclass\nclass Settings:\n    depth: int = 1\n\n\n"
                    "class Bot(Agent):\n    name = 'bot'\n    Settings = Settings\n\n"
                    "    def act(self, state, clock):\n"
                    "        return state.legal_actions()[0]\n"),
    }
    for name, text in files.items():
        (folder / name).write_text(text)
    return [str(folder / name) for name in files]


@fuzz_settings(max_examples=100)
@given(texts=st.lists(spec(GAMES), min_size=4, max_size=4))
def test_game_specs_build_a_game_or_raise_a_boardlab_error(texts: list[str]) -> None:
    for text in texts:
        game = documented("game spec", make_game, text)
        if game is not None:
            assert make_game(game.spec).spec == game.spec  # the spec it reports rebuilds it


def try_to_move(agent, state: State) -> None:
    """A built agent moves legally within a 0.02 s clock (BoardLabError allowed)."""
    if agent.name == "human":  # reads the keyboard: not an input door
        return
    action = agent.act(state.view(state.current_player(), agent.rng), Clock.start(0.02))
    assert action in state.legal_actions(), f"{agent.spec} chose {action!r}"


@fuzz_settings(max_examples=110)
@given(data=st.data())
def test_agent_specs_build_an_agent_that_moves_or_raise_a_boardlab_error(
        data: st.DataObject, user_files: list[str]) -> None:
    game = make_game(data.draw(st.sampled_from(ACTING_GAMES)))
    state = game.initial_state(0)
    for _ in range(3):
        text = data.draw(st.one_of(
            spec(AGENTS),
            st.builds(lambda path, cls, params: f"{path}:{cls}" + (f":{params}" if params else ""),
                      st.sampled_from(user_files), st.sampled_from(["Bot", "Nope", "bot", ""]),
                      params_text())))
        agent = documented("agent spec", make_agent, text, game)
        if agent is not None:
            documented("agent spec: first move", try_to_move, agent, state)


def test_user_agent_file_that_exits_on_import_is_refused_with_a_parse_error(
        user_files: list[str]) -> None:
    exits = next(path for path in user_files if path.endswith("exits.py"))
    assert Path(exits).is_file()
    from boardlab.core.game import BoardLabError

    with pytest.raises(BoardLabError):
        make_agent(f"{exits}:Bot", make_game("reversi"))

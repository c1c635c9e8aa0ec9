"""The PettingZoo AEC wrapper: PettingZoo's own api_test on every game, then our promises."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from boardlab.core.game import IllegalActionError  # noqa: E402
from boardlab.core.registry import game_names, make_game  # noqa: E402
from boardlab.interop.pettingzoo import env  # noqa: E402

SPECS = game_names() + ["sequence:num_players=4"]


def loadable(spec: str):
    try:
        return make_game(spec)
    except ImportError as error:
        pytest.skip(f"{spec} cannot be loaded here: {error}")


def play_out(environment, seed: int) -> None:
    """Random legal actions (from the masks) until every agent has taken its dead step."""
    rng = random.Random(seed)
    for _agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
        else:
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(rng.choice(legal)))


@pytest.mark.parametrize("spec", SPECS)
def test_api_test_passes(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    loadable(spec)
    # api_test resets without a seed (the env then draws one from the system) and samples
    # moves from the action spaces: both are pinned so that a failure reproduces. A random
    # ending once failed here in CI and nowhere else (Sequence's three-sequence finish).
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(2026))
    environment = env(spec)
    for agent in environment.possible_agents:
        environment.action_space(agent).seed(7)
    api_test(environment, num_cycles=300)


@pytest.mark.parametrize("spec", SPECS)
def test_rewards_are_the_game_returns_at_the_end(spec: str) -> None:
    loadable(spec)
    environment = env(spec)
    environment.reset(seed=3)
    raw = environment.unwrapped
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    rng = random.Random(3)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        assert not raw.state_.is_chance_node(), "chance must be resolved inside the env"
        assert raw.possible_agents[raw.state_.current_player()] == agent
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    returns = raw.state_.returns()
    assert raw.state_.is_terminal()
    assert [totals[f"player_{p}"] for p in range(len(returns))] == list(returns)


def test_action_mask_is_the_legal_actions_of_the_agent_to_move() -> None:
    environment = env("reversi")
    environment.reset(seed=0)
    state = environment.unwrapped.state_
    mask = environment.observe("player_0")["action_mask"]
    assert sorted(np.flatnonzero(mask).tolist()) == state.legal_actions()
    assert not environment.observe("player_1")["action_mask"].any()


def test_observation_is_the_players_own_encoding() -> None:
    environment = env("reversi")
    environment.reset(seed=0)
    state = environment.unwrapped.state_
    for p in range(2):
        observed = environment.observe(f"player_{p}")["observation"]
        assert np.array_equal(observed, state.encode(p))


def test_hidden_information_comes_from_the_seats_own_view() -> None:
    # Sequence hides hands: the observation is the encoding of state.view(player, rng), a
    # determinization, never of the true state with the other hands in it.
    environment = env("sequence")
    environment.reset(seed=5)
    raw = environment.unwrapped
    rng = random.Random()
    rng.setstate(raw._view_rngs[1].getstate())
    expected = raw.state_.view(1, rng).encode(1)
    assert np.array_equal(environment.observe("player_1")["observation"], expected)


def test_same_seed_same_game_with_chance() -> None:
    # Dark Jungle reveals pieces by chance: a seed fixes every draw.
    first, second = env("jungle"), env("jungle")
    for environment in (first, second):
        environment.reset(seed=11)
        rng = random.Random(0)
        for _ in range(12):
            observation, *_ = environment.last()
            environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert first.unwrapped.state_.to_text() == second.unwrapped.state_.to_text()


def test_illegal_action_raises_a_sentence() -> None:
    environment = env("minichess")
    environment.reset(seed=0)
    illegal = environment.unwrapped.state_.str_to_action("a2a3")  # legal now
    environment.step(illegal)
    with pytest.raises(IllegalActionError, match="not legal"):
        environment.step(illegal)  # the same id is a white move, black is to move


def test_render_ansi_is_the_state_text() -> None:
    environment = env("xiangqi", render_mode="ansi")
    environment.reset(seed=0)
    assert environment.render() == str(environment.unwrapped.state_)


def test_a_whole_game_ends_with_every_agent_removed() -> None:
    environment = env("sequence:num_players=4")
    environment.reset(seed=1)
    play_out(environment, 1)
    assert environment.agents == []

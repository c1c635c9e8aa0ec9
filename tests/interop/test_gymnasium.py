"""The single-agent Gymnasium wrapper: Gymnasium's check_env on every game, then our promises."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from boardlab.core.game import BoardLabError, IllegalActionError  # noqa: E402
from boardlab.core.registry import game_names, make_game  # noqa: E402
from boardlab.interop.gymnasium import BoardLabEnv  # noqa: E402

SPECS = game_names() + ["sequence:num_players=4"]


def loadable(spec: str) -> None:
    try:
        make_game(spec)
    except ImportError as error:
        pytest.skip(f"{spec} cannot be loaded here: {error}")


@pytest.mark.parametrize("spec", SPECS)
def test_check_env_passes(spec: str) -> None:
    loadable(spec)
    check_env(BoardLabEnv(spec), skip_render_check=True)
    check_env(BoardLabEnv(spec, opponent="greedy", seat=1), skip_render_check=True)


@pytest.mark.parametrize("spec", SPECS)
def test_masked_episode_ends_with_the_seats_return(spec: str) -> None:
    loadable(spec)
    environment = BoardLabEnv(spec, seat=1)
    _, info = environment.reset(seed=2)
    rng = np.random.default_rng(2)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert sorted(legal.tolist()) == environment.state.legal_actions()
        _, reward, done, truncated, info = environment.step(int(rng.choice(legal)))
        assert not truncated
        total += reward
    assert environment.state.is_terminal()
    assert total == environment.state.returns()[1]


def test_illegal_action_is_a_forfeit_penalty_by_default() -> None:
    environment = BoardLabEnv("minichess")
    _, info = environment.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = environment.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(BoardLabError, match="reset"):
        environment.step(illegal)


def test_illegal_action_raises_when_asked() -> None:
    environment = BoardLabEnv("minichess", illegal_action="raise")
    environment.reset(seed=0)
    black_move = environment.game.initial_state().child(
        environment.state.str_to_action("a2a3")).legal_actions()[0]
    with pytest.raises(IllegalActionError, match="not legal"):
        environment.step(black_move)


def test_opponent_moves_first_when_the_learner_is_second() -> None:
    environment = BoardLabEnv("reversi", opponent="greedy", seat=1)
    environment.reset(seed=0)
    assert environment.state.current_player() == 1
    assert environment.state.move_number() == 1


def test_seat_outside_the_game_is_refused() -> None:
    with pytest.raises(BoardLabError, match="seat 2"):
        BoardLabEnv("reversi", seat=2)


def test_render_ansi_is_the_state_text() -> None:
    environment = BoardLabEnv("jungle", render_mode="ansi")
    environment.reset(seed=0)
    assert environment.render() == str(environment.state)

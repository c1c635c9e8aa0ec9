"""Classic Jungle learning: the rewards of games/jungle/classic/rewards.py, and both learners
training on jungle-classic through `boardlab train`."""

import argparse
import random

import pytest

torch = pytest.importorskip("torch")

from boardlab import Clock, make_agent, make_game  # noqa: E402
from boardlab.games.jungle.classic.rewards import (  # noqa: E402
    REWARDS,
    action_reward,
    reply_reward,
    table_key,
)
from boardlab.learn.cli import add_train_parser  # noqa: E402

SHORT = "jungle-classic:no_capture_limit=20"
"""Short games (20 plies without a capture draw) keep CI runs small."""


@pytest.fixture(scope="module")
def game():
    return make_game("jungle-classic")


def test_a_step_toward_the_enemy_den_earns_progress_and_a_step_back_costs_it(game):
    state = game.initial_state()
    forward = state.str_to_action("a3-a4")  # player 0's elephant, one square nearer d9
    assert action_reward(state, forward, state.child(forward)) == pytest.approx(
        REWARDS["progress_per_square"])
    back = state.str_to_action("a3-a2")
    assert action_reward(state, back, state.child(back)) == pytest.approx(
        -REWARDS["progress_per_square"])


def test_a_capture_earns_by_rank_and_the_loser_pays_by_rank(game):
    # player 0's lion on d5 takes player 1's tiger on d6
    state = game.state_from_text("e6/7/7/3t3/3L3/7/7/7/6E 0 0")
    take = state.str_to_action("d5-d6")
    after = state.child(take)
    assert action_reward(state, take, after) == pytest.approx(
        0.2 * 6 + REWARDS["progress_per_square"])
    assert reply_reward(state, after, 1) == pytest.approx(-0.2 * 6)
    assert reply_reward(state, after, 0) == 0.0  # player 0 lost nothing


def test_entering_the_den_wins_ten(game):
    state = game.state_from_text("e6/3L3/7/7/7/7/7/7/6E 0 0")
    enter = state.str_to_action("d8-d9")
    after = state.child(enter)
    assert after.is_terminal()
    assert action_reward(state, enter, after) == pytest.approx(
        REWARDS["progress_per_square"] + REWARDS["win"])
    assert reply_reward(state, after, 1) == pytest.approx(REWARDS["lose"])


def test_table_key_tells_positions_and_sides_apart(game):
    start = game.initial_state()
    moved = start.child(start.legal_actions()[0])
    assert table_key(start) != table_key(moved)
    assert table_key(start) == table_key(game.initial_state())


def _run(*argv):
    main = argparse.ArgumentParser(prog="boardlab")
    add_train_parser(main.add_subparsers(dest="command"))
    args = main.parse_args(list(argv))
    return args.run(args)


@pytest.mark.parametrize("algorithm, out, params", [
    ("qlearning", "q.npz", ""),
    ("dqn", "d.pt", "hidden=32,warmup=64"),
])
def test_both_learners_train_on_jungle_classic(tmp_path, capsys, algorithm, out, params):
    path = tmp_path / out
    argv = [SHORT, algorithm, "--out", str(path), "--episodes", "3", "--eval-every", "3",
            "--eval-games", "2", "--opponent", "random@1+self@1", "--no-progress"]
    assert _run("train", *argv, *(["--params", params] if params else [])) == 0
    printed = capsys.readouterr().out
    assert "environment steps/s" in printed and path.is_file()
    game = make_game(SHORT)
    agent = make_agent(f"{algorithm}:weights={path}", game)
    state, rng = game.initial_state(), random.Random(0)
    other = make_agent("random", game)
    while not state.is_terminal():
        mover = state.current_player()
        player = agent if mover == 0 else other
        action = player.act(state.view(mover, rng), Clock())
        assert action in state.legal_actions()
        state.apply(action)

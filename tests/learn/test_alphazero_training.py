"""AlphaZero training: value targets, self-play samples, the protocol's run and its resume."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from boardlab import make_game
from boardlab.core.game import BoardLabError, ParseError

pytest.importorskip("torch")

from boardlab.learn.alphazero import (  # noqa: E402
    AlphaZeroTrainer,
    AlphaZeroTraining,
    play_networks,
    self_play,
)
from boardlab.learn.protocol import train  # noqa: E402
from boardlab.learn.value_targets import Decision, value_targets  # noqa: E402

TINY = {"workers": 1, "games_per_worker": 2, "sims": 6, "train_steps": 10, "batch": 32,
        "eval_games": 2, "eval_sims": 4, "temperature_moves": 4}
NET = {"channels": 8, "blocks": 1}


def history(length, u_tree=0.25, u_root=0.25):
    planes, policy = np.zeros((1, 2, 2), np.float32), np.ones(3, np.float32) / 3
    return [Decision(planes, policy, t % 2, u_tree, u_root) for t in range(length)]


def targets(scheme, length, returns, **settings):
    config = AlphaZeroTraining(value_target=scheme, **settings)
    return value_targets(history(length), returns, config.value_target, config.search_discount,
                         random.Random(0)).tolist()


def test_result_targets_are_the_result_for_the_player_to_move():
    assert targets("result", 5, [1.0, -1.0]) == [1.0, -1.0, 1.0, -1.0, 1.0]


def test_search_root_targets_are_2u_minus_1_and_the_result_at_the_end():
    assert targets("search_root", 4, [-1.0, 1.0]) == [-0.5, -0.5, -0.5, 1.0]


def test_search_targets_are_discounted_returns_of_u_rewards_then_the_result():
    # s1 a1 u1 s2 a2 u2 s3 a3 r3; movers 0, 1, 0; player 0 wins; g = 0.5, every u = 0.25
    values = targets("search", 3, [1.0, -1.0], search_discount=0.5)
    last = 1.0
    middle = 0.5 * 0.25 + 0.5 * (-last)  # player 1's own u, then player 0's win against it
    first = 0.5 * 0.25 + 0.5 * (-middle)
    assert values == pytest.approx([first, middle, last])
    # no discount: the result alone; full discount: the step's own u
    assert targets("search", 3, [1.0, -1.0], search_discount=1.0) == [1.0, -1.0, 1.0]
    assert targets("search", 3, [1.0, -1.0], search_discount=0.0) == [0.25, 0.25, 1.0]


def test_hindsight_targets_are_one_only_when_the_goal_is_the_next_decision():
    values = targets("hindsight", 50, [0.0, 0.0])
    assert set(values[:-1]) == {0.0, 1.0}
    assert values[-1] == 0.0  # the draw's result


def test_unknown_settings_are_refused_with_the_choices():
    with pytest.raises(ParseError, match="value_target"):
        AlphaZeroTraining(value_target="bellman")
    with pytest.raises(ParseError, match="arrays, nodes"):
        AlphaZeroTraining(search="mcts")


def tiny_network(game):
    from boardlab.agents.alphazero import AlphaZeroAgent

    return AlphaZeroAgent(game, weights="none", **NET).network.eval()


@pytest.mark.parametrize("search", ["arrays", "nodes"])
def test_self_play_gives_one_sample_per_decision_with_visit_policies(search):
    game = make_game("reversi")
    config = AlphaZeroTraining(search=search, **TINY)
    samples, stats = self_play(game, tiny_network(game), config, 2, seed=4)
    assert stats.games == 2 and stats.positions == len(samples) > 20
    assert samples.planes.shape[1:] == (3, 8, 8) and samples.policy.shape[1:] == (65,)
    assert np.allclose(samples.policy.sum(1), 1.0)
    assert set(samples.value.tolist()) <= {-1.0, 0.0, 1.0}
    # leaves of both games share network calls: fewer calls than leaves
    assert stats.network_calls < stats.leaves <= stats.positions * (config.sims + 1)


def test_self_play_on_a_game_with_chance_nodes_draws_outcomes_in_the_forest():
    game = make_game("jungle")
    samples, stats = self_play(game, tiny_network(game), AlphaZeroTraining(**TINY), 1, seed=2)
    assert stats.positions == len(samples) > 0


def test_play_networks_scores_both_seats():
    game = make_game("reversi")
    a = tiny_network(game)
    score = play_networks(game, a, a, 4, sims=4, c_puct=1.5, opening_plies=2, seed=1)
    assert 0.0 <= score <= 1.0 and score * 4 == int(score * 4 * 2) / 2


def trainer(**settings):
    game = make_game("reversi")
    return AlphaZeroTrainer(game, AlphaZeroTraining(**{**TINY, **settings}), NET, seed=3)


def test_training_fits_its_buffer():
    run = trainer()
    run.self_play()
    first = run.learn()
    for _ in range(4):
        last = run.learn()
    assert sum(last) < sum(first)  # policy + value loss fall on the same samples


def test_the_protocol_trains_resumes_and_keeps_the_alphazero_columns(tmp_path):
    out = tmp_path / "reversi-alphazero.pt"
    first = trainer()
    report = train(first, out, episodes=1, eval_every=1, eval_games=2)
    first.close()
    assert report.episodes == 1 and out.exists() and Path(f"{out}.ckpt").exists()
    buffered = len(first.buffer)
    again = trainer()
    report = train(again, out, episodes=2, eval_every=1, eval_games=2)
    again.close()
    assert report.resumed_from == 1 and again.progress.episodes == 2
    assert len(again.buffer) > buffered  # the buffer came back with the checkpoint
    header = Path(f"{out}.metrics.csv").read_text().splitlines()[0]
    assert "gate_score" in header and "selfplay_positions_per_s" in header
    assert len(Path(f"{out}.metrics.csv").read_text().splitlines()) == 3
    from boardlab import make_agent

    make_agent(f"alphazero:weights={out},sims=4", make_game("reversi"))  # plays the result


def test_a_damaged_checkpoint_is_one_line_naming_it(tmp_path):
    out = tmp_path / "w.pt"
    Path(f"{out}.ckpt").write_bytes(b"not a checkpoint")
    with pytest.raises(BoardLabError, match="w.pt.ckpt"):
        train(trainer(), out, episodes=1)


def test_minutes_stop_the_run_after_the_iteration_in_progress(tmp_path):
    run = trainer(minutes=1e-6, eval_games=0)
    report = train(run, tmp_path / "w.pt", episodes=50, eval_every=10, eval_games=2)
    assert run.progress.episodes == 1 and report.rows  # evaluated and saved on the way out


@pytest.mark.e2e  # `boardlab train` in a subprocess
def test_missing_weights_name_a_command_that_writes_them(tmp_path):
    import os
    import re
    import shlex
    import subprocess
    import sys

    from boardlab import make_agent

    path = tmp_path / "models" / "minichess-alphazero.pt"
    with pytest.raises(BoardLabError) as error:
        make_agent(f"alphazero:weights={path}", make_game("minichess"))
    command = re.search(r"`(boardlab train [^`]+)`", str(error.value)).group(1)
    params = "workers=1,games_per_worker=1,sims=2,train_steps=1,batch=8,eval_games=0," \
             "channels=4,blocks=1"
    words = shlex.split(command)[1:] + ["--episodes", "1", "--eval-games", "2", "--params",
                                        params, "--no-progress"]
    result = subprocess.run([sys.executable, "-m", "boardlab.cli", *words], capture_output=True,
                            text=True, env={**os.environ, "COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    assert "iteration 1:" in result.stdout and path.exists()


@pytest.mark.e2e  # `boardlab train` in a subprocess
def test_an_out_without_a_suffix_is_a_directory_as_before(tmp_path):
    import os
    import subprocess
    import sys

    params = "workers=1,games_per_worker=1,sims=2,train_steps=1,batch=8,eval_games=0," \
             "channels=4,blocks=1"
    result = subprocess.run(
        [sys.executable, "-m", "boardlab.cli", "train", "reversi", "alphazero", "--out",
         str(tmp_path / "az"), "--episodes", "1", "--eval-games", "2", "--params", params,
         "--no-progress"], capture_output=True, text=True,
        env={**os.environ, "COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "az" / "weights.pt").exists()


@pytest.mark.e2e  # a Ray cluster
def test_self_play_actors_on_a_local_ray_cluster():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        run = trainer(workers=2, backend="ray", eval_games=0)
        stats = run.self_play()
        run.close()
    finally:
        ray.shutdown()
    assert stats.games == 4 and len(run.buffer) == stats.positions > 0


def test_init_starts_both_networks_from_a_weights_file(tmp_path):
    import torch

    start = trainer()
    start.export(tmp_path / "start.pt")
    run = trainer(init=str(tmp_path / "start.pt"), value_target="hindsight")
    for name, tensor in start.best.network.state_dict().items():
        assert torch.equal(run.best.network.state_dict()[name], tensor)
        assert torch.equal(run.candidate.network.state_dict()[name], tensor)

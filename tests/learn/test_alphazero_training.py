"""AlphaZero training: value targets, self-play samples, learning on a buffer, resuming."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab import make_game
from boardlab.core.game import ParseError

pytest.importorskip("torch")

from boardlab.learn.alphazero import (  # noqa: E402
    AlphaZeroTrainer,
    AlphaZeroTraining,
    _targets,
    play_networks,
    self_play,
)

TINY = dict(workers=1, games_per_worker=2, sims=6, train_steps=10, batch=32, eval_games=2,
            eval_sims=4, channels=8, blocks=1, temperature_moves=4)


def history(length):
    planes, policy = np.zeros((1, 2, 2), np.float32), np.ones(3, np.float32) / 3
    return [(planes, policy, t % 2, 0.25) for t in range(length)]


def test_result_targets_are_the_result_for_the_player_to_move():
    values = [s.value for s in _targets(history(5), [1.0, -1.0], "result", random.Random(0))]
    assert values == [1.0, -1.0, 1.0, -1.0, 1.0]


def test_search_targets_are_the_normalised_u_and_the_result_at_the_end():
    values = [s.value for s in _targets(history(4), [-1.0, 1.0], "search", random.Random(0))]
    assert values == [-0.5, -0.5, -0.5, 1.0]  # 2 * 0.25 - 1, then player 1's result


def test_hindsight_targets_are_one_only_when_the_goal_is_the_next_decision():
    values = [s.value for s in _targets(history(50), [0.0, 0.0], "hindsight",
                                        random.Random(0))]
    assert set(values[:-1]) == {0.0, 1.0}
    assert values[-1] == 0.0  # the draw's result


def test_unknown_value_target_is_refused():
    with pytest.raises(ParseError, match="value_target"):
        AlphaZeroTraining(value_target="bellman")


def test_self_play_gives_one_sample_per_decision_with_visit_policies():
    game = make_game("reversi")
    config = AlphaZeroTraining(**TINY)
    from boardlab.learn.alphazero import _new_network

    network = _new_network(game, config).network.eval()
    samples, stats = self_play(game, network, config, 2, seed=4)
    assert stats.games == 2 and stats.positions == len(samples) > 20
    for sample in samples:
        assert sample.planes.shape == (3, 8, 8) and sample.policy.shape == (65,)
        assert sample.policy.sum() == pytest.approx(1.0) and sample.value in (-1.0, 0.0, 1.0)
    # leaves of both games share network calls: fewer calls than leaves
    assert stats.network_calls < stats.positions * config.sims


def test_training_fits_its_buffer_and_a_rerun_resumes(tmp_path):
    config = AlphaZeroTraining(iterations=1, **TINY)
    trainer = AlphaZeroTrainer("reversi", tmp_path, config)
    trainer.self_play()
    first = trainer.train()
    for _ in range(4):
        last = trainer.train()
    assert sum(last) < sum(first)  # policy + value loss fall on the same samples
    rows = trainer.run()
    assert len(rows) == 1 and (tmp_path / "weights.pt").exists()
    assert (tmp_path / "metrics.csv").exists() and (tmp_path / "curve.png").exists()
    again = AlphaZeroTrainer("reversi", tmp_path, AlphaZeroTraining(iterations=2, **TINY))
    assert again.iteration == 1 and len(again.buffer) == len(trainer.buffer)
    assert len(again.run()) == 2


def test_play_networks_scores_both_seats():
    game = make_game("reversi")
    config = AlphaZeroTraining(**TINY)
    from boardlab.learn.alphazero import _new_network

    a = _new_network(game, config).network.eval()
    score = play_networks(game, a, a, 4, sims=4, c_puct=1.5, opening_plies=2, seed=1)
    assert 0.0 <= score <= 1.0 and score * 4 == int(score * 4 * 2) / 2


def test_train_command_reports_throughput_and_the_batching_gain(tmp_path, capsys):
    from boardlab.learn.alphazero import train_command

    params = ",".join(f"{k}={v}" for k, v in {**TINY, "eval_games": 0}.items()) + ",iterations=1"
    assert train_command("reversi", str(tmp_path / "run"), params, seed=2) == 0
    printed = capsys.readouterr().out
    assert "iteration 1:" in printed and "positions/s over the whole loop" in printed
    assert "batching:" in printed and "x (one process, measured now)" in printed
    with pytest.raises(ParseError, match="unknown learning_rate"):
        train_command("reversi", str(tmp_path / "run2"), "learning_rate=1", seed=2)
    with pytest.raises(ParseError, match="names a file"):
        train_command("reversi", str(tmp_path / "w.pt"), "", seed=2)


def test_boardlab_train_alphazero_runs_from_the_command_line(tmp_path):
    import subprocess
    import sys

    params = ",".join(f"{k}={v}" for k, v in {**TINY, "eval_games": 0}.items())
    result = subprocess.run(
        [sys.executable, "-m", "boardlab.cli", "train", "reversi", "alphazero", "--out",
         str(tmp_path / "az"), "--params", params + ",iterations=1"],
        capture_output=True, text=True, env={**__import__("os").environ, "COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    assert "iteration 1:" in result.stdout and (tmp_path / "az" / "weights.pt").exists()

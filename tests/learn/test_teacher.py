"""The teacher (learn/teacher.py) and the supervised start it feeds (learn/distill.py,
`alphazero teacher=`): datasets round-trip, a killed labelling run resumes to the same
dataset, value targets blend and squash as documented, and the warm start learns."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from boardlab import make_game
from boardlab.agents.evaluation import WIN_VALUE
from boardlab.core.game import BoardLabError, ParseError
from boardlab.learn.teacher import (
    Labels,
    TeacherSettings,
    existing_shards,
    fitted_scale,
    held_out_split,
    label_shard,
    load_dataset,
    load_datasets,
    read_shard,
    shard_path,
    squashed,
    teach,
    teacher_values,
    write_shard,
)

SEARCH = "minimax:depth=1"
"""A fast, deterministic teacher: Reversi's one-ply search."""


def small(**changes) -> TeacherSettings:
    settings = {"search": SEARCH, "positions": 120, "shard_positions": 40, "workers": 1,
                    "opening_plies": 2, "random_moves": 0.1, "seed": 3}
    return TeacherSettings(**{**settings, **changes})


def test_each_label_is_the_search_on_that_position():
    game = make_game("reversi")
    settings = small()
    labels, stats = label_shard("reversi", settings, 0)
    assert len(labels) == stats.positions >= settings.shard_positions
    assert labels.planes.dtype == np.float16 and labels.planes.shape[1:] == (
        game.initial_state(0).encode(0).shape)
    assert set(np.unique(labels.result)) <= {-1.0, 0.0, 1.0}
    assert set(np.unique(labels.mover)) == {0, 1}  # both seats are labelled
    # every game of the shard is there, in order, and the results are one game's throughout
    assert list(np.unique(labels.game)) == list(range(stats.games))
    for g in range(stats.games):
        results = labels.result[labels.game == g]
        assert len(set(np.abs(results))) == 1


def test_a_dataset_round_trips_through_its_shards(tmp_path):
    report = teach("reversi", small(), tmp_path / "data")
    manifest, labels = load_dataset(tmp_path / "data", make_game("reversi"))
    assert manifest["search"] == SEARCH and manifest["seed"] == 3 and manifest["game"] == "reversi"
    assert len(labels) == report.positions >= 120
    assert existing_shards(tmp_path / "data") == list(range(report.shards_written))
    again = read_shard(shard_path(tmp_path / "data", 1))
    write_shard(tmp_path, 7, again)
    copied = read_shard(shard_path(tmp_path, 7))
    for name in ("planes", "action", "score", "result", "game", "mover"):
        assert np.array_equal(getattr(copied, name), getattr(again, name)), name
    # games are numbered across shards, so a held-out split can go by whole games
    assert labels.game.max() + 1 == report.games


def test_a_rerun_labels_nothing_more_and_more_positions_add_shards(tmp_path):
    teach("reversi", small(), tmp_path)
    assert teach("reversi", small(), tmp_path).shards_written == 0
    first = existing_shards(tmp_path)
    more = teach("reversi", small(positions=400), tmp_path)
    assert more.shards_written >= 1 and more.positions >= 400
    assert existing_shards(tmp_path) == list(range(len(first) + more.shards_written))


def test_a_dataset_refuses_other_settings_and_other_games(tmp_path):
    teach("reversi", small(positions=40), tmp_path)
    with pytest.raises(BoardLabError, match="other settings.*search"):
        teach("reversi", small(search="minimax:depth=2"), tmp_path)
    with pytest.raises(BoardLabError, match="teaches 'reversi', not 'minichess'"):
        load_dataset(tmp_path, make_game("minichess"))
    with pytest.raises(BoardLabError, match="no teacher dataset"):
        load_dataset(tmp_path / "nothing")


def test_datasets_labelled_apart_join_with_their_games_numbered_across_them(tmp_path):
    teach("reversi", small(positions=40), tmp_path / "a")
    teach("reversi", small(positions=40, seed=4, search="minimax:depth=2"), tmp_path / "b")
    (manifest_a, a), (manifest_b, b) = (load_dataset(tmp_path / n) for n in "ab")
    manifests, both = load_datasets(f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}",
                                    make_game("reversi"))
    assert manifests == [manifest_a, manifest_b] and len(both) == len(a) + len(b)
    assert np.array_equal(both.planes[len(a):], b.planes)
    assert np.array_equal(both.game, np.concatenate([a.game, b.game + a.game.max() + 1]))
    with pytest.raises(BoardLabError, match="teaches 'reversi', not 'minichess'"):
        load_datasets(f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}", make_game("minichess"))


def test_a_killed_labelling_run_resumes_to_the_same_dataset(tmp_path):
    slower = small(search="minimax:depth=3", positions=240, shard_positions=60)  # ~0.3 s a shard
    whole = tmp_path / "whole"
    teach("reversi", slower, whole)
    shards = existing_shards(whole)
    broken = tmp_path / "broken"
    command = [sys.executable, "-m", "boardlab.cli", "teach", "reversi", "--search",
               slower.search, "--positions", "240", "--workers", "1", "--seed", "3", "--out",
               str(broken), "--no-progress", "--params",
               "shard_positions=60,opening_plies=2,random_moves=0.1"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not shard_path(broken, 0).exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    written = existing_shards(broken)
    assert 1 <= len(written) < len(shards), "the kill came too late to test a resume"
    (broken / f"shard-{shards[-1]:05d}.partial.npz").write_bytes(b"half a shard")  # cut short
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert existing_shards(broken) == shards
    for shard in shards:
        a, b = read_shard(shard_path(whole, shard)), read_shard(shard_path(broken, shard))
        for name in ("planes", "action", "score", "result", "game", "mover"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), (shard, name)


def test_two_workers_label_the_shards_one_would(tmp_path):
    teach("reversi", small(positions=80), tmp_path / "one")
    teach("reversi", small(positions=80, workers=2), tmp_path / "two")
    for shard in (0, 1):
        a = read_shard(shard_path(tmp_path / "one", shard))
        b = read_shard(shard_path(tmp_path / "two", shard))
        assert np.array_equal(a.action, b.action) and np.array_equal(a.score, b.score)


def test_an_agent_without_a_value_cannot_teach(tmp_path):
    with pytest.raises(BoardLabError, match="reports no value"):
        teach("reversi", small(search="random", positions=10), tmp_path)


def test_bad_settings_are_refused_with_a_sentence():
    with pytest.raises(ParseError, match="random_moves"):
        TeacherSettings(random_moves=1.5)
    with pytest.raises(ParseError, match="workers"):
        TeacherSettings(workers=0)


def labels_of(score, result, game=None) -> Labels:
    n = len(score)
    return Labels(np.zeros((n, 1), np.float16), np.zeros(n, np.int32),
                  np.asarray(score, np.float32), np.asarray(result, np.float32),
                  np.asarray(game if game is not None else range(n), np.int32),
                  np.zeros(n, np.int8))


def test_scores_squash_to_values_and_found_wins_are_whole():
    values = squashed(np.array([0.0, 30.0, -30.0, WIN_VALUE - 7, -(WIN_VALUE - 40)]), 30.0)
    assert values == pytest.approx([0.0, np.tanh(1.0), -np.tanh(1.0), 1.0, -1.0])


def test_the_value_target_blends_score_and_result():
    labels = labels_of([30.0, -30.0], [1.0, 1.0])
    assert teacher_values(labels, 0.0, 30.0) == pytest.approx([np.tanh(1), -np.tanh(1)])
    assert teacher_values(labels, 1.0, 30.0) == pytest.approx([1.0, 1.0])
    assert teacher_values(labels, 0.25, 30.0) == pytest.approx(
        [0.75 * np.tanh(1) + 0.25, -0.75 * np.tanh(1) + 0.25])
    with pytest.raises(ParseError):
        teacher_values(labels, 1.5, 30.0)


def test_the_fitted_scale_is_the_one_the_results_were_drawn_with():
    rng = np.random.default_rng(0)
    score = rng.normal(0, 60, 20000)
    expected = np.tanh(score / 40.0)  # win probability (1 + expected) / 2, no draws
    result = np.where(rng.random(20000) < (1 + expected) / 2, 1.0, -1.0)
    assert fitted_scale(labels_of(score, result)) == pytest.approx(40.0, rel=0.15)


def test_the_held_out_positions_are_whole_games():
    labels = labels_of(np.zeros(100), np.zeros(100), np.repeat(np.arange(10), 10))
    train, held = held_out_split(labels, 0.2, seed=1)
    assert len(held) == 20 and len(train) == 80
    assert not set(labels.game[held]) & set(labels.game[train])


def test_the_warm_start_lowers_the_loss_on_held_out_teacher_games(tmp_path):
    pytest.importorskip("torch")
    from boardlab.learn.alphazero import AlphaZeroTrainer, AlphaZeroTraining

    teach("reversi", TeacherSettings(search="minimax:depth=2", positions=1500,
                                     shard_positions=500, workers=1, seed=1), tmp_path / "data")
    game = make_game("reversi")
    trainer = AlphaZeroTrainer(game, AlphaZeroTraining(
        teacher=str(tmp_path / "data"), distill_steps=250, batch=64, lr=3e-3, workers=1),
        {"channels": 16, "blocks": 1}, seed=0)
    trainer.train_until(1)  # iteration 1 is the supervised start: no self-play
    held = trainer.held_out
    assert trainer.progress.episodes == 1 and trainer.distilled and trainer.progress.env_steps == 0
    assert held["after_policy_loss"] < held["before_policy_loss"] - 0.5
    assert held["after_top1"] > held["before_top1"] + 0.15
    assert held["after_value_loss"] < held["before_value_loss"]
    # the best network is the distilled one: the agent it exports plays the teacher's moves
    best = trainer.best.network.state_dict()
    assert all((best[k] == v).all() for k, v in trainer.candidate.network.state_dict().items())


def test_a_damaged_shard_or_a_missing_dataset_is_one_sentence(tmp_path):
    pytest.importorskip("torch")
    from boardlab.learn.alphazero import AlphaZeroTrainer, AlphaZeroTraining

    teach("reversi", small(positions=40), tmp_path / "data")
    shard = shard_path(tmp_path / "data", 0)
    shard.write_bytes(shard.read_bytes()[:200])  # a copy cut short
    with pytest.raises(BoardLabError, match="is not a teacher shard.*delete it"):
        load_dataset(tmp_path / "data")
    for folder, message in ((tmp_path / "nowhere", "no teacher dataset"),
                            (tmp_path / "data", "teaches 'reversi', not 'minichess'")):
        game = make_game("minichess")
        with pytest.raises(BoardLabError, match=message):  # when built, before any work
            AlphaZeroTrainer(game, AlphaZeroTraining(teacher=str(folder), workers=1),
                             {"channels": 4, "blocks": 1})


def test_distilling_anneals_the_learning_rate_and_gives_it_back():
    torch = pytest.importorskip("torch")
    from boardlab.learn.distill import TeacherData, cosine_share, distill

    assert cosine_share(0, 100, 0.1) == pytest.approx(1.0)
    assert cosine_share(99, 100, 0.1) == pytest.approx(0.1)
    assert cosine_share(50, 101, 0.1) == pytest.approx(0.55)
    assert all(cosine_share(k, 10, 1.0) == 1.0 for k in range(10))  # 1: constant, as before

    class Tiny(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.policy, self.value = torch.nn.Linear(4, 3), torch.nn.Linear(4, 1)

        def forward(self, x):
            x = x.flatten(1)
            return self.policy(x), torch.tanh(self.value(x)).squeeze(1)

    network = Tiny()
    optimizer = torch.optim.Adam(network.parameters(), lr=0.01)
    seen = []
    step = optimizer.step

    def recording_step(*args, **kwargs):
        seen.append(optimizer.param_groups[0]["lr"])
        return step(*args, **kwargs)

    optimizer.step = recording_step
    rng = np.random.default_rng(0)
    data = TeacherData(rng.normal(size=(32, 1, 2, 2)).astype(np.float16),
                       rng.integers(0, 3, 32), rng.uniform(-1, 1, 32).astype(np.float32))
    distill(network, optimizer, data, 20, 8, 0.5, rng, lr_end=0.1)
    assert seen[0] == pytest.approx(0.01) and seen[-1] == pytest.approx(0.001)
    assert all(a >= b for a, b in zip(seen, seen[1:]))
    assert optimizer.param_groups[0]["lr"] == 0.01  # self-play goes on at the configured rate


def test_a_learning_rate_end_outside_its_range_is_refused():
    from boardlab.learn.alphazero import AlphaZeroTraining

    for bad in (0.0, 1.5):
        with pytest.raises(ParseError, match="distill_lr_end"):
            AlphaZeroTraining(distill_lr_end=bad)

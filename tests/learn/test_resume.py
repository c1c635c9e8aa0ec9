"""A training run stops anywhere and resumes with nothing lost: killed with SIGKILL while it
trains, rerun, it ends with exactly the weights of a run that was never interrupted (the
checkpoint holds network, target, optimizer, replay, counters and random generators, and is
written between episodes). The same with self-play actors in other processes and on Ray."""

import os
import signal
import subprocess
import sys
import time

import pytest

torch = pytest.importorskip("torch")

from boardlab.learn.cli import build_trainer  # noqa: E402
from boardlab.learn.protocol import train  # noqa: E402

pytestmark = pytest.mark.e2e  # killed training runs, actor processes, a Ray cluster

PARAMS = "hidden=16,residual_blocks=1,dropout=0,lookahead=0,envs=4,train_every=4,warmup=50"


def same_weights(a, b):
    first = torch.load(a, weights_only=True)["state_dict"]
    second = torch.load(b, weights_only=True)["state_dict"]
    return first.keys() == second.keys() and all(torch.equal(first[k], second[k])
                                                 for k in first)


def command(out, episodes, params=PARAMS):
    return [sys.executable, "-m", "boardlab.cli", "train", "reversi", "dqn", "--out",
            str(out), "--episodes", str(episodes), "--eval-every", "4", "--eval-games", "1",
            "--opponent", "self", "--no-progress", "--params", params]


def test_a_killed_training_resumes_to_the_uninterrupted_weights(tmp_path):
    whole, killed = tmp_path / "whole.pt", tmp_path / "killed.pt"
    subprocess.run(command(whole, 24), check=True, capture_output=True, timeout=300)
    process = subprocess.Popen(command(killed, 24), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    checkpoint = tmp_path / "killed.pt.ckpt"
    deadline = time.time() + 240
    while not checkpoint.exists() and time.time() < deadline and process.poll() is None:
        time.sleep(0.05)
    time.sleep(0.3)  # into the next stretch of training
    assert process.poll() is None, "the run ended before it could be killed: make it longer"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    rows_before = (tmp_path / "killed.pt.metrics.csv").read_text().splitlines()
    assert 2 <= len(rows_before) < 7  # header + some of the six evaluations
    subprocess.run(command(killed, 24), check=True, capture_output=True, timeout=300)
    assert same_weights(whole, killed)
    rows = (tmp_path / "killed.pt.metrics.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["4", "8", "12", "16", "20", "24"]


def _train(out, episodes, params):
    _, trainer = build_trainer("reversi", "dqn", params, opponent="self")
    try:
        train(trainer, out, episodes, eval_every=4, eval_games=1)
    finally:
        trainer.close()


def test_actor_processes_resume_to_the_uninterrupted_weights(tmp_path):
    params = PARAMS + ",actors=2,sync_every=5"
    _train(tmp_path / "whole.pt", 12, params)
    _train(tmp_path / "parts.pt", 4, params)
    _train(tmp_path / "parts.pt", 12, params)
    assert same_weights(tmp_path / "whole.pt", tmp_path / "parts.pt")


def test_ray_actors_train_like_local_ones(tmp_path):
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)
    try:
        _train(tmp_path / "ray.pt", 8, PARAMS + ",actors=2,backend=ray")
    finally:
        ray.shutdown()
    _train(tmp_path / "local.pt", 8, PARAMS + ",actors=2")
    assert same_weights(tmp_path / "ray.pt", tmp_path / "local.pt")

"""experiments/jungle_residual_policy.py: the commands docs/learning.md quotes still run, its
labels mean what the doc says, and the file it writes is a DQN the agent plays."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from boardlab import make_agent, make_game  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[2] / "experiments" / "jungle_residual_policy.py"


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, check=True)
    return done.stdout


def test_labels_then_a_fit_give_a_dqn_that_adds_its_values_at_the_root(tmp_path):
    data, weights = tmp_path / "r.npz", tmp_path / "net.pt"
    run("label", str(data), "--games", "2", "--workers", "1", "--seconds", "20",
        "--teacher", "minimax:depth=2")
    labels = np.load(data)
    mask, score, move = labels["mask"], labels["score"], labels["move"]
    assert len(move) > 20 and labels["x"].shape == (len(move), 336)
    assert mask[np.arange(len(move)), move].all()  # the teacher's move is a legal one
    assert not score[~mask].any() and (mask.sum(1) >= 2).all()
    report = run("fit", str(data), str(weights), "--steps", "30", "--batch", "16")
    assert "teacher's move first: search" in report
    agent = make_agent(f"dqn:weights={weights}", make_game("jungle"))
    tau = float(report.split("root_weight ")[1].rstrip(")\n"))
    assert agent.lookahead == 2 and agent.leaf_weight == 0
    assert agent.root_weight == pytest.approx(tau, abs=1e-4) and agent.root_weight > 0

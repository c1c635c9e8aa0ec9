"""experiments/dqn_dense_targets.py: the commands docs/learning.md quotes still run, and its
measure means what the doc says."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from boardlab.core.registry import make_agent, make_game

SCRIPT = Path(__file__).resolve().parents[2] / "experiments" / "dqn_dense_targets.py"


def _module():
    spec = importlib.util.spec_from_file_location("dqn_dense_targets", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_agreement_counts_any_best_action_and_the_value_given_up() -> None:
    module = _module()
    targets = np.array([[1.0, 3.0, 3.0, 9.0], [0.0, -2.0, 5.0, 0.0]], np.float32)
    masks = np.array([[True, True, True, False], [True, True, False, True]])
    q = np.array([[0.0, 0.0, 1.0, 99.0], [0.0, 7.0, 99.0, 1.0]], np.float32)
    agree, given_up = module.best_action_agreement(q, targets, masks)
    # row 0: the illegal 99 is ignored, column 2 ties for the best; row 1: -2 against 0
    assert agree == 0.5
    assert given_up == np.float32(2.0 * module.TARGET_SCALE / 2)


@pytest.mark.e2e  # the experiment's scripts, end to end
def test_generate_then_fit_writes_weights_the_arena_can_load(tmp_path: Path) -> None:
    data, weights = tmp_path / "d.npz", tmp_path / "fitted.pt"
    run = [sys.executable, str(SCRIPT)]
    subprocess.run(run + ["generate", str(data), "--seed", "3", "--seconds", "1"], check=True)
    saved = np.load(data)
    assert len(saved["x"]) > 0 and saved["x"].shape[1] == 336
    assert (saved["m"].sum(axis=1) > 0).all()  # every kept position has legal actions
    assert (saved["y"][~saved["m"]] == 0).all()  # and targets only on them
    result = subprocess.run(run + ["fit", str(data), str(data), "--seconds", "1",
                                   "--out", str(weights)],
                            check=True, capture_output=True, text=True)
    assert "best action" in result.stdout and weights.exists()
    agent = make_agent(f"dqn:weights={weights}", make_game("jungle"))
    assert agent.lookahead == 0 and agent.trained_reward == "qlearning"
    conv = subprocess.run(run + ["fit", str(data), str(data), "--seconds", "1", "--conv", "4"],
                          check=True, capture_output=True, text=True)
    assert "best action" in conv.stdout

"""A new user's install (issue 20): `pip install` of the checkout, not editable, into a fresh
venv, run from another folder, plays the learning agents with the weights BoardLab ships; and a
missing shipped file is one line naming a command that makes it."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardlab.core.game import BoardLabError
from boardlab.core.registry import make_agent, make_game

pytestmark = pytest.mark.e2e  # installs packages into a nested venv

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def venv(tmp_path_factory, nested_venv) -> Path:
    """A fresh venv holding a wheel-style install of this checkout; torch, numba and the rest
    come from this test run's environment (conftest's `make_nested_venv`, `--no-deps`), so
    nothing is downloaded.

    The build runs in a copy of what a source distribution holds, so it leaves no build/ in
    the checkout; this environment's pip and setuptools build it (`--no-build-isolation`).
    Measured 6.4 s for venv + install on a 2-core machine at load ~8."""
    root = tmp_path_factory.mktemp("install")
    source = root / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    shutil.copytree(REPO / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    python = nested_venv(root / "venv")
    started = time.monotonic()
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps",
                    "--no-build-isolation", str(source)], check=True, capture_output=True)
    assert time.monotonic() - started < 90, "the install took longer than CI can afford"
    return root / "venv"


def run_installed(venv: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([str(venv / "bin" / "boardlab"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_installed_package_is_not_the_checkout_and_draws(venv, tmp_path):
    drawn = subprocess.run(  # the pictures live in the game packages: they must be installed
        [str(venv / "bin" / "python"), "-c",
         "import boardlab; print(boardlab.make_game('jungle').initial_state(0).svg())"],
        cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert '<g class="cell"' in drawn and "text-board" not in drawn  # a board, not text
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         ("import boardlab; from boardlab.core.weights import shipped_weights; "
          "print(boardlab.__file__); print(shipped_weights('jungle', 'dqn', '.pt', 'dqn'))")],
        cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    assert all(Path(path).is_relative_to(venv) for path in where), where


@pytest.mark.parametrize("game, agents", [
    ("jungle", ["random", "dqn", "qlearning"]),
    # sims=4 keeps the test short; the network is still the shipped one.
    ("reversi", ["dqn", "dueling-dqn", "minimax-dueling-dqn", "alphazero:sims=4"]),
])
def test_installed_boardlab_plays_the_shipped_weights(venv, tmp_path, game, agents):
    result = run_installed(venv, tmp_path, "arena", game, *agents, "--games", "2",
                           "--no-progress", "--json", "out.json")
    assert result.returncode == 0, result.stderr
    pairs = json.loads((tmp_path / "out.json").read_text())["pairs"]
    assert len(pairs) == len(agents) * (len(agents) - 1) // 2
    for pair in pairs:
        assert pair["games"] == 2 and pair["forfeits"] == {"a": 0, "b": 0}, pair


def test_missing_shipped_weights_name_a_command_that_makes_them(tmp_path, monkeypatch):
    import boardlab.core.weights

    pytest.importorskip("torch")
    monkeypatch.setattr(boardlab.core.weights, "MODELS", "no-such-folder")
    game = make_game("jungle")
    with pytest.raises(BoardLabError) as error:
        make_agent("dueling-dqn", game)
    message = str(error.value)
    assert "\n" not in message
    command, spec = re.findall(r"`([^`]+)`", message)
    assert command.startswith("boardlab train jungle dqn --params dueling=true")
    result = subprocess.run(
        [sys.executable, "-m", "boardlab.cli", *shlex.split(command)[1:],
         "--episodes", "2", "--eval-every", "2", "--eval-games", "1", "--no-progress"],
        cwd=tmp_path, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    monkeypatch.chdir(tmp_path)
    agent = make_agent(spec, game)
    assert agent.settings.dueling

"""experiments/jungle_pursuit_leaves.py and jungle_ending_network.py: a solved ending is
worth what docs/learning.md says, the search that reads those values follows the distance to
the win, and the commands the doc quotes run."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from boardlab import make_agent, make_game  # noqa: E402
from boardlab.core.agent import Clock  # noqa: E402
from boardlab.games.jungle.game import JungleDarkState  # noqa: E402
from boardlab.games.jungle.pursuit import distances, win_distance  # noqa: E402
from boardlab.games.jungle.rewards import potential  # noqa: E402

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"
GAME = make_game("jungle")


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXPERIMENTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def elephant_hunts_leopard(distance: int) -> JungleDarkState:
    """Player 0's elephant to move against player 1's last piece, a leopard, where the
    solver says the elephant wins in `distance` plies."""
    table = distances((8,), 5, GAME.settings.no_capture_limit).hunters_to_move
    elephant, leopard = (int(s) for s in np.argwhere(table == distance)[0])
    board = [0] * len(table)
    board[elephant], board[leopard] = 8, -5
    return JungleDarkState(GAME, board, player=0, hidden=[0, 0])


def test_a_won_ending_is_worth_its_distance_less_the_potential():
    leaves = load("jungle_pursuit_leaves")
    state = elephant_hunts_leopard(5)
    win = 0.99 ** 4 * 100
    assert leaves.ending_value(state, 0) == pytest.approx(win - potential(state, 0))
    assert leaves.ending_value(state, 1) == pytest.approx(-win - potential(state, 1))
    assert leaves.ending_value(GAME.initial_state(0), 0) is None


@pytest.mark.parametrize("distance", [3, 5, 7])
def test_the_search_over_exact_endings_gets_closer_to_the_win(distance):
    leaves = load("jungle_pursuit_leaves")
    agent = make_agent(f"{EXPERIMENTS / 'jungle_pursuit_leaves.py'}:PursuitLeaves:"
                       "weights=none,reward=potential,lookahead=2,leaf_weight=0", GAME)
    agent.start_game(0, seed=1)
    state = elephant_hunts_leopard(distance)
    assert win_distance(state, 0) == distance
    after = state.child(agent.act(state, Clock()))
    assert win_distance(after, 0) == distance - 1  # the leopard to move, one ply nearer
    assert leaves.PursuitLeaves.name == "pursuit-leaves"


@pytest.mark.e2e
def test_the_ending_network_commands_run(tmp_path):
    script = EXPERIMENTS / "jungle_ending_network.py"

    def run(*args: str) -> str:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                              timeout=300, check=True).stdout

    endings, store, weights = tmp_path / "e.npz", tmp_path / "a.sqlite", tmp_path / "n.pt"
    assert "8 endings" in run(str(script), "generate", str(endings), "--positions", "8")
    data = np.load(endings)
    legal = ~np.isnan(data["q"])
    assert data["planes"].shape == (8, 336) and legal.any(axis=1).all()
    run("-m", "boardlab", "arena", "jungle", "random", "greedy", "--games", "2",
        "--db", str(store))
    assert "minibatches" in run(str(script), "fit", str(endings), str(store), str(weights),
                                "--steps", "4", "--batch", "8")
    agent = make_agent(f"dqn:weights={weights}", GAME)
    assert (agent.trained_reward, agent.lookahead, agent.leaf_weight) == ("potential", 2, 1.0)
    assert "largest |Q|" in run(str(script), "quiet", str(weights), str(store))
    assert agent.domain == "all"  # taught off the endings too: read everywhere
    # On the endings alone, saved on the way: the file says to read it only there.
    alone = tmp_path / "alone.pt"
    run(str(script), "fit", str(endings), "none", str(alone), "--steps", "4", "--batch", "8",
        "--save-every", "2")
    assert make_agent(f"dqn:weights={alone}", GAME).domain == "endings"

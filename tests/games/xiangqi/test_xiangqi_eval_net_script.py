"""experiments/xiangqi_eval_net.py, the commands games/xiangqi/README.md quotes for the shipped
evaluation network: `selfplay` writes positions and their labels that fit together and resumes
where it stopped, and `train --more` fits from two files into a network file the game reads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from boardlab.core.registry import make_game
from boardlab.games.xiangqi.engines import from_fairy_stockfish
from boardlab.games.xiangqi.evalnet import read_network

SCRIPT = Path(__file__).resolve().parents[3] / "experiments" / "xiangqi_eval_net.py"
ENGINE = "/usr/games/fairy-stockfish"

pytestmark = pytest.mark.skipif(
    not os.access(ENGINE, os.X_OK),
    reason="Debian's fairy-stockfish is not installed (apt-get install fairy-stockfish)")


def run(*arguments: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *arguments], cwd=cwd,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def read(path: Path) -> tuple[np.ndarray, np.ndarray, list[str]]:
    saved = np.load(path)
    return saved["text"], saved["game"], Path(f"{path}.labels.txt").read_text().splitlines()


def test_selfplay_labels_each_position_and_resumes_after_the_games_written(tmp_path):
    common = ["--depth", "2", "--opening", "4", "--seed", "5"]
    run("selfplay", "sp.npz", "--games", "2", *common, cwd=tmp_path)
    texts, games, labels = read(tmp_path / "sp.npz")
    assert sorted(set(games.tolist())) == [0, 1] and len(labels) == len(texts) > 10
    game = make_game("xiangqi")
    for number, line in enumerate(labels):
        row, value, move = line.split()
        assert int(row) == number and value != "None"
        state = game.state_from_text(str(texts[number]))
        # The label's move is the engine's best move in that very position.
        assert from_fairy_stockfish(state, move) in state.legal_actions()
    run("selfplay", "sp.npz", "--games", "3", *common, cwd=tmp_path)
    more_texts, more_games, more_labels = read(tmp_path / "sp.npz")
    assert sorted(set(more_games.tolist())) == [0, 1, 2]
    assert list(more_texts[:len(texts)]) == list(texts) and more_labels[:len(labels)] == labels
    assert len(more_labels) == len(more_texts) > len(texts)


def test_train_fits_from_several_files_and_writes_a_network_the_game_reads(tmp_path):
    for seed in ("1", "2"):
        run("selfplay", f"sp{seed}.npz", "--games", "10", "--depth", "1", "--seed", seed,
            cwd=tmp_path)
    out = run("train", "sp1.npz", "sp1.npz.labels.txt", "--more", "sp2.npz",
              "sp2.npz.labels.txt", "--width", "4", "--second", "2", "--epochs", "2",
              "--out", "net.npz", cwd=tmp_path)
    assert "each file:" in out and "written to net.npz" in out
    network = read_network(tmp_path / "net.npz")
    assert network.w1.shape[1] == 4 and network.w2.shape == (2, 4)


def test_played_writes_each_position_of_the_stored_games_once(tmp_path):
    from boardlab.arena.tournament import run_tournament

    run_tournament("xiangqi:opening_plies=2,max_plies=24", ["random", "greedy"], 2,
                   tmp_path / "games.sqlite", seed=3, progress=False)
    out = run("played", "ours.npz", "games.sqlite", "games.sqlite", cwd=tmp_path)
    assert "of 4 games" in out  # the store named twice: its games twice, positions once
    saved = np.load(tmp_path / "ours.npz")
    texts, games = list(saved["text"]), saved["game"].tolist()
    boards = [text.rsplit(" ", 2)[0] for text in texts]
    assert len(set(boards)) == len(boards) and games == sorted(games) and set(games) <= {0, 1}
    game = make_game("xiangqi")
    for text in texts:  # every one a legal position, not over
        assert game.state_from_text(text).legal_actions()
    assert len(texts) > 30  # two games of 24 plies, less repeats


def test_train_with_the_linear_schedule_records_it_and_fits(tmp_path):
    run("selfplay", "sp.npz", "--games", "6", "--depth", "1", "--seed", "4", cwd=tmp_path)
    out = run("train", "sp.npz", "sp.npz.labels.txt", "--width", "4", "--second", "2",
              "--epochs", "20", "--schedule", "linear", "--out", "net.npz", cwd=tmp_path)
    base = float(out.split("alone: ")[1].split()[0])
    last = float(out.split("pass 20: held-out loss ")[1].split()[0])
    assert last < base  # the fitted network corrects the tables it starts from
    assert str(np.load(tmp_path / "net.npz")["schedule"]) == "linear"

"""The command line as a user meets it: one-line errors, play, arena, a killed arena resumed."""

import json
import signal
import sqlite3
import subprocess
import sys
import time

import pytest


def run(*args, stdin="", timeout=300):
    return subprocess.run([sys.executable, "-m", "boardlab.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout)


def wait_for_stored_games(db, count: int, seconds: float = 120) -> None:
    """Until a running arena has stored `count` games in `db` (or `seconds` pass)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        time.sleep(0.2)
        if db.exists():
            try:
                with sqlite3.connect(db) as connection:
                    if connection.execute("select count(*) from games").fetchone()[0] >= count:
                        return
            except sqlite3.Error:
                pass


@pytest.mark.parametrize("args, complaint", [
    (["play", "chezz", "random", "random"], "unknown game 'chezz'"),
    (["play", "jungle", "random", "nosuch"], "unknown agent 'nosuch'"),
    (["play", "jungle", "random", "minimax:depth=x"], "'x' is not an int"),
    (["play", "jungle", "random"], "jungle needs 2 agents, got 1"),
    (["arena", "jungle", "random"], "at least two agents"),
    (["arena", "jungle", "random", "greedy", "--games", "0"], "--games must be at least 1"),
    (["perft", "jungle", "--depth", "1", "--fen", "garbage"], "jungle position 'garbage'"),
])
def test_bad_input_gives_one_line_and_no_traceback(args, complaint, tmp_path):
    result = run(*args, "--db", str(tmp_path / "x.sqlite")) if args[0] == "arena" else run(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and complaint in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_play_shows_the_game_and_the_result():
    result = run("play", "jungle", "greedy", "random", "--seed", "4")
    assert result.returncode == 0, result.stderr
    assert "player 0 (greedy): reveal" in result.stdout
    assert "result:" in result.stdout.splitlines()[-1]


def test_a_human_is_asked_again_after_a_malformed_or_illegal_move():
    moves = "b1-b2\nnonsense\nhelp\nreveal a1\n"
    result = run("play", "jungle", "human", "random", stdin=moves)
    assert "face down; reveal it first" in result.stdout
    assert "not a Jungle move" in result.stdout
    assert "legal moves: reveal a1, reveal b1" in result.stdout
    assert "red (human): reveal a1 → " in result.stdout
    # The board's letters are explained (`face down: RCDWPTLE` once was not).
    assert "R rat (1)" in result.stdout and "face down: RCDWPTLE / rcdwptle` lists" in result.stdout
    # When the input runs out (Ctrl-D) the person has left: said so, no crash, no traceback.
    assert result.stdout.rstrip().endswith("you left the game")
    assert result.returncode == 0 and result.stderr == ""


@pytest.mark.parametrize("word", ["quit", "exit"])
def test_quit_and_exit_leave_the_game_and_are_not_read_as_moves(word):
    result = run("play", "reversi", "human", "random", stdin=f"{word}\n")
    assert result.returncode == 0 and result.stderr == ""
    assert "not played" not in result.stdout
    assert result.stdout.rstrip().endswith("you left the game")


def test_resign_ends_the_game_with_the_other_side_winning():
    result = run("play", "reversi", "human", "random", stdin="d3\nresign\n")
    assert result.returncode == 0, result.stderr
    assert "result: black (human) resigned; white (random) won" in result.stdout


def test_undo_takes_back_the_persons_last_move_and_the_reply():
    result = run("play", "reversi", "human", "random", stdin="d3\nundo\nhelp\nquit\n")
    assert "undone: your move again" in result.stdout
    assert "legal moves: d3, c4, f5, e6" in result.stdout  # the start position again
    nothing = run("play", "reversi", "human", "random", stdin="undo\nquit\n")
    assert "not undone: nothing to undo" in nothing.stdout


def test_an_illegal_move_is_explained_without_a_position_dump():
    result = run("play", "reversi", "human", "random", stdin="a1\nquit\n")
    refusal = next(line for line in result.stdout.splitlines() if "not played" in line)
    assert refusal.endswith("not played: a1 is not legal for black: a disc on a1 would flip "
                            "no white disc")
    assert "-" * 20 not in refusal and "position" not in refusal


def test_an_agent_playing_a_person_says_what_it_thinks():
    result = run("play", "reversi", "human", "mcts:sims=50", stdin="d3\nquit\n")
    assert "thinks: value" in result.stdout and "visit share:" in result.stdout


def test_version_and_help_point_to_what_exists():
    version = run("--version")
    assert version.returncode == 0 and version.stdout.strip() == "boardlab 0.1.0"
    helped = run("--help").stdout
    assert "DESIGN." not in helped and "docs/getting-started.md" in helped
    agents = run("agents").stdout
    assert "000 Jungle dark chess, 001 Reversi, 002 Sequence" in agents


def test_python_dash_m_boardlab_is_the_command():
    result = subprocess.run([sys.executable, "-m", "boardlab", "games"], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0 and "xiangqi" in result.stdout


def test_perft_counts_chance_outcomes_as_branches():
    result = run("perft", "jungle", "--depth", "2")
    assert result.returncode == 0, result.stderr
    # 8 reveals x 8 strengths, then 8 reveals x 8 strengths for player 1.
    assert "depth 1: 64" in result.stdout and "depth 2: 4096" in result.stdout


@pytest.mark.e2e  # kills a running arena process
def test_arena_writes_json_and_a_killed_run_resumes_without_loss_or_duplicates(tmp_path):
    db, out = tmp_path / "r.sqlite", tmp_path / "out.json"
    args = [sys.executable, "-m", "boardlab.cli", "arena", "jungle", "random", "greedy",
            "minimax:depth=1", "--games", "12", "--db", str(db), "--no-progress"]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_stored_games(db, 5)  # then kill -9
    process.send_signal(signal.SIGKILL)
    process.wait()
    with sqlite3.connect(db) as connection:
        stored = connection.execute("select count(*) from games").fetchone()[0]
    assert 0 < stored < 36, "the kill should land mid-tournament"
    result = run("arena", "jungle", "random", "greedy", "minimax:depth=1", "--games", "12",
                 "--db", str(db), "--no-progress", "--json", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text())
    assert [p["games"] for p in data["pairs"]] == [12, 12, 12]
    with sqlite3.connect(db) as connection:
        assert connection.execute("select count(*) from games").fetchone()[0] == 36
    for pair in data["pairs"]:
        assert pair["a_wins"] + pair["draws"] + pair["b_wins"] == pair["games"]
        assert pair["a_score"] == pytest.approx((pair["a_wins"] + pair["draws"] / 2) / 12, abs=1e-3)
    assert {r["agent"] for r in data["ratings"]} == {"random", "greedy", "minimax:depth=1"}


def test_new_agent_writes_a_working_agent_that_enters_the_arena(tmp_path):
    bot = tmp_path / "mybot.py"
    result = run("new-agent", "MyBot", "--out", str(bot))
    assert result.returncode == 0 and bot.exists(), result.stderr
    again = run("new-agent", "MyBot", "--out", str(bot))
    assert again.returncode == 2 and "exists" in again.stderr
    arena = run("arena", "jungle", f"{bot}:MyBot:captures_first=false", "random", "--games",
                "2", "--db", str(tmp_path / "r.sqlite"), "--no-progress", "--json",
                str(tmp_path / "out.json"))
    assert arena.returncode == 0, arena.stderr
    ratings = json.loads((tmp_path / "out.json").read_text())["ratings"]
    assert f"{bot}:MyBot:captures_first=false" in {r["agent"] for r in ratings}


def test_the_shipped_example_agent_plays():
    result = run("play", "jungle", "examples/mybot.py:MyBot", "random", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "result:" in result.stdout


@pytest.mark.e2e  # kills a running arena process
def test_workers_of_a_killed_arena_exit_quietly(tmp_path):
    # kill -9 (or a closed terminal) takes the arena's main process only: its worker
    # processes used to finish their game and print BrokenPipeError / ConnectionResetError
    # tracebacks into the terminal when they reported it.
    db = tmp_path / "r.sqlite"
    process = subprocess.Popen(
        [sys.executable, "-m", "boardlab.cli", "arena", "jungle", "random", "greedy",
         "minimax:depth=1", "--games", "40", "--workers", "2", "--db", str(db),
         "--no-progress"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_for_stored_games(db, 3)
    process.send_signal(signal.SIGKILL)
    # stderr ends when the last process holding it (the orphaned workers) has exited.
    _, errors = process.communicate(timeout=120)
    assert "Traceback" not in errors and "Error" not in errors, errors

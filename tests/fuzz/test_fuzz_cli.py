"""The command line fed bad invocations, each in its own process as a user would run it.

The property (issue #15): a non-zero exit, one line on stderr that says what is wrong (an
`argparse` usage error may show its usage first), and never a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from fuzz_support import COUNTER

FOREIGN_DB = "foreign.sqlite"
RANDOM_DB = "random.sqlite"

# (arguments, what the error line must mention)
BAD_INVOCATIONS: list[tuple[list[str], str]] = [
    (["arena", "nope", "random", "greedy", "--games", "1", "--db", "a.sqlite"], "unknown game"),
    (["arena", "jungle", "random", "nope", "--games", "1", "--db", "a.sqlite"], "unknown agent"),
    (["arena", "jungle", "random", "greedy", "--games", "0", "--db", "a.sqlite"], "--games"),
    (["arena", "jungle", "random", "minimax:depth=x", "--games", "1", "--db", "a.sqlite"],
     "depth"),
    (["arena", "jungle", "random", "greedy", "--games", "1", "--db", RANDOM_DB],
     RANDOM_DB),
    (["arena", "jungle", "random", "greedy", "--games", "1", "--db", FOREIGN_DB],
     FOREIGN_DB),
    (["arena", "jungle", "random", "greedy", "--games", "1", "--db", "."], "directory"),
    (["report", RANDOM_DB], RANDOM_DB),
    (["arena", "--resume", FOREIGN_DB], FOREIGN_DB),
    (["perft", "minichess", "--depth", "1", "--fen", "kqbnr/ppppp/²/5/PPPPP/RNBQK w"], "²"),
    (["perft", "xiangqi", "--depth", "1", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/"
      "P1P1P1P1P/1C5C1/9/RNBAKABNR" + "9" * 30 + " w"], "wide"),
    (["perft", "reversi", "--depth", "1", "--moves", "d3 zz"], "zz"),
    (["perft", "reversi", "--depth", "-1"], "depth"),
    (["play", "jungle", "random"], "2 agents"),
    (["play", "jungle", "random", "qlearning:weights=missing.npz"], "missing.npz"),
    (["play", "jungle", "random", "qlearning:weights=" + RANDOM_DB], RANDOM_DB),
    (["play", "sequence:num_players=3", "random", "random", "random"], "num_players"),
    (["uci", "nope", "random"], "unknown game"),
    (["new-agent", "lowercase"], "class name"),
]
MORE_BAD_INVOCATIONS = BAD_INVOCATIONS[12:]
BAD_INVOCATIONS = BAD_INVOCATIONS[:12]
"""Twelve run in the default suite (each process costs a second or more here), the rest with
-m slow."""
USAGE_ERRORS: list[list[str]] = [
    ["arena", "jungle", "random", "greedy", "--games", "abc"],
    ["perft", "reversi"],
    ["no-such-command"],
]


def run_cli(args: list[str], folder: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": os.environ.get(
        "NUMBA_CACHE_DIR", str(Path(__file__).resolve().parents[2] / ".numba_cache"))}
    return subprocess.run([sys.executable, "-m", "boardlab.cli", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)


def run_all(folder: Path, invocations: list[list[str]]) -> dict[tuple[str, ...], object]:
    """Every invocation run once, two processes at a time (the machine is shared)."""
    import sqlite3

    (folder / RANDOM_DB).write_bytes(bytes(range(256)) * 8)
    with sqlite3.connect(folder / FOREIGN_DB) as conn:
        conn.execute("CREATE TABLE users (name TEXT)")
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(lambda args: run_cli(args, folder), invocations))
    COUNTER.add("CLI invocations", len(invocations))
    return {tuple(args): result for args, result in zip(invocations, done)}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, ...], object]:
    return run_all(tmp_path_factory.mktemp("cli"),
                   [args for args, _ in BAD_INVOCATIONS] + USAGE_ERRORS)


@pytest.fixture(scope="module")
def more_results(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, ...], object]:
    return run_all(tmp_path_factory.mktemp("cli_more"),
                   [args for args, _ in MORE_BAD_INVOCATIONS])


@pytest.mark.parametrize("args, mentions", BAD_INVOCATIONS,
                         ids=[" ".join(args)[:60] for args, _ in BAD_INVOCATIONS])
def test_a_bad_invocation_exits_non_zero_with_one_error_line_and_no_traceback(
        args: list[str], mentions: str, results) -> None:
    check_one_line(results[tuple(args)], mentions)


@pytest.mark.slow
@pytest.mark.parametrize("args, mentions", MORE_BAD_INVOCATIONS,
                         ids=[" ".join(args)[:60] for args, _ in MORE_BAD_INVOCATIONS])
def test_more_bad_invocations_exit_non_zero_with_one_error_line_and_no_traceback(
        args: list[str], mentions: str, more_results) -> None:
    check_one_line(more_results[tuple(args)], mentions)


def check_one_line(result, mentions: str) -> None:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert len(lines) == 1, f"stderr: {result.stderr}"
    assert lines[0].startswith("boardlab: error:"), lines[0]
    assert mentions in lines[0]


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=[" ".join(a) for a in USAGE_ERRORS])
def test_a_usage_error_exits_2_with_the_error_last_and_no_traceback(args: list[str],
                                                                     results) -> None:
    result = results[tuple(args)]
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "error:" in result.stderr.strip().splitlines()[-1]

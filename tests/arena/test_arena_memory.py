"""The arena's memory stays flat as games accumulate (the 10,000-game version is in
benchmarks/arena_bench.py; this is its small, fast edition)."""

from __future__ import annotations

import pytest

from boardlab.arena.tournament import run_tournament


def resident_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS line")


def test_memory_stays_flat_over_500_games(tmp_path):
    pytest.importorskip("resource")
    try:
        resident_mib()
    except OSError:
        pytest.skip("no /proc here to read the resident size from")
    seen: list[float] = []

    def on_game(row):
        if len(seen) < 500 and (row.key.game_index + 1) % 100 == 0:
            seen.append(resident_mib())

    # The fastest pair: random against itself, spelled twice so it is two agents.
    result = run_tournament("jungle:no_capture_limit=20", ["random", "random:"], 500,
                            tmp_path / "m.sqlite", progress=False, on_game=on_game)
    assert result.played == 500 and len(seen) == 5
    # After the first 100 games (caches, SQLite pages warm) 400 more add almost nothing: a
    # leak of even 20 KiB a game would show as 8 MiB.
    assert seen[-1] - seen[0] < 8, seen

"""Misbehaving agents lose their games with the right reason, and the tournament completes.

The agents are in arena_fault_agents.py, entered by path as a user's own agents are.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from boardlab.arena.store import ResultStore
from boardlab.arena.tournament import run_tournament
from boardlab.arena.workers import Limits, WorkerPool
from boardlab.arena.tournament import round_robin_keys
from boardlab.core.registry import make_game

AGENTS = str(Path(__file__).with_name("arena_fault_agents.py"))
SLEEPER, RAISER = f"{AGENTS}:Sleeper", f"{AGENTS}:Raiser"
CHEATER, HOG = f"{AGENTS}:Cheater", f"{AGENTS}:Hog"


def rows(path):
    with ResultStore(path) as store:
        return list(store.games())


def why(row) -> str:
    return row.record.reason.split(":")[0]


def loser(row) -> str | None:
    forfeit = row.record.forfeit
    return None if forfeit is None else row.record.agents[forfeit]


def test_each_faulty_agent_loses_with_its_reason_while_the_other_games_complete(tmp_path):
    # One game a pair, so the pair's first agent moves first: among two faulty agents the
    # first listed fails first, and the sleeper (listed last) only ever hangs twice.
    agents = ["random", "greedy", RAISER, CHEATER, HOG, SLEEPER]
    path = tmp_path / "faults.sqlite"
    started = time.monotonic()
    # 128 MB: the hog reaches it in a few page-faulting steps even on a loaded machine, where
    # 256 MB once took longer than the 1.5 s the clock allows (it lost on time, not memory)
    result = run_tournament("jungle", agents, 1, path, workers=2, time_per_move=0.5,
                            memory_mb=128, progress=False)
    seconds = time.monotonic() - started
    stored = rows(path)
    assert len(stored) == 15 and result.played == 15
    assert sum(pair.games for pair in result.pairs) == 15
    by_pair = {(row.key.pair_a, row.key.pair_b): row for row in stored}
    expected_reason = {RAISER: "crash", CHEATER: "illegal", HOG: "memory", SLEEPER: "time"}
    for (a, b), row in by_pair.items():
        if a in ("random", "greedy") and b in ("random", "greedy"):
            assert why(row) == "normal"
            continue
        faulty = a if a in expected_reason else b  # the first listed faulty agent fails
        assert loser(row) == faulty, row.record.reason
        assert why(row) == expected_reason[faulty], row.record.reason
        assert row.record.returns[row.record.forfeit] < row.record.returns[1 - row.record.forfeit]
    reasons = Counter(why(row) for row in stored)
    assert reasons == {"normal": 1, "crash": 5, "illegal": 4, "memory": 3, "time": 2}
    # The two hangs were cut at budget 0.5 s + grace 1 s, not after the sleeper's 60 s.
    assert seconds < 45
    for row in stored:
        if why(row) == "time":
            assert "still thinking after 1.5" in row.record.reason
            # The record keeps the moves before the hang: it replays to where it stopped.
            state = row.record.replay(make_game("jungle"))
            assert not state.is_terminal()
            assert state.current_player() == row.record.forfeit
    ratings = {rating.agent: rating.elo for rating in result.ratings}
    assert min(ratings["random"], ratings["greedy"]) > max(ratings[a] for a in expected_reason)


def test_a_hung_agent_is_stopped_with_one_worker_too(tmp_path):
    path = tmp_path / "one.sqlite"
    result = run_tournament("jungle", ["random", SLEEPER], 1, path, workers=1,
                            time_per_move=0.2, progress=False)
    (row,) = rows(path)
    assert why(row) == "time" and loser(row) == SLEEPER
    assert result.pairs[0].a_wins == 1 and result.pairs[0].forfeits == {"a": 0, "b": 1}


@pytest.mark.e2e  # waits out three hard time limits
def test_a_stopped_worker_is_replaced_and_later_games_still_play(tmp_path):
    tasks = list(round_robin_keys("jungle", [SLEEPER, "random"], 3, 0, 0.2))
    pool = WorkerPool("jungle", [SLEEPER, "random"], 1, Limits(time_per_move=0.2))
    results = list(pool.play(tasks))
    assert sorted(task.key.game_index for task, _ in results) == [0, 1, 2]
    assert all(record.reason.startswith("time") for _, record in results)
    assert pool.replaced == 3


def test_the_hard_limit_is_budget_plus_the_larger_of_one_second_and_the_budget():
    assert Limits(time_per_move=0.2).hard_time_limit == pytest.approx(1.2)
    assert Limits(time_per_move=3.0).hard_time_limit == pytest.approx(6.0)
    assert Limits().hard_time_limit is None


def test_a_steady_agent_within_its_budget_is_never_stopped(tmp_path):
    steady = f"{AGENTS}:Steady"
    result = run_tournament("jungle:no_capture_limit=10", ["random", steady], 2,
                            tmp_path / "s.sqlite", workers=1, time_per_move=0.05,
                            progress=False)
    assert sum(pair.games for pair in result.pairs) == 2
    assert all(why(row) == "normal" for row in rows(tmp_path / "s.sqlite"))


def test_an_agent_that_ends_its_worker_process_loses_by_crash(tmp_path):
    quitter = f"{AGENTS}:Quitter"
    result = run_tournament("jungle", ["random", quitter], 2, tmp_path / "q.sqlite",
                            workers=2, progress=False)
    assert result.pairs[0].a_wins == 2 and result.pairs[0].forfeits == {"a": 0, "b": 2}
    for row in rows(tmp_path / "q.sqlite"):
        assert why(row) == "crash" and loser(row) == quitter
        assert "ended its worker process during its move (exit code 3)" in row.record.reason

"""Round-robin tournaments: seeded, seats alternating, stored as they go, resumable."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter

import pytest

from boardlab.arena.store import ResultStore
from boardlab.arena.tournament import run_tournament, tournament_result
from boardlab.core.game import BoardLabError, ParseError
from boardlab.core.match import derive_seed
from arena_interrupt import Interrupted, stop_after

BOTS = textwrap.dedent("""
    from boardlab import Agent
    from boardlab.agents.random import RandomAgent

    class Copycat(RandomAgent):
        name = "copycat"

    class Crasher(Agent):
        name = "crasher"
        def act(self, state, clock):
            raise RuntimeError("out of ideas")

    class Cheater(Agent):
        name = "cheater"
        def act(self, state, clock):
            return 10 ** 6
""")


@pytest.fixture
def bots(tmp_path):
    path = tmp_path / "bots.py"
    path.write_text(BOTS)
    return str(path)


def stored_rows(path):
    with ResultStore(path) as store:
        return list(store.games())


def test_every_pair_plays_n_games_with_seats_alternating(tmp_path):
    agents = ["random", "greedy", "minimax:depth=1"]
    result = run_tournament("jungle", agents, 2, tmp_path / "r.sqlite", seed=5, progress=False)
    assert [(p.a, p.b, p.games) for p in result.pairs] == [
        ("random", "greedy", 2), ("random", "minimax:depth=1", 2), ("greedy", "minimax:depth=1", 2)]
    rows = stored_rows(tmp_path / "r.sqlite")
    assert len(rows) == 6
    for row in rows:
        key = row.key
        a_first = key.game_index % 2 == 0
        assert (key.seat0, key.seat1) == ((key.pair_a, key.pair_b) if a_first
                                          else (key.pair_b, key.pair_a))
        assert row.record.agents == [key.seat0, key.seat1]
        assert row.record.seed == derive_seed(5, "jungle", key.pair_a, key.pair_b, key.game_index)


def test_pair_counts_add_up_and_score_counts_draws_half(tmp_path):
    result = run_tournament("jungle", ["random", "greedy"], 6, tmp_path / "r.sqlite",
                            progress=False)
    (pair,) = result.pairs
    assert pair.a_wins + pair.draws + pair.b_wins == pair.games == 6
    assert pair.a_score == pytest.approx((pair.a_wins + pair.draws / 2) / 6)
    assert {r.agent for r in result.ratings} == {"random", "greedy"}


@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_tournament_resumes_and_records_every_game_once(tmp_path, workers):
    path = tmp_path / "r.sqlite"
    agents = ["random", "greedy", "minimax:depth=1"]
    with pytest.raises(Interrupted):
        run_tournament("jungle", agents, 4, path, workers=workers, progress=False,
                       on_game=stop_after(5))
    assert len(stored_rows(path)) == 5  # the game that was being reported is kept
    result = run_tournament("jungle", agents, 4, path, workers=workers, progress=False)
    rows = stored_rows(path)
    assert len(rows) == 12 and len({row.key for row in rows}) == 12
    assert result.played == 12 - 5
    assert sum(pair.games for pair in result.pairs) == 12  # earlier games are reported too


def test_a_killed_tournament_process_resumes(tmp_path, bots):
    path = tmp_path / "r.sqlite"
    agents = ["random", f"{bots}:Copycat"]
    script = (f"from boardlab.arena.tournament import run_tournament\n"
              f"run_tournament('jungle', {agents!r}, 400, {str(path)!r}, progress=False)\n")
    process = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if path.exists():
                try:
                    with ResultStore(path) as store:
                        if store.count() >= 30:
                            break
                except BoardLabError:
                    pass  # caught while the other process creates the schema
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(30)
    assert process.returncode == -signal.SIGKILL, "the tournament ended before it was killed"
    before = len(stored_rows(path))
    assert 30 <= before < 400
    result = run_tournament("jungle", agents, 400, path, progress=False)
    rows = stored_rows(path)
    assert result.played == 400 - before
    assert len(rows) == 400 and len({row.key for row in rows}) == 400
    assert sorted(row.key.game_index for row in rows) == list(range(400))


def test_rerunning_a_finished_tournament_plays_nothing(tmp_path):
    path = tmp_path / "r.sqlite"
    first = run_tournament("jungle", ["random", "greedy"], 2, path, progress=False)
    again = run_tournament("jungle", ["random", "greedy"], 2, path, progress=False)
    assert first.played == 2 and again.played == 0
    assert again.pairs == first.pairs


def test_more_games_per_pair_extends_a_finished_tournament(tmp_path):
    path = tmp_path / "r.sqlite"
    run_tournament("jungle", ["random", "greedy"], 2, path, progress=False)
    result = run_tournament("jungle", ["random", "greedy"], 4, path, progress=False)
    assert result.played == 2 and result.pairs[0].games == 4
    with ResultStore(path) as store:  # and the smaller tournament still reads as before
        assert tournament_result(store, "jungle", ["random", "greedy"], 2).pairs[0].games == 2


def game_log(path):
    return sorted((row.key, row.record.actions, row.record.returns) for row in stored_rows(path))


def test_same_seed_same_games_with_one_or_two_workers(tmp_path):
    agents = ["random", "greedy", "minimax:depth=1"]
    one = run_tournament("jungle", agents, 2, tmp_path / "one.sqlite", seed=3, progress=False)
    two = run_tournament("jungle", agents, 2, tmp_path / "two.sqlite", seed=3, workers=2,
                         progress=False)
    assert game_log(tmp_path / "one.sqlite") == game_log(tmp_path / "two.sqlite")
    assert one.pairs == two.pairs and one.ratings == two.ratings


def test_another_seed_plays_other_games_in_the_same_store(tmp_path):
    path = tmp_path / "r.sqlite"
    run_tournament("jungle", ["random", "greedy"], 2, path, seed=1, progress=False)
    result = run_tournament("jungle", ["random", "greedy"], 2, path, seed=2, progress=False)
    assert result.played == 2 and result.pairs[0].games == 2
    assert len({row.record.seed for row in stored_rows(path)}) == 4


def test_a_crashing_agent_loses_its_games_and_the_tournament_goes_on(tmp_path, bots):
    crasher, cheater = f"{bots}:Crasher", f"{bots}:Cheater"
    result = run_tournament("jungle", ["random", crasher, cheater], 2, tmp_path / "r.sqlite",
                            progress=False)
    random_crasher, random_cheater, crasher_cheater = result.pairs
    assert (random_crasher.a_wins, random_crasher.forfeits) == (2, {"a": 0, "b": 2})
    assert (random_cheater.a_wins, random_cheater.forfeits) == (2, {"a": 0, "b": 2})
    # Between the two the first mover forfeits first: one game each.
    assert crasher_cheater.a_wins == crasher_cheater.b_wins == 1
    reasons = Counter(row.record.reason.split(":")[0] for row in stored_rows(tmp_path / "r.sqlite"))
    assert reasons == {"crash": 3, "illegal": 3}


def test_a_bad_agent_spec_stops_the_tournament_before_any_game(tmp_path):
    path = tmp_path / "r.sqlite"
    with pytest.raises(ParseError, match="depht"):
        run_tournament("jungle", ["random", "minimax:depht=2"], 2, path, progress=False)
    assert not path.exists()


def test_an_unknown_game_is_a_parse_error(tmp_path):
    with pytest.raises(ParseError, match="unknown game"):
        run_tournament("checkers-3d", ["random", "greedy"], 2, tmp_path / "r.sqlite",
                       progress=False)


def test_the_same_agent_twice_is_an_error(tmp_path):
    with pytest.raises(ParseError, match="twice"):
        run_tournament("jungle", ["random", "greedy", "random"], 2, tmp_path / "r.sqlite",
                       progress=False)


def test_one_agent_is_not_a_tournament(tmp_path):
    with pytest.raises(ParseError, match="at least two"):
        run_tournament("jungle", ["random"], 2, tmp_path / "r.sqlite", progress=False)


@pytest.mark.parametrize("games", [0, -1])
def test_games_per_pair_must_be_positive(tmp_path, games):
    with pytest.raises(ParseError, match="games per pair"):
        run_tournament("jungle", ["random", "greedy"], games, tmp_path / "r.sqlite",
                       progress=False)


def test_progress_bar_shows_games_done(tmp_path, capsys):
    run_tournament("jungle", ["random", "greedy"], 2, tmp_path / "r.sqlite", progress=True)
    assert "2/2" in capsys.readouterr().out

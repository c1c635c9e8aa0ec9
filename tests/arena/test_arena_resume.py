"""`boardlab arena --resume DB` finishes a stored tournament; `boardlab report DB` shows the
stored tournaments without playing; each game row carries the code version that played it."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

import boardlab
from boardlab.arena.report import to_json
from boardlab.arena import store as store_module
from boardlab.arena.store import SCHEMA_VERSION, ResultStore
from boardlab.arena.tournament import run_tournament, stored_tournaments
from boardlab.cli import main
from boardlab.core.match import derive_seed
from arena_interrupt import Interrupted, stop_after


def rows(path):
    with ResultStore(path) as store:
        return list(store.games())


AGENTS = ["random", "greedy", "minimax:depth=1"]


def test_resume_finishes_a_killed_tournament_with_its_own_parameters(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    with pytest.raises(Interrupted):
        run_tournament("jungle:no_capture_limit=20", AGENTS, 2, db, seed=7, progress=False,
                       on_game=stop_after(2))
    assert len(rows(db)) == 2
    assert main(["arena", "--resume", str(db), "--workers", "1", "--no-progress"]) == 0
    stored = rows(db)
    assert len(stored) == 6 and len({row.key for row in stored}) == 6
    for row in stored:
        assert row.key.game == "jungle:no_capture_limit=20" and row.key.base_seed == 7
        assert row.record.seed == derive_seed(7, row.key.game, row.key.pair_a, row.key.pair_b,
                                              row.key.game_index)
    printed = " ".join(capsys.readouterr().out.split())  # rich wraps long lines
    assert "; 4 played in" in printed


def test_resume_picks_the_unfinished_tournament_among_finished_ones(tmp_path):
    db = tmp_path / "r.sqlite"
    with pytest.raises(Interrupted):
        run_tournament("jungle", ["random", "greedy"], 4, db, seed=1, progress=False,
                       on_game=stop_after(1))
    run_tournament("jungle", ["random", "greedy"], 2, db, seed=2, progress=False)
    assert main(["arena", "--resume", str(db), "--workers", "1", "--no-progress"]) == 0
    seeds = sorted(row.key.base_seed for row in rows(db))
    assert seeds == [1, 1, 1, 1, 2, 2]


def test_resume_of_a_missing_store_is_a_one_line_error(tmp_path, capsys):
    assert main(["arena", "--resume", str(tmp_path / "none.sqlite")]) == 2
    assert "no such results database" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()


def test_resume_takes_no_game_or_agents(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    run_tournament("jungle", ["random", "greedy"], 1, db, progress=False)
    assert main(["arena", "jungle", "random", "--resume", str(db)]) == 2
    assert "give no game or agents" in capsys.readouterr().err


def test_report_shows_a_store_without_playing(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    result = run_tournament("jungle", AGENTS, 2, db, seed=3, progress=False)
    before = db.read_bytes() if not (tmp_path / "r.sqlite-wal").exists() else None
    out = tmp_path / "report"
    assert main(["report", str(db), "--report", str(out), "--json",
                 str(tmp_path / "r.json")]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "6 of 6 games stored" in printed and "Elo" in printed
    assert len(rows(db)) == 6
    assert before is None or db.read_bytes() == before
    assert {path.name for path in out.iterdir()} == {"results.json", "results.md",
                                                      "heatmap.png"}
    assert json.loads((tmp_path / "r.json").read_text()) == json.loads(json.dumps(
        to_json(result)))


def test_report_gives_each_tournament_its_folder_and_names_unfinished_ones(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    run_tournament("jungle", ["random", "greedy"], 2, db, seed=1, progress=False)
    with pytest.raises(Interrupted):
        run_tournament("reversi", ["random", "greedy"], 4, db, progress=False,
                       on_game=stop_after(1))
    assert main(["report", str(db), "--report", str(tmp_path / "out")]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "2 of 2 games stored" in printed
    assert "1 of 4 games stored; finish it with: boardlab arena --resume" in printed
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["tournament-1",
                                                                   "tournament-2"]


def test_report_of_a_missing_store_creates_nothing(tmp_path, capsys):
    assert main(["report", str(tmp_path / "none.sqlite")]) == 2
    assert "no such results database" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()


def test_each_game_row_records_the_boardlab_version_and_git_commit(tmp_path):
    run_tournament("jungle", ["random", "greedy"], 1, tmp_path / "r.sqlite", progress=False)
    (row,) = rows(tmp_path / "r.sqlite")
    assert row.boardlab_version == boardlab.__version__
    # Run from a git checkout here; an installed wheel would record None.
    assert row.git_commit is None or re.fullmatch(r"[0-9a-f]{40}(\+dirty)?", row.git_commit)


def make_version_1(new, old):
    """Copy the games of store `new` into `old`, laid out as BoardLab wrote before schema 2
    (no tournaments table, no git_commit column)."""
    layout = re.sub(r",(\s*--[^\n]*)\n\s*git_commit TEXT[^\n]*\n", r"\1\n", store_module._SCHEMA)
    assert "git_commit" not in layout
    connection = sqlite3.connect(old)
    connection.executescript(layout)
    connection.execute("INSERT INTO boardlab_schema VALUES (1, '2026-11-22', '0.1.0')")
    columns = [row[1] for row in connection.execute("PRAGMA table_info(games)")]
    connection.execute("ATTACH DATABASE ? AS new", (str(new),))
    connection.execute(f"INSERT INTO games SELECT {', '.join(columns)} FROM new.games")
    connection.commit()
    connection.close()


def test_a_version_1_store_is_upgraded_keeping_its_games_and_reports(tmp_path):
    db = tmp_path / "old.sqlite"
    run_tournament("jungle", AGENTS, 2, tmp_path / "new.sqlite", seed=4, progress=False)
    make_version_1(tmp_path / "new.sqlite", db)
    (entry,) = stored_tournaments(db)  # inferred from the games: no tournaments table then
    assert (entry.game, entry.agents, entry.games_per_pair, entry.base_seed) == \
        ("jungle", tuple(AGENTS), 2, 4)
    with ResultStore(db) as store:
        assert store.count() == 6 and all(row.git_commit is None for row in store.games())
    version = sqlite3.connect(db).execute("SELECT max(version) FROM boardlab_schema")
    assert version.fetchone()[0] == SCHEMA_VERSION
    result = run_tournament("jungle", AGENTS, 3, db, seed=4, progress=False)
    assert result.played == 3


def test_report_lists_recorded_tournaments_once_even_when_they_share_a_seed(tmp_path):
    db = tmp_path / "r.sqlite"
    run_tournament("jungle", ["random", "greedy"], 1, db, progress=False)
    run_tournament("jungle", ["random", "minimax:depth=1"], 1, db, progress=False)
    entries = stored_tournaments(db)
    assert [entry.agents for entry in entries] == [("random", "greedy"),
                                                   ("random", "minimax:depth=1")]

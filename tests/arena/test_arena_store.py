"""The results store: one row per game, refused when the file is not a BoardLab database."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest

from boardlab.arena.store import SCHEMA_VERSION, GameKey, ResultStore
from boardlab.core.game import BoardLabError
from boardlab.core.match import GameRecord, play_match
from boardlab.core.registry import make_agent, make_game


def a_key(index: int = 0, seed: int = 0) -> GameKey:
    return GameKey("jungle", "random", "greedy", "random", "greedy", index, seed, None)


def a_record(seed: int = 1) -> GameRecord:
    game = make_game("jungle")
    return play_match(game, [make_agent("random", game), make_agent("greedy", game)], seed=seed)


def test_new_store_records_its_schema_version(tmp_path):
    with ResultStore(tmp_path / "r.sqlite"):
        pass
    connection = sqlite3.connect(tmp_path / "r.sqlite")
    assert connection.execute("SELECT version FROM boardlab_schema").fetchall() == \
        [(SCHEMA_VERSION,)]
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_stored_game_reads_back_and_replays(tmp_path):
    record = a_record()
    with ResultStore(tmp_path / "r.sqlite") as store:
        assert store.add(a_key(), record)
        (row,) = store.games()
    assert row.key == a_key()
    assert row.record == record
    assert row.boardlab_version and row.finished_at
    assert row.record.replay(make_game("jungle")).is_terminal()


def test_the_same_game_is_stored_once(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as store:
        assert store.add(a_key(), a_record())
        assert not store.add(a_key(), a_record())
        assert store.count() == 1
        assert store.finished_keys("jungle") == {a_key()}


def test_a_game_without_time_limit_differs_from_one_with(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as store:
        store.add(a_key(), a_record())
        assert store.add(a_key()._replace(time_per_move=0.5), a_record())
        assert store.finished_keys("jungle", 0, None) == {a_key()}
        assert len(store.finished_keys("jungle", 0)) == 2


def test_games_filter_keeps_games_between_the_named_agents(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as store:
        store.add(a_key(), a_record())
        assert len(list(store.games("jungle", ["random", "greedy", "minimax"]))) == 1
        assert list(store.games("jungle", ["random", "minimax"])) == []
        assert list(store.games("reversi")) == []


def test_record_seats_must_match_the_key(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as store:
        with pytest.raises(ValueError, match="seats"):
            store.add(a_key()._replace(seat0="greedy", seat1="random"), a_record())


def assert_refused(path, words: str) -> None:
    with pytest.raises(BoardLabError) as caught:
        ResultStore(path)
    message = str(caught.value)
    assert str(path) in message and "\n" not in message and words in message


def test_random_bytes_are_not_a_database(tmp_path):
    path = tmp_path / "noise.sqlite"
    path.write_bytes(bytes(range(256)) * 40)
    assert_refused(path, "not an SQLite file")


def test_a_text_file_is_not_a_database(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my results\n")
    assert_refused(path, "not a BoardLab results database")


def test_a_truncated_database_is_refused(tmp_path):
    path = tmp_path / "r.sqlite"
    record = a_record()
    with ResultStore(path) as store:
        for index in range(30):
            store.add(a_key(index), record)
    # Fold the WAL into the file, as after a clean shutdown, then cut the file's tail off.
    sqlite3.connect(path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2])
    assert_refused(path, "truncated")


def test_a_database_cut_inside_its_header_is_refused(tmp_path):
    path = tmp_path / "r.sqlite"
    ResultStore(path).close()
    path.write_bytes(path.read_bytes()[:60])
    assert_refused(path, "truncated")


def test_another_programs_sqlite_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "other.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE invoices (id INTEGER, total REAL)")
    connection.commit()
    connection.close()
    before = path.read_bytes()
    assert_refused(path, "not a BoardLab results database")
    assert path.read_bytes() == before


def test_a_newer_schema_version_is_refused(tmp_path):
    path = tmp_path / "r.sqlite"
    ResultStore(path).close()
    connection = sqlite3.connect(path)
    connection.execute("UPDATE boardlab_schema SET version = 99")
    connection.commit()
    connection.close()
    assert_refused(path, "schema version 99")


def test_a_directory_is_not_a_database(tmp_path):
    assert_refused(tmp_path, "directory")


def test_an_empty_file_becomes_a_new_store(tmp_path):
    path = tmp_path / "empty.sqlite"
    path.touch()
    with ResultStore(path) as store:
        assert store.count() == 0


def _write_games(path: str, first: int, count: int, record: GameRecord) -> None:
    with ResultStore(path) as store:
        for index in range(first, first + count):
            store.add(a_key(index), record)


def test_several_processes_write_one_store(tmp_path):
    path = str(tmp_path / "shared.sqlite")
    ResultStore(path).close()
    record = a_record()
    context = multiprocessing.get_context("spawn")
    # Overlapping ranges: games 20..39 are written by both processes and must appear once.
    workers = [context.Process(target=_write_games, args=(path, first, 40, record))
               for first in (0, 20)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    with ResultStore(path) as store:
        assert sorted(row.key.game_index for row in store.games()) == list(range(60))

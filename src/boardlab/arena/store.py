"""The results store: one SQLite row per finished game, written the moment the game ends.

A row's key says which game it is independently of any tournament: the game spec, the agent
specs in seat 0 and seat 1, the pair as the tournament ordered it (a, b), the game's index in
that pair, the tournament's base seed and the time per move. A tournament asks the store which
of its games are finished and plays only the others, so a killed run resumes and a rerun
duplicates nothing; two tournaments sharing games share their rows.

Concurrency: WAL journal (readers never block the writer), a busy timeout so that several
processes may write one file, one transaction per game, and `INSERT OR IGNORE` against a
unique index so that a game two processes both played is stored once.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator, NamedTuple

from ..core.game import BoardLabError
from ..core.match import GameRecord

SCHEMA_VERSION = 2
"""Raise when the layout changes. Version 1 files (no `tournaments` table, no `git_commit`
column) are upgraded in place when opened; newer ones are refused with a sentence."""

BUSY_TIMEOUT_S = 60.0
"""How long a writer waits for another process's transaction before giving up."""

_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE boardlab_schema (
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    boardlab_version TEXT NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,              -- canonical game spec (`NAME:param=value`)
    seat0 TEXT NOT NULL,             -- agent spec in seat 0
    seat1 TEXT NOT NULL,             -- agent spec in seat 1
    pair_a TEXT NOT NULL,            -- the pair as the tournament listed it: a before b
    pair_b TEXT NOT NULL,
    game_index INTEGER NOT NULL,     -- k: 0..N-1 within the pair (a sits in seat 0 when k is even)
    base_seed INTEGER NOT NULL,      -- the tournament's seed
    time_per_move REAL,              -- seconds, NULL for no limit
    seed INTEGER NOT NULL,           -- derive_seed(base_seed, game, a, b, k)
    seats TEXT NOT NULL,             -- JSON list of agent specs by seat
    actions TEXT NOT NULL,           -- JSON list, chance outcomes included
    movers TEXT NOT NULL,            -- JSON list: seat or -1 (chance) for each action
    returns TEXT NOT NULL,           -- JSON list by seat
    reason TEXT NOT NULL,            -- 'normal' or why a seat forfeited
    forfeit INTEGER,                 -- the seat that forfeited, NULL if none
    move_seconds TEXT NOT NULL,      -- JSON list of thinking times of player decisions
    plies INTEGER NOT NULL,
    boardlab_version TEXT NOT NULL,
    finished_at TEXT NOT NULL,       -- ISO 8601, UTC
    git_commit TEXT                  -- commit of the BoardLab checkout that played it, if any
);
-- NULL time limits must collide too, hence the IFNULL in the key.
CREATE UNIQUE INDEX games_key ON games (
    game, seat0, seat1, pair_a, pair_b, game_index, base_seed, IFNULL(time_per_move, -1.0)
);
CREATE INDEX games_by_game ON games (game, base_seed);
"""

# Version 2: what each tournament asked for, so `boardlab arena --resume DB` can finish it and
# `boardlab report DB` can show it with its agents in their order.
_TOURNAMENTS_SCHEMA = """
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,              -- canonical game spec
    agents TEXT NOT NULL,            -- JSON list of agent specs, in the tournament's order
    games_per_pair INTEGER NOT NULL,
    base_seed INTEGER NOT NULL,
    time_per_move REAL,              -- seconds, NULL for no limit
    memory_mb INTEGER,               -- address space a worker may add, NULL for no limit
    started_at TEXT NOT NULL,        -- ISO 8601, UTC: first run
    updated_at TEXT NOT NULL         -- last run
);
CREATE UNIQUE INDEX tournaments_key ON tournaments (
    game, agents, games_per_pair, base_seed, IFNULL(time_per_move, -1.0)
);
"""


class GameKey(NamedTuple):
    """What identifies a game across tournaments (see the module docstring)."""

    game: str
    seat0: str
    seat1: str
    pair_a: str
    pair_b: str
    game_index: int
    base_seed: int
    time_per_move: float | None


@dataclass(frozen=True)
class GameRow:
    """One stored game: its key, its record and when and by which BoardLab it was played."""

    key: GameKey
    record: GameRecord
    boardlab_version: str
    finished_at: str
    git_commit: str | None = None
    """The commit of the BoardLab checkout that played it (`+dirty` if it had changes), or
    None where BoardLab was not run from a git checkout."""

    @property
    def seat_of_a(self) -> int:
        """The seat the pair's first agent sat in (0 or 1)."""
        return 0 if self.key.seat0 == self.key.pair_a else 1

    def score_of_a(self) -> float:
        """1 if a won, 0.5 for a draw, 0 if a lost (by the game's returns)."""
        mine = self.record.returns[self.seat_of_a]
        theirs = self.record.returns[1 - self.seat_of_a]
        return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


class TournamentEntry(NamedTuple):
    """What a tournament asked for, as stored in its `tournaments` row."""

    game: str
    agents: tuple[str, ...]
    games_per_pair: int
    base_seed: int
    time_per_move: float | None
    memory_mb: int | None = None
    started_at: str = ""
    updated_at: str = ""


_GIT_COMMIT: list[str | None] = []


def git_commit() -> str | None:
    """The commit of the git checkout BoardLab runs from, `+dirty` when its package files
    have changes, or None (an installed wheel, or no git). Asked once per process."""
    if not _GIT_COMMIT:
        _GIT_COMMIT.append(_ask_git())
    return _GIT_COMMIT[0]


def _ask_git() -> str | None:
    import subprocess

    package = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=package, capture_output=True,
                              text=True, timeout=10)
        if head.returncode != 0:
            return None
        changes = subprocess.run(["git", "status", "--porcelain", "--", "."], cwd=package,
                                 capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    dirty = "+dirty" if changes.returncode == 0 and changes.stdout.strip() else ""
    return head.stdout.strip() + dirty


def _boardlab_version() -> str:
    from .. import __version__

    return __version__


class ResultStore:
    """A BoardLab results database at `path`; created if missing, refused if foreign.

    Raises BoardLabError with a one-line message naming the file when the file is not a
    BoardLab database (random bytes, a truncated file, another program's SQLite file) or was
    written by a newer schema.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._check_file()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S,
                                         isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise BoardLabError(f"{self.path}: cannot open the results database: {error}") \
                from None
        try:
            self._conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            self._open_schema()
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: durable per commit
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
            self._conn.close()
            raise BoardLabError(f"{self.path} is not a readable BoardLab results database "
                                f"(SQLite says: {error})") from None
        except BoardLabError:
            self._conn.close()
            raise

    # --- opening -------------------------------------------------------------------------
    def _check_file(self) -> None:
        """Refuse what is plainly not an SQLite file before SQLite gets to misread it."""
        if self.path.is_dir():
            raise BoardLabError(f"{self.path} is a directory, not a results database file")
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with open(self.path, "rb") as handle:
            head = handle.read(100)
        if not head.startswith(_SQLITE_MAGIC):
            raise BoardLabError(f"{self.path} is not a BoardLab results database "
                                "(not an SQLite file)")
        if len(head) < 100:
            raise BoardLabError(f"{self.path} is not a BoardLab results database "
                                "(truncated SQLite header)")
        page_size = int.from_bytes(head[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        pages = int.from_bytes(head[28:32], "big")
        wal = Path(str(self.path) + "-wal")
        # With no WAL beside it every page lives in the file; a shorter file lost its tail.
        if (pages and not (wal.exists() and wal.stat().st_size > 0)
                and self.path.stat().st_size < pages * page_size):
            raise BoardLabError(f"{self.path} is a truncated results database "
                                f"({self.path.stat().st_size} bytes, its header says "
                                f"{pages * page_size})")

    def _open_schema(self) -> None:
        tables = {name for (name,) in self._conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            self._create_schema()
            return
        if "boardlab_schema" not in tables or "games" not in tables:
            shown = ", ".join(sorted(tables)[:5])
            raise BoardLabError(f"{self.path} is an SQLite database but not a BoardLab results "
                                f"database (its tables: {shown})")
        row = self._conn.execute("SELECT max(version) FROM boardlab_schema").fetchone()
        version = row[0] if row else None
        if version == 1:
            self._upgrade_from_1()
        elif version != SCHEMA_VERSION:
            raise BoardLabError(f"{self.path} has results schema version {version}; this "
                                f"BoardLab ({_boardlab_version()}) reads version "
                                f"{SCHEMA_VERSION}")
        # Touch every page of the table so a damaged file fails now, not mid-tournament.
        self._conn.execute("SELECT count(*), sum(length(actions)) FROM games").fetchone()

    def _upgrade_from_1(self) -> None:
        """Version 1 -> 2: add the tournaments table and the games' git_commit column; the
        games already stored keep their rows (their commit reads as unknown)."""
        with self._transaction():
            version = self._conn.execute("SELECT max(version) FROM boardlab_schema").fetchone()
            if version[0] != 1:  # another process upgraded it while we waited for the lock
                return
            self._conn.execute("ALTER TABLE games ADD COLUMN git_commit TEXT")
            for statement in _TOURNAMENTS_SCHEMA.split(";"):
                if statement.strip():
                    self._conn.execute(statement)
            self._conn.execute("INSERT INTO boardlab_schema VALUES (?, ?, ?)",
                               (SCHEMA_VERSION, _now(), _boardlab_version()))

    def _create_schema(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have created it while we waited for the lock.
            exists = self._conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                                        "AND name = 'boardlab_schema'").fetchone()
            if not exists:
                for statement in (_SCHEMA + _TOURNAMENTS_SCHEMA).split(";"):
                    if statement.strip():
                        self._conn.execute(statement)
                self._conn.execute("INSERT INTO boardlab_schema VALUES (?, ?, ?)",
                                   (SCHEMA_VERSION, _now(), _boardlab_version()))
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise

    # --- writing -------------------------------------------------------------------------
    def add(self, key: GameKey, record: GameRecord) -> bool:
        """Store one finished game in its own transaction; False if it was already there."""
        if list(record.agents) != [key.seat0, key.seat1]:
            raise ValueError(f"record seats {record.agents} do not match key seats "
                             f"{[key.seat0, key.seat1]}")
        values = (*key, record.seed, json.dumps(record.agents), json.dumps(record.actions),
                  json.dumps(record.movers), json.dumps(record.returns), record.reason,
                  record.forfeit, json.dumps(record.move_seconds), record.plies,
                  _boardlab_version(), _now(), git_commit())
        with self._damage_is_an_error("storing a game"), self._transaction():
            cursor = self._conn.execute(
                "INSERT OR IGNORE INTO games (game, seat0, seat1, pair_a, pair_b, game_index, "
                "base_seed, time_per_move, seed, seats, actions, movers, returns, reason, "
                "forfeit, move_seconds, plies, boardlab_version, finished_at, git_commit) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
        return cursor.rowcount == 1

    def _transaction(self) -> "_Transaction":
        return _Transaction(self._conn)

    # --- reading -------------------------------------------------------------------------
    def finished_keys(self, game: str, base_seed: int | None = None,
                      time_per_move: float | None | str = "any") -> set[GameKey]:
        """Keys of the stored games of `game` (optionally one base seed / time limit)."""
        return {row.key for row in self.games(game, base_seed=base_seed,
                                              time_per_move=time_per_move, with_moves=False)}

    def games(self, game: str | None = None, agents: Iterable[str] | None = None, *,
              base_seed: int | None = None, time_per_move: float | None | str = "any",
              with_moves: bool = True) -> Iterator[GameRow]:
        """Stored games, oldest first; `agents` keeps the games whose two seats are both in it.

        `time_per_move="any"` keeps every time limit, None only games without one.
        `with_moves=False` skips decoding the action lists (faster when only scores and
        thinking times matter).
        """
        where: list[str] = []
        params: list[Any] = []
        if game is not None:
            where.append("game = ?")
            params.append(game)
        if base_seed is not None:
            where.append("base_seed = ?")
            params.append(base_seed)
        if time_per_move is None:
            where.append("time_per_move IS NULL")
        elif time_per_move != "any":
            where.append("time_per_move = ?")
            params.append(float(time_per_move))
        allowed = None if agents is None else set(agents)
        sql = ("SELECT game, seat0, seat1, pair_a, pair_b, game_index, base_seed, "
               "time_per_move, seed, actions, movers, returns, reason, forfeit, move_seconds, "
               "plies, boardlab_version, finished_at, git_commit FROM games")
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id"
        try:
            rows = self._conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as error:
            raise BoardLabError(f"{self.path}: reading results failed: {error}") from None
        for row in rows:
            key = GameKey(*row[:8])
            if allowed is not None and not (key.seat0 in allowed and key.seat1 in allowed):
                continue
            try:
                record = self._record(key, row, with_moves)
            except (ValueError, TypeError) as error:  # JSON damaged on disk
                raise BoardLabError(f"{self.path}: stored game {key.game_index} of "
                                    f"{key.pair_a} vs {key.pair_b} is damaged ({error})") from None
            yield GameRow(key, record, row[16], row[17], row[18])

    @staticmethod
    def _record(key: GameKey, row: Any, with_moves: bool) -> GameRecord:
        return GameRecord(
            game=key.game, agents=[key.seat0, key.seat1], seed=row[8],
            actions=json.loads(row[9]) if with_moves else [],
            movers=json.loads(row[10]), returns=json.loads(row[11]), reason=row[12],
            forfeit=row[13], move_seconds=json.loads(row[14]), plies=row[15])

    # --- tournaments -----------------------------------------------------------------------
    def add_tournament(self, entry: "TournamentEntry") -> None:
        """Remember a tournament's parameters (once; a rerun only updates `updated_at` and
        the memory limit it was run with)."""
        values = (entry.game, json.dumps(list(entry.agents)), entry.games_per_pair,
                  entry.base_seed, entry.time_per_move, entry.memory_mb)
        now = _now()
        with self._damage_is_an_error("storing the tournament"), self._transaction():
            cursor = self._conn.execute(
                "UPDATE tournaments SET updated_at = ?, memory_mb = ? WHERE game = ? AND "
                "agents = ? AND games_per_pair = ? AND base_seed = ? AND "
                "IFNULL(time_per_move, -1.0) = IFNULL(?, -1.0)",
                (now, entry.memory_mb, *values[:5]))
            if cursor.rowcount == 0:
                self._conn.execute(
                    "INSERT INTO tournaments (game, agents, games_per_pair, base_seed, "
                    "time_per_move, memory_mb, started_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (*values, now, now))

    def tournaments(self) -> list["TournamentEntry"]:
        """The tournaments run on this store, oldest first."""
        with self._damage_is_an_error("reading the tournaments"):
            rows = self._conn.execute(
                "SELECT game, agents, games_per_pair, base_seed, time_per_move, memory_mb, "
                "started_at, updated_at FROM tournaments ORDER BY id").fetchall()
            return [TournamentEntry(row[0], tuple(json.loads(row[1])), *row[2:])
                    for row in rows]

    def count(self) -> int:
        with self._damage_is_an_error("counting games"):
            return self._conn.execute("SELECT count(*) FROM games").fetchone()[0]

    @contextmanager
    def _damage_is_an_error(self, doing: str) -> Iterator[None]:
        """A damaged file found mid-way (a bad page, undecodable text) is a BoardLabError
        naming the file, like one found when opening it."""
        try:
            yield
        except (sqlite3.DatabaseError, ValueError, TypeError) as error:
            raise BoardLabError(f"{self.path}: {doing} failed: the results database is "
                                f"damaged ({type(error).__name__}: {error})") from None

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ResultStore {self.path}>"


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT: take the write lock up front so a busy wait happens once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type | None, *rest: object) -> None:
        self._conn.execute("COMMIT" if kind is None else "ROLLBACK")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")

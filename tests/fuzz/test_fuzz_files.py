"""Files BoardLab reads back: the SQLite results store and the model files (Q tables as
.npz, DQN weights as .pt), fed truncated, bit-flipped, random, foreign and malicious bytes.

The property (issue #15): opening and reading such a file gives its data or a BoardLabError
that names the file; never another exception, and never code run from the file (a pickle
planted in it must not execute).
"""

from __future__ import annotations

import os
import pickle
import random
import sqlite3
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.arena.store import ResultStore
from boardlab.core.registry import make_agent, make_game
from fuzz_support import documented, fuzz_settings, good_store_bytes

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "src" / "boardlab" / "models"


# --- the results store ----------------------------------------------------------------------

def read_everything(path: Path) -> None:
    """What a resumed tournament and the web pages do with a store: open, read, write."""
    with ResultStore(path) as store:
        rows = list(store.games())
        store.count()
        store.finished_keys("reversi")
        store.tournaments()
        if rows:
            store.add(rows[0].key, rows[0].record)  # a rerun writes what it already has


def damaged(good: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(4)
    if kind == 0:  # truncated
        return good[:rng.randrange(len(good))]
    data = bytearray(good)
    if kind == 1:  # a few bytes flipped anywhere
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == 2:  # a run of random bytes past the header
        at = rng.randrange(100, len(data))
        for i in range(at, min(len(data), at + rng.randint(1, 64))):
            data[i] = rng.randrange(256)
    else:  # a zeroed page
        page = rng.randrange(len(data) // 4096) * 4096
        data[page:page + 4096] = bytes(4096)
    return bytes(data)


def open_bytes(door: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.sqlite"
        path.write_bytes(data)
        documented(door, read_everything, path)



def test_a_damaged_results_store_reads_or_raises_a_boardlab_error() -> None:
    good = good_store_bytes()

    @fuzz_settings(max_examples=200)
    @given(seed=st.integers(0, 2 ** 32 - 1))
    def attack(seed: int) -> None:
        open_bytes("results store: damaged", damaged(good, random.Random(seed)))

    attack()


def corrupt_first_row(path: Path, column: str, value: object) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(f"UPDATE games SET {column} = ? WHERE id = (SELECT min(id) FROM games)",
                     (value,))


def test_a_stored_game_whose_moves_are_not_json_raises_a_boardlab_error(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite"
    path.write_bytes(good_store_bytes())
    corrupt_first_row(path, "actions", "[1, 2,")
    assert documented("results store: damaged", read_everything, path) is None


@fuzz_settings(max_examples=60)
@given(data=st.one_of(st.binary(max_size=300),
                      st.binary(max_size=300).map(lambda b: b"SQLite format 3\x00" + b)))
def test_random_bytes_as_a_results_store_raise_a_boardlab_error(data: bytes) -> None:
    open_bytes("results store: random bytes", data)


FOREIGN_TABLES = st.lists(st.sampled_from([
    "CREATE TABLE games (id INTEGER PRIMARY KEY, score REAL)",
    "CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT, actions TEXT)",
    "CREATE TABLE boardlab_schema (version TEXT)",
    "CREATE TABLE boardlab_schema (version INTEGER, created_at TEXT, boardlab_version TEXT)",
    "CREATE TABLE tournaments (id INTEGER)",
    "CREATE TABLE users (name TEXT)",
    "CREATE VIEW games AS SELECT 1 AS id",
    "INSERT INTO boardlab_schema (version) VALUES ('x')",
    "INSERT INTO boardlab_schema (version) VALUES (2)",
    "INSERT INTO boardlab_schema (version) VALUES (1)",
    "INSERT INTO boardlab_schema (version) VALUES (NULL)",
    "INSERT INTO games (id) VALUES (1)",
]), min_size=1, max_size=5)


@fuzz_settings(max_examples=80)
@given(statements=FOREIGN_TABLES)
def test_a_foreign_sqlite_file_raises_a_boardlab_error(statements: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "other.sqlite"
        with sqlite3.connect(path) as conn:
            for statement in statements:
                try:
                    conn.execute(statement)
                except sqlite3.Error:  # the generated schema may not take the statement
                    pass
        documented("results store: foreign SQLite", read_everything, path)


# --- model files ----------------------------------------------------------------------------

class Planted:
    """Unpickling this creates a directory: the proof that a file ran code when loaded."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def planted_files(folder: Path, marker: Path) -> list[Path]:
    """Files that run code if anything unpickles them: a raw pickle, a torch file holding one,
    an npz with an object array."""
    import torch

    raw = folder / "raw.pt"
    raw.write_bytes(pickle.dumps({"format": "boardlab-dqn", "x": Planted(str(marker))}))
    in_torch = folder / "in_torch.pt"
    torch.save({"format": "boardlab-dqn", "x": Planted(str(marker))}, in_torch)
    in_npz = folder / "in_npz.npz"
    with open(in_npz, "wb") as handle:
        np.savez(handle, format=np.array("boardlab-qtable"),
                 keys=np.array([Planted(str(marker))], dtype=object))
    return [raw, in_torch, in_npz]


def load_model(path: Path, kind: str) -> None:
    """The door a user reaches: an agent spec naming the file."""
    game = make_game("jungle")
    spec = f"{kind}:weights={path}"
    make_agent(spec, game)


def test_a_planted_pickle_in_a_model_file_never_runs(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    marker = tmp_path / "the-pickle-ran"
    for path in planted_files(tmp_path, marker):
        for kind in ("dqn", "qlearning"):
            documented("model file: planted pickle", load_model, path, kind)
            assert not marker.exists(), f"loading {path.name} as {kind} ran code from the file"


def mutated_model(good: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(3)
    if kind == 0:
        return good[:rng.randrange(len(good))]
    if kind == 1:
        data = bytearray(good)
        for _ in range(rng.randint(1, 16)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    return bytes(rng.randrange(256) for _ in range(rng.randrange(400)))


@pytest.mark.parametrize("kind", ["dqn", "qlearning"])
def test_a_damaged_model_file_loads_or_raises_a_boardlab_error(kind: str) -> None:
    pytest.importorskip("torch")
    good = (MODELS / ("jungle-dqn.pt" if kind == "dqn" else "jungle-qlearning.npz")).read_bytes()

    @fuzz_settings(max_examples=50)
    @given(seed=st.integers(0, 2 ** 32 - 1))
    def attack(seed: int) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / ("w.pt" if kind == "dqn" else "q.npz")
            path.write_bytes(mutated_model(good, random.Random(seed)))
            documented("model file: damaged", load_model, path, kind)

    attack()


# Well-formed files with the wrong contents: what a file from another version, another game or
# a hand edit looks like. Each entry changes one thing in the real file's payload.
def dqn_payload_variants() -> dict[str, object]:
    import torch

    real = torch.load(MODELS / "jungle-dqn.pt", map_location="cpu", weights_only=True)
    state = real["state_dict"]
    first = next(iter(state))
    variants: dict[str, object] = {
        "not a dict": [1, 2, 3],
        "no format": {k: v for k, v in real.items() if k != "format"},
        "other game": {**real, "game": "reversi"},
        "inputs differ": {**real, "inputs": 7},
        "inputs not a number": {**real, "inputs": "many"},
        "no state_dict": {k: v for k, v in real.items() if k != "state_dict"},
        "state_dict not a dict": {**real, "state_dict": [1, 2]},
        "a tensor of the wrong shape": {**real, "state_dict": {**state,
                                                               first: torch.zeros(3, 3)}},
        "a tensor missing": {**real, "state_dict": {k: v for k, v in state.items()
                                                    if k != first}},
        "no architecture": {k: v for k, v in real.items() if k != "architecture"},
        "architecture not a dict": {**real, "architecture": "wide"},
        "hidden is text": {**real, "architecture": {**real["architecture"], "hidden": "x"}},
        "hidden is zero": {**real, "architecture": {**real["architecture"], "hidden": 0}},
        "hidden is negative": {**real, "architecture": {**real["architecture"], "hidden": -4}},
        "residual_blocks is text": {**real, "architecture": {**real["architecture"],
                                                             "residual_blocks": "two"}},
    }
    return variants


DQN_VARIANTS = ["not a dict", "no format", "other game", "inputs differ", "inputs not a number",
                "no state_dict", "a tensor of the wrong shape", "a tensor missing",
                "hidden is zero", "state_dict not a dict", "no architecture",
                "architecture not a dict", "hidden is text", "hidden is negative",
                "residual_blocks is text"]


@pytest.mark.parametrize("variant", DQN_VARIANTS)
def test_a_dqn_weights_file_with_wrong_contents_raises_a_boardlab_error(
        variant: str, tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    path = tmp_path / "w.pt"
    torch.save(dqn_payload_variants()[variant], path)
    assert documented("model file: wrong contents", load_model, path, "dqn") is None


def qtable_variants() -> dict[str, dict[str, np.ndarray]]:
    with np.load(MODELS / "jungle-qlearning.npz", allow_pickle=False) as data:
        real = {name: data[name] for name in data.files}
    n = len(real["keys"])
    return {
        "no keys": {k: v for k, v in real.items() if k != "keys"},
        "keys one-dimensional": {**real, "keys": real["keys"].reshape(-1)},
        "lengths longer than keys": {**real, "lengths": real["lengths"] + 1000},
        "lengths too few": {**real, "lengths": real["lengths"][:1]},
        "index out of range": {**real, "index": real["index"] + n},
        "negative index": {**real, "index": real["index"] - n - 5},
        "values as text": {**real, "values": np.array(["x"] * len(real["values"]))},
        "game as a number": {**real, "game": np.array(7)},
        "format as bytes": {**real, "format": np.frombuffer(b"boardlab", dtype=np.uint8)},
    }


QTABLE_VARIANTS = ["no keys", "lengths longer than keys", "game as a number",
                   "format as bytes", "keys one-dimensional", "lengths too few",
                   "index out of range", "negative index", "values as text"]


@pytest.mark.parametrize("variant", QTABLE_VARIANTS)
def test_a_q_table_with_wrong_contents_raises_a_boardlab_error(
        variant: str, tmp_path: Path) -> None:
    path = tmp_path / "q.npz"
    with open(path, "wb") as handle:
        np.savez(handle, **qtable_variants()[variant])
    assert documented("model file: wrong contents", load_model, path, "qlearning") is None

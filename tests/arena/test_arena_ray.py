"""`--backend ray` plays the same games as the local backend, on a 2-CPU local Ray cluster."""

from __future__ import annotations

import sys

import pytest

from boardlab.arena.store import ResultStore
from boardlab.arena.tournament import run_tournament
from boardlab.core.game import BoardLabError


def game_log(path):
    with ResultStore(path) as store:
        return sorted((row.key, row.record.actions, row.record.returns, row.record.reason)
                      for row in store.games())


@pytest.mark.e2e  # a Ray cluster
def test_ray_backend_gives_the_local_backends_table_game_for_game(tmp_path):
    ray = pytest.importorskip("ray")
    agents = ["random", "greedy"]
    local = run_tournament("jungle", agents, 6, tmp_path / "local.sqlite", seed=11,
                           progress=False)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_tournament("jungle", agents, 6, tmp_path / "ray.sqlite", seed=11,
                                workers=2, backend="ray", progress=False)
        assert ray.is_initialized()  # a cluster the caller started is left running
    finally:
        ray.shutdown()
    assert on_ray.played == 6
    assert on_ray.pairs == local.pairs and on_ray.ratings == local.ratings
    assert game_log(tmp_path / "ray.sqlite") == game_log(tmp_path / "local.sqlite")


def test_without_ray_the_ray_backend_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(BoardLabError) as caught:
        run_tournament("jungle", ["random", "greedy"], 2, tmp_path / "r.sqlite",
                       backend="ray", progress=False)
    message = str(caught.value)
    assert "pip install -e '.[distributed]'" in message and "\n" not in message
    assert not (tmp_path / "r.sqlite").exists()


def test_an_unknown_backend_is_refused_before_any_game(tmp_path):
    from boardlab.core.game import ParseError

    with pytest.raises(ParseError, match="backend 'dask'"):
        run_tournament("jungle", ["random", "greedy"], 2, tmp_path / "r.sqlite",
                       backend="dask", progress=False)
    assert not (tmp_path / "r.sqlite").exists()

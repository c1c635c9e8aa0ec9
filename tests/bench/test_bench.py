"""`boardlab bench`: the command runs, every figure it prints is a positive rate, ratios are
ours over the peer's, and whatever cannot run here becomes a note instead of a failure.

A smoke run (`--quick --repeat 1`): no assertion is about speed, only about the figures'
shape, so a busy CI machine cannot make these fail.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys

import pytest

from boardlab.bench import Job, Skip, plan, run_bench
from boardlab.bench.cli import add_bench_parser, command_line
from boardlab.bench.timing import Figure, attach_ratios, run_job
from boardlab.core.game import ParseError

HAS_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None
HAS_PYFFISH = importlib.util.find_spec("pyffish") is not None


def bench_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardlab")
    add_bench_parser(parser.add_subparsers(dest="command"))
    return parser


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    """One quick run with peers on two games, shared by the tests below (~10 s)."""
    path = tmp_path_factory.mktemp("bench") / "bench.json"
    args = bench_parser().parse_args(["bench", "reversi", "minichess", "--quick", "--peers",
                                      "--repeat", "1", "--json", str(path)])
    assert args.run(args) == 0
    return json.loads(path.read_text())


def figures_of(record: dict, game: str, task: str) -> list[dict]:
    return [f for f in record["figures"] if f["game"] == game and f["task"] == task]


def test_bench_command_parses_its_options():
    args = bench_parser().parse_args(["bench", "xiangqi", "--peers", "--quick", "--repeat",
                                      "3", "--json", "out.json"])
    assert (args.games, args.peers, args.quick, args.repeat, args.json_path) == \
        (["xiangqi"], True, True, 3, "out.json")
    assert command_line(args) == "boardlab bench xiangqi --peers --quick --repeat 3 " \
                                 "--json out.json"


@pytest.mark.e2e  # a whole `bench --quick` run
def test_quick_run_measures_every_task_with_positive_figures(quick_run):
    measured = [f for f in quick_run["figures"] if f["per_second"] is not None]
    assert {(f["game"], f["task"]) for f in measured if not f["peer"]} >= {
        ("reversi", "playout"), ("reversi", "perft"), ("reversi", "alphabeta"),
        ("reversi", "network-b1"), ("reversi", "network-b256"),
        ("minichess", "playout"), ("minichess", "perft"), ("minichess", "movegen"),
        ("minichess", "alphabeta")}
    for f in measured:
        assert 0 < f["min"] <= f["per_second"] <= f["max"], f
        assert len(f["samples"]) == 1


@pytest.mark.e2e  # a whole `bench --quick` run
def test_kernels_are_measured_beside_the_python_state(quick_run):
    engines = {f["engine"] for f in figures_of(quick_run, "reversi", "playout")
               if f["per_second"]}
    assert {"python State", "numba kernel", "numba kernel, batch"} <= engines
    assert {f["engine"] for f in figures_of(quick_run, "minichess", "perft")
            if f["per_second"]} >= {"python State", "numba kernel"}


@pytest.mark.e2e  # a whole `bench --quick` run
def test_the_engine_search_is_timed_with_the_other_evaluation_a_game_names(quick_run):
    # Reversi's engine search plays its pattern tables; the bench times `mobility` too.
    engines = {f["engine"]: f for f in figures_of(quick_run, "reversi", "alphabeta")}
    other = engines["numba kernel, quiescence, eval=mobility"]
    assert other["per_second"] > 0 and "eval=mobility" in other["work"]
    assert engines["numba kernel, quiescence"]["per_second"] > 0


@pytest.mark.e2e  # a whole `bench --quick` run
def test_every_figure_not_measured_says_why(quick_run):
    for f in quick_run["figures"]:
        if f["per_second"] is None:
            assert f["note"], f


@pytest.mark.skipif(not HAS_OPENSPIEL, reason="OpenSpiel not installed")
@pytest.mark.e2e  # a whole `bench --quick` run
def test_reversi_figures_carry_ratios_to_openspiel(quick_run):
    ours = [f for f in figures_of(quick_run, "reversi", "playout") if not f["peer"]]
    peer = [f for f in figures_of(quick_run, "reversi", "playout")
            if f["engine"] == "OpenSpiel"][0]
    for f in ours:
        assert f["ratios"]["OpenSpiel"] == pytest.approx(f["per_second"] / peer["per_second"])
        assert f["ratios"]["OpenSpiel"] > 0
    assert figures_of(quick_run, "reversi", "mcts")[-1]["engine"] == "OpenSpiel MCTSBot"


@pytest.mark.skipif(not HAS_PYFFISH, reason="pyffish not installed")
@pytest.mark.e2e  # a whole `bench --quick` run
def test_minichess_figures_carry_ratios_to_fairy_stockfish(quick_run):
    for task in ("playout", "perft", "movegen"):
        for f in figures_of(quick_run, "minichess", task):
            if not f["peer"]:
                assert f["ratios"]["pyffish"] > 0, f


@pytest.mark.e2e  # a whole `bench --quick` run
def test_playouts_report_their_game_length(quick_run):
    python_state = [f for f in figures_of(quick_run, "reversi", "playout")
                    if f["engine"] == "python State"][0]
    assert 9 <= python_state["plies_per_game"] <= 120  # the shortest and longest Othello


@pytest.mark.e2e  # a whole `bench --quick` run
def test_json_names_the_machine_and_the_command(quick_run):
    assert quick_run["command"].startswith("boardlab bench reversi minichess --peers --quick")
    assert quick_run["machine"]["cpus"] >= 1
    assert quick_run["date"]


def test_missing_peer_is_a_note_not_a_failure(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyffish", None)  # `import pyffish` now fails
    jobs = [j for j in plan(["minichess"], peers=True, quick=True) if j.engine == "pyffish"]
    assert jobs
    for job in jobs:
        figure = run_job(job, repeat=1, min_seconds=0.0)
        assert not figure.measured and "pyffish not installed" in figure.note


def test_an_agent_not_written_yet_is_a_note():
    def setup():
        raise Skip("no mcts agent here yet")
    figure = run_job(Job("reversi", "mcts", "python tree", "simulations", "-", setup), 1, 0.0)
    assert figure.note == "no mcts agent here yet" and figure.rates == []


def test_ratio_is_our_median_over_the_peer_median():
    ours = Figure("reversi", "perft", "numba kernel", "leaves", "-", False, [10.0, 30.0, 20.0])
    peer = Figure("reversi", "perft", "OpenSpiel", "leaves", "-", True, [4.0, 5.0, 6.0])
    other_task = Figure("reversi", "playout", "OpenSpiel", "games", "-", True, [1.0])
    attach_ratios([ours, peer, other_task])
    assert ours.median == 20.0 and (ours.low, ours.high) == (10.0, 30.0)
    assert ours.ratios == {"OpenSpiel": 4.0}


def test_unknown_game_is_a_sentence():
    with pytest.raises(ParseError, match="unknown game 'checkers'"):
        run_bench(["checkers"], quick=True, repeat=1)


def test_repeat_below_one_is_refused():
    with pytest.raises(ParseError, match="--repeat must be at least 1"):
        run_bench(["reversi"], quick=True, repeat=0)


def test_tasks_pick_the_training_jobs_and_refuse_unknown_ones():
    from boardlab.bench import run_bench
    from boardlab.core.game import ParseError

    figures = run_bench(["reversi"], quick=True, repeat=1, tasks=["train-qlearning"])
    assert {f.task for f in figures} == {"train-qlearning"} and figures[0].measured
    with pytest.raises(ParseError, match="no job is called"):
        run_bench(["reversi"], quick=True, repeat=1, tasks=["trian-dqn"])


@pytest.mark.e2e  # a whole `bench --quick` run
def test_whole_game_self_play_is_measured_only_on_request(quick_run):
    """`selfplay-alphazero-games` plays whole games (minutes a batch on a long game): left
    out of a run that names no tasks, measured with a ratio to the Node search when named."""
    assert not figures_of(quick_run, "reversi", "selfplay-alphazero-games")
    assert figures_of(quick_run, "reversi", "selfplay-alphazero")
    figures = run_bench(["reversi"], quick=True, repeat=1, tasks=["selfplay-alphazero-games"])
    ours = [f for f in figures if not f.peer]
    assert len(ours) == 2 and len(figures) == 3
    for figure in ours:
        assert figure.measured and "whole games" in figure.work
        assert set(figure.ratios) == {"node search x16 games (before)"}


def test_the_agents_search_is_measured_against_one_leaf_a_call():
    from boardlab.agents.alphazero import CLOCK_LEAVES
    from boardlab.bench import run_bench

    figures = run_bench(["reversi"], quick=True, repeat=1, tasks=["play-alphazero"])
    (ours,) = [f for f in figures if not f.peer]
    (peer,) = [f for f in figures if f.peer]
    assert ours.measured and peer.measured and ours.unit == "simulations"
    assert f"{CLOCK_LEAVES} leaves" in ours.engine and "1 leaf" in peer.engine
    assert set(ours.ratios) == {peer.engine}

"""The paper cuts a new user met (issue 32), each kept fixed: `boardlab agents` prints whole
first sentences, no printed value is a negative zero, a finished training run's rerun draws no
empty bar, `bench` times the compiled alpha-beta's search and not its new game and says what
a --quick table is, and arena tables keep two long agent specs apart."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from boardlab.arena.ratings import Rating
from boardlab.arena.report import print_table, short_labels, to_markdown
from boardlab.arena.tournament import PairResult, TournamentResult
from boardlab.cli import main, thinking_text
from boardlab.core.numbers import number_text
from boardlab.core.registry import agent_class, agent_names, agent_summary, first_sentence

ROOT = Path(__file__).resolve().parents[1]


# --- 1. `boardlab agents`: whole first sentences ---------------------------------------------

def printed_summaries(text: str) -> dict[str, str]:
    """Each agent's summary as `boardlab agents` printed it, its wrapped lines joined: the
    line `name: ...` and the lines after it indented by two spaces (parameters: four)."""
    summaries: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        name, colon, rest = line.partition(": ")
        if colon and name in agent_names() and not line.startswith(" "):
            current = name
            summaries[name] = rest
        elif current and line.startswith("  ") and not line.startswith("    "):
            summaries[current] += " " + line.strip()
        else:
            current = None
    return summaries


def test_agents_prints_each_docstrings_whole_first_sentence(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines() if not line.startswith("Seeds")) <= 100
    printed = printed_summaries(out)
    assert set(printed) == set(agent_names())
    for name in agent_names():
        cls = agent_class(name)
        own = cls.__dict__.get("__doc__") or sys.modules[cls.__module__].__doc__ or ""
        flat = " ".join(own.split())
        summary = printed[name]
        assert summary == agent_summary(cls), name
        assert re.search(r"[.?!][)\"'`]?$", summary), f"{name}: {summary!r} ends mid-sentence"
        # it is where the docstring's first sentence ends: the docstring goes on after it
        # with a new sentence or paragraph, or not at all
        assert flat.startswith(summary), name
        after = flat[len(summary):]
        assert after == "" or after.startswith(" "), name
    assert printed["random"] == ("Uniformly random legal moves, seeded per game by the match "
                                 "runner: the baseline of every table.")


@pytest.mark.parametrize("text, sentence", [
    ("Deep Q-Network (Mnih et al. 2015; seed 000), with options.\nMore.",
     "Deep Q-Network (Mnih et al. 2015; seed 000), with options."),
    ("Deepening: at depths 4, 6, 8, ... until time runs out.\n\nMore.",
     "Deepening: at depths 4, 6, 8, ... until time runs out."),
    ('UCT (Kocsis 2006, "Bandit based. Planning").\nEach simulation.',
     'UCT (Kocsis 2006, "Bandit based. Planning").'),
    ("A one-line\nsentence over two lines. Then another.", "A one-line sentence over two lines."),
    ("No full stop in the first paragraph\n\nSecond.", "No full stop in the first paragraph"),
    ("Use `x. y` as a key, e.g. this one. Next.", "Use `x. y` as a key, e.g. this one."),
])
def test_first_sentence_is_not_cut_by_abbreviations_or_ellipses(text, sentence):
    assert first_sentence(text) == sentence


# --- 2. no negative zero ---------------------------------------------------------------------

def negative_zeros(text: str) -> list[str]:
    """The numbers in `text` written with a minus sign that are zero (`-0`, `-0.00`)."""
    return [number for number in re.findall(r"(?<![\w.])-\d[\d.]*", text)
            if float(number.rstrip(".")) == 0]


@pytest.mark.parametrize("value, spec, text", [
    (-0.0, ".3g", "0"), (-0.0004, ".3f", "0.000"), (-0.3, "+.0f", "+0"), (0.3, "+.0f", "+0"),
    (-0.001, ".0%", "0%"), (-0.0, ">6.2f", "  0.00"), (-2.5, ".3g", "-2.5"),
    (-1e-5, ".3g", "-1e-05"), (float("-inf"), ".3g", "-inf"), (-0.6, "+.0f", "-1"),
])
def test_number_text_drops_the_sign_of_a_zero_only(value, spec, text):
    assert number_text(value, spec) == text


def test_play_prints_no_negative_zero(capsys):
    # An even position: the one-ply minimax values its moves 0, from the negamax -0.0.
    assert main(["play", "minichess", "minimax:depth=1", "minimax:depth=1", "--seed", "0"]) == 0
    thoughts = [line for line in capsys.readouterr().out.splitlines() if "thinks:" in line]
    assert thoughts and any(" value 0" in line for line in thoughts)
    assert negative_zeros("\n".join(thoughts)) == []
    assert negative_zeros("a -0 b -0.00 c -0.01 d e2-0 -1") == ["-0", "-0.00"]
    shown = thinking_text({"value": -0.0, "heat": {"root score": {"d6c4": -0.0, "a5a4": -2.0}}})
    assert shown == "  thinks: value 0; root score: d6c4 0, a5a4 -2"


def test_reports_and_board_labels_print_no_negative_zero():
    from boardlab.render.thinking import _weights

    agents = ["random", "greedy"]
    result = TournamentResult("reversi", agents, 2, 0, None,
                              [PairResult("random", "greedy", 2, 1, 0, 1, 0.5, {"a": 0, "b": 0})],
                              [Rating("random", -0.3, (-0.4, 120.0)),
                               Rating("greedy", 0.2, (-100.0, 0.4))])
    console = Console(record=True, width=160)
    print_table(result, console)
    for text in (console.export_text(), to_markdown(result)):
        assert "[+0, +120]" in text and "[-100, +0]" in text and negative_zeros(text) == []
    labels = [label for _, label in _weights({0: -0.0, 1: -0.0004}, share=False).values()]
    assert len(labels) == 2 and negative_zeros(" ".join(labels)) == [], labels
    assert [label for _, label in _weights({0: -0.0}, share=True).values()] == ["0%"]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_web_pages_print_elo_without_negative_zero():
    common = (ROOT / "src" / "boardlab" / "web" / "static" / "common.js").read_text()
    fixed = re.search(r"^function fixed\(.*?^}", common, re.S | re.M)
    assert fixed, "common.js defines fixed(value, digits)"
    script = fixed.group(0) + "\nconsole.log(JSON.stringify([-0.3, -0, 0.4, -1.2, -0.0004]" \
                              ".map((v) => fixed(v, 0)).concat([fixed(-0.0004, 3)])));"
    shown = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == '["0","0","0","-1","0","0.000"]'
    tournament = (ROOT / "src" / "boardlab" / "web" / "static" / "tournament.js").read_text()
    assert ".toFixed(0)" not in tournament


# --- 3. a finished training run's rerun: "nothing to do", no bar --------------------------------

def test_a_finished_training_rerun_says_nothing_to_do_without_a_bar(tmp_path, capsys):
    pytest.importorskip("torch")
    common = ["train", "jungle:no_capture_limit=10", "qlearning", "--out",
              str(tmp_path / "q.npz"), "--opponent", "random", "--eval-every", "2",
              "--eval-games", "1"]
    assert main([*common, "--episodes", "2"]) == 0
    first = capsys.readouterr().out
    bar = re.compile(r" \d+/2 ")  # the bar's "episodes done/total"
    assert bar.search(first)  # drawn where there was training to do
    assert main([*common, "--episodes", "2"]) == 0
    rerun = capsys.readouterr().out
    assert "nothing to do" in rerun and "raise --episodes" in rerun and "q.npz.ckpt" in rerun
    assert not bar.search(rerun) and "━" not in rerun and "resumed from" not in rerun


# --- 4. bench: the compiled alpha-beta timed without its new game; a --quick table says so ----

def test_a_staged_batch_times_its_run_and_not_its_preparation():
    from boardlab.bench.timing import Staged, sample

    prepared = []

    def prepare() -> None:
        prepared.append(1)
        time.sleep(0.05)

    def run() -> int:
        time.sleep(0.002)
        return 1

    rate = sample(Staged(prepare, run), 0.005)
    # every run was prepared; timed with its preparation, a run would take over 50 ms (< 20/s)
    assert len(prepared) >= 2 and rate > 60


def test_alphabeta_jobs_start_their_new_game_untimed(monkeypatch):
    from boardlab.agents.minimax import MinimaxAgent
    from boardlab.bench import ours
    from boardlab.bench.timing import Staged
    from boardlab.core.registry import make_game

    started = []
    original = MinimaxAgent.start_game

    def start_game(self, player: int, seed: int) -> None:
        started.append(1)
        original(self, player, seed)

    monkeypatch.setattr(MinimaxAgent, "start_game", start_game)
    game = make_game("reversi")
    jobs = [job for job in ours.jobs_for("reversi", game, quick=True) if job.task == "alphabeta"]
    assert {job.engine for job in jobs} >= {"python State", "numba kernel"}
    for job in jobs:
        batch = job.setup()
        assert isinstance(batch, Staged) and job.detail.startswith("depth ")
        started.clear()
        assert batch.run() > 0 and not started  # the timed move starts no game
        batch.prepare()
        assert started == [1]


def test_a_quick_bench_table_says_it_is_a_smoke_run_and_shows_the_depths(capsys):
    assert main(["bench", "reversi", "--quick", "--tasks", "alphabeta", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "smoke run" in out and "not a measurement" in out
    assert "python State (depth 2)" in out and "numba kernel (depth 5)" in out


# --- 5. arena tables keep long agent specs apart ------------------------------------------------

def tournament_of(agents: list[str]) -> TournamentResult:
    pairs = [PairResult(a, b, 10, 5, 2, 3, 0.6, {"a": 0, "b": 0})
             for a, b in itertools.combinations(agents, 2)]
    ratings = [Rating(agent, 10.0 * i, (-100.0, 100.0)) for i, agent in enumerate(agents)]
    return TournamentResult("reversi", agents, 10, 0, None, pairs, ratings)


LONG_A = "bots/experiments/round2/mybot_alpha.py:MyBot:depth=4"
LONG_B = "bots/experiments/round2/mybot_alpha.py:MyBot:depth=6"


@pytest.mark.parametrize("width", [60, 80, 100, 160])
def test_two_long_specs_differing_at_the_end_stay_apart_in_the_printed_table(width):
    result = tournament_of([LONG_A, LONG_B, "random"])
    console = Console(record=True, width=width)
    print_table(result, console)
    text = console.export_text()
    cross = text[:text.index("cell: row vs column")]
    labels = short_labels(result.agents)
    assert labels[LONG_A] != labels[LONG_B]
    assert labels[LONG_A].endswith("depth=4") and labels[LONG_B].endswith("depth=6")
    # Nothing is cut with "…" by the console: the only ones are the labels' own, in the
    # header, the rows and the legend; a narrow console folds a label onto two lines.
    assert text.count("…") == 3 * 2
    if width >= 100:  # room for every label on one line: each shows whole, header and row
        for agent in (LONG_A, LONG_B):
            assert cross.count(labels[agent]) == 2, (agent, cross)
    # a legend under the table gives each shortened spec in full
    legend = " ".join(text[text.index("cell: row vs column"):text.index("Elo (")].split())
    assert f"{labels[LONG_A]} = {LONG_A}" in legend and f"{labels[LONG_B]} = {LONG_B}" in legend
    assert f"{labels['random']} =" not in legend


def test_the_ratings_table_shows_whole_specs():
    console = Console(record=True, width=200)
    print_table(tournament_of([LONG_A, LONG_B, "random"]), console)
    ratings = console.export_text().split("Elo (", 1)[1]
    assert LONG_A in ratings and LONG_B in ratings


@pytest.mark.parametrize("agents", [
    [LONG_A, LONG_B],
    ["teamA/experiments/longname/mybot.py:MyBot", "teamB/experiments/longname/mybot.py:MyBot"],
    ["bots/x/" + "a" * 30 + "1/bot.py:B", "bots/x/" + "a" * 30 + "2/bot.py:B",
     "bots/x/" + "a" * 30 + "3/bot.py:B", "random", "greedy"],
    ["x" * 40 + ":p=1", "y" + "x" * 39 + ":p=1", "x" * 40 + ":p=2", "minimax:depth=3"],
])
def test_short_labels_are_distinct_and_short(agents):
    labels = short_labels(agents)
    assert len(set(labels.values())) == len(agents)
    for agent, label in labels.items():
        assert label == agent if len(agent) <= 20 else len(label) <= 24

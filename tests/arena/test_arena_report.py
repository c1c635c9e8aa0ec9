"""Reports: the `--json` document (docs/design.md#the-arena-json-document), the seed-style
table, the report folder."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from boardlab.arena.ratings import Rating
from boardlab.arena.report import cross_table, print_table, to_json, to_markdown, write_report
from boardlab.arena.tournament import PairResult, TournamentResult, run_tournament


@pytest.fixture
def result() -> TournamentResult:
    """A hand-made result: minimax beat random 9-1 with nothing drawn, etc."""
    pairs = [PairResult("minimax:depth=3", "random", 10, 9, 0, 1, 0.9, {"a": 0, "b": 1}),
             PairResult("minimax:depth=3", "greedy", 10, 5, 2, 3, 0.6, {"a": 0, "b": 0}),
             PairResult("random", "greedy", 10, 2, 4, 4, 0.4, {"a": 0, "b": 0})]
    ratings = [Rating("minimax:depth=3", 281.5, (150.0, 410.25)),
               Rating("greedy", 95.0, (10.0, 180.0)), Rating("random", 0.0, (0.0, 0.0))]
    return TournamentResult("jungle", ["minimax:depth=3", "random", "greedy"], 10, 0, None,
                            pairs, ratings)


def test_json_has_exactly_the_documented_shape(result):
    document = to_json(result)
    assert list(document) == ["game", "games_per_pair", "pairs", "ratings"]
    assert document["game"] == "jungle" and document["games_per_pair"] == 10
    assert document["pairs"][0] == {"a": "minimax:depth=3", "b": "random", "games": 10,
                                    "a_wins": 9, "draws": 0, "b_wins": 1, "a_score": 0.9,
                                    "forfeits": {"a": 0, "b": 1}}
    assert document["ratings"][0] == {"agent": "minimax:depth=3", "elo": 281.5,
                                      "ci95": [150.0, 410.2]}
    assert json.loads(json.dumps(document)) == document


def test_json_of_a_real_tournament_is_consistent(tmp_path):
    real = run_tournament("jungle", ["random", "greedy"], 4, tmp_path / "r.sqlite",
                          progress=False)
    document = to_json(real)
    (pair,) = document["pairs"]
    assert pair["a_wins"] + pair["draws"] + pair["b_wins"] == pair["games"] == 4
    assert pair["a_score"] == pytest.approx((pair["a_wins"] + pair["draws"] / 2) / 4, abs=1e-4)
    assert {r["agent"] for r in document["ratings"]} == {"random", "greedy"}
    assert [r["elo"] for r in document["ratings"] if r["agent"] == "random"] == [0.0]


def test_the_cross_table_reads_each_pair_from_both_sides(result):
    cells = cross_table(result)
    assert cells[("random", "minimax:depth=3")].wdl_text() == "1-0-9"
    assert cells[("greedy", "random")].rate_text() == "40% / 0.60"
    assert cells[("minimax:depth=3", "greedy")].rate_text() == "50% / 0.60"


def test_the_table_shows_win_rate_score_and_wdl_then_ratings(result):
    console = Console(record=True, width=160)
    print_table(result, console)
    text = console.export_text()
    assert "90% / 0.90" in text and "9-0-1" in text
    assert "20% / 0.40" in text and "2-4-4" in text
    assert text.index("9-0-1") < text.index("Elo")
    assert "+282" in text and "[+150, +410]" in text
    assert "random lost 1 against minimax:depth=3" in text


def test_the_markdown_report_has_the_three_tables(result):
    markdown = to_markdown(result)
    assert "| `minimax:depth=3` | - | 90% / 0.90 | 50% / 0.60 | 70% / 0.75 |" in markdown
    assert "| `random` | 1-0-9 | - | 2-4-4 | 3-4-13 |" in markdown
    assert "| 1 | `minimax:depth=3` | +282 | [+150, +410] | 20 | 75.0% |" in markdown


def test_write_report_writes_json_markdown_and_a_png(result, tmp_path):
    paths = write_report(result, tmp_path / "report")
    assert [p.name for p in paths] == ["results.json", "results.md", "heatmap.png"]
    assert json.loads(paths[0].read_text()) == to_json(result)
    assert paths[1].read_text().startswith("# Arena: jungle")
    assert paths[2].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_thinking_times_show_what_each_agent_spent_a_move(tmp_path):
    """Equal time shows in the report: the mean and longest seconds a decision, per agent,
    in the JSON, on screen and in Markdown."""
    real = run_tournament("reversi", ["random", "mcts:sims=0,time=0.05"], 2,
                          tmp_path / "t.sqlite", progress=False)
    thinking = real.thinking
    assert thinking["random"].decisions > 20 and thinking["random"].mean < 0.01
    # About 0.05 s a move; the upper bound is ten times that, so a loaded machine passes.
    assert 0.04 < thinking["mcts:sims=0,time=0.05"].mean < 0.5
    assert thinking["mcts:sims=0,time=0.05"].longest >= thinking["mcts:sims=0,time=0.05"].mean
    ratings = {r["agent"]: r for r in to_json(real)["ratings"]}
    assert ratings["mcts:sims=0,time=0.05"]["seconds_per_move"] == pytest.approx(
        thinking["mcts:sims=0,time=0.05"].mean, abs=1e-4)
    console = Console(record=True, width=200)
    print_table(real, console)
    assert "s/move (max)" in console.export_text() and "s/move (max)" in to_markdown(real)

"""Tournament results for people and programs: the `--json` dict, rich tables on screen, and a
report folder (results.json, results.md, heatmap.png).

The cross table follows the seeds' layout: one row per agent, one column per opponent, each
cell the row agent's win rate and score against the column (`62% / 0.68`, a draw counting half
in the score) over its wins-draws-losses (`6-1-3`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .tournament import TournamentResult


@dataclass(frozen=True)
class Cell:
    """The row agent's results against the column agent."""

    games: int
    wins: int
    draws: int
    losses: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan

    def rate_text(self) -> str:
        if not self.games:
            return "-"
        return f"{100 * self.win_rate:.0f}% / {self.score:.2f}"

    def wdl_text(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses}"


def cross_table(result: TournamentResult) -> dict[tuple[str, str], Cell]:
    """(row, column) -> Cell for every two different agents."""
    cells = {}
    for row in result.agents:
        for column in result.agents:
            if row != column:
                cells[(row, column)] = Cell(*result.pair(row, column))
    return cells


def totals(result: TournamentResult) -> dict[str, Cell]:
    """Each agent's results over all its games."""
    cells = cross_table(result)
    summed = {}
    for agent in result.agents:
        mine = [cells[(agent, other)] for other in result.agents if other != agent]
        summed[agent] = Cell(*(sum(getattr(c, f) for c in mine)
                               for f in ("games", "wins", "draws", "losses")))
    return summed


def to_json(result: TournamentResult) -> dict[str, Any]:
    """The `boardlab arena --json` document (DESIGN.md): game, games_per_pair, pairs, ratings
    (each with its agent's mean and longest thinking time a decision, where it made any)."""
    return {
        "game": result.game,
        "games_per_pair": result.games_per_pair,
        "pairs": [{"a": p.a, "b": p.b, "games": p.games, "a_wins": p.a_wins, "draws": p.draws,
                   "b_wins": p.b_wins, "a_score": round(p.a_score, 4),
                   "forfeits": {"a": p.forfeits["a"], "b": p.forfeits["b"]}}
                  for p in result.pairs],
        "ratings": [{"agent": r.agent, "elo": round(r.elo, 1),
                     "ci95": [round(r.ci95[0], 1), round(r.ci95[1], 1)],
                     **_thinking_json(result, r.agent)}
                    for r in result.ratings],
    }


def _thinking_json(result: TournamentResult, agent: str) -> dict[str, Any]:
    thinking = result.thinking.get(agent)
    if thinking is None or not thinking.decisions:
        return {}
    return {"seconds_per_move": round(thinking.mean, 4),
            "longest_move": round(thinking.longest, 4)}


def _thinking_text(result: TournamentResult, agent: str) -> str:
    """Mean seconds a decision, then the longest, e.g. `0.101 (0.126)`."""
    thinking = result.thinking.get(agent)
    if thinking is None or not thinking.decisions:
        return "-"
    return f"{thinking.mean:.3f} ({thinking.longest:.3f})"


def _title(result: TournamentResult) -> str:
    limit = "" if result.time_per_move is None else f", {result.time_per_move:g} s a move"
    return (f"{result.game}: {result.games_per_pair} games a pair, seats alternating, "
            f"seed {result.seed}{limit}")


def print_table(result: TournamentResult, console: Any) -> None:
    """The cross table, then the ratings, on a rich Console."""
    from rich.table import Table

    cells = cross_table(result)
    overall = totals(result)
    table = Table(title=_title(result), show_lines=True)
    table.add_column("agent \\ vs", style="bold")
    for agent in result.agents:
        table.add_column(agent, justify="center")
    table.add_column("all", justify="center", style="bold")
    for row in result.agents:
        texts = ["[dim]-[/dim]" if row == column else
                 f"{cells[(row, column)].rate_text()}\n{cells[(row, column)].wdl_text()}"
                 for column in result.agents]
        total = overall[row]
        table.add_row(row, *texts, f"{total.rate_text()}\n{total.wdl_text()}")
    console.print(table)
    console.print("[dim]cell: row vs column, win rate / score (draw = 1/2), then W-D-L[/dim]")

    ratings = Table(title="Elo (Bradley-Terry fit, 95% profile-likelihood interval)")
    for name, justify in (("#", "right"), ("agent", "left"), ("Elo", "right"),
                          ("95% CI", "center"), ("games", "right"), ("score", "right"),
                          ("s/move (max)", "right")):
        ratings.add_column(name, justify=justify)  # type: ignore[arg-type]
    for rank, rating in enumerate(result.ratings, 1):
        total = overall[rating.agent]
        ratings.add_row(str(rank), rating.agent, f"{rating.elo:+.0f}",
                        f"[{rating.ci95[0]:+.0f}, {rating.ci95[1]:+.0f}]", str(total.games),
                        "-" if not total.games else f"{100 * total.score:.1f}%",
                        _thinking_text(result, rating.agent))
    console.print(ratings)
    console.print("[dim]s/move: mean thinking time of a decision in these games, in seconds "
                  "(the longest in brackets)[/dim]")
    forfeits = _forfeit_lines(result)
    if forfeits:
        console.print("Forfeits (crash, illegal move or time): " + "; ".join(forfeits))


def _forfeit_lines(result: TournamentResult) -> list[str]:
    lines = []
    for p in result.pairs:
        for side, agent, opponent in (("a", p.a, p.b), ("b", p.b, p.a)):
            if p.forfeits[side]:
                lines.append(f"{agent} lost {p.forfeits[side]} against {opponent}")
    return lines


def to_markdown(result: TournamentResult) -> str:
    """The report as Markdown: cross table, W-D-L matrix, ratings, forfeits."""
    cells = cross_table(result)
    overall = totals(result)
    agents = result.agents

    def row(items: list[str]) -> str:
        return "| " + " | ".join(item.replace("|", "\\|") for item in items) + " |"

    header = row(["agent \\ vs", *agents, "all"])
    rule = "|" + "---|" * (len(agents) + 2)
    lines = [f"# Arena: {result.game}", "", _title(result) + ".", "",
             "## Win rate / score", "",
             "Row agent against column agent; the score counts a draw as half a win.", "",
             header, rule]
    for a in agents:
        lines.append(row([f"`{a}`", *("-" if a == b else cells[(a, b)].rate_text()
                                     for b in agents), overall[a].rate_text()]))
    lines += ["", "## Wins-draws-losses", "", header, rule]
    for a in agents:
        lines.append(row([f"`{a}`", *("-" if a == b else cells[(a, b)].wdl_text()
                                     for b in agents), overall[a].wdl_text()]))
    lines += ["", "## Ratings", "",
              "Elo from a maximum-likelihood Bradley-Terry fit (draws as half a win each way, "
              "one virtual draw a pair as prior), `random` = 0 when present, else mean 0; 95% "
              "profile-likelihood intervals (docs/arena.md says what they mean).", "",
              row(["#", "agent", "Elo", "95% CI", "games", "score", "s/move (max)"]),
              "|---|---|---|---|---|---|---|"]
    for rank, rating in enumerate(result.ratings, 1):
        total = overall[rating.agent]
        lines.append(row([str(rank), f"`{rating.agent}`", f"{rating.elo:+.0f}",
                          f"[{rating.ci95[0]:+.0f}, {rating.ci95[1]:+.0f}]", str(total.games),
                          "-" if not total.games else f"{100 * total.score:.1f}%",
                          _thinking_text(result, rating.agent)]))
    forfeits = _forfeit_lines(result)
    if forfeits:
        lines += ["", "## Forfeits", "", *(f"- {line}" for line in forfeits)]
    lines += ["", "![score heatmap](heatmap.png)", ""]
    return "\n".join(lines)


def write_heatmap(result: TournamentResult, path: str | Path) -> None:
    """A PNG of the score of each row agent against each column agent (Agg, no display)."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    cells = cross_table(result)
    agents = result.agents
    n = len(agents)
    scores = np.full((n, n), np.nan)
    for i, a in enumerate(agents):
        for j, b in enumerate(agents):
            if a != b:
                scores[i, j] = cells[(a, b)].score
    size = 1.6 + 1.1 * n
    # Figure + Agg canvas directly: no pyplot, so no global backend change for the caller.
    figure = Figure(figsize=(size + 1.5, size))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    image = axes.imshow(np.ma.masked_invalid(scores), cmap="RdYlGn", vmin=0.0, vmax=1.0)
    axes.set_facecolor("#dddddd")
    axes.set_xticks(range(n), agents, rotation=30, ha="right")
    axes.set_yticks(range(n), agents)
    axes.set_xlabel("opponent")
    axes.set_ylabel("agent")
    for i, a in enumerate(agents):
        for j, b in enumerate(agents):
            if a != b and cells[(a, b)].games:
                axes.text(j, i, f"{scores[i, j]:.2f}\n{cells[(a, b)].wdl_text()}",
                          ha="center", va="center", fontsize=8)
    figure.colorbar(image, ax=axes, label="score of row vs column (draw = 1/2)")
    axes.set_title(f"{result.game}: {result.games_per_pair} games a pair")
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def write_report(result: TournamentResult, directory: str | Path) -> list[Path]:
    """Write results.json, results.md and heatmap.png into `directory` (created if needed)."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / "results.json", folder / "results.md", folder / "heatmap.png"]
    paths[0].write_text(json.dumps(to_json(result), indent=2) + "\n", encoding="utf-8")
    paths[1].write_text(to_markdown(result), encoding="utf-8")
    write_heatmap(result, paths[2])
    return paths

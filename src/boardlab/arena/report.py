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

from ..core.numbers import number_text
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
    """The `boardlab arena --json` document (docs/design.md#the-arena-json-document): game,
    games_per_pair, pairs, ratings
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


LABEL_WIDTH = 20
"""The most characters of an agent spec the on-screen cross table shows in a header."""


def short_labels(agents: list[str], width: int = LABEL_WIDTH) -> dict[str, str]:
    """Each agent spec -> a label of at most about `width` characters, no two alike, for the
    cross table's headers. A spec that fits is its own label; a longer one keeps its end, where
    custom agents differ (`…:MyBot:depth=4`), or, when two ends agree, the place
    where the specs part; what still collides is numbered by its place in `agents`."""
    labels = {agent: _shorten(agent, width) for agent in agents}
    for agent in agents:
        alike = [other for other in agents if labels[other] == labels[agent]]
        if len(alike) > 1:
            for other in alike:
                labels[other] = _around_difference(other, alike, width)
    counts: dict[str, int] = {}
    for label in labels.values():
        counts[label] = counts.get(label, 0) + 1
    return {agent: (f"{index}:{label}" if counts[label] > 1 else label)
            for index, (agent, label) in enumerate(labels.items(), 1)}


def _shorten(spec: str, width: int) -> str:
    if len(spec) <= width:
        return spec
    tail = spec[-(width - 1):]
    for i, char in enumerate(tail[:width // 3]):  # start at a whole name when one is near
        if char in "/:,":
            tail = tail[i:]
            break
    return "…" + tail


def _around_difference(spec: str, alike: list[str], width: int) -> str:
    """`spec` cut to a window that starts just before where the specs in `alike` part."""
    if len(spec) <= width:
        return spec
    common = len(_common_prefix(alike))
    start = max(0, min(common - 3, len(spec) - (width - 2)))
    end = min(len(spec), start + width - 2)
    return ("…" if start else "") + spec[start:end] + ("…" if end < len(spec) else "")


def _common_prefix(texts: list[str]) -> str:
    first, last = min(texts), max(texts)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


def _title(result: TournamentResult) -> str:
    limit = "" if result.time_per_move is None else f", {result.time_per_move:g} s a move"
    return (f"{result.game}: {result.games_per_pair} games a pair, seats alternating, "
            f"seed {result.seed}{limit}")


def print_table(result: TournamentResult, console: Any) -> None:
    """The cross table, then the ratings, on a rich Console."""
    from rich.markup import escape
    from rich.table import Table

    cells = cross_table(result)
    overall = totals(result)
    # Long specs shortened to labels that stay apart, and folded rather than cut ("…") where
    # the console is narrow; the legend under the table gives each shortened spec in full.
    labels = short_labels(result.agents)
    table = Table(title=_title(result), show_lines=True)
    table.add_column("agent \\ vs", style="bold", overflow="fold")
    for agent in result.agents:
        table.add_column(escape(labels[agent]), justify="center", overflow="fold")
    table.add_column("all", justify="center", style="bold")
    for row in result.agents:
        texts = ["[dim]-[/dim]" if row == column else
                 f"{cells[(row, column)].rate_text()}\n{cells[(row, column)].wdl_text()}"
                 for column in result.agents]
        total = overall[row]
        table.add_row(escape(labels[row]), *texts, f"{total.rate_text()}\n{total.wdl_text()}")
    console.print(table)
    console.print("[dim]cell: row vs column, win rate / score (draw = 1/2), then W-D-L[/dim]")
    for agent in result.agents:
        if labels[agent] != agent:
            console.print(f"[dim]{escape(labels[agent])}[/dim] = {escape(agent)}",
                          overflow="fold", highlight=False)

    ratings = Table(title="Elo (Bradley-Terry fit, 95% profile-likelihood interval)")
    for name, justify in (("#", "right"), ("agent", "left"), ("Elo", "right"),
                          ("95% CI", "center"), ("games", "right"), ("score", "right"),
                          ("s/move (max)", "right")):
        ratings.add_column(name, justify=justify,  # type: ignore[arg-type]
                           overflow="fold")  # a whole spec, on two lines if need be
    for rank, rating in enumerate(result.ratings, 1):
        total = overall[rating.agent]
        ratings.add_row(str(rank), escape(rating.agent), _elo_text(rating.elo),
                        escape(_interval_text(rating.ci95)), str(total.games),
                        "-" if not total.games else f"{100 * total.score:.1f}%",
                        _thinking_text(result, rating.agent))
    console.print(ratings)
    console.print("[dim]s/move: mean thinking time of a decision in these games, in seconds "
                  "(the longest in brackets)[/dim]")
    forfeits = _forfeit_lines(result)
    if forfeits:
        console.print("Forfeits (crash, illegal move or time): " + "; ".join(forfeits))


def _elo_text(elo: float) -> str:
    """`+282`, `-35`, and `+0` for an Elo that rounds to zero from either side."""
    return number_text(elo, "+.0f")


def _interval_text(interval: tuple[float, float]) -> str:
    return f"[{_elo_text(interval[0])}, {_elo_text(interval[1])}]"


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
        lines.append(row([str(rank), f"`{rating.agent}`", _elo_text(rating.elo),
                          _interval_text(rating.ci95), str(total.games),
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

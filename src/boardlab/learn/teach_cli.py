"""`boardlab teach GAME --search SPEC --positions N --out DIR`: the command line of
learn/teacher.py.

cli.py calls `add_teach_parser(subparsers)`; the parser's `run` runs the command and returns
the exit status.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..core.registry import build_settings, split_params
from .teacher import TeacherSettings, TeachReport, describe, load_dataset, teach


def add_teach_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `teach` to an argparse subparsers object; the command runs `args.run(args)`."""
    defaults = TeacherSettings()
    parser = subparsers.add_parser(
        "teach", help="label positions from a search's games for a network to learn; a rerun "
                      "resumes",
        description="The search plays itself from varied openings; each of its decisions "
                    "becomes a labelled position (input planes, the search's move, its score, "
                    "the game's result), written in shards to --out with a manifest. A killed "
                    "run resumes: rerun the same command. `boardlab train GAME alphazero "
                    "--params teacher=DIR` starts AlphaZero from such a dataset.")
    parser.add_argument("game", help="game spec (`boardlab games` lists them)")
    parser.add_argument("--out", required=True, help="dataset folder (created if missing)")
    parser.add_argument("--search", default=defaults.search,
                        help="the teacher's agent spec (default: the game's compiled "
                             "minimax:depth=4,quiescence=true where it has one, else "
                             "minimax:depth=3)")
    parser.add_argument("--positions", type=int, default=defaults.positions,
                        help=f"positions to reach in all (default {defaults.positions:,})")
    parser.add_argument("--workers", type=int, default=defaults.workers,
                        help=f"labelling processes (default {defaults.workers})")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--params", default="",
                        help="more settings, name=value,...: shard_positions, opening_plies, "
                             "random_moves, max_plies")
    parser.add_argument("--no-progress", action="store_true")
    parser.set_defaults(run=cmd_teach)
    return parser


def cmd_teach(args: argparse.Namespace) -> int:
    from rich.console import Console

    console = Console()
    given = split_params(args.params, "teach --params")
    given.update(search=args.search, positions=str(args.positions),
                 workers=str(args.workers), seed=str(args.seed))
    settings = build_settings(TeacherSettings, given, "teach")
    bar = _Bar(not args.no_progress, settings.positions)
    try:
        report = teach(args.game, settings, args.out, on_shard=bar.update)
    finally:
        bar.close()
    manifest, labels = load_dataset(args.out)
    if report.shards_written == 0:
        console.print(f"{args.out} already holds {report.positions:,} positions; nothing to do "
                      f"(raise --positions to label more)")
    else:
        console.print(f"labelled {report.new_positions:,} positions in {report.shards_written} "
                      f"shards: {report.positions_per_second:.1f} positions/s, "
                      f"{report.seconds:.0f} s wall, {report.cpu_seconds:.0f} s CPU; "
                      f"{report.decided} of {report.games} games decided")
    console.print(describe([manifest], labels))
    return 0


class _Bar:
    """A rich progress bar over positions, drawn at the first finished shard."""

    def __init__(self, enabled: bool, total: int) -> None:
        self.enabled, self.total = enabled, total
        self.progress: Any = None

    def update(self, report: TeachReport) -> None:
        if not self.enabled:
            return
        if self.progress is None:
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn)

            self.progress = Progress(TextColumn("teach"), BarColumn(), MofNCompleteColumn(),
                                     TimeElapsedColumn(), TextColumn("{task.fields[info]}"))
            self.progress.start()
            self.task = self.progress.add_task("teach", total=self.total, info="")
        self.progress.update(self.task, completed=min(report.positions, self.total),
                             info=f"{report.positions_per_second:.1f} positions/s")

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()



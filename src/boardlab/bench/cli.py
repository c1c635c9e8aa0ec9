"""`boardlab bench [GAME ...] [--peers] [--json PATH] [--quick] [--repeat K]`.

`add_bench_parser(subparsers)` adds the subcommand to the main parser; the table goes to the
terminal as each figure is measured, the JSON (with the machine, the load and every sample)
to --json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

from .timing import Figure


def add_bench_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `bench` to `subparsers` (from `ArgumentParser.add_subparsers`); returns it."""
    bench = subparsers.add_parser(
        "bench", help="speed table: playouts, perft, search, networks; peers in the same run",
        description="Speed of each engine; with --peers the same work on OpenSpiel, "
                    "Fairy-Stockfish (pyffish) and Pgx in the same run, as ratios.")
    bench.add_argument("games", nargs="*", metavar="GAME",
                       help="games to measure (default: every game that loads)")
    bench.add_argument("--peers", action="store_true",
                       help="also measure the peers and print our figure / theirs")
    bench.add_argument("--json", dest="json_path", default=None, metavar="PATH",
                       help="write every figure and sample as JSON")
    bench.add_argument("--quick", action="store_true",
                       help="small jobs and 2 samples: a smoke run, not a measurement")
    bench.add_argument("--repeat", type=int, default=None, metavar="K",
                       help="samples per figure, the median is shown (default 5, 2 with "
                            "--quick)")
    bench.add_argument("--tasks", default=None, metavar="T1,T2",
                       help="only these tasks, e.g. train-dqn,train-dqn-updates (default: all)")
    bench.set_defaults(run=cmd_bench)
    return bench


def cmd_bench(args: argparse.Namespace) -> int:
    from rich.console import Console

    from . import run_bench

    # A file or a CI log has no width; rich would wrap the table at 80 columns.
    console = Console() if sys.stdout.isatty() else Console(width=120)
    started = datetime.datetime.now().astimezone()
    load_before = _load_average()
    with console.status("measuring...") as status:
        figures = run_bench(args.games or None, peers=args.peers, quick=args.quick,
                            repeat=args.repeat,
                            tasks=args.tasks.split(",") if args.tasks else None,
                            on_figure=lambda f: status.update(
                                f"measured {f.game}; measuring the next game..."))
    load_after = _load_average()
    console.print(figure_table(figures, quick=args.quick))
    samples = args.repeat or (2 if args.quick else 5)
    console.print(f"median of {samples} sample{'s' if samples > 1 else ''} each; "
                  f"load average {load_before} before, {load_after} after, "
                  f"{os.cpu_count()} CPUs")
    if args.quick:
        console.print(QUICK_NOTE)
    if args.json_path:
        record = {
            "command": command_line(args),
            "date": started.isoformat(timespec="seconds"),
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                        "python": platform.python_version(),
                        "load_average_before": load_before, "load_average_after": load_after},
            "quick": args.quick, "peers": args.peers,
            "figures": [f.to_json() for f in figures],
        }
        Path(args.json_path).write_text(json.dumps(record, indent=2) + "\n")
        console.print(f"JSON written to {args.json_path}")
    return 0


def command_line(args: argparse.Namespace) -> str:
    """The command that repeats this run, rebuilt from the parsed arguments."""
    words = ["boardlab", "bench", *args.games]
    words += ["--peers"] * args.peers + ["--quick"] * args.quick
    if args.repeat is not None:
        words += ["--repeat", str(args.repeat)]
    if args.tasks:
        words += ["--tasks", args.tasks]
    if args.json_path:
        words += ["--json", args.json_path]
    return " ".join(words)


TASK_ORDER = ("playout", "perft", "movegen", "alphabeta", "mcts", "network-b1", "network-b256",
              "train-dqn", "train-dqn-updates", "train-qlearning")


QUICK_NOTE = ("--quick: small jobs, each figure from 0.02 s samples: a smoke run, not a "
              "measurement. Alpha-beta searches to the depth shown, the compiled searches "
              "deeper than the Python one, so their nodes/s are of different searches; a run "
              "without --quick gives the figures to compare.")
"""Said under a --quick table: what its figures are (a newcomer read a compiled alpha-beta's
quick figure against the Python one's as a measurement)."""


def figure_table(figures: list[Figure], quick: bool = False) -> Any:
    """A rich Table, one row per figure, each peer under our rows for the same game and task;
    figures that could not be measured are listed under it with the reason. A job's detail
    (alpha-beta's depth) follows its engine; a --quick table says so in its title."""
    from rich.table import Table

    games = list(dict.fromkeys(f.game for f in figures))
    ordered = sorted(figures, key=lambda f: (games.index(f.game), _task_rank(f.task), f.peer))
    title = "boardlab bench --quick (a smoke run)" if quick else "boardlab bench"
    table = Table(title=title, caption_justify="left")
    table.add_column("game")
    table.add_column("task")
    table.add_column("engine")
    table.add_column("per second", justify="right")
    table.add_column("min-max", justify="right")
    table.add_column("ours / peer")
    skipped = []
    for f in ordered:
        if not f.measured:
            skipped.append(f"{f.game} {f.task} {f.engine}: {f.note}")
            continue
        engine = f"[dim]{f.engine}[/dim]" if f.peer else f.engine
        if f.detail:
            engine += f" ({f.detail})"
        if f.plies_per_game is not None:
            engine += f" ({f.plies_per_game:.0f} plies/game)"
        ratio = "[dim]peer[/dim]" if f.peer else ", ".join(
            f"{ratio_text(value)} {peer}" for peer, value in f.ratios.items())
        table.add_row(f.game, f.task, engine, f"{number(f.median)} {f.unit}",
                      f"{number(f.low)}-{number(f.high)}", ratio)
    if skipped:
        table.caption = "not measured:\n" + "\n".join(skipped)
    return table


def _task_rank(task: str) -> int:
    return TASK_ORDER.index(task) if task in TASK_ORDER else len(TASK_ORDER)


def ratio_text(value: float) -> str:
    return f"{value:.2g}x" if value < 10 else f"{value:,.0f}x"


def number(value: float) -> str:
    """Three significant figures with k/M: 45.3M, 171k, 538, 8.87."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def _load_average() -> str:
    try:
        return "/".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # not every platform has one
        return "unknown"

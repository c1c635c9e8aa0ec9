"""`boardlab tune GAME AGENT --param NAME=LOW:HIGH ...`: the command line of arena/tune.py.

cli.py calls `add_tune_parser(subparsers)`; the parser's `run` (also `func`) runs the command
and returns the exit status.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .tune import Step, parse_param, tune, validate


def add_tune_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `tune` sub-command to an argparse `subparsers` object and return its parser."""
    parser = subparsers.add_parser(
        "tune", help="hill climbing (seed 002) of an agent's numeric parameters",
        description="Change one parameter at a time, play the changed agent against the current "
                    "one (seats alternating) and keep the change if it scores more than 0.5 "
                    "(plus --margin standard errors). Games are stored in --db, so the same "
                    "command run again resumes.")
    parser.add_argument("game", help="game spec (`boardlab games` lists them)")
    parser.add_argument("agent", help="agent spec to start from, e.g. minimax:depth=2 or greedy")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=LOW:HIGH",
                        help="a parameter to tune and its range (repeat for several); a "
                             "settings field (depth=1:4) or an evaluator weight "
                             "(WEIGHT=-1:1, where the game's evaluator offers its weights)")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the parameters")
    parser.add_argument("--games", type=int, default=20, help="games per comparison")
    parser.add_argument("--step", type=float, default=0.1,
                        help="first step as a fraction of each range (halved after a round "
                             "that kept nothing)")
    parser.add_argument("--margin", type=float, default=0.0, metavar="Z",
                        help="keep a change only if it scores above 0.5 by Z standard errors "
                             "(0.5/sqrt(games)); 0 is the seed's rule (default 0)")
    parser.add_argument("--validate", type=int, default=0, metavar="N",
                        help="finally play the best against the start N games on fresh seeds "
                             "and print the score with its 95%% interval")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--db", default="tune.sqlite", help="results database (resumable)")
    parser.add_argument("--out", help="also write the best spec string to this file")
    parser.set_defaults(run=run_tune, func=run_tune)  # cli.py calls `run`
    return parser


def run_tune(args: argparse.Namespace) -> int:
    from rich.console import Console

    console = Console()
    params = [parse_param(text) for text in args.param]

    def show(step: Step, candidate: str, current: str) -> None:
        mark = "[green]kept[/green]" if step.kept else "[dim]dropped[/dim]"
        old, new = step.current[step.param], step.candidate[step.param]
        console.print(f"round {step.round}  {step.param} {old:g} -> {new:g}  "
                      f"score {step.score:.3f}  {mark}  [dim]{candidate}[/dim]",
                      highlight=False, soft_wrap=True)

    result = tune(args.game, args.agent, params, rounds=args.rounds, games=args.games,
                  step=args.step, seed=args.seed, db_path=args.db, workers=args.workers,
                  on_step=show, margin=args.margin)
    console.print(f"start: {result.start}", highlight=False, soft_wrap=True)
    console.print(f"best:  [bold]{result.best}[/bold]", highlight=False, soft_wrap=True)
    if args.out:
        Path(args.out).write_text(result.best + "\n")
    if args.validate:
        if result.best == result.start:
            console.print("validate: nothing kept, the best is the start", highlight=False)
            return 0
        check = validate(args.game, result.best, result.start, args.validate, seed=args.seed,
                         db_path=args.db, workers=args.workers)
        verdict = ("better" if check.low > 0.5 else "worse" if check.high < 0.5
                   else "not distinguishable")
        console.print(f"validate: best vs start over {check.games} games: {check.wins}-"
                      f"{check.draws}-{check.losses}, score {check.score:.3f}, 95% interval "
                      f"[{check.low:.3f}, {check.high:.3f}]: {verdict}", highlight=False)
    return 0

"""`boardlab uci GAME AGENT`: an agent as a UCI/UCCI engine (cli.py calls add_uci_parser)."""

from __future__ import annotations

import argparse
from typing import Any


def add_uci_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="xiangqi (UCCI, or UCI when greeted with uci) or "
                        "minichess (UCI)")
    parser.add_argument("agent", help="agent spec, e.g. minimax:depth=3 or mcts:sims=800")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the agent's randomness (default 0)")
    parser.set_defaults(run=cmd_uci)


def add_uci_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `uci` subcommand to the `boardlab` parser's subparsers."""
    uci = subparsers.add_parser("uci", help="an agent as an engine on stdin/stdout (UCI/UCCI)")
    add_uci_arguments(uci)
    return uci


def cmd_uci(args: argparse.Namespace) -> int:
    from .uci import run

    return run(args.game, args.agent, seed=args.seed)

"""`boardlab uci GAME AGENT`: an agent as a UCI/UCCI engine (cli.py calls add_uci_parser).

The arguments and the command live in uci.py, which `python -m boardlab.interop.uci` runs
too; this module only adds them to the `boardlab` parser, so the import goes one way."""

from __future__ import annotations

import argparse
from typing import Any


def add_uci_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `uci` subcommand to the `boardlab` parser's subparsers."""
    from .uci import add_uci_arguments

    uci = subparsers.add_parser("uci", help="an agent as an engine on stdin/stdout (UCI/UCCI)")
    add_uci_arguments(uci)
    return uci

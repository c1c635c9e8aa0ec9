"""`boardlab serve`: the browser UI on http://127.0.0.1:PORT (cli.py calls add_serve_parser)."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from pathlib import Path
from typing import Any

from ..core.game import BoardLabError

DEFAULT_DB = "boardlab.sqlite"


def add_serve_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `serve` subcommand to the `boardlab` parser's subparsers."""
    serve = subparsers.add_parser("serve", help="the browser UI (play, watch, replay, results)")
    serve.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--db", default=DEFAULT_DB, metavar="FILE",
                       help="results database: the replay and tournament pages read it and "
                            "games played in the browser are stored in it (created if "
                            f"missing; default {DEFAULT_DB}, the arena's default)")
    serve.add_argument("--no-store", action="store_true",
                       help="do not store games played in the browser (the database is then "
                            "only read, and only if it exists)")
    serve.add_argument("--max-games", type=int, default=200,
                       help="games kept in memory; the longest untouched go first (default 200)")
    serve.set_defaults(run=cmd_serve)
    return serve


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .app import create_app
    except ImportError as error:
        raise BoardLabError(f"`boardlab serve` needs the web extra ({error}): "
                            "pip install 'boardlab[web]'") from None
    if not 0 < args.port < 65536:
        raise BoardLabError(f"--port {args.port} is not a TCP port (1..65535)")
    if args.max_games < 1:
        raise BoardLabError(f"--max-games must be at least 1, got {args.max_games}")
    if not _is_loopback(args.host):
        print(f"boardlab serve: warning: listening on {args.host}, reachable from other "
              "machines; the API has no authentication", file=sys.stderr)
    db = args.db
    if args.no_store and not Path(db).is_file():
        db = None  # nothing to read, and nothing may be written
    app = create_app(db=db, max_games=args.max_games, store_games=not args.no_store)
    stored = "" if args.no_store else f"; games played here are stored in {args.db}"
    print(f"BoardLab on http://{args.host}:{args.port}/  (Ctrl-C stops it{stored})",
          flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False

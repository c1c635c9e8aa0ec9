"""`boardlab serve`: the browser UI on http://127.0.0.1:PORT (cli.py calls add_serve_parser)."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from typing import Any

from ..core.game import BoardLabError


def add_serve_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `serve` subcommand to the `boardlab` parser's subparsers."""
    serve = subparsers.add_parser("serve", help="the browser UI (play, watch, replay, results)")
    serve.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--db", default=None, metavar="FILE",
                       help="arena results database for the replay and tournament pages")
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
    app = create_app(db=args.db, max_games=args.max_games)
    print(f"BoardLab on http://{args.host}:{args.port}/  (Ctrl-C stops it)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False

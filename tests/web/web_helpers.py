"""Helpers shared by the web tests (a module of its own, so that its name cannot clash with
another folder's conftest)."""

from __future__ import annotations

from pathlib import Path


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

SHORT_SPECS = {
    "jungle": "jungle:no_capture_limit=12",
    "jungle-classic": "jungle-classic:no_capture_limit=16",
    "xiangqi": "xiangqi:max_plies=40",
    "minichess": "minichess:max_plies=30",
}
"""Shorter settings for games that random play drags out, so a clicked game ends quickly."""


def short_spec(name: str) -> str:
    return SHORT_SPECS.get(name, name)

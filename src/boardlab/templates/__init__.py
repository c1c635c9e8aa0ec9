"""What `boardlab new-game NAME --out DIR` writes: a game package of its own from the template.

The template (`templates/game/`, package data) is a working tic-tac-toe distribution: a game
module, an `__init__`, a pyproject.toml declaring the `boardlab.games` entry point, a README
with the rules, and a test that runs BoardLab's contract kit (`boardlab.testing`). Each file
ends in `.tmpl` and is filled in with `string.Template` ($name, $package, $cls, $dist); the
folder `__package__` becomes the package's name. BoardLab's `examples/tictactoe` is this
template written out (a test keeps the two equal).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from string import Template

from ..core.game import BoardLabError

GAME_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")
"""A game name as spec strings and entry points take it: `connect-four`, `hex7`."""


@dataclass(frozen=True)
class GameNames:
    """The names one game name turns into in the package written for it."""

    name: str
    """The game's name in spec strings and its entry point: `connect-four`."""
    package: str
    """The import package: `boardlab_connect_four`."""
    cls: str
    """The class-name stem: `ConnectFour` (`ConnectFourGame`, `ConnectFourState`)."""
    dist: str
    """The distribution's name for pip: `boardlab-connect-four`."""

    @classmethod
    def of(cls, name: str) -> GameNames:
        if not GAME_NAME.match(name):
            raise BoardLabError(f"new-game: {name!r} is not a game name: lower-case letters and "
                                "digits, words joined by '-' (e.g. connect-four)")
        words = name.split("-")
        return cls(name=name, package="boardlab_" + "_".join(words),
                   cls="".join(word.capitalize() for word in words),
                   dist="boardlab-" + name)


def _template_files(folder: Traversable, relative: Path = Path()) -> list[tuple[Path, str]]:
    """(path inside the template, text) of every `.tmpl` file below `folder`."""
    found = []
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if entry.is_dir():
            found += _template_files(entry, relative / entry.name)
        elif entry.name.endswith(".tmpl"):
            found.append((relative / entry.name.removesuffix(".tmpl"), entry.read_text("utf-8")))
    return found


def game_package(name: str) -> dict[Path, str]:
    """The files of a new game package for `name`: relative path -> text."""
    names = GameNames.of(name)
    out = {}
    for relative, text in _template_files(files(__name__) / "game"):
        path = Path(*(names.package if part == "__package__" else part
                      for part in relative.parts))
        out[path] = Template(text).substitute(asdict(names))
    return out


def write_game_package(name: str, out: Path, force: bool = False) -> list[Path]:
    """Write the package for game `name` into folder `out`; the paths written.

    Refuses a folder that already holds any of the files, unless `force`."""
    package = game_package(name)
    existing = [out / path for path in package if (out / path).exists()]
    if existing and not force:
        raise BoardLabError(f"new-game: {existing[0]} exists; choose another --out or add "
                            "--force to overwrite")
    written = []
    for relative, text in package.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written

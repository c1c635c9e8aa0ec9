"""Boards as pictures: `svg(state)` draws any game's position as SVG.

Each game with a picture has one small module here named after it (`jungle-classic` ->
`jungle_classic.py`) with two functions:

- `picture(state, viewer) -> Picture`: the board as a grid of cells and pieces (grid.py draws
  it). `viewer` is the seat whose eyes the picture is for, or None for a spectator who sees
  everything; a game with hidden information leaves out what `viewer` may not know.
- `action_cells(state, action) -> tuple[int, ...]`: the cells a person clicks to play
  `action` (one for a placement or a reveal, from and to for a move, none for a pass).

A game without such a module is still drawn: its `str(state)` as monospace text. So a new
game appears everywhere (the web page, replays) as soon as it loads, and looks like a board
once its module here exists.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Iterable

from ..core.game import State
from .grid import Picture, Piece, text_svg, to_svg

__all__ = ["Picture", "Piece", "action_cells", "has_renderer", "picture", "renderer", "svg"]

_MODULES: dict[str, ModuleType | None] = {}


def renderer(game_name: str) -> ModuleType | None:
    """The rendering module of `game_name`, or None when the game has none (text fallback)."""
    if game_name not in _MODULES:
        module_name = f"{__name__}.{game_name.replace('-', '_')}"
        try:
            _MODULES[game_name] = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise  # the module exists but something it imports is missing: a real bug
            _MODULES[game_name] = None
    return _MODULES[game_name]


def has_renderer(game_name: str) -> bool:
    return renderer(game_name) is not None


def picture(state: State, viewer: int | None = None) -> Picture | None:
    """The game's Picture of `state`, or None for a game drawn as text."""
    module = renderer(state.game.name)
    return None if module is None else module.picture(state, viewer)


def action_cells(state: State, action: int) -> tuple[int, ...]:
    """The cells a person clicks to play `action` in `state`; () without a renderer."""
    module = renderer(state.game.name)
    return () if module is None else tuple(module.action_cells(state, action))


def svg(state: State, last_action: int | None = None, highlights: Iterable[int | str] = (),
        *, viewer: int | None = None, flipped: bool = False) -> str:
    """`state` as an SVG document.

    `last_action`: a player action that led here, outlined on the board. `highlights`: cells
    (ints) or square names (the game's notation) to mark, e.g. legal targets. `viewer`: draw
    only what that seat may know. `flipped`: turn the board 180 degrees (seat 1's side down).
    """
    drawn = picture(state, viewer)
    if drawn is None:
        return text_svg(str(state))
    index = {name: cell for cell, name in enumerate(drawn.square_names)}
    marked = []
    for item in highlights:
        if isinstance(item, str):
            if item not in index:
                raise ValueError(f"{item!r} is not a square of {state.game.name}; squares are "
                                 f"named like {drawn.square_names[0]!r}")
            marked.append(index[item])
        else:
            marked.append(int(item))
    last = action_cells(state, last_action) if last_action is not None else ()
    return to_svg(drawn, last, marked, flipped)

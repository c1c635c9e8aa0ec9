"""Boards as pictures: `svg(state)` draws any game's position as SVG.

Each game with a picture has one small module here named after it (`jungle-classic` ->
`jungle_classic.py`) with two functions:

- `picture(state, viewer) -> Picture`: the board as a grid of cells and pieces (grid.py draws
  it). `viewer` is the seat whose eyes the picture is for, or None for a spectator who sees
  everything; a game with hidden information leaves out what `viewer` may not know.
- `action_cells(state, action) -> tuple[int, ...]`: the cells a person clicks to play
  `action` (one for a placement or a reveal, from and to for a move, none for a pass).

and may name the players and explain its text board:

- `PLAYER_NAMES`: the sides' names by seat (`("red", "blue")`), used by the page and `play`;
- `TEXT_KEY`: one paragraph explaining the letters of `str(state)`, shown by `play`'s `help`;
- `move_label(state, action) -> str`: a move without a cell as a person reads it (a card).

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
from .thinking import Thinking, place

__all__ = ["Picture", "Piece", "action_cells", "has_renderer", "move_label", "picture",
           "player_name", "renderer", "svg", "text_key", "thinking"]

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


def player_name(game_name: str, seat: int, players: int = 2) -> str:
    """How the page and `play` call `seat`: its colour where the game's picture names one
    (`red`; with more than two players `red 2`, seat 2 of the red team), else `seat N`."""
    module = renderer(game_name)
    names = getattr(module, "PLAYER_NAMES", ()) if module is not None else ()
    if not names:
        return f"seat {seat}"
    name = names[seat % len(names)]
    return name if players <= len(names) else f"{name} {seat}"


def text_key(game_name: str) -> str:
    """The game's explanation of its text board's letters ('' where it has none)."""
    module = renderer(game_name)
    return getattr(module, "TEXT_KEY", "") if module is not None else ""


def move_label(state: State, action: int) -> str:
    """A move as a button under the board shows it: the game's label, else its notation."""
    module = renderer(state.game.name)
    label = getattr(module, "move_label", None) if module is not None else None
    return label(state, action) if label is not None else state.action_to_str(action)


def thinking(state: State, info: dict) -> Thinking:
    """An agent's `last_info()` about `state` placed on its cells (see render/thinking.py)."""
    return place(state, info, action_cells)


def svg(state: State, last_action: int | None = None, highlights: Iterable[int | str] = (),
        *, viewer: int | None = None, flipped: bool = False,
        last_cells: Iterable[int] | None = None, thought: Thinking | None = None,
        caption: str | None = None) -> str:
    """`state` as an SVG document.

    `last_action`: a player action that led here, outlined on the board (or `last_cells`,
    the cells to outline). `highlights`: cells (ints) or square names (the game's notation)
    to mark, e.g. legal targets. `viewer`: draw only what that seat may know. `flipped`: turn
    the board 180 degrees (seat 1's side down). `thought`: an agent's heat maps and principal
    variation drawn over the board. `caption`: replaces the picture's own line under the
    board (a resignation the position cannot know about).
    """
    drawn = picture(state, viewer)
    if drawn is None:
        return text_svg(str(state))
    if caption is not None:
        drawn.caption = caption
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
    if last_cells is None:
        last_cells = action_cells(state, last_action) if last_action is not None else ()
    if thought is None:
        return to_svg(drawn, last_cells, marked, flipped)
    return to_svg(drawn, last_cells, marked, flipped, heat=thought.layers,
                  arrows=thought.arrows)

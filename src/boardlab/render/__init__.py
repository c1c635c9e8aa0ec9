"""Boards as pictures: a drawing library the games use, and `svg(state)` for any game.

A game declares its picture through the hook `Game.renderer()` (core/game.py), which returns
its package's drawing module (`games/<game>/render.py`) with two functions:

- `picture(state, viewer) -> Picture`: the board as a grid of cells and pieces (grid.py draws
  it). `viewer` is the seat whose eyes the picture is for, or None for a spectator who sees
  everything; a game with hidden information leaves out what `viewer` may not know.
- `action_cells(state, action) -> tuple[int, ...]`: the cells a person clicks to play
  `action` (one for a placement or a reveal, from and to for a move, none for a pass).

and may name the players and explain its text board:

- `PLAYER_NAMES`: the sides' names by seat (`("red", "blue")`), used by the page and `play`;
- `TEXT_KEY`: one paragraph explaining the letters of `str(state)`, shown by `play`'s `help`;
- `move_label(state, action) -> str`: a move without a cell as a person reads it (a card);
- `action_cards(state, action) -> tuple[tuple[int, int], ...]`: the cards under the board
  (row, index in `Picture.card_rows`) a person clicks for a move without a cell (a draft);
- `end_reason(state) -> str`: why a finished game ended, in words (`checkmate`, `blue has no
  pieces left`), for results and game files.

A picture may also mark cells in danger (`Picture.alert_cells`: a king in check).

A game without a renderer (the hook's default) is still drawn: its `str(state)` as monospace
text. So a new game appears everywhere (the web page, replays) as soon as it loads, and looks
like a board once its package has a render module. A game's `State` that also inherits
`Drawable` draws itself (`state.svg()`, Jupyter's picture).

This package names no game: grid.py (cells, pieces, heat maps as SVG), thinking.py (an
agent's thoughts on the cells) and graph.py (value graphs) serve every game.
"""

from __future__ import annotations

from typing import Any, Iterable, cast

from ..core.game import Game, Renderer, State
from .grid import Picture, Piece, text_svg, to_svg
from .thinking import Thinking, place

__all__ = ["Drawable", "Picture", "Piece", "action_cards", "action_cells", "end_reason",
           "has_renderer", "move_label", "picture", "player_name", "svg", "text_key",
           "thinking"]


def has_renderer(game: Game) -> bool:
    return game.renderer() is not None


def picture(state: State, viewer: int | None = None) -> Picture | None:
    """The game's Picture of `state`, or None for a game drawn as text."""
    module = state.game.renderer()
    return None if module is None else module.picture(state, viewer)


def action_cells(state: State, action: int) -> tuple[int, ...]:
    """The cells a person clicks to play `action` in `state`; () without a renderer."""
    module = state.game.renderer()
    return () if module is None else tuple(module.action_cells(state, action))


def player_name(game: Game, seat: int) -> str:
    """How the page and `play` call `seat`: its colour where the game's picture names one
    (`red`; with more than two players `red 2`, seat 2 of the red team), else `seat N`."""
    names = _optional(game.renderer(), "PLAYER_NAMES", ())
    if not names:
        return f"seat {seat}"
    name = names[seat % len(names)]
    return name if game.num_players <= len(names) else f"{name} {seat}"


def text_key(game: Game) -> str:
    """The game's explanation of its text board's letters ('' where it has none)."""
    return _optional(game.renderer(), "TEXT_KEY", "")


def move_label(state: State, action: int) -> str:
    """A move as a button under the board shows it: the game's label, else its notation."""
    label = _optional(state.game.renderer(), "move_label", None)
    return label(state, action) if label is not None else state.action_to_str(action)


def action_cards(state: State, action: int) -> list[str]:
    """The cards under the board a person clicks to play `action` (a draft), as the
    picture's `data-pick` names them (`ROW:INDEX`); [] where the game draws no cards."""
    cards = _optional(state.game.renderer(), "action_cards", None)
    return [] if cards is None else [f"{row}:{index}" for row, index in cards(state, action)]


def end_reason(state: State) -> str:
    """Why the finished `state` ended, in the game's words ('' where the game does not say,
    or the game goes on)."""
    reason = _optional(state.game.renderer(), "end_reason", None)
    return reason(state) if reason is not None and state.is_terminal() else ""


def _optional(module: Renderer | None, name: str, default: Any) -> Any:
    """One of the renderer's optional names (PLAYER_NAMES, TEXT_KEY, move_label)."""
    return default if module is None else getattr(module, name, default)


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


class Drawable:
    """Mixed into a game's `State` (before `State`) so a position draws itself: `svg()`, and
    the picture Jupyter shows. Here, not in core, because core draws nothing."""

    __slots__ = ()  # adds no instance fields to the State it is mixed into

    def svg(self, last_action: int | None = None, highlights: Iterable[int | str] = (),
            viewer: int | None = None) -> str:
        """The position as SVG (see `boardlab.render.svg`): legal-move and last-move marks."""
        return svg(cast(State, self), last_action, highlights, viewer=viewer)

    def _repr_svg_(self) -> str:
        """Jupyter shows a state as its picture."""
        return self.svg()

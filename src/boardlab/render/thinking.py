"""What an agent thinks, placed on the board: its `last_info()` heat maps and principal
variation (moves in notation) turned into cells, for `grid.to_svg`'s overlays.

An agent reports, about the position it was asked to move in (see docs/web.md):
`heat`: {what the numbers are: {move: number}} (MCTS and AlphaZero visit shares, AlphaZero's
priors, minimax root scores, DQN Q-values) and `pv`: [move, reply, ...]. A move lands on the
last cell a person clicks for it (a piece's target, a placed disc); several moves on one cell
add up for shares and keep the best for scores. Moves without a cell (a pass, a draft) are
returned as text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..core.game import CHANCE, BoardLabError, State
from ..core.numbers import number_text
from .grid import HeatLayer


@dataclass
class Thinking:
    """An agent's report placed on the board it was about."""

    layers: list[HeatLayer] = field(default_factory=list)
    arrows: list[tuple[int, ...]] = field(default_factory=list)
    """The principal variation's moves that have cells, in order."""
    pv: list[str] = field(default_factory=list)
    """The principal variation as the agent wrote it."""
    off_board: dict[str, list[str]] = field(default_factory=dict)
    """Per heat kind, moves without a cell with their labels (`pass 12%`)."""


def is_share(values: list[float]) -> bool:
    """Numbers that split one whole among the moves (visit shares, priors): shown as %."""
    return bool(values) and all(0.0 <= v <= 1.0 for v in values) and sum(values) <= 1.001


def place(state: State, info: dict[str, Any], cells_of) -> Thinking:
    """`info` (an agent's last_info) on `state`, the position it moved in; `cells_of(state,
    action)` gives a move's cells (render.action_cells)."""
    out = Thinking()
    for kind, scores in (info.get("heat") or {}).items():
        numbers = {move: float(v) for move, v in dict(scores).items()
                   if isinstance(v, (int, float)) and math.isfinite(v)}
        if not numbers:
            continue
        share = is_share(list(numbers.values()))
        by_cell: dict[int, float] = {}
        off: list[str] = []
        for move, value in numbers.items():
            try:
                cells = cells_of(state, state.str_to_action(move))
            except BoardLabError:
                continue  # a move of the agent's view the page's position cannot read
            label = number_text(value, ".0%" if share else ".3g")
            if not cells:
                off.append(f"{move} {label}")
                continue
            cell = cells[-1]
            by_cell[cell] = by_cell.get(cell, 0.0) + value if share else max(
                by_cell.get(cell, -math.inf), value)
        out.layers.append((kind, _weights(by_cell, share)))
        if off:
            out.off_board[kind] = off
    out.pv = [str(move) for move in info.get("pv") or []]
    walk = state.clone()
    for move in out.pv:
        if walk.is_terminal() or walk.current_player() == CHANCE:
            break
        try:
            action = walk.str_to_action(move)
            cells = cells_of(walk, action)
            walk.apply(action)
        except BoardLabError:
            break
        if cells:
            out.arrows.append(tuple(cells))
    return out


def _weights(by_cell: dict[int, float], share: bool) -> dict[int, tuple[float, str]]:
    """Each cell's number as a weight in 0..1 (a share doubled, so half the visits is full
    heat; for scores, the place between the worst and the best) with its label."""
    if not by_cell:
        return {}
    low, high = min(by_cell.values()), max(by_cell.values())
    out = {}
    for cell, value in by_cell.items():
        if share:
            # Absolute, not relative to the largest: eight moves at 12% each look alike and
            # cool, one move at 60% looks hot.
            weight = min(1.0, 2 * value)
            label = number_text(value, ".0%")
        else:
            weight = (value - low) / (high - low) if high > low else 1.0
            label = short_number(value)
        out[cell] = (weight, label)
    return out


def short_number(value: float) -> str:
    """A score in at most five characters, for the plate in a cell's corner: -0.13, 2.5,
    -12, 262, 1.2k, -35k (the panel beside the board gives the agent's own figures)."""
    size = abs(value)
    if size >= 9999.5:
        return number_text(value / 1000, ".0f") + "k"
    if size >= 999.5:
        return number_text(value / 1000, ".1f") + "k"
    return number_text(value, ".0f" if size >= 9.95 else ".1f" if size >= 0.995 else ".2f")

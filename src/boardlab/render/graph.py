"""The value graph over a game: what each agent believed after each of its moves, drawn as
SVG for the web page (the CLI draws the same series with matplotlib: `boardlab replay
--plot`).

A point is (ply, seat, value): the value the agent in `seat` reported for the position it
moved in, turned to seat 0's side (the other seat's value negated, for two-player zero-sum
games). Agents report in their own units (a minimax heuristic's points, MCTS's mean return
in [-1, 1]), so a seat whose values leave [-1, 1] is scaled, and the legend says by how much:
by its largest finite value, or, where that one stands far above the rest (a mate score among
material counts), by CLIP_OVER times the value below which CLIP_SHARE of them lie, the larger
ones clipped at the edge (drawn as open circles) so that one score does not flatten the rest.
A decided search (a win found) is drawn at the edge.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from html import escape

DECIDED = 1e5
"""A value this large is a proven result, not an evaluation."""
COLOURS = ("#c0392b", "#2c5aa0", "#2f855a", "#8a5a00")
CLIP_SHARE = 0.8
CLIP_OVER = 1.5
"""Values above CLIP_OVER times the CLIP_SHARE quantile of a seat's |values| are clipped."""


def robust_scale(magnitudes: list[float]) -> float:
    """The divisor that brings a seat's values into [-1, 1], at least 1 (see the module)."""
    if not magnitudes:
        return 1.0
    ordered = sorted(magnitudes)
    typical = ordered[int(CLIP_SHARE * (len(ordered) - 1))]
    return max(1.0, min(ordered[-1], CLIP_OVER * typical))


def scaled_series(points: Collection[tuple[int, int, float]], seats: int
                  ) -> list[tuple[list[tuple[int, float]], float]]:
    """Per seat: its points with values in [-1, 1] and the divisor used (1 if none)."""
    out = []
    for seat in range(seats):
        mine = [(ply, value) for ply, s, value in points if s == seat and not math.isnan(value)]
        scale = robust_scale([abs(v) for _, v in mine if abs(v) < DECIDED])
        out.append(([(ply, max(-1.0, min(1.0, v / scale))) for ply, v in mine], scale))
    return out


def value_graph_svg(points: Collection[tuple[int, int, float]], names: list[str],
                    plies: int, width: int = 420, height: int = 150,
                    side: str | None = None) -> str:
    """The graph as an SVG document; `names[seat]` labels each seat's line (a seat without
    points gets no entry: a person's seat); `side` names whose view the values are from, in
    a line above the graph (`values from red's side: up is better for red`)."""
    left, right, top, bottom = 34, 10, (24 if side else 10), 34
    height += top - 10
    inner_w, inner_h = width - left - right, height - top - bottom
    span = max(plies, 1)

    def xy(ply: int, value: float) -> tuple[float, float]:
        return left + inner_w * ply / span, top + inner_h * (1 - value) / 2

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="value-graph" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, '
           f'sans-serif" font-size="11">',
           f'<rect x="{left}" y="{top}" width="{inner_w}" height="{inner_h}" fill="#fff" '
           'stroke="#cfc6b2"/>']
    if side:
        out.append(f'<text class="side" x="{left}" y="14" fill="#333">values from '
                   f'{escape(side)}\u2019s side: up is better for {escape(side)}</text>')
    for value, text in ((1, "+1"), (0, "0"), (-1, "-1")):
        _, y = xy(0, value)
        out.append(f'<line x1="{left}" y1="{y}" x2="{left + inner_w}" y2="{y}" stroke="#ddd"/>'
                   f'<text x="{left - 4}" y="{y + 4}" text-anchor="end" fill="#555">{text}'
                   '</text>')
    out.append(f'<text x="{left + inner_w}" y="{height - 20}" text-anchor="end" fill="#555">'
               f'ply {plies}</text>')
    legend_x = float(left)
    raw = {seat: [value for _, s, value in points if s == seat and not math.isnan(value)]
           for seat in range(len(names))}
    for seat, (series, scale) in enumerate(scaled_series(points, len(names))):
        if not series:
            continue
        colour = COLOURS[seat % len(COLOURS)]
        clipped = [scale < abs(v) < DECIDED for v in raw[seat]]
        label = names[seat] + ("" if scale == 1 else f" (÷{scale:.3g}"
                               + (", clipped" if any(clipped) else "") + ")")
        out.append(f'<text x="{legend_x}" y="{height - 6}" fill="{colour}">■ {escape(label)}'
                   '</text>')
        legend_x += 14 + 6.5 * len(label)
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(p, v) for p, v in series))
        out.append(f'<polyline class="series" data-seat="{seat}" points="{coords}" fill="none" '
                   f'stroke="{colour}" stroke-width="2"/>')
        for (x, y), cut in zip((xy(p, v) for p, v in series), clipped):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{3.5 if cut else 2.5}" '
                       + (f'class="clipped" fill="#fff" stroke="{colour}" stroke-width="1.5"/>'
                          if cut else f'fill="{colour}"/>'))
    out.append("</svg>")
    return "\n".join(out)

"""The one SVG grid renderer every game's picture goes through.

A game's renderer module describes its board as a `Picture` (a grid of cells, pieces on some
of them, a few decorations); this module turns that into SVG. Every cell carries
`data-cell` (its index, row * cols + col counted from the top left as drawn unflipped) and
`data-square` (its name in the game's notation), so that the web page can make cells
clickable and mark legal moves without knowing anything about the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Iterable, Literal

CELL = 56
"""Pixels per cell in the SVG's own coordinates (the page scales the picture)."""
MARGIN = 26
"""Room around the board for file and rank labels."""


@dataclass(frozen=True)
class Piece:
    """Something standing on a cell: a disc with a label."""

    label: str
    """Text drawn on the piece (one or two characters read best)."""
    fill: str
    """Colour of the disc."""
    ink: str = "#000"
    """Colour of the label."""
    stroke: str = "#222"
    title: str = ""
    """Tooltip: what the piece is, in words."""
    small: str = ""
    """A second, smaller text under the label (a strength, say)."""
    shape: Literal["disc", "glyph"] = "disc"
    """`glyph` draws only the label, large (chess symbols carry their own outline)."""
    face_down: bool = False
    """A hidden piece: drawn with a hatched back instead of a plain disc."""
    size: float = 1.0
    """Disc size relative to the usual (Sequence's chips are smaller, to show the card)."""


@dataclass
class Picture:
    """A board to draw: cells in rows and columns, pieces, labels and decorations."""

    rows: int
    cols: int
    square_names: list[str]
    """square_names[cell]: the cell's name in the game's notation."""
    pieces: dict[int, Piece] = field(default_factory=dict)
    style: Literal["checkered", "plain", "points"] = "checkered"
    """`points`: pieces stand on line crossings (xiangqi), otherwise inside squares."""
    light: str = "#f0d9b5"
    dark: str = "#b58863"
    line: str = "#333"
    file_labels: str | list[str] = ""
    """Labels under the columns, left to right as drawn unflipped ('' for none)."""
    rank_labels: list[str] = field(default_factory=list)
    """Labels beside the rows, top to bottom as drawn unflipped."""
    cell_fills: dict[int, str] = field(default_factory=dict)
    """Cells drawn in another colour (Jungle's home rows, say)."""
    extra_lines: list[tuple[float, float, float, float]] = field(default_factory=list)
    """Lines from (row, col) to (row, col) in cell units (xiangqi's palace diagonals)."""
    banner: str = ""
    """Text written across the middle of the board between two rows (xiangqi's river)."""
    banner_after_row: int = -1
    caption: str = ""
    """One line under the board (disc counts, whose turn)."""
    cell_labels: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Small (text, colour) printed in a cell's top-left corner (Sequence's cards)."""


def cell_center(picture: Picture, cell: int, flipped: bool) -> tuple[float, float]:
    row, col = divmod(cell, picture.cols)
    if flipped:
        row, col = picture.rows - 1 - row, picture.cols - 1 - col
    return MARGIN + (col + 0.5) * CELL, MARGIN + (row + 0.5) * CELL


def to_svg(picture: Picture, last_cells: Iterable[int] = (), highlights: Iterable[int] = (),
           flipped: bool = False) -> str:
    """The picture as an SVG document (a string), the last move and `highlights` marked."""
    # Wide enough for the caption too (about 7.5 px a character at 14 px).
    width = max(picture.cols * CELL + 2 * MARGIN, round(len(picture.caption) * 7.5) + 2 * MARGIN)
    height = picture.rows * CELL + 2 * MARGIN + (22 if picture.caption else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} '
           f'{height}" width="{width}" height="{height}" font-family="DejaVu Sans, Arial, '
           f'sans-serif" data-rows="{picture.rows}" data-cols="{picture.cols}">']
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ece4d4"/>')
    if picture.style == "points":
        out.extend(_points_board(picture, flipped))
    out.extend(_labels(picture, flipped))
    last = set(last_cells)
    marked = set(highlights)
    for cell in range(picture.rows * picture.cols):
        out.append(_cell(picture, cell, flipped, cell in last, cell in marked))
    if picture.caption:
        out.append(f'<text x="{MARGIN}" y="{height - 8}" font-size="14" fill="#222">'
                   f'{escape(picture.caption)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _cell(picture: Picture, cell: int, flipped: bool, is_last: bool, is_marked: bool) -> str:
    x, y = cell_center(picture, cell, flipped)
    left, top = x - CELL / 2, y - CELL / 2
    row, col = divmod(cell, picture.cols)
    name = escape(picture.square_names[cell])
    parts = [f'<g class="cell" data-cell="{cell}" data-square="{name}">']
    if picture.style == "points":
        # A transparent square keeps the whole area around a crossing clickable.
        parts.append(f'<rect class="bg" x="{left}" y="{top}" width="{CELL}" height="{CELL}" '
                     'fill="transparent"/>')
    else:
        fill = picture.cell_fills.get(cell)
        if fill is None:
            fill = picture.dark if (picture.style == "checkered" and (row + col) % 2) \
                else picture.light
        parts.append(f'<rect class="bg" x="{left}" y="{top}" width="{CELL}" height="{CELL}" '
                     f'fill="{fill}" stroke="{picture.line}" stroke-width="0.6"/>')
    if is_last:
        parts.append(f'<rect class="last" x="{left + 2}" y="{top + 2}" width="{CELL - 4}" '
                     f'height="{CELL - 4}" fill="#f6e05e" fill-opacity="0.45" stroke="#d69e2e" '
                     'stroke-width="3"/>')
    label = picture.cell_labels.get(cell)
    if label is not None:
        parts.append(f'<text class="cell-label" x="{left + 4}" y="{top + 14}" font-size="13" '
                     f'fill="{label[1]}" pointer-events="none">{escape(label[0])}</text>')
    piece = picture.pieces.get(cell)
    if piece is not None:
        parts.append(_piece(piece, x, y))
    # The page shows these marks by class: `on` from the server, `target`/`selected` from
    # the page's own click handling.
    parts.append(f'<circle class="hl{" on" if is_marked else ""}" cx="{x}" cy="{y}" '
                 f'r="{CELL * 0.17:.1f}" pointer-events="none"/>')
    parts.append(f'<title>{name}{": " + escape(piece.title) if piece and piece.title else ""}'
                 '</title></g>')
    return "".join(parts)


def _piece(piece: Piece, x: float, y: float) -> str:
    radius = round(CELL * 0.42 * piece.size, 1)
    label = escape(piece.label)
    if piece.shape == "glyph":
        return (f'<text class="piece" x="{x}" y="{y + CELL * 0.27:.1f}" text-anchor="middle" '
                f'font-size="{CELL * 0.8:.1f}" fill="{piece.ink}" stroke="{piece.stroke}" '
                f'stroke-width="0.8" pointer-events="none">{label}</text>')
    parts = [f'<g class="piece{" face-down" if piece.face_down else ""}" '
             'pointer-events="none">',
             f'<circle cx="{x}" cy="{y}" r="{radius}" fill="{piece.fill}" '
             f'stroke="{piece.stroke}" stroke-width="2"/>']
    if piece.face_down:
        parts.append(f'<circle cx="{x}" cy="{y}" r="{radius * 0.72:.1f}" fill="none" '
                     f'stroke="{piece.ink}" stroke-width="1.5" stroke-dasharray="3 3"/>')
    if label:
        dy = round(-CELL * 0.02 if piece.small else CELL * 0.12, 1)
        size = round(CELL * (0.36 if len(piece.label) == 1 else 0.26), 1)
        parts.append(f'<text x="{x}" y="{y + dy}" text-anchor="middle" font-size="{size}" '
                     f'font-weight="bold" fill="{piece.ink}">{label}</text>')
    if piece.small:
        parts.append(f'<text x="{x}" y="{y + CELL * 0.26:.1f}" text-anchor="middle" '
                     f'font-size="{CELL * 0.2:.1f}" fill="{piece.ink}">'
                     f'{escape(piece.small)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _labels(picture: Picture, flipped: bool) -> list[str]:
    out = []
    files = list(picture.file_labels)
    ranks = list(picture.rank_labels)
    if flipped:
        files.reverse()
        ranks.reverse()
    bottom = MARGIN + picture.rows * CELL
    for col, text in enumerate(files):
        x = MARGIN + (col + 0.5) * CELL
        out.append(f'<text x="{x}" y="{bottom + 18}" text-anchor="middle" font-size="13" '
                   f'fill="#444">{escape(text)}</text>')
    for row, text in enumerate(ranks):
        y = MARGIN + (row + 0.5) * CELL + 5
        out.append(f'<text x="{MARGIN / 2}" y="{y}" text-anchor="middle" font-size="13" '
                   f'fill="#444">{escape(text)}</text>')
    return out


def _points_board(picture: Picture, flipped: bool) -> list[str]:
    """Lines through the cell centres, as a xiangqi board is drawn."""
    rows, cols = picture.rows, picture.cols
    x0, y0 = MARGIN + CELL / 2, MARGIN + CELL / 2
    x1, y1 = x0 + (cols - 1) * CELL, y0 + (rows - 1) * CELL
    out = [f'<rect x="{x0 - 8}" y="{y0 - 8}" width="{x1 - x0 + 16}" height="{y1 - y0 + 16}" '
           f'fill="{picture.light}" stroke="{picture.line}" stroke-width="2"/>']
    banner = picture.banner_after_row
    if flipped and banner >= 0:
        banner = rows - 2 - banner
    for row in range(rows):
        y = y0 + row * CELL
        out.append(f'<line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" stroke="{picture.line}"/>')
    for col in range(cols):
        x = x0 + col * CELL
        if banner >= 0 and 0 < col < cols - 1:
            # Inner files stop at the river; the edge files cross it.
            out.append(f'<line x1="{x}" y1="{y0}" x2="{x}" y2="{y0 + banner * CELL}" '
                       f'stroke="{picture.line}"/>')
            out.append(f'<line x1="{x}" y1="{y0 + (banner + 1) * CELL}" x2="{x}" y2="{y1}" '
                       f'stroke="{picture.line}"/>')
        else:
            out.append(f'<line x1="{x}" y1="{y0}" x2="{x}" y2="{y1}" '
                       f'stroke="{picture.line}"/>')
    for r0, c0, r1, c1 in picture.extra_lines:
        if flipped:
            r0, c0, r1, c1 = rows - 1 - r0, cols - 1 - c0, rows - 1 - r1, cols - 1 - c1
        out.append(f'<line x1="{x0 + c0 * CELL}" y1="{y0 + r0 * CELL}" x2="{x0 + c1 * CELL}" '
                   f'y2="{y0 + r1 * CELL}" stroke="{picture.line}"/>')
    if banner >= 0 and picture.banner:
        y = y0 + (banner + 0.5) * CELL + 6
        out.append(f'<text x="{(x0 + x1) / 2}" y="{y}" text-anchor="middle" font-size="18" '
                   f'fill="#666" font-style="italic">{escape(picture.banner)}</text>')
    return out


def text_svg(text: str) -> str:
    """Any state as SVG: its text board in a monospace font (the fallback picture)."""
    lines = text.splitlines() or [""]
    width = max(len(line) for line in lines) * 8.5 + 20
    height = len(lines) * 17 + 16
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board text-board" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}">',
           f'<rect width="{width}" height="{height}" fill="#fdfaf3"/>',
           '<text font-family="DejaVu Sans Mono, monospace" font-size="14" fill="#222" '
           'xml:space="preserve">']
    for index, line in enumerate(lines):
        out.append(f'<tspan x="10" y="{20 + index * 17}">{escape(line)}</tspan>')
    out.append("</text></svg>")
    return "\n".join(out)

"""The one SVG grid renderer every game's picture goes through.

A game's renderer module describes its board as a `Picture` (a grid of cells, pieces on some
of them, a few decorations); this module turns that into SVG. Every cell carries
`data-cell` (its index, row * cols + col counted from the top left as drawn unflipped) and
`data-square` (its name in the game's notation), so that the web page can make cells
clickable and mark legal moves without knowing anything about the game.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from html import escape
import textwrap
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
    """Disc size relative to the usual (smaller chips leave room for what the square shows)."""
    icon: str = ""
    """Key of a drawing in `Picture.icons` shown on the disc instead of the label (an
    animal, say); `small` still goes under it."""
    name: str = ""
    """The piece in plain words for text that any font shows (the browser's move list notes
    captures with it: `× black horse`); empty: `title`."""


@dataclass
class Picture:
    """A board to draw: cells in rows and columns, pieces, labels and decorations."""

    rows: int
    cols: int
    square_names: list[str]
    """square_names[cell]: the cell's name in the game's notation."""
    pieces: dict[int, Piece] = field(default_factory=dict)
    style: Literal["checkered", "plain", "points"] = "checkered"
    """`points`: pieces stand on line crossings, otherwise inside squares."""
    light: str = "#f0d9b5"
    dark: str = "#b58863"
    line: str = "#333"
    file_labels: str | list[str] = ""
    """Labels under the columns, left to right as drawn unflipped ('' for none)."""
    rank_labels: list[str] = field(default_factory=list)
    """Labels beside the rows, top to bottom as drawn unflipped."""
    cell_fills: dict[int, str] = field(default_factory=dict)
    """Cells drawn in another colour (home rows, say)."""
    extra_lines: Collection[tuple[float, float, float, float]] = field(default_factory=list)
    """Lines from (row, col) to (row, col) in cell units (a palace's diagonals, say)."""
    banner: str = ""
    """Text written across the middle of the board between two rows (a river, say)."""
    banner_after_row: int = -1
    caption: str = ""
    """One line under the board (disc counts, whose turn)."""
    cell_labels: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Small (text, colour) printed in a cell's top-left corner (a square's card, say)."""
    icons: dict[str, str] = field(default_factory=dict)
    """Drawings pieces refer to by key: SVG path data in a 100 x 100 box, defined once."""
    card_rows: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)
    """Rows of playing cards drawn under the board: (title, [(card text, colour)])
    (a draft and a hand, say)."""


def cell_center(picture: Picture, cell: int, flipped: bool) -> tuple[float, float]:
    row, col = divmod(cell, picture.cols)
    if flipped:
        row, col = picture.rows - 1 - row, picture.cols - 1 - col
    return MARGIN + (col + 0.5) * CELL, MARGIN + (row + 0.5) * CELL


HeatLayer = tuple[str, dict[int, tuple[float, str]]]
"""(what the numbers are, {cell: (weight 0..1, label)}): one heat map over the board."""

CARD_W, CARD_H, CARD_ROW = 34, 46, 66
"""A card's width and height under the board, and the height of a row of them with its title."""


def to_svg(picture: Picture, last_cells: Iterable[int] = (), highlights: Iterable[int] = (),
           flipped: bool = False, *, heat: Collection[HeatLayer] = (),
           arrows: Collection[tuple[int, ...]] = ()) -> str:
    """The picture as an SVG document (a string), the last move and `highlights` marked.

    `heat`: layers drawn over the cells, each in a `<g class="heat" data-kind=...>` the page
    shows one at a time. `arrows`: a line of moves (each its cells: from and to, or one cell
    for a placement) drawn as numbered arrows in `<g class="pv">`.
    """
    width = picture.cols * CELL + 2 * MARGIN
    # The caption wraps at the board's width (about 7.5 px a character at 14 px), so a long
    # one never widens the picture into an empty band.
    caption = textwrap.wrap(picture.caption, max(20, int((width - MARGIN) / 7.5)))
    board_bottom = picture.rows * CELL + 2 * MARGIN
    height = board_bottom + 20 * len(caption) + CARD_ROW * len(picture.card_rows) + (
        6 if caption else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} '
           f'{height}" width="{width}" height="{height}" font-family="DejaVu Sans, Arial, '
           f'sans-serif" data-rows="{picture.rows}" data-cols="{picture.cols}">']
    out.append(_defs(picture))
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ece4d4"/>')
    if picture.style == "points":
        out.extend(_points_board(picture, flipped))
    out.extend(_labels(picture, flipped))
    last = set(last_cells)
    marked = set(highlights)
    for cell in range(picture.rows * picture.cols):
        out.append(_cell(picture, cell, flipped, cell in last, cell in marked))
    for kind, cells in heat:
        out.append(_heat(picture, kind, cells, flipped))
    if arrows:
        out.append(_arrows(picture, arrows, flipped))
    y = board_bottom + 4
    for line in caption:
        y += 20
        out.append(f'<text class="caption" x="{MARGIN}" y="{y - 6}" font-size="14" '
                   f'fill="#222">{escape(line)}</text>')
    for title, cards in picture.card_rows:
        out.append(_card_row(title, cards, y))
        y += CARD_ROW
    out.append("</svg>")
    return "\n".join(out)


def _defs(picture: Picture) -> str:
    """Markers for arrows and the icons the pieces on the board use, each defined once."""
    used = {piece.icon for piece in picture.pieces.values() if piece.icon}
    parts = ['<defs><marker id="pv-head" viewBox="0 0 10 10" refX="7" refY="5" '
             'markerWidth="4" markerHeight="4" orient="auto-start-reverse">'
             '<path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke"/></marker>']
    for key in sorted(used):
        parts.append(f'<symbol id="icon-{escape(key)}" viewBox="0 0 100 100">'
                     f'<path d="{picture.icons[key]}"/></symbol>')
    parts.append("</defs>")
    return "".join(parts)


def _heat(picture: Picture, kind: str, cells: dict[int, tuple[float, str]],
          flipped: bool) -> str:
    parts = [f'<g class="heat" data-kind="{escape(kind)}" pointer-events="none">']
    for cell, (weight, label) in sorted(cells.items()):
        x, y = cell_center(picture, cell, flipped)
        weight = min(1.0, max(0.0, weight))
        parts.append(f'<rect x="{x - CELL / 2 + 1}" y="{y - CELL / 2 + 1}" width="{CELL - 2}" '
                     f'height="{CELL - 2}" fill="#e8590c" fill-opacity="{0.08 + 0.5 * weight:.2f}"'
                     f' stroke="#b04000" stroke-width="{1 + 2 * weight:.1f}"/>')
        parts.append(f'<text x="{x + CELL / 2 - 3}" y="{y + CELL / 2 - 4}" text-anchor="end" '
                     'font-size="12" font-weight="bold" fill="#fff" stroke="#5a2000" '
                     f'stroke-width="2.5" paint-order="stroke">{escape(label)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _arrows(picture: Picture, moves: Collection[tuple[int, ...]], flipped: bool) -> str:
    """The principal variation: move 1 solid, later ones lighter, each numbered."""
    parts = ['<g class="pv" pointer-events="none">']
    for number, cells in enumerate(moves, 1):
        colour = "#1864ab" if number % 2 else "#862e9c"  # the mover's moves, the replies
        opacity = max(0.45, 1.0 - 0.12 * (number - 1))
        x1, y1 = cell_center(picture, cells[-1], flipped)
        if len(cells) >= 2:
            x0, y0 = cell_center(picture, cells[0], flipped)
            parts.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="{colour}" '
                         f'stroke-opacity="{opacity:.2f}" stroke-width="7" '
                         'stroke-linecap="round" marker-end="url(#pv-head)"/>')
            x1, y1 = (x0 + x1) / 2, (y0 + y1) / 2
        else:  # a placement or a reveal: the number in the corner, the piece left readable
            x1, y1 = x1 - CELL * 0.3, y1 - CELL * 0.3
        parts.append(f'<circle cx="{x1}" cy="{y1}" r="10" fill="{colour}" '
                     f'fill-opacity="{opacity:.2f}" stroke="#fff" stroke-width="1.5"/>'
                     f'<text x="{x1}" y="{y1 + 4.5}" text-anchor="middle" font-size="13" '
                     f'font-weight="bold" fill="#fff">{number}</text>')
    parts.append("</g>")
    return "".join(parts)


def _card_row(title: str, cards: list[tuple[str, str]], top: float) -> str:
    parts = [f'<g class="cards" data-title="{escape(title)}">',
             f'<text x="{MARGIN}" y="{top + 12}" font-size="13" fill="#444">{escape(title)}'
             '</text>']
    for index, (text, colour) in enumerate(cards):
        x, y = MARGIN + index * (CARD_W + 6), top + 17
        rank, suit = text[:-1], text[-1:]
        parts.append(f'<g class="card" data-card="{escape(text)}">'
                     f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" '
                     'fill="#fff" stroke="#8a7f66" stroke-width="1.2"/>'
                     f'<text x="{x + 4}" y="{y + 15}" font-size="13" font-weight="bold" '
                     f'fill="{colour}">{escape(rank)}</text>'
                     f'<text x="{x + CARD_W / 2}" y="{y + 38}" text-anchor="middle" '
                     f'font-size="20" fill="{colour}">{escape(suit)}</text></g>')
    parts.append("</g>")
    return "".join(parts)


def _cell(picture: Picture, cell: int, flipped: bool, is_last: bool, is_marked: bool) -> str:
    x, y = cell_center(picture, cell, flipped)
    left, top = x - CELL / 2, y - CELL / 2
    row, col = divmod(cell, picture.cols)
    name = escape(picture.square_names[cell])
    occupied = ' data-occupied="1"' if cell in picture.pieces else ""
    parts = [f'<g class="cell" data-cell="{cell}" data-square="{name}"{occupied}>']
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
    if piece.icon:
        parts.append(_icon(piece, x, y))
    elif label:
        dy = round(-CELL * 0.02 if piece.small else CELL * 0.12, 1)
        size = round(CELL * (0.36 if len(piece.label) == 1 else 0.26), 1)
        parts.append(f'<text x="{x}" y="{y + dy}" text-anchor="middle" font-size="{size}" '
                     f'font-weight="bold" fill="{piece.ink}">{label}</text>')
    if piece.small and piece.icon:  # the drawing takes the disc: the number goes on a badge
        bx, by = x + radius * 0.68, y + radius * 0.68
        parts.append(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="{CELL * 0.13:.1f}" fill="#fff" '
                     f'stroke="{piece.stroke}" stroke-width="1.2"/>'
                     f'<text x="{bx:.1f}" y="{by + CELL * 0.07:.1f}" text-anchor="middle" '
                     f'font-size="{CELL * 0.19:.1f}" font-weight="bold" fill="{piece.ink}">'
                     f'{escape(piece.small)}</text>')
    elif piece.small:
        parts.append(f'<text x="{x}" y="{y + CELL * 0.26:.1f}" text-anchor="middle" '
                     f'font-size="{CELL * 0.2:.1f}" fill="{piece.ink}">'
                     f'{escape(piece.small)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _icon(piece: Piece, x: float, y: float) -> str:
    """The piece's drawing, filling the disc (its `small` text goes on a badge)."""
    side = CELL * 0.64 * piece.size
    top = y - side / 2
    return (f'<use href="#icon-{escape(piece.icon)}" x="{x - side / 2:.1f}" y="{top:.1f}" '
            f'width="{side:.1f}" height="{side:.1f}" fill="{piece.ink}"/>')


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
    """Lines through the cell centres, for pieces that stand on the crossings."""
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

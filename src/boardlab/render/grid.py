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
    (a draft and a hand, say). Each card is `<g class="card" data-pick="ROW:INDEX">`, so a
    move that picks it (the game's `action_cards`) can be played by a click on it."""
    alert_cells: Collection[int] = field(default_factory=tuple)
    """Cells in danger, marked with a red glow under the piece and `data-check="1"`: a king
    in check, or one the opponent can take (the game decides, in its render module)."""


def cell_center(picture: Picture, cell: int, flipped: bool) -> tuple[float, float]:
    row, col = divmod(cell, picture.cols)
    if flipped:
        row, col = picture.rows - 1 - row, picture.cols - 1 - col
    return MARGIN + (col + 0.5) * CELL, MARGIN + (row + 0.5) * CELL


HeatLayer = tuple[str, dict[int, tuple[float, str]]]
"""(what the numbers are, {cell: (weight 0..1, label)}): one heat map over the board."""

CARD_W, CARD_H, CARD_ROW = 34, 46, 66
"""A card's width and height under the board, and the height of a row of them with its title."""

Box = tuple[float, float, float, float]
"""(left, top, right, bottom) in the SVG's coordinates."""

LABEL_FONT = 9.0
"""A heat map's number: this size, on a small plate in the cell's bottom-left corner, where no
piece draws its letter or drawing (a piece's strength badge sits bottom right)."""
LABEL_H = 10.0
BADGE_R = 9.0
"""The radius of an expected line's numbered badge."""
ICON_SIDE = 0.6
"""A piece's drawing fills this share of the cell (clear of the corner plates)."""
GLYPH_FONT = 0.72
"""A `glyph` piece's symbol size, as a share of the cell."""
ADVANCE = {**dict.fromkeys("0123456789", 0.70), "%": 1.0, ".": 0.38, "-": 0.42, "+": 0.84,
           "k": 0.67, "e": 0.68}
"""Bold DejaVu Sans advances (in em) of the characters a heat number uses."""


def to_svg(picture: Picture, last_cells: Iterable[int] = (), highlights: Iterable[int] = (),
           flipped: bool = False, *, heat: Collection[HeatLayer] = (),
           arrows: Collection[tuple[int, ...]] = ()) -> str:
    """The picture as an SVG document (a string), the last move and `highlights` marked.

    `heat`: each layer's tint is drawn in the cells under the pieces (`rect.heat-tint` with
    `data-kind`), its numbers on plates in the cells' corners, in a `<g class="heat"
    data-kind=...>` over the board; the page shows one layer at a time. `arrows`: a line of
    moves (each its cells: from and to, or one cell for a placement) drawn as numbered arrows
    in `<g class="pv">`, each badge placed where it covers no number, no other badge and as
    little of a piece as the board allows (a line that comes back to a square gets its
    badges side by side, never one on another).
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
    alert = set(picture.alert_cells)
    tints: dict[int, list[tuple[str, float]]] = {}
    for kind, cells in heat:
        for cell, (weight, _) in cells.items():
            tints.setdefault(cell, []).append((kind, weight))
    for cell in range(picture.rows * picture.cols):
        out.append(_cell(picture, cell, flipped, cell in last, cell in marked,
                         tints.get(cell, ()), cell in alert))
    plates: dict[int, Box] = {}
    for kind, cells in heat:
        out.append(_heat(picture, kind, cells, flipped, plates))
    if arrows:
        out.append(_arrows(picture, arrows, flipped, list(plates.values())))
    y = board_bottom + 4
    for line in caption:
        y += 20
        out.append(f'<text class="caption" x="{MARGIN}" y="{y - 6}" font-size="14" '
                   f'fill="#222">{escape(line)}</text>')
    for row, (title, cards) in enumerate(picture.card_rows):
        out.append(_card_row(title, cards, y, row))
        y += CARD_ROW
    out.append("</svg>")
    return "\n".join(out)


def _defs(picture: Picture) -> str:
    """Markers for arrows, the glow of a cell in danger, and the icons the pieces on the
    board use, each defined once."""
    used = {piece.icon for piece in picture.pieces.values() if piece.icon}
    parts = ['<defs><marker id="pv-head" viewBox="0 0 10 10" refX="7" refY="5" '
             'markerWidth="4" markerHeight="4" orient="auto-start-reverse">'
             '<path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke"/></marker>']
    if picture.alert_cells:
        # Strong where a disc ends (0.42 of a cell), so a ring of red shows round it.
        parts.append('<radialGradient id="alert-glow"><stop offset="0.55" stop-color="#e00000" '
                     'stop-opacity="0.95"/><stop offset="0.78" stop-color="#ff2020" '
                     'stop-opacity="0.8"/><stop offset="1" stop-color="#ff2020" '
                     'stop-opacity="0"/></radialGradient>')
    for key in sorted(used):
        parts.append(f'<symbol id="icon-{escape(key)}" viewBox="0 0 100 100">'
                     f'<path d="{picture.icons[key]}"/></symbol>')
    parts.append("</defs>")
    return "".join(parts)


def label_width(label: str) -> float:
    """The width of a heat number's plate."""
    return sum(ADVANCE.get(char, 0.72) for char in label) * LABEL_FONT + 5


def label_box(picture: Picture, cell: int, flipped: bool, label: str) -> Box:
    """Where a heat number's plate goes: the cell's bottom-left corner."""
    x, y = cell_center(picture, cell, flipped)
    left, bottom = x - CELL / 2 + 1, y + CELL / 2 - 1
    return left, bottom - LABEL_H, left + label_width(label), bottom


def _heat(picture: Picture, kind: str, cells: dict[int, tuple[float, str]],
          flipped: bool, plates: dict[int, Box]) -> str:
    """A layer's numbers on plates (its tint is drawn in the cells, under the pieces);
    `plates` collects where they are, cell by cell, the widest of the layers."""
    parts = [f'<g class="heat" data-kind="{escape(kind)}" pointer-events="none">']
    for cell, (_, label) in sorted(cells.items()):
        box = label_box(picture, cell, flipped, label)
        left, top, right, bottom = box
        if cell not in plates or plates[cell][2] < right:
            plates[cell] = box
        parts.append(f'<rect class="heat-plate" x="{left:.1f}" y="{top:.1f}" '
                     f'width="{right - left:.1f}" height="{LABEL_H}" rx="2.5" fill="#fff" '
                     'fill-opacity="0.92" stroke="#b04000" stroke-width="0.8"/>'
                     f'<text x="{left + 2.5:.1f}" y="{bottom - 2.2:.1f}" font-size="{LABEL_FONT}" '
                     f'font-weight="bold" fill="#7a2e00">{escape(label)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _hit(a: Box, b: Box) -> float:
    """The area two boxes share (0 when apart)."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def _badge_box(x: float, y: float) -> Box:
    return x - BADGE_R, y - BADGE_R, x + BADGE_R, y + BADGE_R


def _badge_spots(picture: Picture, cells: tuple[int, ...],
                 flipped: bool) -> list[tuple[float, float]]:
    """Where a move's badge may go, best first: along its arrow (the middle, then nearer
    either end, then beside the arrow), or in a corner of a placement's cell."""
    x1, y1 = cell_center(picture, cells[-1], flipped)
    if len(cells) < 2:
        d = CELL * 0.3
        return [(x1 + d, y1 - d), (x1 - d, y1 - d), (x1 + d, y1 + d), (x1 - d, y1 + d)]
    x0, y0 = cell_center(picture, cells[0], flipped)
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    across = ((y0 - y1) / length, (x1 - x0) / length)
    along = [0.5, 0.6, 0.4, 0.7, 0.3, 0.8, 0.2]
    spots = [(x0 + t * (x1 - x0), y0 + t * (y1 - y0)) for t in along]
    for side in (1.4, -1.4, 2.4, -2.4):
        spots += [(x + side * BADGE_R * across[0], y + side * BADGE_R * across[1])
                  for x, y in spots[:len(along)]]
    return spots


def _arrows(picture: Picture, moves: Collection[tuple[int, ...]], flipped: bool,
            plates: list[Box]) -> str:
    """The principal variation: move 1 solid, later ones lighter, each numbered. The arrows
    go under the badges; each badge takes the first of its spots that touches no heat
    number and no earlier badge, covering as little of a piece as it can."""
    pieces = [box for cell, piece in picture.pieces.items()
              for box in symbol_boxes(piece, *cell_center(picture, cell, flipped))]
    taken = list(plates)
    lines, badges = [], []
    for number, cells in enumerate(moves, 1):
        colour = "#1864ab" if number % 2 else "#862e9c"  # the mover's moves, the replies
        opacity = max(0.45, 1.0 - 0.12 * (number - 1))
        if len(cells) >= 2:
            x0, y0 = cell_center(picture, cells[0], flipped)
            x1, y1 = cell_center(picture, cells[-1], flipped)
            lines.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="{colour}" '
                         f'stroke-opacity="{opacity:.2f}" stroke-width="7" '
                         'stroke-linecap="round" marker-end="url(#pv-head)"/>')
        spots = _badge_spots(picture, cells, flipped)
        x, y = min(spots, key=lambda spot: (
            sum(_hit(_badge_box(*spot), box) for box in taken) > 0,
            sum(_hit(_badge_box(*spot), box) for box in pieces),
            spots.index(spot)))
        taken.append(_badge_box(x, y))
        badges.append(f'<g class="badge" data-move="{number}"><circle cx="{x:.1f}" '
                      f'cy="{y:.1f}" r="{BADGE_R}" fill="{colour}" '
                      f'fill-opacity="{max(opacity, 0.8):.2f}" stroke="#fff" stroke-width="1.5"/>'
                      f'<text x="{x:.1f}" y="{y + 4.2:.1f}" text-anchor="middle" '
                      f'font-size="12" font-weight="bold" fill="#fff">{number}</text></g>')
    return "".join(['<g class="pv" pointer-events="none">', *lines, *badges, "</g>"])


def symbol_boxes(piece: Piece, x: float, y: float) -> list[Box]:
    """Where a piece draws what tells it apart (its letter, drawing or symbol, its strength
    badge), for the badges to keep off: the disc's rim may be covered, this not."""
    if piece.shape == "glyph":
        half = CELL * GLYPH_FONT * 0.45
        return [(x - half, y - CELL * 0.42, x + half, y + CELL * 0.22)]
    radius = CELL * 0.42 * piece.size
    boxes = []
    if piece.icon:
        half = CELL * ICON_SIDE * piece.size / 2
        boxes.append((x - half, y - half, x + half, y + half))
        if piece.small:
            bx, by, r = x + radius * 0.68, y + radius * 0.68, CELL * 0.13
            boxes.append((bx - r, by - r, bx + r, by + r))
    elif piece.label:
        size = CELL * (0.36 if len(piece.label) == 1 else 0.26)
        wide = any(ord(char) > 0x2e80 for char in piece.label)
        half = len(piece.label) * size * (0.5 if wide else 0.36)
        base = y + (-CELL * 0.02 if piece.small else CELL * 0.12)
        boxes.append((x - half, base - 0.76 * size, x + half, base + 0.1 * size))
    else:  # a plain disc or chip: its middle
        boxes.append((x - radius * 0.4, y - radius * 0.4, x + radius * 0.4, y + radius * 0.4))
    return boxes


def _card_row(title: str, cards: list[tuple[str, str]], top: float, row: int) -> str:
    parts = [f'<g class="cards" data-title="{escape(title)}" data-row="{row}">',
             f'<text x="{MARGIN}" y="{top + 12}" font-size="13" fill="#444">{escape(title)}'
             '</text>']
    for index, (text, colour) in enumerate(cards):
        x, y = MARGIN + index * (CARD_W + 6), top + 17
        rank, suit = text[:-1], text[-1:]
        parts.append(f'<g class="card" data-card="{escape(text)}" data-pick="{row}:{index}">'
                     f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" '
                     'fill="#fff" stroke="#8a7f66" stroke-width="1.2"/>'
                     f'<text x="{x + 4}" y="{y + 15}" font-size="13" font-weight="bold" '
                     f'fill="{colour}" pointer-events="none">{escape(rank)}</text>'
                     f'<text x="{x + CARD_W / 2}" y="{y + 38}" text-anchor="middle" '
                     f'font-size="20" fill="{colour}" pointer-events="none">{escape(suit)}'
                     '</text></g>')
    parts.append("</g>")
    return "".join(parts)


def _cell(picture: Picture, cell: int, flipped: bool, is_last: bool, is_marked: bool,
          tints: Iterable[tuple[str, float]] = (), in_danger: bool = False) -> str:
    x, y = cell_center(picture, cell, flipped)
    left, top = x - CELL / 2, y - CELL / 2
    row, col = divmod(cell, picture.cols)
    name = escape(picture.square_names[cell])
    occupied = ' data-occupied="1"' if cell in picture.pieces else ""
    check = ' data-check="1"' if in_danger else ""
    parts = [f'<g class="cell" data-cell="{cell}" data-square="{name}"{occupied}{check}>']
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
    # An agent's heat, one rect per layer, under the last move's frame and the piece: both
    # stay as drawn.
    for kind, weight in tints:
        weight = min(1.0, max(0.0, weight))
        parts.append(f'<rect class="heat-tint" data-kind="{escape(kind)}" x="{left + 1}" '
                     f'y="{top + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="#e8590c" '
                     f'fill-opacity="{0.1 + 0.55 * weight:.2f}" stroke="#b04000" '
                     f'stroke-width="{1 + 2 * weight:.1f}" pointer-events="none"/>')
    if is_last:
        parts.append(f'<rect class="last" x="{left + 2}" y="{top + 2}" width="{CELL - 4}" '
                     f'height="{CELL - 4}" fill="#f6e05e" fill-opacity="0.45" stroke="#d69e2e" '
                     'stroke-width="3"/>')
    if in_danger:
        parts.append(f'<circle class="check" cx="{x}" cy="{y}" r="{CELL * 0.56:.1f}" '
                     'fill="url(#alert-glow)" pointer-events="none"/>')
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
        return (f'<text class="piece" x="{x}" y="{y + CELL * 0.22:.1f}" text-anchor="middle" '
                f'font-size="{CELL * GLYPH_FONT:.1f}" fill="{piece.ink}" '
                f'stroke="{piece.stroke}" stroke-width="0.8" pointer-events="none">{label}</text>')
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
        parts.append(f'<text class="symbol" x="{x}" y="{y + dy}" text-anchor="middle" '
                     f'font-size="{size}" font-weight="bold" fill="{piece.ink}">{label}</text>')
    if piece.small and piece.icon:  # the drawing takes the disc: the number goes on a badge
        bx, by = x + radius * 0.68, y + radius * 0.68
        parts.append(f'<circle class="strength" cx="{bx:.1f}" cy="{by:.1f}" '
                     f'r="{CELL * 0.13:.1f}" fill="#fff" '
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
    side = CELL * ICON_SIDE * piece.size
    top = y - side / 2
    return (f'<use href="#icon-{escape(piece.icon)}" class="symbol" x="{x - side / 2:.1f}" '
            f'y="{top:.1f}" width="{side:.1f}" height="{side:.1f}" fill="{piece.ink}"/>')


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

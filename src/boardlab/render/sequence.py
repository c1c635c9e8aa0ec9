"""Sequence (10 x 10 card board) as a picture: the card printed on each space, chips in team
colours (a ring marks chips in a completed sequence), the free corners starred.

Hidden information: the caption shows the draft and one hand only, the viewer's (a
spectator sees the hand of the seat to move); other hands never appear.
"""

from __future__ import annotations

from ..games.sequence.cards import CARD_NAMES, CORNERS, LAYOUT, SIZE, SQUARES, square_name
from ..games.sequence.rules import CHIP, DRAFT_BASE, SEQ_CHIP, SequenceState
from .grid import Picture, Piece

TEAM_COLOURS = ("#c0392b", "#2c5aa0")
TEAM_NAMES = ("red", "blue")
SUIT_SYMBOLS = {"s": ("\u2660", "#222"), "c": ("\u2663", "#222"), "h": ("\u2665", "#c0392b"),
                "d": ("\u2666", "#c0392b")}


def card_label(card: int) -> tuple[str, str]:
    name = CARD_NAMES[card]
    symbol, colour = SUIT_SYMBOLS[name[1]]
    return name[0].upper().replace("T", "10") + symbol, colour


def cards_line(cards: list[int]) -> str:
    return " ".join(card_label(card)[0] for card in cards) or "-"


def picture(state: SequenceState, viewer: int | None = None) -> Picture:
    pieces: dict[int, Piece] = {}
    labels: dict[int, tuple[str, str]] = {}
    for square in range(SQUARES):
        if square in CORNERS:
            pieces[square] = Piece("\u2605", "#e8e2d0", ink="#8a6d1d", stroke="#b8a878",
                                   title="free corner: counts for every team")
            continue
        labels[square] = card_label(LAYOUT[square])
        value = state.board[square]
        for team in (0, 1):
            if value in (CHIP[team], SEQ_CHIP[team]):
                in_sequence = value == SEQ_CHIP[team]
                pieces[square] = Piece(
                    "\u25cf" if in_sequence else "", TEAM_COLOURS[team], ink="#f6e05e",
                    stroke="#f6e05e" if in_sequence else "#222", size=0.72,
                    title=f"{TEAM_NAMES[team]} chip" + (" in a sequence" if in_sequence else ""))
    seat = viewer if viewer is not None else (state.seat if not state.is_terminal() else None)
    hand = "" if seat is None else f"; hand of seat {seat}: {cards_line(state.hands[seat])}"
    if state.is_terminal():
        status = "draw" if state.winner == -1 else f"team {TEAM_NAMES[state.winner]} wins"
    else:
        status = f"seat {state.seat} ({TEAM_NAMES[state.team_of(state.seat)]}) to move"
    return Picture(rows=SIZE, cols=SIZE, square_names=[square_name(s) for s in range(SQUARES)],
                   pieces=pieces, cell_labels=labels, style="plain", light="#fbf7ec",
                   line="#b9ad90", file_labels="abcdefghij", rank_labels=[str(r) for r in
                                                                         range(SIZE)],
                   caption=f"{status}; sequences red {state.sequences[0]}, blue "
                           f"{state.sequences[1]}; draft: {cards_line(state.draft)}{hand}")


def action_cells(state: SequenceState, action: int) -> tuple[int, ...]:
    """A play or a removal is a click on its space; drafts and trades are buttons."""
    return (action % SQUARES,) if action < DRAFT_BASE else ()

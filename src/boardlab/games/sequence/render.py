"""Sequence (10 x 10 card board) as a picture: the card printed on each space, chips in team
colours (a ring marks chips in a completed sequence), the free corners starred, and under the
board the draft and one hand drawn as cards.

Hidden information: the picture shows the draft and one hand only, the viewer's (a
spectator sees the hand of the seat to move); other hands never appear.
"""

from __future__ import annotations

from ...render.grid import Picture, Piece
from .cards import CARD_NAMES, CORNERS, LAYOUT, SIZE, SQUARES, square_name
from .game import SequenceState
from .rules import (
    CHIP,
    DECLINE,
    DRAFT_BASE,
    NUM_CARDS,
    SEQ_CHIP,
    SEQUENCES_TO_WIN,
    TRADE_BASE,
    action_parts,
)

TEAM_COLOURS = ("#c0392b", "#2c5aa0")
TEAM_NAMES = ("red", "blue")
PLAYER_NAMES = TEAM_NAMES
"""Seat i plays for team i % 2: the page calls seats by their team's colour."""
SUIT_SYMBOLS = {"s": ("\u2660", "#222"), "c": ("\u2663", "#222"), "h": ("\u2665", "#c0392b"),
                "d": ("\u2666", "#c0392b")}


def card_label(card: int) -> tuple[str, str]:
    name = CARD_NAMES[card]
    symbol, colour = SUIT_SYMBOLS[name[1]]
    return name[0].upper().replace("T", "10") + symbol, colour


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
    rows = [("draft", [card_label(card) for card in state.draft])]
    if seat is not None:
        rows.append((f"hand of {TEAM_NAMES[state.team_of(seat)]} (seat {seat})",
                     [card_label(card) for card in state.hands[seat]]))
    if state.is_terminal():
        status = ("draw" if state.winner is None or state.winner == -1
                  else f"team {TEAM_NAMES[state.winner]} wins")
    else:
        status = f"{TEAM_NAMES[state.team_of(state.seat)]} (seat {state.seat}) to move"
    return Picture(rows=SIZE, cols=SIZE, square_names=[square_name(s) for s in range(SQUARES)],
                   pieces=pieces, cell_labels=labels, style="plain", light="#fbf7ec",
                   line="#b9ad90", file_labels="abcdefghij", rank_labels=[str(r) for r in
                                                                         range(SIZE)],
                   caption=f"{status}; sequences red {state.sequences[0]}, blue "
                           f"{state.sequences[1]}", card_rows=rows)


def action_cells(state: SequenceState, action: int) -> tuple[int, ...]:
    """A play or a removal is a click on its space; drafts and trades are buttons."""
    return (action % SQUARES,) if action < DRAFT_BASE else ()


def action_cards(state: SequenceState, action: int) -> tuple[tuple[int, int], ...]:
    """A draft, or a trade for a draft card, is a click on that card of the draft (row 0 of
    the cards under the board; a card twice in the draft is either copy)."""
    if DRAFT_BASE <= action < TRADE_BASE:
        card = action - DRAFT_BASE
    elif TRADE_BASE <= action < DECLINE:
        card = (action - TRADE_BASE) % NUM_CARDS
    else:
        return ()
    return tuple((0, index) for index, drawn in enumerate(state.draft) if drawn == card)


def end_reason(state: SequenceState) -> str:
    """Two sequences, or more sequences when the cards ran out."""
    red, blue = state.sequences
    if max(red, blue) >= SEQUENCES_TO_WIN and state.winner in (0, 1):
        return f"{TEAM_NAMES[state.winner]} completed {state.sequences[state.winner]} sequences"
    return f"the cards ran out: sequences red {red}, blue {blue}"


def move_label(state: SequenceState, action: int) -> str:
    """Drafts, trades and discards as a person says them, cards as they are printed."""
    kind, card, other = action_parts(action)
    if kind == "play":
        return state.action_to_str(action)
    return MOVE_WORDS[kind].format(card_label(card)[0], card_label(other)[0])


MOVE_WORDS = {"draft": "take {0}", "trade": "trade dead {0} for {1}",
              "decline": "keep the dead cards", "burn": "discard {0}"}
"""`move_label` of the actions that are not plays, as `notation.ACTION_WORDS`."""

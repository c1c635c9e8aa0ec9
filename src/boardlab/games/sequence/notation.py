"""Sequence notation both ways: actions, the framework's action dicts, positions, the board.

Actions (README.md has the full table):
  play 7h e4       a normal card's chip on e4 (row 4, column e); `7h e4` also reads
  play jd e4       a two-eyed jack's chip on any empty square; `jd e4` also reads
  remove js c3     a one-eyed jack removes the opponent chip on c3; `js-remove c3` also reads
  draft qs         take qs from the draft
  trade 2c for ks  trade the dead 2c for ks from the draft
  decline          keep the dead cards
  burn 2c          discard 2c unplayed (only when no card in hand can be played)
and the COMP90054 framework's dicts, e.g. `{'play_card': '7h', 'draft_card': 'qs',
'type': 'place', 'coords': (4, 4)}`, which stand for the decision due now.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from ...core.game import IllegalActionError, ParseError
from .cards import (
    CARD_NAMES,
    CARD_SQUARES,
    CORNERS,
    LAYOUT,
    NUM_CARDS,
    ONE_EYED_JACKS,
    SIZE,
    SQUARES,
    TWO_EYED_JACKS,
    cards_text,
    parse_card,
    parse_cards,
    parse_square,
    square_name,
)
from .game import SequenceState
from .rules import (
    BURN_BASE,
    CELL_LETTERS,
    CHIP,
    CORNER_CELL,
    DECLINE,
    DRAFT_BASE,
    DRAFT_PHASE,
    EMPTY,
    NUM_ACTIONS,
    PLAY_PHASE,
    SEQ_CHIP,
    TRADE_BASE,
    action_parts,
)

if TYPE_CHECKING:
    from .game import SequenceGame


# --- actions ---------------------------------------------------------------------------------
def play_action(card: int, square: int) -> int:
    return card * SQUARES + square


def action_text(action: int) -> str:
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ParseError(f"action id {action!r} is outside 0..{NUM_ACTIONS - 1}")
    kind, card, other = action_parts(action)
    if kind == "play":
        verb = "remove" if card in ONE_EYED_JACKS else "play"
        return f"{verb} {CARD_NAMES[card]} {square_name(other)}"
    return ACTION_WORDS[kind].format(CARD_NAMES[card], CARD_NAMES[other])


ACTION_WORDS = {"draft": "draft {0}", "trade": "trade {0} for {1}", "decline": "decline",
                "burn": "burn {0}"}
"""`action_text` of the actions that are not plays, by `rules.action_parts`'s kind: {0} its
card (the dead one of a trade), {1} the card a trade drafts."""


def read_action(text: str) -> int:
    """Text -> an action id, without looking at a position (ParseError if malformed)."""
    words = text.strip().lower().replace("-remove", " remove").split()
    if not words:
        raise ParseError("an empty move: write e.g. `play 7h e4`, `draft qs` or `decline`")
    head = words[0]
    if words == ["decline"]:
        return DECLINE
    if head == "draft" and len(words) == 2:
        return DRAFT_BASE + parse_card(words[1])
    if head == "burn" and len(words) == 2:
        return BURN_BASE + parse_card(words[1])
    if head == "trade" and len(words) == 4 and words[2] == "for":
        return TRADE_BASE + parse_card(words[1]) * NUM_CARDS + parse_card(words[3])
    if head in ("play", "place", "remove"):
        words = words[1:]
    if len(words) == 3 and words[1] == "remove":  # `js-remove c3`
        words = [words[0], words[2]]
    if len(words) == 2:
        card, square = parse_card(words[0]), parse_square(words[1])
        if head == "remove" and card not in ONE_EYED_JACKS:
            raise ParseError(f"{text!r}: only a one-eyed jack (jh, js) removes a chip")
        return play_action(card, square)
    raise ParseError(f"{text!r} is not a Sequence move: write `play 7h e4`, `remove js c3`, "
                     "`draft qs`, `trade 2c for ks`, `decline` or `burn 2c`")


def parse_action(state: SequenceState, text: str | dict) -> int:
    """A move typed in notation, or a framework action dict (or its text): its id here."""
    if isinstance(text, dict) or text.strip().startswith("{"):
        action = from_framework(state, text)
    else:
        action = read_action(text)
    if action not in state.legal_actions():
        raise IllegalActionError(why_illegal(state, action, shown=str(text)))
    return action


# --- the framework's action dicts --------------------------------------------------------------
def _framework_dict(value: str | dict) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    try:
        parsed = ast.literal_eval(value.strip())
    except (ValueError, SyntaxError):
        raise ParseError(f"{value!r} is not a framework action dict") from None
    if not isinstance(parsed, dict):
        raise ParseError(f"{value!r} is not a framework action dict")
    return parsed


def from_framework(state: SequenceState, action: str | dict) -> int:
    """The framework's `{'play_card', 'draft_card', 'type', 'coords'}` -> the id of the
    decision due now: the trade (or decline) step, the play step, or the draft step."""
    return framework_actions(state, action)[0 if state.phase == PLAY_PHASE else -1]


def framework_actions(state: SequenceState, action: str | dict) -> list[int]:
    """A framework action -> our decisions: [trade] or [decline], or [play, draft]."""
    data = _framework_dict(action)
    kind = data.get("type")
    play, draft = data.get("play_card"), data.get("draft_card")
    if kind == "trade":
        if play is None and draft is None:
            return [DECLINE]
        return [TRADE_BASE + parse_card(str(play)) * NUM_CARDS + parse_card(str(draft))]
    if kind not in ("place", "remove"):
        raise ParseError(f"{data!r}: type must be 'place', 'remove' or 'trade'")
    coords = data.get("coords")
    if not (isinstance(coords, (tuple, list)) and len(coords) == 2
            and all(isinstance(v, int) and 0 <= v < SIZE for v in coords)):
        raise ParseError(f"{data!r}: coords must be (row, column) with values 0-9")
    card = parse_card(str(play))
    if (kind == "remove") != (card in ONE_EYED_JACKS):
        raise ParseError(f"{data!r}: 'remove' goes with a one-eyed jack (jh, js) and only "
                         "with it")
    return [play_action(card, coords[0] * SIZE + coords[1]), DRAFT_BASE + parse_card(str(draft))]


def to_framework(play: int, draft: int | None = None) -> dict[str, Any]:
    """Our decision(s) -> the framework's dict (a play needs the draft that follows it)."""
    if play == DECLINE:
        return {"play_card": None, "draft_card": None, "type": "trade", "coords": None}
    if TRADE_BASE <= play < DECLINE:
        dead, pick = divmod(play - TRADE_BASE, NUM_CARDS)
        return {"play_card": CARD_NAMES[dead], "draft_card": CARD_NAMES[pick],
                "type": "trade", "coords": None}
    if not 0 <= play < DRAFT_BASE or draft is None or not DRAFT_BASE <= draft < TRADE_BASE:
        raise ParseError(f"{play!r}, {draft!r}: a framework action is a play with its draft, "
                         "a trade, or a decline")
    card, square = divmod(play, SQUARES)
    return {"play_card": CARD_NAMES[card], "draft_card": CARD_NAMES[draft - DRAFT_BASE],
            "type": "remove" if card in ONE_EYED_JACKS else "place",
            "coords": divmod(square, SIZE)}


# --- why an action is illegal ------------------------------------------------------------------
def why_illegal(state: SequenceState, action: Any, shown: str | None = None) -> str:
    try:
        text = shown or action_text(int(action))
    except (ParseError, TypeError, ValueError):
        text = repr(action)
    return f"{text!r} is not legal: {_reason(state, action)}, in:\n{state}"


def _reason(state: SequenceState, action: Any) -> str:
    if state.winner is not None:
        return "the game is over"
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        return f"it is no action of this game (ids 0..{NUM_ACTIONS - 1})"
    seat = state.seat
    who = f"player {seat}"
    hand = state.hands[seat]
    hand_text = f"(hand: {cards_text(sorted(hand))})"
    if state.phase == DRAFT_PHASE:
        if DRAFT_BASE <= action < TRADE_BASE:
            return f"{CARD_NAMES[action - DRAFT_BASE]} is not in the draft " \
                   f"({cards_text(sorted(state.draft))})"
        return f"{who} has played and now takes a card from the draft " \
               f"({cards_text(sorted(state.draft))})"
    if state.in_trade_step():
        if TRADE_BASE <= action < DECLINE:
            dead, pick = divmod(action - TRADE_BASE, NUM_CARDS)
            if dead not in state.dead_cards(seat):
                return f"{CARD_NAMES[dead]} is not a dead card in {who}'s hand {hand_text}"
            return f"{CARD_NAMES[pick]} is not in the draft ({cards_text(sorted(state.draft))})"
        dead_text = cards_text(state.dead_cards(seat))
        return f"{who} holds dead cards ({dead_text}): trade one for a draft card or decline first"
    if TRADE_BASE <= action <= DECLINE:
        if state.trade_done:
            return f"{who} has traded or declined this turn already (one trade a turn)"
        return f"{who} holds no dead card {hand_text}"
    if DRAFT_BASE <= action < TRADE_BASE:
        return f"{who} plays a card before taking one from the draft"
    if action >= BURN_BASE:
        return f"{who} can play a card, so none may be burnt"
    card, square = divmod(action, SQUARES)
    name, where = CARD_NAMES[card], square_name(square)
    if card not in hand:
        return f"{who} has no {name} {hand_text}"
    cell = state.board[square]
    if card in ONE_EYED_JACKS:
        opponent = 1 - seat % 2
        if cell == SEQ_CHIP[opponent]:
            return f"the chip on {where} is part of a completed sequence"
        if cell == CORNER_CELL:
            return f"{where} is a free corner"
        return f"{where} holds no chip of team {opponent} to remove"
    if cell == CORNER_CELL:
        return f"{where} is a free corner: nobody places a chip there"
    if cell != EMPTY:
        return f"{where} is taken"
    if card not in TWO_EYED_JACKS and square not in CARD_SQUARES[card]:
        spaces = " and ".join(square_name(sq) for sq in CARD_SQUARES[card])
        return f"{name} goes on {spaces}, not {where}"
    return "it is not legal here"


# --- positions -------------------------------------------------------------------------------
def position_text(state: SequenceState) -> str:
    """Board rows (row 0 first; `.` empty, `*` corner, r/b chips of team 0/1, R/B sequence
    chips), then `turn`, `sequences`, every hand, known cards, draft, deck (top first),
    discards."""
    lines = ["".join(CELL_LETTERS[state.board[r * SIZE + c]] for c in range(SIZE))
             for r in range(SIZE)]
    if state.winner is not None:
        lines.append("over " + ("draw" if state.winner == -1 else str(state.winner)))
    else:
        phase = "draft" if state.phase == DRAFT_PHASE else "play"
        lines.append(f"turn {state.seat} {phase}" + (" traded" if state.trade_done else ""))
    lines.append(f"sequences {state.sequences[0]} {state.sequences[1]}")
    lines.append(f"moves {state.plies}")
    for seat, hand in enumerate(state.hands):
        lines.append(f"hand {seat}: {cards_text(hand)}")
    for seat, cards in enumerate(state.known):
        if cards:
            lines.append(f"known {seat}: {cards_text(cards)}")
    lines.append(f"draft: {cards_text(state.draft)}")
    lines.append(f"deck: {cards_text(state.deck[::-1])}")
    lines.append(f"discards: {cards_text(state.discards)}")
    return "\n".join(lines)


def parse_position(game: "SequenceGame", text: str) -> SequenceState:
    """Inverse of `position_text`. Hands, draft and deck may be left out: the cards not named
    elsewhere fill them in card order (6 a hand, 5 in the draft, the rest the deck)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    rows = [line.replace(" ", "") for line in lines[:SIZE]]
    if len(rows) < SIZE or any(len(row) != SIZE for row in rows):
        raise ParseError(f"sequence position: the first {SIZE} lines must be board rows of "
                         f"{SIZE} cells (. empty, * corner, r b chips, R B sequence chips)")
    board = []
    for r, row in enumerate(rows):
        for c, letter in enumerate(row):
            if letter not in CELL_LETTERS:
                raise ParseError(f"sequence position: {letter!r} on {square_name(r * SIZE + c)}"
                                 f" is no cell (use {CELL_LETTERS})")
            board.append(CELL_LETTERS.index(letter))
    for sq in range(SQUARES):
        if (board[sq] == CORNER_CELL) != (sq in CORNERS):
            raise ParseError(f"sequence position: the corners (a0 j0 a9 j9) and only they "
                             f"are `*`; {square_name(sq)} is wrong")
    n = game.num_players
    fields: dict[str, str] = {}
    for line in lines[SIZE:]:
        key, _, value = line.partition(":") if ":" in line else line.partition(" ")
        key = key.strip()
        if key in fields:
            raise ParseError(f"sequence position: {key!r} given twice")
        fields[key] = value.strip()
    seat, phase, trade_done, winner = 0, PLAY_PHASE, False, None
    if "turn" in fields:
        words = fields.pop("turn").split()
        if not words or not _is_count(words[0]) or int(words[0]) >= n:
            raise ParseError(f"sequence position: `turn` needs a seat 0..{n - 1}")
        seat = int(words[0])
        phase = DRAFT_PHASE if "draft" in words[1:] else PLAY_PHASE
        trade_done = "traded" in words[1:]
    elif "over" in fields:
        word = fields.pop("over")
        winner = -1 if word == "draw" else int(word) if word in ("0", "1") else None
        if winner is None:
            raise ParseError("sequence position: write `over 0`, `over 1` or `over draw`")
    sequences = [0, 0]
    if "sequences" in fields:
        words = fields.pop("sequences").split()
        if len(words) != 2 or not all(_is_count(w) for w in words):
            raise ParseError("sequence position: write `sequences <team 0> <team 1>`")
        sequences = [int(w) for w in words]
    moves_text = fields.pop("moves", "0") or "0"
    if not _is_count(moves_text):
        raise ParseError(f"sequence position: `moves {moves_text}` is not a count of moves")
    plies = int(moves_text)
    hands: list[list[int] | None] = [None] * n
    known: list[list[int]] = [[] for _ in range(n)]
    zones: dict[str, list[int] | None] = {"draft": None, "deck": None, "discards": None}
    for key, value in fields.items():
        words = key.split()
        if len(words) == 2 and words[0] in ("hand", "known") and _is_count(words[1]) \
                and int(words[1]) < n:
            target = parse_cards(value)
            if words[0] == "hand":
                hands[int(words[1])] = target
            else:
                known[int(words[1])] = target
        elif key in zones:
            zones[key] = parse_cards(value)
        else:
            raise ParseError(f"sequence position: unknown line {key!r} (turn, over, sequences, "
                             f"moves, hand <seat>, known <seat>, draft, deck, discards)")
    counts = [2] * NUM_CARDS
    for cards in [h for h in hands if h is not None] + [z for z in zones.values() if z]:
        for card in cards:
            counts[card] -= 1
    if min(counts) < 0:
        extra = [CARD_NAMES[c] for c in range(NUM_CARDS) if counts[c] < 0]
        raise ParseError(f"sequence position: more than two of {', '.join(extra)}")
    rest = [card for card in range(NUM_CARDS) for _ in range(counts[card])]
    dealt: list[list[int]] = []
    for hand in hands:
        if hand is None:
            hand, rest = rest[:6], rest[6:]
        dealt.append(hand)
    draft, deck, discards = zones["draft"], zones["deck"], zones["discards"]
    if draft is None:
        draft, rest = rest[:5], rest[5:]
    if deck is None:
        deck, rest = rest, []
    if discards is None:
        discards, rest = rest, []
    if rest:
        raise ParseError(f"sequence position: {len(rest)} of the 104 cards are nowhere "
                         f"({cards_text(rest[:8])}...); list them as discards")
    for i in range(n):
        if any(known[i].count(c) > dealt[i].count(c) for c in known[i]):
            raise ParseError(f"sequence position: known {i} lists cards not in hand {i}")
    state = SequenceState(game, board, [list(h) for h in dealt], list(draft),
                          list(deck)[::-1], list(discards), seat, phase,
                          trade_done, sequences, known, plies)
    state.winner = winner
    if winner is None:
        # An empty draft ends the game and a hand never shrinks mid-game: a text with either
        # describes no reachable position, and would leave a seat with no legal action.
        empty = [f"hand {i}" for i in range(n) if not dealt[i]]
        if not draft:
            empty.append("the draft")
        if empty:
            raise ParseError(f"sequence position: {' and '.join(empty)} empty, yet the game "
                             "is not over (write `over 0`, `over 1` or `over draw`)")
    return state


def _is_count(word: str) -> bool:
    """ASCII digits only: str.isdigit() also accepts '²', which int() refuses."""
    return word.isascii() and word.isdigit()


# --- the board for a person ------------------------------------------------------------------
def board_picture(state: SequenceState) -> str:
    """The 10x10 board with each space's card and chip (r/b team 0/1, R/B in a sequence,
    ** the free corners), whose turn it is, the draft, and the hands the reader may see."""
    marks = {EMPTY: " ", CHIP[0]: "r", CHIP[1]: "b", SEQ_CHIP[0]: "R", SEQ_CHIP[1]: "B"}
    lines = ["    " + "".join(f" {chr(ord('a') + c)}  " for c in range(SIZE))]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            sq = r * SIZE + c
            cell = state.board[sq]
            cells.append(" ** " if cell == CORNER_CELL
                         else f" {CARD_NAMES[LAYOUT[sq]]}{marks[cell]}")
        lines.append(f" {r}  " + "".join(cells))
    n = state.game.num_players
    teams = "; ".join(f"team {t} ({'rb'[t]}, seats {' '.join(str(s) for s in range(t, n, 2))}):"
                      f" {state.sequences[t]} sequence{'' if state.sequences[t] == 1 else 's'}"
                      for t in (0, 1))
    lines.append(teams)
    if state.winner is not None:
        lines.append("game over: " + ("draw" if state.winner == -1
                                      else f"team {state.winner} wins"))
    else:
        step = ("draft" if state.phase == DRAFT_PHASE else
                "trade or decline" if state.in_trade_step() else "play")
        lines.append(f"player {state.seat} to {step}")
    lines.append(f"draft: {cards_text(state.draft)}; deck: {len(state.deck)} cards; "
                 f"discards: {len(state.discards)}"
                 + (f" (last {CARD_NAMES[state.discards[-1]]})" if state.discards else ""))
    for seat, hand in enumerate(state.hands):
        if state.viewer is None or state.viewer == seat:
            mine = " (yours)" if state.viewer == seat else ""
            lines.append(f"hand {seat}{mine}: {cards_text(sorted(hand))}")
        else:
            seen = state.known[seat]
            lines.append(f"hand {seat}: {len(hand)} cards"
                         + (f", seen drafting {cards_text(sorted(seen))}" if seen else ""))
    return "\n".join(lines)


__all__ = ["action_text", "read_action", "parse_action", "from_framework",
           "framework_actions", "to_framework", "position_text", "parse_position",
           "board_picture", "play_action", "why_illegal"]

"""Cards, the board layout and square names of Sequence (seed 002, the COMP90054 framework).

Cards are ints 0..51: `rank_index * 4 + suit_index` with ranks `23456789tjqka` and suits
`dchs`, written as the framework writes them (`7h`, `th` for the ten of hearts, `jd`).
Squares are ints 0..99, `row * 10 + column`, row 0 at the top as in the framework's
`coords=(row, column)`; in text a square is its column letter a-j and its row digit 0-9, so
the framework's (4, 5) is `f4`.
"""

from __future__ import annotations

from ...core.game import ParseError

RANKS = "23456789tjqka"
SUITS = "dchs"
NUM_CARDS = 52
SIZE = 10
SQUARES = SIZE * SIZE

CARD_NAMES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
CARD_IDS: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}
TWO_EYED_JACKS = frozenset((CARD_IDS["jd"], CARD_IDS["jc"]))
"""Place a chip on any empty space."""
ONE_EYED_JACKS = frozenset((CARD_IDS["jh"], CARD_IDS["js"]))
"""Remove one ordinary opponent chip."""
JACKS = TWO_EYED_JACKS | ONE_EYED_JACKS

LAYOUT_TEXT = """
jk 2s 3s 4s 5s 6s 7s 8s 9s jk
6c 5c 4c 3c 2c ah kh qh th ts
7c as 2d 3d 4d 5d 6d 7d 9h qs
8c ks 6c 5c 4c 3c 2c 8d 8h ks
9c qs 7c 6h 5h 4h ah 9d 7h as
tc ts 8c 7h 2h 3h kh td 6h 2d
qc 9s 9c 8h 9h th qh qd 5h 3d
kc 8s tc qc kc ac ad kd 4h 4d
ac 7s 6s 5s 4s 3s 2s 2h 3h 5d
jk ad kd qd td 9d 8d 7d 6d jk
"""
CORNER = -1
LAYOUT: tuple[int, ...] = tuple(CORNER if name == "jk" else CARD_IDS[name]
                                for name in LAYOUT_TEXT.split())
"""LAYOUT[square] = the card printed on it, or CORNER for the four free corners."""
CORNERS: tuple[int, ...] = tuple(sq for sq in range(SQUARES) if LAYOUT[sq] == CORNER)
CARD_SQUARES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sq for sq in range(SQUARES) if LAYOUT[sq] == card) for card in range(NUM_CARDS))
"""The two squares of each non-jack card (jacks have none)."""
HEART: tuple[int, ...] = (44, 45, 54, 55)
"""The heart of the board (2h 3h 4h 5h): (4,4) (4,5) (5,4) (5,5)."""

FULL_DECK: tuple[int, ...] = tuple(card for card in range(NUM_CARDS) for _ in range(2))
"""Two 52-card decks, jacks included (104 cards)."""


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """`7h`, `TH`, `10h`, `Js` -> a card id; ParseError naming the text otherwise."""
    cleaned = text.strip().lower().replace("10", "t")
    if cleaned in CARD_IDS:
        return CARD_IDS[cleaned]
    raise ParseError(f"{text!r} is not a card: write rank then suit, e.g. 7h, th, jd, as "
                     f"(ranks {RANKS}, suits {SUITS})")


def square_name(square: int) -> str:
    row, col = divmod(square, SIZE)
    return f"{chr(ord('a') + col)}{row}"


def parse_square(text: str) -> int:
    """`e4` -> row 4, column e (= framework coords (4, 4)); ParseError otherwise."""
    cleaned = text.strip().lower()
    if len(cleaned) != 2 or not ("a" <= cleaned[0] <= "j") or not "0" <= cleaned[1] <= "9":
        raise ParseError(f"{text!r} is not a square: write a column a-j and a row 0-9, "
                         "e.g. e4 (row 4, column 4 of the framework)")
    return int(cleaned[1]) * SIZE + ord(cleaned[0]) - ord("a")


def cards_text(cards: list[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards) or "-"


def parse_cards(text: str) -> list[int]:
    cleaned = text.replace(",", " ").split()
    if cleaned == ["-"]:
        return []
    return [parse_card(word) for word in cleaned]


assert len(LAYOUT) == SQUARES and len(CORNERS) == 4
assert all(len(CARD_SQUARES[c]) == (0 if c in JACKS else 2) for c in range(NUM_CARDS))

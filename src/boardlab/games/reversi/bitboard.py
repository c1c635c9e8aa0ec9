"""Reversi bitboards in plain Python: one 64-bit int per colour, bit i = square i.

Square i is row i // 8 (rows 1-8 from the top) and column i % 8 (a-h from the left), so a1 is
bit 0, h1 bit 7, a2 bit 8 and h8 bit 63, the numbering of Othello books and of OpenSpiel.
These functions are the readable reference; `kernels.py` repeats them in numba.
"""

from __future__ import annotations

SIZE = 8
SQUARES = SIZE * SIZE
FULL = (1 << SQUARES) - 1
INNER_COLUMNS = 0x7E7E7E7E7E7E7E7E
"""Every square outside columns a and h: a run of discs moving sideways must stay in here,
or a shift by 1, 7 or 9 would wrap from one row's edge to the next row's other edge."""

DIRECTIONS = ((1, INNER_COLUMNS), (SIZE, FULL), (SIZE - 1, INNER_COLUMNS),
              (SIZE + 1, INNER_COLUMNS))
"""(shift, mask) for the four lines through a square: east-west 1, north-south 8, the
diagonals 7 and 9; each line is walked both ways (<< towards h8, >> towards a1)."""

COLUMN_NAMES = "abcdefgh"


def square_name(square: int) -> str:
    """0 -> 'a1', 63 -> 'h8'."""
    row, col = divmod(square, SIZE)
    return f"{COLUMN_NAMES[col]}{row + 1}"


def parse_square(text: str) -> int | None:
    """'d3' -> 19; None if `text` is not a square name (the caller words the error)."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in COLUMN_NAMES or not "1" <= text[1] <= "8":
        return None
    return (int(text[1]) - 1) * SIZE + COLUMN_NAMES.index(text[0])


# ROW_SQUARES[row][byte]: the squares of that row whose bits are set in `byte`.
ROW_SQUARES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(row * SIZE + col for col in range(SIZE) if byte >> col & 1)
          for byte in range(256))
    for row in range(SIZE)
)


def squares_of(bits: int) -> list[int]:
    """The set bits of `bits`, ascending (a byte at a time, from a table)."""
    out: list[int] = []
    row = 0
    while bits:
        byte = bits & 0xFF
        if byte:
            out += ROW_SQUARES[row][byte]
        bits >>= 8
        row += 1
    return out


def legal_moves(own: int, opp: int) -> int:
    """Bitmask of the empty squares where `own` may play: each flanks a run of `opp` discs
    ending on an `own` disc, along at least one of the eight directions.

    For each direction, grow runs of opponent discs out of our discs: one step (x), a second
    step (y), then two double steps through `pairs` (opponent discs whose neighbour one step
    back is also an opponent disc), covering runs of up to 6, the longest possible. A run
    that does not reach a second disc skips the rest. The directions are written out because
    a Python loop costs more than the work.
    """
    empty = ~(own | opp) & FULL
    o = opp & INNER_COLUMNS
    moves = 0
    # east (<< 1) and west (>> 1)
    x = (own << 1) & o
    if x:
        y = (x << 1) & o
        if y:
            pairs = o & (o << 1)
            x |= y
            x |= (x << 2) & pairs
            x |= (x << 2) & pairs
        moves |= x << 1
    x = (own >> 1) & o
    if x:
        y = (x >> 1) & o
        if y:
            pairs = o & (o >> 1)
            x |= y
            x |= (x >> 2) & pairs
            x |= (x >> 2) & pairs
        moves |= x >> 1
    # south-west (<< 7) and north-east (>> 7)
    x = (own << 7) & o
    if x:
        y = (x << 7) & o
        if y:
            pairs = o & (o << 7)
            x |= y
            x |= (x << 14) & pairs
            x |= (x << 14) & pairs
        moves |= x << 7
    x = (own >> 7) & o
    if x:
        y = (x >> 7) & o
        if y:
            pairs = o & (o >> 7)
            x |= y
            x |= (x >> 14) & pairs
            x |= (x >> 14) & pairs
        moves |= x >> 7
    # south-east (<< 9) and north-west (>> 9)
    x = (own << 9) & o
    if x:
        y = (x << 9) & o
        if y:
            pairs = o & (o << 9)
            x |= y
            x |= (x << 18) & pairs
            x |= (x << 18) & pairs
        moves |= x << 9
    x = (own >> 9) & o
    if x:
        y = (x >> 9) & o
        if y:
            pairs = o & (o >> 9)
            x |= y
            x |= (x >> 18) & pairs
            x |= (x >> 18) & pairs
        moves |= x >> 9
    # south (<< 8) and north (>> 8): no wrap, so the whole opponent board
    x = (own << 8) & opp
    if x:
        y = (x << 8) & opp
        if y:
            pairs = opp & (opp << 8)
            x |= y
            x |= (x << 16) & pairs
            x |= (x << 16) & pairs
        moves |= x << 8
    x = (own >> 8) & opp
    if x:
        y = (x >> 8) & opp
        if y:
            pairs = opp & (opp >> 8)
            x |= y
            x |= (x >> 16) & pairs
            x |= (x >> 16) & pairs
        moves |= x >> 8
    return moves & empty


def flips(own: int, opp: int, square: int) -> int:
    """Bitmask of the `opp` discs that `own` turns over by playing on `square` (0 if none,
    which means the move is illegal). Does not check that `square` is empty."""
    move = 1 << square
    flipped = 0
    for shift, mask in DIRECTIONS:
        o = opp & mask
        run = 0
        x = (move << shift) & o
        while x:
            run |= x
            end = x << shift
            x = end & o
        if run and end & own:
            flipped |= run
        run = 0
        x = (move >> shift) & o
        while x:
            run |= x
            end = x >> shift
            x = end & o
        if run and end & own:
            flipped |= run
    return flipped

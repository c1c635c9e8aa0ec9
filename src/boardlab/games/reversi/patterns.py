"""Pattern tables: Reversi's tuned evaluation (`eval=tuned`), as Logistello and Edax learn it.

A pattern is a fixed run of squares (an edge, a corner's 3x3 block, a line, a diagonal). Its
contents, each square empty, the mover's or the opponent's, are a number in base 3 that
indexes a table of values; every image of the pattern under the board's eight symmetries
reads the same table, and the table is symmetric where the pattern maps onto itself (an edge
read from either end). A position's value for the side to move is the sum of its patterns'
entries, plus per-count weights of three counts: mobility (the mover's moves minus the
opponent's), potential mobility (empty squares beside the opponent's discs minus those beside
the mover's) and a tempo constant. Openings and endings want different values, so there are
STAGES sets of tables, anchored at evenly spaced disc counts, and a position between two
anchors takes their values blended linearly (the shares are Texel features too).

The tables start from the `mobility` heuristic (heuristics.py), which they hold exactly:
each square's table weight lives in one pattern (corners and X-squares in the corner block,
where whether the corner is taken is seen; the rest of an edge, C-squares included, in the
edge; the inner squares half in their row and half in their column), the edge-anchored discs
are runs inside an edge (the corner itself counted in the corner block), and mobility and
potential mobility are the counts (tests/games/reversi/test_reversi_patterns.py checks
`mobility_value` against the tables on random positions). Texel's method (learn/texel.py,
`boardlab train reversi texel`) then fits them to the results of games.

Values are integers in 1/SCALE of the heuristics' points, each stage's sum exact, so that the
Python evaluator here and its compiled twin (search.py) agree to the bit.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ...core.game import LinearEvaluation, State
from .bitboard import SIZE, legal_moves
from .heuristics import (EDGE_STABLE_WEIGHT, FULL, MOBILITY_WEIGHT, POSITION_WEIGHTS,
                         POTENTIAL_MOBILITY_WEIGHT, neighbours)

Square = tuple[int, int]

PATTERN_KINDS: tuple[tuple[str, tuple[Square, ...]], ...] = (
    ("corner", tuple((row, col) for row in range(3) for col in range(3))),
    ("edge", tuple((0, col) for col in range(SIZE))),
    ("line2", tuple((1, col) for col in range(SIZE))),
    ("line3", tuple((2, col) for col in range(SIZE))),
    ("line4", tuple((3, col) for col in range(SIZE))),
    ("diagonal8", tuple((i, i) for i in range(8))),
    ("diagonal7", tuple((i, i + 1) for i in range(7))),
    ("diagonal6", tuple((i, i + 2) for i in range(6))),
    ("diagonal5", tuple((i, i + 3) for i in range(5))),
    ("diagonal4", tuple((i, i + 4) for i in range(4))),
)
"""Each kind of pattern by name and its squares (row, column; a1 is (0, 0)) in reading order:
the first square is the lowest base-3 digit."""
SCALARS = ("mobility", "potential_mobility", "tempo")
"""The counts after the patterns in each stage's row: their entries are weights per unit."""
STAGES = 5
"""Sets of tables, anchored at 4, 19, 34, 49 and 64 discs."""
SPAN = 60
"""Disc counts from the first anchor to the last (4 to 64)."""
SCALE = 8
"""The compiled values' units per point: a table entry is rounded to 1/8 point."""
TUNED_FILE = "reversi-tuned-eval.npz"

_SYMMETRIES: tuple[Callable[[int, int], Square], ...] = (
    lambda r, c: (r, c), lambda r, c: (c, 7 - r), lambda r, c: (7 - r, 7 - c),
    lambda r, c: (7 - c, r), lambda r, c: (r, 7 - c), lambda r, c: (7 - r, c),
    lambda r, c: (c, r), lambda r, c: (7 - c, 7 - r))
"""The eight symmetries of the square board."""


def _images(base: tuple[Square, ...]) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """(one reading, as square numbers, of each distinct image of `base`; the readings of
    `base`'s own squares, as permutations of its positions: the pattern's self-symmetries)."""
    instances: list[tuple[int, ...]] = []
    seen: set[frozenset[int]] = set()
    readings: list[tuple[int, ...]] = []
    position = {square: i for i, square in enumerate(base)}
    for symmetry in _SYMMETRIES:
        image = tuple(symmetry(r, c) for r, c in base)
        squares = frozenset(r * SIZE + c for r, c in image)
        if squares not in seen:
            seen.add(squares)
            instances.append(tuple(r * SIZE + c for r, c in image))
        if set(image) == set(base):
            reading = tuple(position[square] for square in image)
            if reading not in readings:
                readings.append(reading)
    return instances, readings


def _layout() -> tuple[list[tuple[int, ...]], list[int], list[int], np.ndarray, int]:
    """(every pattern instance's squares, its kind, its kind's first column; the canonical
    column of each column; the width of one stage's row)."""
    instances: list[tuple[int, ...]] = []
    kinds: list[int] = []
    offsets: list[int] = []
    canonical: list[np.ndarray] = []
    offset = 0
    for kind, (_, base) in enumerate(PATTERN_KINDS):
        images, readings = _images(base)
        instances += images
        kinds += [kind] * len(images)
        offsets += [offset] * len(images)
        length = len(base)
        digits = _digits(length)
        powers = 3 ** np.arange(length)
        # A configuration and its self-symmetric readings share the smallest of their indices.
        canonical.append(offset + np.min([digits[:, list(reading)] @ powers
                                          for reading in readings], axis=0))
        offset += 3 ** length
    canonical.append(offset + np.arange(len(SCALARS)))
    return instances, kinds, offsets, np.concatenate(canonical), offset + len(SCALARS)


@functools.cache
def _digits(length: int) -> np.ndarray:
    """digits[i, j]: the j-th base-3 digit of i, for i below 3**length."""
    return (np.arange(3 ** length)[:, None] // 3 ** np.arange(length)) % 3


INSTANCES, INSTANCE_KIND, INSTANCE_OFFSET, CANONICAL, WIDTH = _layout()
"""Every pattern instance (squares in reading order), its kind (index into PATTERN_KINDS),
its kind's first column; the column each column shares its entry with; a stage row's width."""
SCALAR_COLUMN = WIDTH - len(SCALARS)
SHAPE = (STAGES, WIDTH)


def stage_shares(discs: int) -> tuple[int, int]:
    """(lower anchor stage, the upper anchor's share in 1/SPAN): a position with `discs`
    discs is ((SPAN - share) * stage + share * (stage + 1)) / SPAN."""
    position = (discs - 4) * (STAGES - 1)
    stage, share = divmod(position, SPAN)
    if stage >= STAGES - 1:
        return STAGES - 2, SPAN
    return stage, share


def pattern_columns(own: int, opp: int) -> list[int]:
    """Each instance's column in a stage row (before CANONICAL): its kind's first column
    plus the base-3 number of its squares (1 = `own`'s disc, 2 = `opp`'s)."""
    columns = []
    for squares, offset in zip(INSTANCES, INSTANCE_OFFSET):
        index = 0
        for square in reversed(squares):
            index = index * 3 + (own >> square & 1) + 2 * (opp >> square & 1)
        columns.append(offset + index)
    return columns


def counts(own: int, opp: int) -> tuple[int, int, int]:
    """The SCALARS for the side holding `own` (to move)."""
    empty = ~(own | opp) & FULL
    return (legal_moves(own, opp).bit_count() - legal_moves(opp, own).bit_count(),
            (neighbours(opp) & empty).bit_count() - (neighbours(own) & empty).bit_count(),
            1)


def features(state: State) -> tuple[np.ndarray, np.ndarray]:
    """Texel's view (`LinearEvaluation.features`): flat indices into SHAPE and their signs for
    player 0's value, each feature twice, once per anchor stage with its share."""
    mover = state.current_player()
    own, opp = state.discs(mover), state.discs(1 - mover)  # type: ignore[attr-defined]
    stage, share = stage_shares((own | opp).bit_count())
    columns = [int(CANONICAL[column]) for column in pattern_columns(own, opp)]
    columns += [SCALAR_COLUMN + i for i in range(len(SCALARS))]
    amounts = [1] * (len(columns) - len(SCALARS)) + list(counts(own, opp))
    sign = 1.0 if mover == 0 else -1.0
    index = [stage * WIDTH + c for c in columns] + [(stage + 1) * WIDTH + c for c in columns]
    weight = ([sign * a * (SPAN - share) / SPAN for a in amounts]
              + [sign * a * share / SPAN for a in amounts])
    return np.array(index, np.int32), np.array(weight, np.float32)


# --- the starting tables ------------------------------------------------------------------

def _signed(digit: np.ndarray, value: float | np.ndarray) -> np.ndarray:
    """`value` for the mover's disc, minus it for the opponent's, 0 for an empty square."""
    return np.where(digit == 1, value, np.where(digit == 2, -np.asarray(value), 0.0))


def _weight(row: int, col: int) -> int:
    return POSITION_WEIGHTS[row * SIZE + col]


def _edge_run(digits: np.ndarray, side: int) -> np.ndarray:
    """How many of an edge's six inner squares are on an unbroken run of `side`'s discs from
    a corner it holds (edge-anchored), per configuration."""
    held = digits == side
    anchored = np.zeros(held.shape, dtype=bool)
    for start, step in ((0, 1), (SIZE - 1, -1)):
        run = np.ones(len(held), dtype=bool)
        for col in range(start, start + step * SIZE, step):
            run &= held[:, col]
            anchored[:, col] |= run
    return anchored[:, 1:SIZE - 1].sum(axis=1)


def starting_row(settled: bool) -> np.ndarray:
    """One stage's row holding the hand-written heuristic: `mobility` when `settled` (X- and
    C-squares weigh nothing once their corner is taken, anchored edge discs, the two counts),
    else `positional` (the plain table)."""
    row = np.zeros(WIDTH)
    for (name, base), offset in zip(PATTERN_KINDS, _kind_offsets()):
        digits = _digits(len(base))
        values = np.zeros(len(digits))
        if name == "corner":
            corner, x_square = base.index((0, 0)), base.index((1, 1))
            corner_open = digits[:, corner] == 0 if settled else True
            stable = EDGE_STABLE_WEIGHT if settled else 0
            values += _signed(digits[:, corner], _weight(0, 0) + stable)
            values += np.where(corner_open, _signed(digits[:, x_square], _weight(1, 1)), 0.0)
        elif name == "edge":
            for col in range(1, SIZE - 1):
                weight = _signed(digits[:, col], _weight(0, col))
                near = 0 if col == 1 else SIZE - 1 if col == SIZE - 2 else None
                if settled and near is not None:  # a C-square: only while its corner is open
                    weight = np.where(digits[:, near] == 0, weight, 0.0)
                values += weight
            if settled:
                values += EDGE_STABLE_WEIGHT * (_edge_run(digits, 1) - _edge_run(digits, 2))
        elif name.startswith("line"):
            for position, (r, c) in enumerate(base):
                if 0 < c < SIZE - 1 and (r, c) not in ((1, 1), (1, SIZE - 2)):
                    values += _signed(digits[:, position], _weight(r, c) / 2)
        row[offset:offset + len(values)] = values
    if settled:
        row[SCALAR_COLUMN:SCALAR_COLUMN + 2] = (MOBILITY_WEIGHT, POTENTIAL_MOBILITY_WEIGHT)
    return row


def _kind_offsets() -> list[int]:
    return [INSTANCE_OFFSET[INSTANCE_KIND.index(kind)] for kind in range(len(PATTERN_KINDS))]


def parameters(name: str) -> np.ndarray:
    """`LinearEvaluation.parameters`: the tables of the evaluator `name` (SHAPE)."""
    if name == "tuned":
        return tuned_table()
    if name not in ("mobility", "positional"):
        raise ValueError(f"{name!r} is not linear in the pattern tables (mobility, positional "
                         f"and tuned are)")
    return np.tile(starting_row(name == "mobility"), (STAGES, 1))


def linear_evaluation() -> LinearEvaluation:
    # A disc count: no captures, so every position is quiet (an infinite unit lets all pass).
    return LinearEvaluation(SHAPE, features, parameters, np.zeros(SHAPE, dtype=bool),
                            float("inf"))


# --- the tuned tables --------------------------------------------------------------------------

def read_tables(path: str | Path) -> np.ndarray:
    """The pattern tables (SHAPE, float64) of a tuned evaluation file; a BoardLabError of one
    sentence naming the file when it is not one."""
    from ..chesslike import read_tuned_table  # the loader every tuned table shares

    return read_tuned_table(path, "reversi", SHAPE)


@functools.cache
def tuned_table() -> np.ndarray:
    """The shipped tuned tables (boardlab/models/TUNED_FILE)."""
    from ..chesslike import shipped_tuned_rows

    return np.array(shipped_tuned_rows("reversi", TUNED_FILE, read_tables))


def compiled_table(table: np.ndarray) -> np.ndarray:
    """`table` as the evaluators read it: every column holding its canonical entry, in
    1/SCALE points, int32."""
    return np.rint(np.asarray(table)[:, CANONICAL] * SCALE).astype(np.int32)


@functools.cache
def tuned_compiled_table() -> np.ndarray:
    return compiled_table(tuned_table())


def table_value(table: np.ndarray, own: int, opp: int) -> float:
    """The value for the side holding `own` (to move) of `compiled_table`'s `table`, in
    points: each anchor stage's sum, blended (search.py computes the same integers)."""
    stage, share = stage_shares((own | opp).bit_count())
    columns = pattern_columns(own, opp)
    amounts = counts(own, opp)
    low = sum(int(table[stage, c]) for c in columns)
    high = sum(int(table[stage + 1, c]) for c in columns)
    for i, amount in enumerate(amounts):
        low += amount * int(table[stage, SCALAR_COLUMN + i])
        high += amount * int(table[stage + 1, SCALAR_COLUMN + i])
    return ((SPAN - share) * low + share * high) / (SPAN * SCALE)


def tuned_value(state: State, player: int) -> float:
    """The `tuned` heuristic: the shipped pattern tables' value for `player`."""
    own, opp = state.discs(player), state.discs(1 - player)  # type: ignore[attr-defined]
    if state.current_player() == player:
        return table_value(tuned_compiled_table(), own, opp)
    return -table_value(tuned_compiled_table(), opp, own)

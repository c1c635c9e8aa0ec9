"""Xiangqi evaluation, from `player`'s point of view: material plus hand-set piece-square
tables (`positional`), and a midgame and an endgame piece-square table blended by the phase
with an activity term, fitted by Texel's method to a teacher engine's evaluations (`tuned`,
read from models/xiangqi-tuned-eval.npz; `boardlab train xiangqi texel` makes it: README.md).

Values in soldier units x10 (a soldier 10, a chariot 90). The tables are small hand-set
bonuses, written for red (row 9 = red's back rank) and mirrored for black: soldiers gain as
they cross the river and near the enemy palace, horses and cannons like the centre, chariots
like open files near the enemy. The general's value is 0: both always stand on the board.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...core.game import LinearEvaluation
from ..chesslike import material_and_position as _score
from ..chesslike import (Board, piece_square_parameters, read_tuned_table,
                         shipped_tuned_rows, tapered_sum, with_counted_features,
                         with_endgame_table)
from .game import XiangqiState
from .rules import COLS, PALACE, ROWS, SOLDIER, SQUARES, pseudo_moves

if TYPE_CHECKING:  # evalnet.py compiles with numba: imported where it is used
    from .evalnet import QuantisedNetwork

PIECE_VALUES = (0, 0, 20, 20, 40, 90, 45, 10)
"""Indexed by piece type: -, general, advisor, elephant, horse, chariot, cannon, soldier."""


def _table(bonus) -> list[float]:
    return [float(bonus(*divmod(s, COLS))) for s in range(SQUARES)]


def _soldier(row: int, col: int) -> float:
    crossed = row <= 4
    if not crossed:
        return 0.0
    advance = 4 - row  # 0 on the far bank, 4 on black's back rank
    central = 2 - abs(col - 4) // 2
    # Reaching the back rank makes a soldier almost useless: it can only step sideways.
    return 10 + 2 * min(advance, 3) + 2 * central - (6 if row == 0 else 0)


def _central(row: int, col: int) -> float:
    return 4 - abs(col - 4) - abs(row - 4.5) / 2


PIECE_SQUARE = [
    [0.0] * SQUARES,                                        # (unused type 0)
    _table(lambda r, c: -2.0 * (r != 9) - 2.0 * (c != 4)),  # general: stay home, centre file
    [0.0] * SQUARES,                                        # advisor
    [0.0] * SQUARES,                                        # elephant
    _table(lambda r, c: 1.5 * _central(r, c)),              # horse
    _table(lambda r, c: 2.0 * (r <= 4) + (2.0 if c in (3, 5) else 0.0)),   # chariot
    _table(lambda r, c: 3.0 if c == 4 else 1.0 if c in (1, 7) else 0.0),  # cannon
    _table(_soldier),                                       # soldier
]
assert len(PIECE_SQUARE) == SOLDIER + 1 and ROWS == 10


def material_and_position(state: XiangqiState, player: int) -> float:
    """Material + piece-square bonus of `player` minus the opponent's."""
    return _score(state.board, player, PIECE_VALUES, PIECE_SQUARE, ROWS, COLS)


ACTIVITY = len(PIECE_VALUES)
"""The row of a heuristic's parameters (`parameters`) below its piece-square table that holds
its activity weights: [ACTIVITY, kind] per pseudo-legal move of a piece of that type (1-7),
[ACTIVITY, ZONE] per pseudo-legal move of any piece onto a square of the enemy palace
(`activity`); the rest of the row is 0."""
ZONE = SOLDIER + 1
"""The activity row's column of the moves into the enemy palace (columns 1-7: by piece type)."""
ENDGAME = ACTIVITY + 1
"""The first row of a heuristic's endgame piece-square table (`parameters`): rows ENDGAME + k
are piece type k's, blended with the midgame rows k by the phase (`tuned`)."""
PHASE_WEIGHTS = (0, 0, 0, 0, 1, 2, 1, 0)
"""Indexed by piece type: what a piece adds to the phase (a horse or a cannon 1, a chariot 2);
all of them on the board make PHASE_MAX, the middle game."""
PHASE_MAX = 16
TUNED_FILE = "xiangqi-tuned-eval.npz"
"""The tuned table's name in boardlab/models/ (not shipped yet: `tuned_parameters`)."""


def parameters(name: str) -> np.ndarray:
    """The heuristic `name`'s (positional, tuned) parameters, shape (17, 90): the midgame
    piece-square table (value plus bonus per piece type and square, red's view) in rows 0-7,
    activity weights in row ACTIVITY (0 but for the tuned one), the endgame table in rows
    ENDGAME to ENDGAME + 7 (`positional`'s: its one table again); KeyError for another."""
    if name == "tuned":
        return np.array(tuned_parameters(), dtype=np.float64)
    bonus = {"positional": PIECE_SQUARE}[name]
    table = piece_square_parameters(PIECE_VALUES, bonus, SQUARES)
    return np.vstack([table, np.zeros((1, SQUARES)), table])


def read_tuned(path: str | Path) -> np.ndarray:
    """A tuned file's (17, 90) parameters (a BoardLabError of one sentence if it is not one).
    Older files read as they played: one of the piece-square table and the activity row ((9,
    90)) with the endgame table the same as the midgame one, one of the table alone ((8, 90))
    with the activity weights 0 as well."""
    table = read_tuned_table(path, "xiangqi", (ENDGAME + ACTIVITY, SQUARES),
                             older=((ACTIVITY + 1, SQUARES), (ACTIVITY, SQUARES)))
    if len(table) == ENDGAME + ACTIVITY:
        return table
    return np.vstack([table[:ACTIVITY], table[ACTIVITY:] if len(table) > ACTIVITY
                      else np.zeros((1, SQUARES)), table[:ACTIVITY]])


@functools.cache
def tuned_parameters() -> tuple[tuple[float, ...], ...]:
    """The shipped tuned parameters (boardlab/models/xiangqi-tuned-eval.npz), read once, as
    tuples of floats."""
    return shipped_tuned_rows("xiangqi", TUNED_FILE, read_tuned)


def activity_counts(board: Board) -> tuple[list[int], list[int]]:
    """Red's and black's counts of pseudo-legal moves (rules.pseudo_moves, the moves
    kernels.py `_pseudo` generates, before the test that the general is safe): counts[kind]
    the moves of its pieces of that type (1-7), counts[ZONE] its moves onto a square of the
    enemy palace. Integers, so the weighted sum (`activity`) does not depend on move order."""
    sides: tuple[list[int], list[int]] = ([0] * (ZONE + 1), [0] * (ZONE + 1))
    for player, counts in enumerate(sides):
        enemy_palace = PALACE[1 - player]
        for frm, to in pseudo_moves(board, player):
            counts[abs(board[frm])] += 1
            counts[ZONE] += to in enemy_palace
    return sides


def activity(board: Board, weights: Sequence[float]) -> float:
    """Red's activity minus black's: weights[kind] * (red's moves of that type minus black's)
    for kinds 1-7, then weights[ZONE] * (red's moves into black's palace minus black's into
    red's) (`activity_counts`), added in that order, as the compiled search (search.py
    `activity`) adds them, so the floats agree bit for bit."""
    red, black = activity_counts(board)
    score = 0.0
    for column in range(1, ZONE + 1):  # the piece types in order, the palace last
        score += weights[column] * (red[column] - black[column])
    return score


def phase(board: Board) -> int:
    """The game's phase: PHASE_WEIGHTS summed over the board, at most PHASE_MAX."""
    return min(sum(PHASE_WEIGHTS[abs(cell)] for cell in board), PHASE_MAX)


def with_activity(table: LinearEvaluation, parameters_of: Callable[[str], np.ndarray]
                  ) -> LinearEvaluation:
    """The tuner's view of the heuristics (`XiangqiGame.linear_evaluation`): the piece-square
    `table`'s features, and in the ACTIVITY row a feature per pseudo-legal move by piece type
    and per move into the enemy palace (`activity_counts`), red's +1 and black's -1 (of that
    row only the weights `activity` reads are free); then each piece's feature split between
    the midgame and the endgame table by the phase (chesslike.with_endgame_table).
    `parameters_of(evaluator)`: all seventeen rows."""
    def counted(board: Board) -> Iterator[tuple[int, int, int]]:
        for side, counts in zip((1, -1), activity_counts(board)):
            for column in range(1, ZONE + 1):
                yield side, column, counts[column]

    active = with_counted_features(table, lambda name: parameters_of(name)[:ENDGAME],
                                   ACTIVITY, range(1, ZONE + 1), counted)
    return with_endgame_table(active, ACTIVITY, phase, PHASE_MAX, parameters_of)


def tuned_tables(state: XiangqiState, player: int) -> float:
    """The tuned evaluation's tables alone for `player`: its midgame and endgame piece-square
    sums (material included) blended by the phase (chesslike.tapered_sum), without the
    activity term (the base of a network fitted on it: evalnet.py `network_base`)."""
    rows = tuned_parameters()
    return tapered_sum(state.board, player, rows[:ACTIVITY], rows[ENDGAME:], PHASE_WEIGHTS,
                       PHASE_MAX, ROWS, COLS)


def tuned(state: XiangqiState, player: int) -> float:
    """The tuned evaluation for `player`: its tables (`tuned_tables`) plus its activity term,
    red's minus black's."""
    rows = tuned_parameters()
    value = tuned_tables(state, player)
    if not any(rows[ACTIVITY]):
        return value
    active = activity(state.board, rows[ACTIVITY])
    return value + (active if player == 0 else -active)


def neural(state: XiangqiState, player: int) -> float:
    """`tuned` corrected by the shipped evaluation network (evalnet.py) for `player`. The
    network judges for the side to move (it was fitted so), so its correction is negated
    when `player` is not to move, as the negamax search does; the same compiled arithmetic
    the search adds (its first layer in integers, summed here from the board and updated move
    by move there), so the floats agree."""
    from .evalnet import shipped_base, shipped_quantised

    return corrected(state, player, shipped_quantised(), shipped_base())


def corrected(state: XiangqiState, player: int, network: QuantisedNetwork,
              base: str = "tuned") -> float:
    """`neural` with `network` (evalnet.py `quantise`d) in place of the shipped one, added to
    `base` (evalnet.py BASES: `tuned`, or `tuned_tables` without the activity term)."""
    from .evalnet import buffer, correction

    board = np.asarray(state.board, dtype=np.int8)  # the search's board: the same code
    judged = correction(board, state.player, network, buffer(network))
    value = tuned(state, player) if base == "tuned" else tuned_tables(state, player)
    return value + (judged if player == state.player else -judged)

"""Network and table inputs for Jungle dark chess, as seed 000 defines them."""

from __future__ import annotations

import numpy as np

from ...core.learning import Symmetry
from .game import JungleDarkState
from .rules import COLS, DIRECTIONS, HIDDEN, NUM_ACTIONS, NUM_REVEALS, ROWS, SQUARES

NETWORK_PLANES = 6
"""Seed 000's 7x8x6 = 336 input, stored channels first as (6, 7, 8)."""


def network_input(state: JungleDarkState, player: int) -> np.ndarray:
    """Planes (seed 000, DQN): 0 player 0's pieces, 1 player 1's pieces, 2 strength / 8 of
    face-up pieces (0 when face down: nobody knows it), 3 face up, 4 `player`'s pieces,
    5 the opponent's pieces."""
    board = np.asarray(state.board, dtype=np.int8).reshape(ROWS, COLS)
    planes = np.zeros((NETWORK_PLANES, ROWS, COLS), dtype=np.float32)
    planes[0] = board > 0
    planes[1] = board < 0
    magnitude = np.abs(board)
    revealed = (magnitude > 0) & (magnitude < HIDDEN)
    planes[2] = np.where(revealed, magnitude / 8.0, 0.0)
    planes[3] = revealed
    planes[4] = planes[0] if player == 0 else planes[1]
    planes[5] = planes[1] if player == 0 else planes[0]
    return planes


def network_inputs(states: list[JungleDarkState], players: list[int]) -> np.ndarray:
    """`network_input` of many positions at once, with numpy over the whole batch (the
    boards stacked into one array): batched training encodes a few hundred per step."""
    boards = np.array([state.board for state in states], dtype=np.int8).reshape(-1, ROWS, COLS)
    first = np.asarray(players) == 0
    planes = np.zeros((len(states), NETWORK_PLANES, ROWS, COLS), dtype=np.float32)
    planes[:, 0] = boards > 0
    planes[:, 1] = boards < 0
    magnitude = np.abs(boards)
    revealed = (magnitude > 0) & (magnitude < HIDDEN)
    planes[:, 2] = np.where(revealed, magnitude / 8.0, 0.0)
    planes[:, 3] = revealed
    planes[:, 4] = np.where(first[:, None, None], planes[:, 0], planes[:, 1])
    planes[:, 5] = np.where(first[:, None, None], planes[:, 1], planes[:, 0])
    return planes


def board_symmetries() -> tuple[Symmetry, ...]:
    """The board's four symmetries, the identity first, then the mirror across the middle
    column, across the middle row, and both (the half turn). Dark chess has no terrain and
    every piece steps one square orthogonally, so no rule changes under them; a move's
    direction turns with its square. Each is its own inverse, so one map serves both the
    inputs' and the actions' gathers (`Symmetry`)."""

    def square(sq: int, flip_rows: bool, flip_columns: bool) -> int:
        r, c = divmod(sq, COLS)
        return ((ROWS - 1 - r) if flip_rows else r) * COLS + ((COLS - 1 - c) if flip_columns
                                                                else c)

    def direction(d: int, flip_rows: bool, flip_columns: bool) -> int:
        dr, dc = DIRECTIONS[d]
        return DIRECTIONS.index((-dr if flip_rows else dr, -dc if flip_columns else dc))

    found = []
    for flip_rows, flip_columns in ((False, False), (False, True), (True, False), (True, True)):
        squares = [square(sq, flip_rows, flip_columns) for sq in range(SQUARES)]
        inputs = [plane * SQUARES + sq for plane in range(NETWORK_PLANES) for sq in squares]
        actions = list(squares)  # the reveals
        for action in range(NUM_REVEALS, NUM_ACTIONS):
            sq, d = divmod(action - NUM_REVEALS, 4)
            actions.append(NUM_REVEALS + squares[sq] * 4 + direction(d, flip_rows, flip_columns))
        found.append(Symmetry(np.array(inputs), np.array(actions)))
    return tuple(found)


TABULAR_FEATURES = 4
"""Seed 000's Q-learning state: 7x8x4 (owner, strength / 8, face up, occupied)."""


def tabular_state(state: JungleDarkState) -> np.ndarray:
    """(7, 8, 4): owner (1 for player 1, 0 for player 0 or empty), strength / 8 (face-up
    pieces only), face up, occupied: the seed's tabular Q-learning state."""
    board = np.asarray(state.board, dtype=np.int8).reshape(ROWS, COLS)
    features = np.zeros((ROWS, COLS, TABULAR_FEATURES), dtype=np.float32)
    magnitude = np.abs(board)
    revealed = (magnitude > 0) & (magnitude < HIDDEN)
    features[..., 0] = board < 0
    features[..., 1] = np.where(revealed, magnitude / 8.0, 0.0)
    features[..., 2] = revealed
    features[..., 3] = magnitude > 0
    return features


def tabular_key(state: JungleDarkState) -> bytes:
    """A compact exact key of the tabular state plus the side to move, for Q tables."""
    return bytes(cell & 0xFF for cell in state.board) + bytes([state.player])

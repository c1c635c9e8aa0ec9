"""Seed 000's heuristics for Jungle dark chess, each from `player`'s point of view.

Face-down pieces have no known strength, so terms about strengths count face-up pieces only,
as the seed's formulas do (P^revealed).
"""

from __future__ import annotations

from .dark import COLS, HIDDEN, NEIGHBOURS, ROWS, SQUARES, JungleDarkState
from .pieces import can_capture

GREEDY_PIECE_VALUES = {8: 100, 7: 90, 6: 80, 5: 70, 4: 60, 3: 50, 2: 40, 1: 10}
GREEDY_FACE_DOWN_VALUE = 30
GREEDY_OPPONENT_WEIGHT = 0.8       # lambda_1
GREEDY_POSITION_WEIGHT = 15 / 10   # lambda_3 / 10
GREEDY_MOBILITY_WEIGHT = 2         # lambda_2
GREEDY_SAFETY_WEIGHT = 10          # w_safety
CENTRE_COLUMNS = (COLS // 2 - 1, COLS // 2)


def greedy_heuristic(state: JungleDarkState, player: int) -> float:
    """H(s) = sum V(self) - 0.8 sum V(opp) + 1.5 sum [advance + centre] + 2 |A(s)|
    + 10 sum ThreatValue (-10 threatened, +15 threatening), seed 000's greedy heuristic.
    |A(s)| counts `player`'s own legal actions in the position."""
    board = state.board
    sign = 1 if player == 0 else -1
    own_value = opp_value = 0.0
    position = 0.0
    threat = 0
    for sq in range(SQUARES):
        cell = board[sq] * sign
        if cell == 0:
            continue
        strength = abs(cell)
        value = GREEDY_FACE_DOWN_VALUE if strength == HIDDEN else GREEDY_PIECE_VALUES[strength]
        if cell < 0:
            opp_value += value
            continue
        own_value += value
        if strength == HIDDEN:
            continue
        row, col = divmod(sq, COLS)
        position += 5 * (row if player == 0 else ROWS - 1 - row)
        position += 5 if col in CENTRE_COLUMNS else 0
        for _, nb in NEIGHBOURS[sq]:
            enemy = -board[nb] * sign
            if 0 < enemy < HIDDEN:
                if can_capture(enemy, strength):
                    threat -= 10
                elif can_capture(strength, enemy):
                    threat += 15
    mobility = len(state.actions_of(player))
    return (own_value - GREEDY_OPPONENT_WEIGHT * opp_value + GREEDY_POSITION_WEIGHT * position
            + GREEDY_MOBILITY_WEIGHT * mobility + GREEDY_SAFETY_WEIGHT * threat)


def minimax_evaluation(state: JungleDarkState, player: int,
                       piece_count_weight: float = 100.0) -> float:
    """Seed 000's minimax evaluation: w (|P_self| - |P_opp|) + 10 (sum of face-up strengths,
    self - opp) + 5 |own face down| - 10 |opp face down| + sum TacticalValue (+20 adjacent
    and can capture, -15 adjacent and can be captured). The seed's text gives w = 100, its
    boxed formula w = 1 (`minimax_evaluation_boxed`)."""
    board = state.board
    sign = 1 if player == 0 else -1
    count = strength_sum = information = tactics = 0
    for sq in range(SQUARES):
        cell = board[sq] * sign
        if cell == 0:
            continue
        if cell < 0:
            count -= 1
            if cell == -HIDDEN:
                information -= 10
            else:
                strength_sum += cell  # minus the opponent's strength
            continue
        count += 1
        if cell == HIDDEN:
            information += 5
            continue
        strength_sum += cell
        for _, nb in NEIGHBOURS[sq]:
            enemy = -board[nb] * sign
            if 0 < enemy < HIDDEN:
                if can_capture(cell, enemy):
                    tactics += 20
                elif can_capture(enemy, cell):
                    tactics -= 15
    return piece_count_weight * count + 10 * strength_sum + information + tactics


def minimax_evaluation_boxed(state: JungleDarkState, player: int) -> float:
    """The seed's boxed formula: the minimax evaluation with piece-count weight 1."""
    return minimax_evaluation(state, player, piece_count_weight=1.0)


def nearest_enemy_terms(state: JungleDarkState, player: int) -> tuple[float, float]:
    """Seed 000's positional terms (its Q-learning reward R_Pos): for each of `player`'s
    face-up pieces i and the nearest enemy piece (Manhattan distance d),
    Opp(i) = 3 / (1 + d) if i can capture it, Threat(i) = -4 / (1 + d) if it can capture i.
    A face-down enemy counts with the probability that its hidden strength is one i can
    capture (or one that captures i). Returns (sum of Opp, sum of Threat <= 0)."""
    board = state.board
    sign = 1 if player == 0 else -1
    enemies = [(sq, -board[sq] * sign) for sq in range(SQUARES) if board[sq] * sign < 0]
    if not enemies:
        return 0.0, 0.0
    enemy_pool = state.hidden_strengths(1 - player)
    opp = threat = 0.0
    for sq in range(SQUARES):
        strength = board[sq] * sign
        if not 0 < strength < HIDDEN:
            continue
        row, col = divmod(sq, COLS)
        distance, enemy = min((abs(row - e // COLS) + abs(col - e % COLS), s) for e, s in enemies)
        if enemy == HIDDEN:
            if not enemy_pool:
                continue
            win = sum(can_capture(strength, k) for k in enemy_pool) / len(enemy_pool)
            lose = sum(can_capture(k, strength) for k in enemy_pool) / len(enemy_pool)
        else:
            win, lose = float(can_capture(strength, enemy)), float(can_capture(enemy, strength))
        opp += win * 3.0 / (1 + distance)
        threat -= lose * 4.0 / (1 + distance)
    return opp, threat

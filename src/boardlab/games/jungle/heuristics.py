"""Seed 000's heuristics for Jungle dark chess, each from `player`'s point of view.

Face-down pieces have no known strength, so terms about strengths count face-up pieces only,
as the seed's formulas do (P^revealed). The seed's formulas are here exactly (`course_*`), and
the defaults BoardLab's agents use add the seed's own nearest-enemy term (R_Pos, from its
Q-learning reward) so that pieces hunt; README.md beside this file gives the measurements
behind that choice.
"""

from __future__ import annotations

from functools import lru_cache

from ...core.game import Evaluators
from .game import JungleDarkState
from .rules import COLS, HIDDEN, NEIGHBOURS, ROWS, SQUARES
from .pieces import can_capture

GREEDY_PIECE_VALUES = {8: 100, 7: 90, 6: 80, 5: 70, 4: 60, 3: 50, 2: 40, 1: 10}
GREEDY_FACE_DOWN_VALUE = 30
GREEDY_OPPONENT_WEIGHT = 0.8       # lambda_1
GREEDY_POSITION_WEIGHT = 15 / 10   # lambda_3 / 10
GREEDY_MOBILITY_WEIGHT = 2         # lambda_2
GREEDY_SAFETY_WEIGHT = 10          # w_safety
CENTRE_COLUMNS = (COLS // 2 - 1, COLS // 2)

HUNT_WEIGHT = 100.0
"""Weight of the nearest-enemy term in BoardLab's default evaluations (measured, README)."""
GREEDY_SIMPLIFY_WEIGHT = 3000.0
"""Weight of (own - enemy pieces) / all pieces in the default greedy: when ahead, an even
trade raises it, so the side ahead trades down instead of drifting into the no-progress draw."""
SIMPLIFY_WEIGHT = 10000.0
"""The same term's weight in the default minimax evaluation (measured, README)."""
DEFAULT_GREEDY_SAFETY_WEIGHT = 1.0
"""The default greedy's w_safety: at the seed's 10 a threat (+150) outweighs any capture
(at most 0.8 x 100), so the seed's greedy keeps threatening and never takes (README)."""

# Lookup tables: the evaluations run in search inner loops.
CAPTURES = [[1 <= a <= 8 and 1 <= d <= 8 and can_capture(a, d) for d in range(10)]
            for a in range(10)]
DISTANCE = [[abs(a // COLS - b // COLS) + abs(a % COLS - b % COLS) for b in range(SQUARES)]
            for a in range(SQUARES)]


def greedy_heuristic(state: JungleDarkState, player: int,
                     safety_weight: float = GREEDY_SAFETY_WEIGHT) -> float:
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
                if CAPTURES[enemy][strength]:
                    threat -= 10
                elif CAPTURES[strength][enemy]:
                    threat += 15
    mobility = len(state.actions_of(player))
    return (own_value - GREEDY_OPPONENT_WEIGHT * opp_value + GREEDY_POSITION_WEIGHT * position
            + GREEDY_MOBILITY_WEIGHT * mobility + safety_weight * threat)


def minimax_evaluation(state: JungleDarkState, player: int,
                       piece_count_weight: float = 100.0, simplify_weight: float = 0.0) -> float:
    """Seed 000's minimax evaluation: w (|P_self| - |P_opp|) + 10 (sum of face-up strengths,
    self - opp) + 5 |own face down| - 10 |opp face down| + sum TacticalValue (+20 adjacent
    and can capture, -15 adjacent and can be captured). The seed's text gives w = 100, its
    boxed formula w = 1. `simplify_weight` adds BoardLab's trade-when-ahead term (0 = seed)."""
    board = state.board
    own_pieces = enemies = 0
    sign = 1 if player == 0 else -1
    count = strength_sum = information = tactics = 0
    for sq in range(SQUARES):
        cell = board[sq] * sign
        if cell == 0:
            continue
        if cell < 0:
            count -= 1
            enemies += 1
            if cell == -HIDDEN:
                information -= 10
            else:
                strength_sum += cell  # minus the opponent's strength
            continue
        count += 1
        own_pieces += 1
        if cell == HIDDEN:
            information += 5
            continue
        strength_sum += cell
        for _, nb in NEIGHBOURS[sq]:
            enemy = -board[nb] * sign
            if 0 < enemy < HIDDEN:
                if CAPTURES[cell][enemy]:
                    tactics += 20
                elif CAPTURES[enemy][cell]:
                    tactics -= 15
    value = piece_count_weight * count + 10 * strength_sum + information + tactics
    if simplify_weight != 0.0:
        value = value + simplify_weight * count / (own_pieces + enemies)
    return value


@lru_cache(maxsize=None)
def _odds_against_hidden(hidden_mask: int, strength: int) -> tuple[float, float]:
    """(P(strength captures a face-down enemy), P(it captures strength)) over its pool."""
    pool = [k for k in range(1, 9) if hidden_mask >> k & 1]
    if not pool:
        return 0.0, 0.0
    return (sum(CAPTURES[strength][k] for k in pool) / len(pool),
            sum(CAPTURES[k][strength] for k in pool) / len(pool))


def nearest_enemy_terms(state: JungleDarkState, player: int,
                        trade_when_ahead: bool = False) -> tuple[float, float]:
    """Seed 000's positional terms (its Q-learning reward R_Pos): for each of `player`'s
    face-up pieces i and the nearest enemy piece (Manhattan distance d),
    Opp(i) = 3 / (1 + d) if i can capture it, Threat(i) = -4 / (1 + d) if it can capture i.
    A face-down enemy counts with the probability that its hidden strength is one i can
    capture (or one that captures i). With `trade_when_ahead`, a side with more pieces counts
    an equal enemy as one to take (an even trade brings it closer to the win).
    Returns (sum of Opp, sum of Threat <= 0)."""
    board = state.board
    sign = 1 if player == 0 else -1
    own, enemies = [], []
    for sq in range(SQUARES):
        cell = board[sq] * sign
        if cell < 0:
            enemies.append((sq, -cell))
        elif 0 < cell < HIDDEN:
            own.append((sq, cell))
    if not enemies:
        return 0.0, 0.0
    enemy_hidden = state.hidden[1 - player]
    own_pieces = len(own) + sum(1 for cell in board if cell * sign == HIDDEN)
    trade = trade_when_ahead and own_pieces > len(enemies)
    opp = threat = 0.0
    for sq, strength in own:
        row_distance = DISTANCE[sq]
        distance, enemy = 99, 0
        for esq, estrength in enemies:
            d = row_distance[esq]
            if d < distance:
                distance, enemy = d, estrength
        if enemy == HIDDEN:
            win, lose = _odds_against_hidden(enemy_hidden, strength)
        else:
            win = float(CAPTURES[strength][enemy] or (trade and strength == enemy))
            lose = float(CAPTURES[enemy][strength])
        opp += win * 3.0 / (1 + distance)
        threat -= lose * 4.0 / (1 + distance)
    return opp, threat


def hunt(state: JungleDarkState, player: int, trade_when_ahead: bool = False) -> float:
    """Opp + Threat: drawn towards enemies a piece can take, away from those that take it."""
    opp, threat = nearest_enemy_terms(state, player, trade_when_ahead)
    return opp + threat


# --- the named evaluations agents choose from (`greedy:eval=course-greedy`) ----------------------

def simplification(state: JungleDarkState, player: int) -> float:
    """(own pieces - enemy pieces) / all pieces: grows when the side ahead trades evenly."""
    own, enemy = state.piece_counts() if player == 0 else state.piece_counts()[::-1]
    return (own - enemy) / (own + enemy)


def default_greedy(state: JungleDarkState, player: int) -> float:
    """BoardLab's greedy: the seed's H with w_safety 1, plus 100 x the nearest-enemy term and
    3000 x the simplification term."""
    return (greedy_heuristic(state, player, DEFAULT_GREEDY_SAFETY_WEIGHT)
            + HUNT_WEIGHT * hunt(state, player, trade_when_ahead=True)
            + GREEDY_SIMPLIFY_WEIGHT * simplification(state, player))


def default_minimax(state: JungleDarkState, player: int) -> float:
    """BoardLab's minimax leaf value: the seed's evaluation (w = 100) with the simplification
    term, + 100 x nearest-enemy."""
    return (minimax_evaluation(state, player, simplify_weight=SIMPLIFY_WEIGHT)
            + HUNT_WEIGHT * hunt(state, player, trade_when_ahead=True))


def course_greedy(state: JungleDarkState, player: int) -> float:
    """The course project's (seed 000's) greedy H(s), exactly."""
    return greedy_heuristic(state, player)


def course_minimax(state: JungleDarkState, player: int) -> float:
    """The course project's minimax evaluation as its text gives it (piece-count weight 100)."""
    return minimax_evaluation(state, player)


def course_minimax_boxed(state: JungleDarkState, player: int) -> float:
    """The course project's boxed minimax formula (piece-count weight 1)."""
    return minimax_evaluation(state, player, piece_count_weight=1.0)


EVALUATORS = Evaluators({
    # BoardLab's measured blends, one for each agent (README.md beside this file)
    "greedy": default_greedy,
    "minimax": default_minimax,
    # the course project's formulas, exactly
    "course-greedy": course_greedy,
    "course-minimax": course_minimax,
    "course-minimax-boxed": course_minimax_boxed,
}, aliases={  # their first names
    "seed-greedy": "course-greedy",
    "seed-minimax": "course-minimax",
    "seed-minimax-boxed": "course-minimax-boxed",
})

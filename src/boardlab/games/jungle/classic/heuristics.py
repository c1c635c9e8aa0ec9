"""Heuristics for classic Jungle, each (state, player) -> score from `player`'s point of view.

One evaluation serves both generic agents (`greedy`, `minimax`). Its terms, in the order the
game is won: a bound for a den entry that cannot be stopped, material, how close each animal
is to the enemy den, the capture the side to move has on offer, and guards near one's own den
when enemies come close. The weights were tuned against the generic agents (README.md gives
the measurements).
"""

from __future__ import annotations

from ..pieces import CAT, DOG, ELEPHANT, LEOPARD, LION, RAT, TIGER, WOLF
from .game import JungleClassicState
from .rules import COLS, DENS, SQUARES, STEP, TRAPS

PIECE_VALUES = {RAT: 400, CAT: 200, DOG: 300, WOLF: 350, LEOPARD: 450, TIGER: 800, LION: 900,
                ELEPHANT: 1000}
"""Material in hundredths of a piece. The rat counts above its rank: it alone takes the
elephant, crosses the rivers and blocks the lion's and tiger's jumps."""
DEN_ENTRY_BOUND = 100_000.0
"""Value of a den entry nobody can stop any more; below the agents' WIN_VALUE (1e6), far
above any material sum (< 5,000), so search prefers a real win and avoids a real loss."""
ADVANCE_WEIGHT = 1.0
"""Weight of the advance table: each animal is drawn towards the enemy den."""
ADVANCE_STEP = 20.0
"""Value of one step nearer the enemy den, far from it."""
OFFER_WEIGHT = 0.5
"""Share of the best capture the side to move has on offer (a one-ply look ahead at leaves)."""
GUARD_VALUE = 30.0
"""Value of a piece on or next to one's own trap, per enemy animal within reach of the den."""
DANGER_DISTANCE = 4
"""An enemy this close (Manhattan) to one's den makes guards count."""


def _distance(a: int, b: int) -> int:
    return abs(a // COLS - b // COLS) + abs(a % COLS - b % COLS)


def _advance(distance: int) -> float:
    """A steady pull from afar, growing faster the nearer the den."""
    return ADVANCE_STEP * (12 - distance) + 300.0 / (distance + 1)


DEN_DISTANCE = [[_distance(sq, DENS[1 - p]) for sq in range(SQUARES)] for p in (0, 1)]
"""DEN_DISTANCE[p][sq]: Manhattan distance from sq to the den p attacks."""
ADVANCE = [[_advance(DEN_DISTANCE[p][sq]) for sq in range(SQUARES)] for p in (0, 1)]
OWN_DEN_DISTANCE = [[_distance(sq, DENS[p]) for sq in range(SQUARES)] for p in (0, 1)]
GUARD_SQUARES = [frozenset(t for trap in TRAPS[p] for t in (trap, *STEP[trap])
                           if t >= 0 and t != DENS[p]) for p in (0, 1)]
"""Squares from which p's pieces take an enemy that steps on one of p's traps."""
DEN_NEIGHBOURS = [tuple(t for t in STEP[DENS[p]] if t >= 0) for p in (0, 1)]
"""The squares next to p's den (all three are p's traps)."""


def den_entry_bound(state: JungleClassicState, player: int) -> float | None:
    """+-DEN_ENTRY_BOUND when a den entry can no longer be stopped, else None.

    The side to move wins if one of its animals stands next to the enemy den. Otherwise the
    other side wins if it has an animal there that the side to move cannot take (squares next
    to a den are the defender's traps, so any adjacent defender takes the intruder), or two
    there (only one can be taken in a move).
    """
    board = state.board
    mover = state.player
    sign = 1 if mover == 0 else -1
    for sq in DEN_NEIGHBOURS[1 - mover]:
        if board[sq] * sign > 0:
            return DEN_ENTRY_BOUND if player == mover else -DEN_ENTRY_BOUND
    intruders = [sq for sq in DEN_NEIGHBOURS[mover] if board[sq] * sign < 0]
    if not intruders:
        return None
    unstoppable = len(intruders) >= 2 or not any(
        board[nb] * sign > 0 for nb in STEP[intruders[0]] if nb >= 0)
    if not unstoppable:
        return None
    return -DEN_ENTRY_BOUND if player == mover else DEN_ENTRY_BOUND


def best_capture_on_offer(state: JungleClassicState) -> int:
    """Value of the most valuable enemy piece the side to move can take right now."""
    board = state.board
    best = 0
    for action in state.legal_actions():
        victim = board[state.destination(action)]
        if victim:
            value = PIECE_VALUES[abs(victim)]
            if value > best:
                best = value
    return best


def evaluate(state: JungleClassicState, player: int) -> float:
    """Material + advance towards the enemy den + den guards + half the capture on offer,
    own minus enemy; +-DEN_ENTRY_BOUND for a den entry that cannot be stopped."""
    bound = den_entry_bound(state, player)
    if bound is not None:
        return bound
    board = state.board
    score = [0.0, 0.0]
    near_den = [0, 0]  # enemy animals within DANGER_DISTANCE of p's den
    guards = [0, 0]
    for sq in range(SQUARES):
        cell = board[sq]
        if cell == 0:
            continue
        owner = 0 if cell > 0 else 1
        score[owner] += PIECE_VALUES[abs(cell)] + ADVANCE_WEIGHT * ADVANCE[owner][sq]
        if OWN_DEN_DISTANCE[1 - owner][sq] <= DANGER_DISTANCE:
            near_den[1 - owner] += 1
        if sq in GUARD_SQUARES[owner]:
            guards[owner] += 1
    for p in (0, 1):
        score[p] += GUARD_VALUE * min(guards[p], 2) * near_den[p]
    mover = state.player
    score[mover] += OFFER_WEIGHT * best_capture_on_offer(state)
    return score[player] - score[1 - player]


EVALUATORS = {
    "greedy": evaluate,
    "minimax": evaluate,
}

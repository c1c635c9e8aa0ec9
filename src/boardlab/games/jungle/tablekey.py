"""A Q-table key for Jungle dark chess that generalises across games (`qlearning:key=features`).

The seed's key (`encode.tabular_key`) is the exact board: every face-up piece on its square
with its strength. The face-down pieces are all alike in it, so two games that differ only in
what is still hidden already share a key; what does not recur is the revealed board, since
each reveal draws a strength at random and pieces wander. Past the opening the agent almost
never meets a position twice, and its fallback plays 98% of the moves (docs/learning.md).

The feature key forgets where things are and keeps what the seed's reward pays for, seen
from the side to move:

- row (the position): material (own pieces - enemy pieces, clipped to -3..3), each side's
  pieces up to 3 (a trade of the last piece loses, of the opponent's last one wins) and
  whether each side still has face-down pieces;
- column (the action), and in every column the most valuable other own piece left
  attacked after it (by a face-up enemy that takes it):
  a step of the own piece of strength k: k, whether it stood attacked before and stands
  attacked after (by an enemy that takes it, or only trades with it), and whether it comes
  nearer its nearest prey;
  a capture or trade onto a face-up piece: the strength taken, whether the taker then
  stands attacked, and the taker's strength where it may be lost (attacked, or a trade);
  a blind attack: k, the odds of winning it (in thirds, over the enemy's hidden pool) and
  whether k stood attacked;
  a reveal: the strongest face-up enemy next to the square.
  Captures and blind attacks leave out what steps need (nearest prey), so that the few
  positions offering one teach one entry, not dozens.

Only face-up pieces move, so only they attack; a face-down enemy is prey (a blind attack),
never a threat. Ties between actions with one column are broken at random by the agent.
"""

from __future__ import annotations

from typing import NamedTuple

from .game import JungleDarkState
from .heuristics import DISTANCE
from .pieces import can_capture
from .rewards import PIECE_VALUE  # the seed's V(k), to rank what is left attacked
from .rules import HIDDEN, NEIGHBOURS, NUM_REVEALS, SQUARES, decode_move

REVEAL, STEP, CAPTURE, BLIND = range(4)
NO_PREY = 3
"""`approach` when the piece has no prey on the board (else 0 nearer, 1 as near, 2 further)."""


class Column(NamedTuple):
    """The fields of an action's column."""

    kind: int
    """REVEAL, STEP, CAPTURE (onto a face-up enemy, a trade included) or BLIND."""
    strength: int
    """The moving piece's; 0 for a reveal, and for a capture that leaves the taker safe."""
    taken: int
    """The strength captured; a blind attack's odds of winning in thirds (0-2); a reveal's
    strongest face-up neighbour."""
    before: int
    """`danger` of the moving piece where it stands."""
    after: int
    """`danger` of the moving piece where it lands (0 for a reveal and a blind attack)."""
    approach: int
    """Nearest prey 0 nearer, 1 as near, 2 further, NO_PREY none."""
    hanging: int
    """`most_valuable_hanging` after the action, the moving piece aside."""


SIZES = Column(4, 9, 9, 3, 3, 4, 3)
"""How many values each field takes: columns are below their product, 34,992."""


def pack(column: Column) -> int:
    """The column as one integer (the Q table's column number)."""
    value = 0
    for field, size in zip(column, SIZES):
        value = value * size + field
    return value


def unpack(value: int) -> Column:
    """The fields of a packed column."""
    fields = []
    for size in reversed(SIZES):
        value, field = divmod(value, size)
        fields.append(field)
    return Column(*reversed(fields))


def feature_row(state: JungleDarkState) -> bytes:
    """The position as the feature key sees it: material, the last pieces, face-down pieces
    left."""
    sign = 1 if state.player == 0 else -1
    own = enemy = own_hidden = enemy_hidden = 0
    for cell in state.board:
        mine = cell * sign
        if mine > 0:
            own += 1
            own_hidden += mine == HIDDEN
        elif mine < 0:
            enemy += 1
            enemy_hidden += mine == -HIDDEN
    return bytes([max(-3, min(3, own - enemy)) + 3, min(own, 3), min(enemy, 3), own_hidden > 0,
                  enemy_hidden > 0])


def danger(board: list[int], square: int, strength: int, sign: int) -> int:
    """How the own piece of `strength` on `square` is attacked: 2 a face-up enemy next to it
    takes it, 1 one trades with it (equal strengths), 0 neither."""
    worst = 0
    for _, nb in NEIGHBOURS[square]:
        enemy = -board[nb] * sign
        if 0 < enemy < HIDDEN:
            if can_capture(enemy, strength):
                return 2
            if enemy == strength:
                worst = 1
    return worst


def most_valuable_hanging(board: list[int], sign: int, skip: int = -1) -> int:
    """0 if no own face-up piece (other than the one on `skip`) can be taken, else 1 for a
    piece worth at most 2 (cat, dog, wolf), 2 for a more valuable one."""
    worst = 0.0
    for sq in range(SQUARES):
        own = board[sq] * sign
        if 0 < own < HIDDEN and sq != skip and danger(board, sq, own, sign) == 2:
            worst = max(worst, PIECE_VALUE[own])
    return 0 if worst == 0 else 1 if worst <= 2 else 2


def nearest_prey(board: list[int], square: int, strength: int, sign: int) -> int:
    """Distance from `square` to the nearest enemy the piece can take (a face-up one weaker
    or equal, else any face-down one); -1 if none."""
    best = hidden = 99
    for sq in range(SQUARES):
        enemy = -board[sq] * sign
        if enemy == HIDDEN:
            hidden = min(hidden, DISTANCE[square][sq])
        elif 0 < enemy and (can_capture(strength, enemy) or enemy == strength):
            best = min(best, DISTANCE[square][sq])
    best = best if best < 99 else hidden
    return best if best < 99 else -1


def feature_column(state: JungleDarkState, action: int) -> int:
    """The action as the feature key sees it, packed into one integer."""
    board, sign = state.board, 1 if state.player == 0 else -1
    if action < NUM_REVEALS:
        near = max((-board[nb] * sign for _, nb in NEIGHBOURS[action]
                    if 0 < -board[nb] * sign < HIDDEN), default=0)
        return pack(Column(REVEAL, 0, near, 0, 0, 0, most_valuable_hanging(board, sign)))
    frm, to = decode_move(action)
    strength = board[frm] * sign
    target = -board[to] * sign
    after = list(board)
    after[frm], after[to] = 0, board[frm]
    hanging = most_valuable_hanging(after, sign, skip=to)
    before, landing = danger(board, frm, strength, sign), danger(after, to, strength, sign)
    if target == HIDDEN:
        pool = [k for k in range(1, 9) if state.hidden[1 - state.player] >> k & 1]
        odds = sum(can_capture(strength, k) for k in pool) / max(1, len(pool))
        return pack(Column(BLIND, strength, min(2, int(odds * 3)), before, 0, 0, hanging))
    if target > 0:  # a capture or a trade: what it takes, and whether the taker is lost
        lost = landing or target == strength
        return pack(Column(CAPTURE, strength if lost else 0, target, 0, landing, 0, hanging))
    before_prey = nearest_prey(board, frm, strength, sign)
    after_prey = nearest_prey(after, to, strength, sign)
    approach = (NO_PREY if before_prey < 0 or after_prey < 0 else
                0 if after_prey < before_prey else 1 if after_prey == before_prey else 2)
    return pack(Column(STEP, strength, 0, before, landing, approach, hanging))

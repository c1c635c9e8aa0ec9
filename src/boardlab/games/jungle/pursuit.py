"""Exact endings of Jungle dark chess: a few face-up hunters against the last enemy piece.

When one side is down to a single piece and every piece left is face up, the game has no
chance left and few positions: with k hunters, 56^(k+1) placements a side to move. This
module solves them backwards (retrograde analysis, vectorised over every placement at once):
which positions the hunters' side wins, whatever the last piece does, before the no-capture
rule draws the game. Two things make such endings winnable that a short search rarely finds:
every side must move (no passing), so a lone chaser corners a piece as fast as itself when
the parity of their distance is right, and a second piece of the chaser's side changes that
parity with a spare move.

Rules as the game plays them (game.py): a piece moves one square orthogonally, onto an empty
square or onto an enemy it captures (`pieces.can_capture`) or equals (both die); moving onto
an enemy that would win is illegal. A side with no pieces loses, both with none is a draw,
a side with no legal action on its turn loses, and `no_capture_limit` plies without a capture
draw. A capture restarts the count, so when the last piece takes a hunter the ending with one
hunter fewer starts afresh; that ending is solved first and its verdicts are read there.

`solve(hunters, evader, plies, limit)` gives, for every placement, whether the hunters win
within `plies` plies (an ending reached by a capture gets `limit`) with either side to move;
`forced_win(state, player)` reads the verdict of a position of the game. Checked against an
exhaustive search of the game's own `State` in tests/games/jungle/test_jungle_pursuit.py.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from .game import JungleDarkState
from .pieces import can_capture
from .rules import HIDDEN, NEIGHBOURS, SQUARES

MAX_HUNTERS = 3
"""Endings with at most this many hunters are solved (56^4 placements a side to move: about
14 s and 2.1 GB for three hunters on this project's machine, README.md; four hunters would
be 56^5, too many to hold)."""
STEPS = np.full((SQUARES, 4), -1, dtype=np.int64)
"""STEPS[square, direction]: the neighbour in that direction (rules.NEIGHBOURS), -1 off the
board: one array, so that a move is looked up for every placement at once."""
for _square, _steps in enumerate(NEIGHBOURS):
    for _direction, _neighbour in _steps:
        STEPS[_square, _direction] = _neighbour


class Verdicts(NamedTuple):
    """Boolean arrays indexed by (hunter squares..., the last piece's square), in the order
    of the hunters given to `solve`: True where the hunters' side wins within the plies."""

    hunters_to_move: np.ndarray
    evader_to_move: np.ndarray


class Distances(NamedTuple):
    """Integer arrays indexed as `Verdicts`: the fewest plies in which the hunters' side wins
    by force (its last move the win), -1 where it does not within the count."""

    hunters_to_move: np.ndarray
    evader_to_move: np.ndarray


def solve(hunters: tuple[int, ...], evader: int, plies: int, limit: int) -> Verdicts:
    """The verdicts of every placement of face-up pieces of strengths `hunters` (one side)
    against one of strength `evader` (the other), `plies` plies before the no-capture rule
    draws, `limit` plies after a capture (the rule's count): placements where two pieces
    share a square are False."""
    found = distances(hunters, evader, limit)
    return Verdicts(*((table >= 0) & (table <= plies)
                      for table in (found.hunters_to_move, found.evader_to_move)))


def distances(hunters: tuple[int, ...], evader: int, limit: int) -> Distances:
    """The distance to a forced win of every placement (as `solve`), up to `limit` plies, the
    no-capture count after a capture. Winning within n plies implies winning within n + 1,
    so the verdict for any count is the distance compared with it. (A last piece left with
    no move loses one ply after it is stuck: the no-capture rule, checked first, may draw
    that ply.) Every ending of up to two hunters stays solved once asked (all of them:
    about 160 MB); of three hunters (40 MB each) the last eight."""
    k = len(hunters)
    if not 1 <= k <= MAX_HUNTERS:
        raise ValueError(f"pursuit: 1 to {MAX_HUNTERS} hunters, not {k}")
    return (_solve_small if k < MAX_HUNTERS else _solve_large)(hunters, evader, limit)


def _retrograde(hunters: tuple[int, ...], evader: int, limit: int) -> Distances:
    """`distances`, solved: every placement at once, backwards from the wins."""
    k = len(hunters)
    shape = (SQUARES,) * (k + 1)
    *where, prey = np.indices(shape, dtype=np.int64)
    valid = np.ones(shape, dtype=bool)
    for i, square in enumerate(where):
        valid &= square != prey
        for other in where[i + 1:]:
            valid &= square != other

    def index(squares: list[np.ndarray]) -> np.ndarray:
        flat = np.zeros(shape, dtype=np.int64)
        for square in squares:
            flat = flat * SQUARES + square
        return flat

    # The hunters' moves: a win at once, or a quiet step to a position with the evader to move.
    hunter_moves = []
    for i, strength in enumerate(hunters):
        takes = can_capture(strength, evader) or (strength == evader and k > 1)
        for direction in range(4):
            to = STEPS[where[i], direction]
            possible = valid & (to >= 0)
            for j, other in enumerate(where):
                if j != i:
                    possible &= to != other
            onto = possible & (to == prey)
            step = possible & ~onto
            after = index([to if j == i else other for j, other in enumerate(where)] + [prey])
            hunter_moves.append((onto if takes else np.zeros(shape, bool), step,
                                 np.where(step, after, 0)))
    # The evader's moves: legal or not, a win for the hunters at once, or a quiet step.
    evader_moves = []
    for direction in range(4):
        to = STEPS[prey, direction]
        legal = valid & (to >= 0)
        won = np.zeros(shape, dtype=bool)
        step = legal.copy()
        for j, strength in enumerate(hunters):
            onto = legal & (to == where[j])
            step &= ~onto
            if strength == evader:  # both die: the hunters win if any is left
                won |= onto & (k > 1)
            elif can_capture(evader, strength):  # the ending with one hunter fewer, afresh
                rest = hunters[:j] + hunters[j + 1:]
                if rest:
                    fewer = (distances(rest, evader, limit).hunters_to_move >= 0).reshape(-1)
                    left = index([other for m, other in enumerate(where) if m != j] + [to])
                    won |= onto & fewer[np.where(onto, left, 0)]
            else:  # a piece that would win: the move is illegal
                legal &= ~onto
        after = index(list(where) + [to])
        evader_moves.append((legal, won, step, np.where(step, after, 0)))
    # Wins within n plies, n = 0, 1, ...: none at 0 (the position is the draw itself). An
    # evader with no legal move has lost: every one of its moves is "illegal or a win".
    hunters_win = np.zeros(shape, dtype=bool)
    evader_loses = np.zeros(shape, dtype=bool)
    hunters_distance = np.full(shape, -1, dtype=np.int16)
    evader_distance = np.full(shape, -1, dtype=np.int16)
    for ply in range(1, limit + 1):
        hunters_next = np.zeros(shape, dtype=bool)
        for won, step, after in hunter_moves:
            hunters_next |= won | (step & evader_loses.reshape(-1)[after])
        evader_next = valid.copy()
        for legal, won, step, after in evader_moves:
            evader_next &= ~legal | won | (step & hunters_win.reshape(-1)[after])
        hunters_distance[hunters_next & ~hunters_win] = ply
        evader_distance[evader_next & ~evader_loses] = ply
        hunters_win, evader_loses = hunters_next, evader_next
    return Distances(hunters_distance, evader_distance)


_solve_small = functools.lru_cache(maxsize=None)(_retrograde)
_solve_large = functools.lru_cache(maxsize=8)(_retrograde)


def small_ending(state: JungleDarkState) -> bool:
    """A game on in which one side has its last piece and the other one or two, all face up:
    the endings solved whole and kept (the learning kit's `endings` domain, where the shipped
    DQN network was taught and is read)."""
    if state.is_terminal() or state.is_chance_node():
        return False
    counts = sorted(state.piece_counts())
    return counts[0] == 1 and counts[1] <= 2 and HIDDEN not in map(abs, state.board)


def forced_win(state: JungleDarkState, player: int) -> bool | None:
    """Whether `player` wins `state` whatever the other side does, before the no-capture rule
    draws it: None unless `player` has 1 to MAX_HUNTERS pieces, the other side one, all face
    up, and the game is not over."""
    distance = win_distance(state, player)
    return None if distance is None else distance >= 0


def win_distance(state: JungleDarkState, player: int) -> int | None:
    """The fewest plies in which `player` wins `state` by force before the no-capture rule
    draws it, -1 if it cannot; None where `forced_win` is."""
    if state.is_terminal() or state.is_chance_node():
        return None
    sign = 1 if player == 0 else -1
    own = sorted((sign * cell, square) for square, cell in enumerate(state.board)
                 if sign * cell > 0)
    enemy = [(-sign * cell, square) for square, cell in enumerate(state.board)
             if sign * cell < 0]
    if len(enemy) != 1 or not 1 <= len(own) <= MAX_HUNTERS or \
            any(strength == HIDDEN for strength, _ in own + enemy):
        return None
    limit = state.game.settings.no_capture_limit
    found = distances(tuple(strength for strength, _ in own), enemy[0][0], limit)
    table = (found.hunters_to_move if state.current_player() == player
             else found.evader_to_move)
    distance = int(table[tuple(square for _, square in own) + (enemy[0][1],)])
    return distance if 0 <= distance <= limit - state.no_capture else -1

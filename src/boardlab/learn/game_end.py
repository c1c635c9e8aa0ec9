"""How a self-play game may end before its rules end it, so that two cores' worth of games
teach the value head more than "draw" (learn/alphazero.py's `max_moves`, `resign`).

- **Adjudication at a move cap.** A game still going after `max_moves` decisions stops, and
  each player's result is the game's own heuristic (its `minimax` evaluation) squashed to
  [-1, 1]: tanh(h / scale), the scale in heuristic units (the teacher dataset's fitted scale
  where there is one, learn/teacher.py). A chess-like game between two weak networks otherwise
  runs to the 300-ply draw, and every one of its positions is labelled 0: the value head then
  learns that nothing matters. Stockfish's NNUE data blend the search's score into the result
  for the same reason.
- **Resignation** (AlphaGo Zero, Silver et al. 2017, "Mastering the game of Go without human
  knowledge"): a player whose search values its position below `resign` resigns and loses.
  A share `never_resign` of games are played out whatever the values say; in those, every
  player that would have resigned is followed to the end, and a *false resignation* is one
  whose player did not lose. AlphaGo Zero kept that rate under 5% by choosing the threshold.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.game import State

Evaluate = Callable[[State, int], float]


def adjudicated_returns(state: State, evaluate: Evaluate, scale: float,
                        players: int) -> list[float]:
    """Each player's result for a game stopped at the cap: tanh(heuristic / scale), made
    zero-sum between two players by taking the mean of the two views (a heuristic need not be
    exactly antisymmetric)."""
    if scale <= 0:
        raise ValueError(f"an adjudication scale must be positive, got {scale}")
    raw = [math.tanh(evaluate(state, player) / scale) for player in range(players)]
    if players == 2:
        first = (raw[0] - raw[1]) / 2
        return [first, -first]
    return raw


def resigned_returns(loser: int, players: int) -> list[float]:
    """The loser -1; the others share +1 (two players: the winner +1)."""
    return [-1.0 if p == loser else 1.0 / (players - 1) for p in range(players)]


@dataclass
class ResignWatch:
    """One game's resignation bookkeeping: whether it may resign, and who would have."""

    threshold: float
    """Resign when the mover's root value is below this (-1 or less: never)."""
    may_resign: bool
    """False in the share of games played out to count false resignations."""
    would_have: set[int] = field(default_factory=set)
    """Players whose value fell below the threshold in a game that may not resign."""

    def resigns(self, mover: int, root_value: float) -> bool:
        """Whether `mover` resigns now; in a played-out game, note that it would have."""
        if root_value >= self.threshold:
            return False
        if self.may_resign:
            return True
        self.would_have.add(mover)
        return False

    def false_resignations(self, returns: list[float]) -> tuple[int, int]:
        """(players that would have resigned, those of them who did not lose) once the
        played-out game is over."""
        would = sorted(self.would_have)
        return len(would), sum(1 for p in would if returns[p] >= 0)

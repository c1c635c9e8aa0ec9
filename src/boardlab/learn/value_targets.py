"""AlphaZero's value targets: seed 003's credit assignment (learn/alphazero.py's
`value_target=`), computed for each decision of a game once the game is over.

- "result" (AlphaZero, the default): the game's result for the player to move;
- "search" (seed 003 scheme 1 as the seed writes it): u, the PUCT score of the move played at
  the root, normalised to [0, 1] by the least and greatest score met anywhere in the tree
  during that search (with `reuse`: during that move's new simulations; a root that already
  had its `sims` visits met none, and its u is 0.5), is the reward of that step, and the
  last decision gets the result r_T: the trajectory s1, a1, u1, ..., sT, aT, rT. The value
  target of decision t is the return
      (1 - g) * sum_{k=t}^{T-1} g^(k-t) * s_k * u_k  +  g^(T-t) * r_T
  with g = `search_discount` and s_k = +1 for the mover's own steps and -1 for its opponent's
  (a good move for the opponent is a bad one for the mover); the (1 - g) keeps it in [-1, 1].
  The seed gives no discount and no sign rule: these are our reading, said here;
- "search_root" (our first reading of scheme 1, kept as a named variant): 2u - 1 with u
  normalised by the scores met at the root only (with `reuse`, likewise during that move's
  new simulations), used directly as the target; the last
  decision takes the result;
- "hindsight" (seed 003 scheme 2, after "Hindsight Experience Replay"): each sample's value is
  relabelled with a goal drawn from the same game: a later decision s_{t+k}, k >= 1 uniform;
  the value target is 1 if the goal is the very next decision (k = 1), else 0. The seed's
  code also replaces the policy target by the goal's; we keep the state's own visit
  distribution so that the schemes differ in the value head only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

VALUE_TARGETS = ("result", "search", "search_root", "hindsight")


@dataclass
class Decision:
    """One self-play decision, before its value target is known."""

    planes: np.ndarray
    policy: np.ndarray
    mover: int
    u_tree: float
    """Seed 003's u normalised over the whole tree (value_target=search)."""
    u_root: float
    """The same u normalised over the root's scores only (value_target=search_root)."""


def value_targets(history: list[Decision], returns: list[float], scheme: str,
                  search_discount: float, rng: random.Random) -> np.ndarray:
    """The value target of each decision of one finished game under `scheme` (module
    docstring); `search_discount` is g of the search scheme."""
    last = len(history) - 1
    out = np.zeros(len(history), dtype=np.float64)
    if scheme == "search":  # returns of the trajectory s1, a1, u1, ..., sT, aT, rT, backwards
        g = search_discount
        future = 0.0  # from the point of view of the mover of decision t + 1
        for t in range(last, -1, -1):
            mover = history[t].mover
            if t == last:
                future = returns[mover]
            else:
                same = 1.0 if history[t + 1].mover == mover else -1.0
                future = (1 - g) * history[t].u_tree + g * same * future
            out[t] = future
        return out
    for t, decision in enumerate(history):
        if scheme == "result" or t == last:
            out[t] = returns[decision.mover]
        elif scheme == "search_root":
            out[t] = 2.0 * decision.u_root - 1.0
        else:  # hindsight: a goal k >= 1 decisions ahead; reached at once only when k = 1
            goal = rng.randint(t + 1, last + 1)
            out[t] = 1.0 if goal == t + 1 else 0.0
    return out

"""The bound for a network that knew the pursuit endings: the two-ply search with the exact
ending values at its leaves.

`PursuitLeaves` is the DQN agent (agents/dqn.py) whose leaf values, wherever a leaf is a
solved ending (games/jungle/pursuit.py: up to three face-up pieces against the last one),
are the ending's exact value under the potential-shaped reward instead of the network's:
a forced win in d plies is worth gamma^(d-1) x 100 to the winner, the shaping telescopes to
-Phi(leaf) (rewards.potential), and an ending the hunters cannot force is a draw (0 - Phi).
Elsewhere the leaves are the network's, silent at `leaf_weight=0`:

    boardlab arena jungle greedy \
        "experiments/jungle_pursuit_leaves.py:PursuitLeaves:weights=none,reward=potential,lookahead=2,leaf_weight=0" \
        --games 100 --workers 2

`WinBonusLeaves` and `CountedWinBonusLeaves` put the result alone
there (+-100 where the side to move wins or loses by force, no distance), the first as if
the count had just restarted (all a network without the count could know), the second
within the count left. docs/learning.md ("The exact endings at the leaves") has the results.
"""

from __future__ import annotations

import numpy as np

from boardlab.agents.dqn import DQNAgent
from boardlab.games.jungle.pursuit import small_ending, win_distance
from boardlab.games.jungle.rewards import POTENTIAL_RESULT, SHAPING_DISCOUNT, potential


def forced_result(state, player: int, restart: bool = False) -> tuple[int, int] | None:
    """(+1 where `player` wins `state` by force, -1 where it loses, 0 where neither side
    can force it; the plies to that win, 0 for none) in a solved ending, else None. With one
    piece a side either may be the hunter. `restart`: as if the count had just restarted."""
    saved = state.no_capture
    if restart:
        state.no_capture = 0
    found = {hunter: win_distance(state, hunter) for hunter in (player, 1 - player)}
    state.no_capture = saved
    if all(distance is None for distance in found.values()):
        return None
    for hunter, distance in found.items():
        if distance is not None and distance >= 0:
            return (1 if hunter == player else -1), distance
    return 0, 0


def ending_value(state, player: int) -> float | None:
    """The exact value of `state` for `player` under the potential-shaped reward, None where
    it is not a solved ending."""
    result = forced_result(state, player)
    if result is None:
        return None
    sign, distance = result
    won = SHAPING_DISCOUNT ** (distance - 1) * POTENTIAL_RESULT if sign else 0.0
    return sign * won - potential(state, player)


class PursuitLeaves(DQNAgent):
    """The network's leaves, but the exact value (`ending_value`) at solved endings."""

    name = "pursuit-leaves"
    small_only = False
    """Only at the small endings (a last piece against one or two: the learning kit's
    `endings`, where the ending network is taught and read)."""

    def _leaf_values(self, leaves) -> np.ndarray:
        values = super()._leaf_values(leaves)
        for i, leaf in enumerate(leaves):
            if self.small_only and not small_ending(leaf):
                continue
            exact = ending_value(leaf, leaf.current_player())
            if exact is not None:
                values[i] = exact
        return values


class SmallPursuitLeaves(PursuitLeaves):
    """`PursuitLeaves` at the small endings only: the most the ending network can give."""

    name = "small-pursuit-leaves"
    small_only = True


class WinBonusLeaves(DQNAgent):
    """The network's leaves, but +100 where the side to move wins a solved ending by force
    and -100 where it loses (`full_count`: as if the count had just restarted)."""

    name = "win-bonus-leaves"
    full_count = True

    def _leaf_values(self, leaves) -> np.ndarray:
        values = super()._leaf_values(leaves)
        for i, leaf in enumerate(leaves):
            result = forced_result(leaf, leaf.current_player(), restart=self.full_count)
            if result is not None:
                values[i] = result[0] * POTENTIAL_RESULT
        return values


class CountedWinBonusLeaves(WinBonusLeaves):
    """`WinBonusLeaves` within the count the leaf has left."""

    name = "counted-win-bonus-leaves"
    full_count = False

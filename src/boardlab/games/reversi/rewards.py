"""Seed 001's per-move reward for DQN training: R(p) = V(p) + V(Flip(p, identity)).

V is the positional table in `heuristics.POSITION_WEIGHTS`; V(Flip(p)) is the sum of V over
the discs that the move on p turns over ("the sum of reversed chess value caused by p").
"""

from __future__ import annotations

from ...core.game import IllegalActionError
from .bitboard import SQUARES, square_name
from .heuristics import POSITION_WEIGHTS, weight_sum
from .rules import COLOUR_NAMES, PASS, ReversiState


def flip_reward(state: ReversiState, action: int, player: int) -> float:
    """R(p) for `player` placing a disc on square `action` in `state`; 0 for a pass.

    `player` need not be the side to move, so the opponent's reply can be scored too (the
    paper's MiniMax Dueling DQN uses R(p_current) - R(p_next)). IllegalActionError if the
    square is taken or the disc would flip nothing.
    """
    if action == PASS:
        return 0.0
    if not 0 <= action < SQUARES:
        raise IllegalActionError(f"flip_reward: action id {action} is outside 0..{PASS}")
    if (state.black | state.white) >> action & 1:
        raise IllegalActionError(f"flip_reward: {square_name(action)} is occupied in "
                                 f"position {state.to_text()!r}")
    turned = state.flips_of(action, player)
    if not turned:
        raise IllegalActionError(f"flip_reward: {COLOUR_NAMES[player]} on "
                                 f"{square_name(action)} flips no disc in position "
                                 f"{state.to_text()!r}")
    return float(POSITION_WEIGHTS[action] + weight_sum(turned))

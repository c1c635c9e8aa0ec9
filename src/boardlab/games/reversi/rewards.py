"""Seed 001's per-move reward for DQN training: R(p) = V(p) + V(Flip(p, identity)).

V is the positional table in `heuristics.POSITION_WEIGHTS`; V(Flip(p)) is the sum of V over
the discs that the move on p turns over ("the sum of reversed chess value caused by p").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.game import IllegalActionError
from .bitboard import SIZE, SQUARES, square_name
from .heuristics import POSITION_WEIGHTS, weight_sum
from .game import ReversiState
from .rules import COLOUR_NAMES, PASS

if TYPE_CHECKING:
    from ...core.learning import LearningKit


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


# --- rewards for the learners (Game.learning_kit) ----------------------------------------------
# The transition a learner sees is its own ply then the opponent's reply (learn/episodes.py),
# so each reward comes in two parts: the own ply's and the reply's.

REWARD_SCALE = 100.0
"""R(p) is divided by this: corners are worth 100, and Q-targets near 1 suit Adam's defaults."""
TERMINAL_REWARD = 2.0
"""+-2 (0 for a draw) when the game ends: the paper's R(p) alone never says who won; 2 is
about a corner and its flips, so a won game outweighs any single move."""


def _terminal(state: ReversiState, player: int) -> float:
    return TERMINAL_REWARD * state.returns()[player] if state.is_terminal() else 0.0


def placed_square(before: ReversiState, after: ReversiState) -> int:
    """The square of the disc placed between two consecutive positions; PASS if none."""
    new = (after.black | after.white) & ~(before.black | before.white)
    return new.bit_length() - 1 if new else PASS


def dqn_reward(before: ReversiState, action: int, after: ReversiState | None) -> float:
    """The own ply: R(p) / 100 for the player to move in `before`, plus the terminal reward
    if the move ended the game. A pass earns 0; an invalid action -1 (unmasked agents)."""
    player = before.current_player()
    if after is None:
        return -1.0
    return flip_reward(before, action, player) / REWARD_SCALE + _terminal(after, player)


def dqn_reply_reward(before_reply: ReversiState, after_reply: ReversiState,
                     player: int) -> float:
    """The paper's DQN: nothing for the opponent's reply but the terminal reward."""
    return _terminal(after_reply, player)


def minimax_reply_reward(before_reply: ReversiState, after_reply: ReversiState,
                         player: int) -> float:
    """The paper's MiniMax Dueling DQN reward R(p_current) - R(p_next): the opponent's reply
    p_next costs `player` its R(p_next) / 100, plus the terminal reward."""
    square = placed_square(before_reply, after_reply)
    lost = 0.0
    if square != PASS:
        lost = flip_reward(before_reply, square, 1 - player) / REWARD_SCALE
    return -lost + _terminal(after_reply, player)


def table_key(state: ReversiState) -> bytes:
    """An exact key of the position and the side to move, for Q tables (17 bytes)."""
    return (state.black.to_bytes(8, "little") + state.white.to_bytes(8, "little")
            + bytes([state.player]))


def learning_kit() -> LearningKit[ReversiState]:
    """Seed 001's rewards for the learners, an exact table key, and the board's 8 symmetries
    (rotating or mirroring a position changes no rule; the network input's planes and the 64
    square actions turn with the board, the pass stays)."""
    from ...core.learning import LearningKit, RewardFunction, square_board_symmetries
    from .encode import NETWORK_PLANES

    return LearningKit(
        table_key=table_key,
        rewards={
            # R(p) for the own move (DQN, Dueling DQN) ...
            "dqn": RewardFunction(dqn_reward, dqn_reply_reward),
            # ... and R(p_current) - R(p_next) (MiniMax Dueling DQN)
            "minimax": RewardFunction(dqn_reward, minimax_reply_reward),
            # tabular Q-learning has no reward of its own in the paper: the DQN's
            "qlearning": RewardFunction(dqn_reward, dqn_reply_reward)},
        symmetries=square_board_symmetries(NETWORK_PLANES, SIZE, extra_actions=1))

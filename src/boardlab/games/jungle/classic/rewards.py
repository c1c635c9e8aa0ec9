"""Rewards and the table key for the learners on classic Jungle (`jungle-classic`).

Seed 000 gives rewards only for its dark game; these follow its DQN table's spirit on the open
7x9 board, where nothing is hidden and a game is won in the den:
- capture: +0.2 x the rank of the animal taken (the seed's +0.2 x strength);
- be captured: -0.2 x the rank of each own animal the opponent takes in its reply (the seed
  has a flat -0.3; by rank here, so a trade of equals nets zero and losing the elephant
  hurts more than losing the rat);
- progress: +0.05 for each square the moved animal comes nearer the enemy den (Manhattan
  distance; a lion's or tiger's jump counts all its squares) and -0.05 for each it goes
  back, where the seed pays a flat +0.05 per move: a flat move reward pays shuffling until
  the draw (docs/learning.md: that is what the seed's DQN learned on the dark game);
- terminal: +10 for a win (den entry, last enemy taken, enemy without a move), -10 for a
  loss, 0 for a draw (repetition, the no-capture limit), as the seed's +-10;
- invalid action (unmasked agents only): -1, as the seed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .game import JungleClassicState
from .rules import COLS, DENS

if TYPE_CHECKING:
    from ....core.learning import LearningKit

REWARDS = {
    "capture_per_rank": 0.2,
    "be_captured_per_rank": -0.2,
    "progress_per_square": 0.05,
    "win": 10.0,
    "lose": -10.0,
    "draw": 0.0,
    "invalid": -1.0,
}


def den_distance(square: int, player: int) -> int:
    """Manhattan distance from `square` to the den `player` attacks (the opponent's)."""
    den = DENS[1 - player]
    return abs(square // COLS - den // COLS) + abs(square % COLS - den % COLS)


def terminal_reward(state: JungleClassicState, player: int) -> float:
    if not state.is_terminal():
        return 0.0
    result = state.returns()[player]
    return REWARDS["win"] if result > 0 else REWARDS["lose"] if result < 0 else REWARDS["draw"]


def action_reward(before: JungleClassicState, action: int,
                  after: JungleClassicState | None) -> float:
    """The own ply's reward for the player to move in `before` playing `action`, which led to
    `after` (None for an invalid action)."""
    if after is None:
        return REWARDS["invalid"]
    player = before.current_player()
    frm = action >> 2
    to = before.destination(action)
    reward = REWARDS["progress_per_square"] * (den_distance(frm, player)
                                               - den_distance(to, player))
    captured = abs(before.board[to])
    reward += REWARDS["capture_per_rank"] * captured
    return reward + terminal_reward(after, player)


def reply_reward(before_reply: JungleClassicState, after_reply: JungleClassicState,
                 player: int) -> float:
    """-0.2 x rank for each of `player`'s animals the opponent took in its reply, plus the
    terminal reward if the reply ended the game."""
    lost = own_rank_sum(before_reply, player) - own_rank_sum(after_reply, player)
    return REWARDS["be_captured_per_rank"] * lost + terminal_reward(after_reply, player)


def own_rank_sum(state: JungleClassicState, player: int) -> int:
    """Sum of the ranks of `player`'s animals on the board (they only ever decrease)."""
    sign = 1 if player == 0 else -1
    return sum(sign * cell for cell in state.board if sign * cell > 0)


def table_key(state: JungleClassicState) -> bytes:
    """An exact key of the board and the side to move, for Q tables (64 bytes)."""
    return bytes(cell & 0xFF for cell in state.board) + bytes([state.player])


def learning_kit() -> LearningKit[JungleClassicState]:
    """Classic Jungle's learning pieces: one reward for both learners, an exact table key."""
    from ....core.learning import LearningKit, RewardFunction

    both = RewardFunction(action_reward, reply_reward)
    return LearningKit(table_key=table_key, rewards={"dqn": both, "qlearning": both})

"""The game-specific pieces learning needs, looked up by game name.

Agents never import a game (DESIGN.md), yet tabular Q-learning needs a table key and both
learners need the seed's rewards. A game registers them here as *module paths*, imported only
when asked for, so this module imports no game and the agents that consult it stay
game-independent. Network inputs need no entry: they come from `State.encode(player)`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

from ..core.game import BoardLabError, Game, State

ActionReward = Callable[[State, int, "State | None"], float]
"""(state before, action, state after the own ply and its chance outcome or None if invalid)
-> reward for the player who moved."""
ReplyReward = Callable[[State, State, int], float]
"""(state before the opponent's reply, state after it, learner) -> reward for the learner."""
Threats = Callable[[State, int], list[int]]
"""(state with the opponent to move, learner) -> the opponent's actions whose reply reward
may be nonzero (those that can take a piece of the learner's); the rest earn it 0."""


@dataclass(frozen=True)
class RewardFunction:
    """One of a game's reward functions: the own ply's reward and the reply's, and
    optionally which replies can earn a reply reward (to search replies cheaply)."""

    action: ActionReward
    reply: ReplyReward
    threats: Threats | None = None


@dataclass(frozen=True)
class LearningKit:
    """What a game gives the learners: a table key and named reward functions."""

    table_key: Callable[[State], bytes]
    rewards: dict[str, RewardFunction]

    def reward(self, name: str, game: Game) -> RewardFunction:
        if name not in self.rewards:
            raise BoardLabError(f"{game.name} has no reward function {name!r}; it has: "
                                f"{', '.join(self.rewards)}")
        return self.rewards[name]


_KITS: dict[str, str] = {
    "jungle": "boardlab.learn.kits:_jungle_kit",
    "reversi": "boardlab.learn.kits:_reversi_kit",
    "jungle-classic": "boardlab.learn.kits:_jungle_classic_kit",
}
"""game name -> 'module:function' building its kit (imported on first use)."""
_BUILT: dict[str, LearningKit] = {}


def register_kit(game_name: str, builder: str) -> None:
    """Let another game (or package) add its learning pieces: builder is 'module:function'."""
    _KITS[game_name] = builder
    _BUILT.pop(game_name, None)


def kit_for(game: Game) -> LearningKit:
    """The learning kit of `game`; BoardLabError naming the game if it has none."""
    name = game.name
    if name not in _BUILT:
        if name not in _KITS:
            raise BoardLabError(f"no learning kit (table key, rewards) is registered for "
                                f"{name}; games with one: {', '.join(sorted(_KITS))}")
        module, _, function = _KITS[name].partition(":")
        _BUILT[name] = getattr(importlib.import_module(module), function)()
    return _BUILT[name]


def has_kit(game: Game) -> bool:
    return game.name in _KITS


def _jungle_kit() -> LearningKit:
    encode: Any = importlib.import_module("boardlab.games.jungle.encode")
    rewards: Any = importlib.import_module("boardlab.games.jungle.rewards")
    return LearningKit(
        table_key=encode.tabular_key,
        rewards={
            "qlearning": RewardFunction(rewards.qlearning_reward,
                                        rewards.qlearning_reply_reward, rewards.threats),
            "dqn": RewardFunction(rewards.dqn_reward, rewards.dqn_reply_reward,
                                  rewards.threats),
        },
    )


def _reversi_kit() -> LearningKit:
    rewards: Any = importlib.import_module("boardlab.games.reversi.rewards")
    return LearningKit(
        table_key=rewards.table_key,
        rewards={
            # seed 001: R(p) for the own move (DQN, Dueling DQN) ...
            "dqn": RewardFunction(rewards.dqn_reward, rewards.dqn_reply_reward),
            # ... and R(p_current) - R(p_next) (MiniMax Dueling DQN)
            "minimax": RewardFunction(rewards.dqn_reward, rewards.minimax_reply_reward),
            # tabular Q-learning has no reward of its own in the paper: the DQN's
            "qlearning": RewardFunction(rewards.dqn_reward, rewards.dqn_reply_reward),
        },
    )


def _jungle_classic_kit() -> LearningKit:
    rewards: Any = importlib.import_module("boardlab.games.jungle.classic_rewards")
    both = RewardFunction(rewards.action_reward, rewards.reply_reward)
    return LearningKit(table_key=rewards.table_key, rewards={"dqn": both, "qlearning": both})


def terminal_only(reply: ReplyReward) -> ReplyReward:
    """A reply reward keeping only its terminal part (seed 000's reading: no reply penalty)."""
    def terminal(before: State, after: State, player: int) -> float:
        if not after.is_terminal():
            return 0.0
        return reply(after, after, player)  # no pieces lost between a state and itself
    return terminal

"""The two learners `boardlab train` drives: tabular Q-learning and DQN.

Each wraps its agent (agents/qlearning.py, agents/dqn.py hold the algorithm and the network),
feeds it transitions from learn/episodes.py, and knows how to checkpoint itself so an
interrupted run resumes. The hyper-parameters are seed 000's unless a field says otherwise.
"""

from __future__ import annotations

import json
import os
import random
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.dqn import DQNAgent, load_payload
from ..agents.qlearning import QLearningAgent, QTable
from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, Game, State
from ..core.match import derive_seed
from ..core.registry import make_agent
from .kits import RewardFunction, kit_for
from .replay import ReplayBuffer


class Trainer:
    """What the training loop needs from a learner."""

    algorithm = ""
    masked = True

    def __init__(self, game: Game) -> None:
        self.game = game
        self.episode = 0
        self.epsilon = 0.0
        self.losses: list[float] = []
        self.updates = 0

    reward: RewardFunction

    def start_episode(self, seed: int, k: int) -> None:
        raise NotImplementedError

    def end_episode(self) -> None:
        raise NotImplementedError

    def choose(self, state: State, explore: bool) -> int:
        raise NotImplementedError

    def observe(self, state: State, action: int, reward: float, next_state: State,
                done: bool) -> None:
        raise NotImplementedError

    def player(self) -> Agent:
        """An agent playing the current policy greedily, for evaluation."""
        raise NotImplementedError

    def take_losses(self) -> float:
        """Mean loss (or |TD error|) since the last call; nan if none."""
        value = float(np.mean(self.losses)) if self.losses else float("nan")
        self.losses = []
        return value

    def save_checkpoint(self, path: Path, meta: dict[str, Any]) -> None:
        raise NotImplementedError

    def load_checkpoint(self, path: Path) -> dict[str, Any]:
        raise NotImplementedError

    def export(self, path: Path) -> int:
        """Write the weights a user plays with; returns the bytes written."""
        raise NotImplementedError

    def describe(self) -> str:
        return ""


# --- tabular Q-learning ----------------------------------------------------------------------

@dataclass
class QLearningTraining:
    reply_penalty: bool = True
    """Count own pieces the opponent takes in its reply as `be_captured` (docs/learning.md)."""


class QLearningTrainer(Trainer):
    algorithm = "qlearning"

    def __init__(self, game: Game, settings: QLearningTraining | None = None,
                 agent_params: dict[str, Any] | None = None) -> None:
        super().__init__(game)
        self.training = settings or QLearningTraining()
        self.agent = QLearningAgent(game, weights="none", **(agent_params or {}))
        self.reward = kit_for(game).reward("qlearning", game)
        if not self.training.reply_penalty:
            self.reward = RewardFunction(self.reward.action, _terminal_only(self.reward.reply))
        self.epsilon = self.agent.settings.epsilon

    def start_episode(self, seed: int, k: int) -> None:
        self.agent.rng = random.Random(derive_seed(seed, "explore", k))

    def end_episode(self) -> None:
        s = self.agent.settings
        self.episode += 1
        self.epsilon = max(s.epsilon_min, self.epsilon * s.epsilon_decay)

    def choose(self, state: State, explore: bool) -> int:
        return self.agent.choose(state, self.epsilon if explore else 0.0)

    def observe(self, state: State, action: int, reward: float, next_state: State,
                done: bool) -> None:
        error = self.agent.learn(state, action, reward, next_state, done)
        self.losses.append(abs(error))
        self.updates += 1

    def player(self) -> Agent:
        player = QLearningAgent(self.game, replace(self.agent.settings, weights="none"))
        player.table = self.agent.table
        player.spec = "qlearning (training)"
        return player

    def save_checkpoint(self, path: Path, meta: dict[str, Any]) -> None:
        meta = {**meta, "epsilon": self.epsilon, "episode": self.episode,
                "updates": self.updates}
        self.agent.table.save(path, self.game.name, min_visits=1)
        _write_sidecar(path, meta)

    def load_checkpoint(self, path: Path) -> dict[str, Any]:
        self.agent.table = QTable.load(path, self.game.name)
        meta = _read_sidecar(path)
        self.epsilon = meta["epsilon"]
        self.episode = meta["episode"]
        self.updates = meta["updates"]
        return meta

    def export(self, path: Path) -> int:
        return self.agent.table.save(path, self.game.name, self.agent.settings.min_visits)

    def describe(self) -> str:
        table = self.agent.table
        kept = sum(1 for v in table.visits.values() if v >= self.agent.settings.min_visits)
        return (f"table: {len(table)} states, {table.entries()} entries; "
                f"{kept} states visited >= {self.agent.settings.min_visits} times are exported")


def _write_sidecar(path: Path, meta: dict[str, Any]) -> None:
    side = path.with_name(path.name + ".json")
    tmp = side.with_name(side.name + ".tmp")
    tmp.write_text(json.dumps(meta))
    os.replace(tmp, side)


def _read_sidecar(path: Path) -> dict[str, Any]:
    side = path.with_name(path.name + ".json")
    try:
        return json.loads(side.read_text())
    except (OSError, ValueError) as error:
        raise BoardLabError(f"checkpoint notes {side} are missing or unreadable: {error}; "
                            f"delete {path} to start the run again") from None


def _terminal_only(reply):
    """A reply reward keeping only the terminal part (the seed's reading: no reply penalty)."""
    def terminal(before: State, after: State, player: int) -> float:
        if not after.is_terminal():
            return 0.0
        return reply(after, after, player)  # no pieces lost between a state and itself
    return terminal


# --- DQN -------------------------------------------------------------------------------------

@dataclass
class DQNTraining:
    lr: float = 1e-4
    """Adam learning rate (seed 000)."""
    gamma: float = 0.99
    """Discount factor (seed 000)."""
    batch: int = 64
    """Replay batch size (seed 000)."""
    epsilon: float = 0.1
    """Exploration rate at the first episode (seed 000)."""
    epsilon_decay: float = 0.995
    """Per-episode multiplier (seed 000)."""
    epsilon_min: float = 0.01
    """Lowest exploration rate (seed 000)."""
    target_sync: int = 100
    """Episodes between copies of the network into the target network (seed 000)."""
    buffer: int = 50_000
    """Replay capacity in transitions (seed silent)."""
    warmup: int = 1_000
    """Transitions collected before the first update (seed silent)."""
    train_every: int = 1
    """Learner steps between gradient updates (seed silent: one per step)."""
    reply_penalty: bool = True
    """Count own pieces the opponent takes in its reply as `be captured` (docs/learning.md)."""
    reward: str = "dqn"
    """The game's reward function (learn/kits.py): jungle dqn (seed 000's DQN table) or
    qlearning (seed 000's full reward with R_Pos); reversi dqn (seed 001's R(p)) or minimax
    (R(p_current) - R(p_next), the MiniMax Dueling DQN's)."""
    init: str = ""
    """Weights file (.pt) to start from instead of a fresh network, e.g. to fine-tune a
    trained network on another reward; its architecture must match the settings."""
    n_step: int = 1
    """Returns over this many of the learner's own transitions before bootstrapping
    (Sutton 1988; Rainbow's n-step targets): r_t + gamma r_t+1 + ... + gamma^n max Q(s_t+n).
    1 is the seed's one-step target. With the seed's target network, copied every 100
    episodes, a one-step target moves the news of a result one ply back per copy; n plies
    per copy with n-step targets."""
    guide: str = ""
    """An agent spec (e.g. `minimax:depth=3`) whose move the learner plays instead of its own
    with probability `guide_rate`, learning from it like any transition: Q-learning is
    off-policy, so a stronger player's games are valid experience, and they reach the wins
    whose terminal reward an untrained network's draws never show it. Empty = none (seed)."""
    guide_rate: float = 0.5
    """Probability of the guide's move at the first episode."""
    guide_decay: float = 0.999
    """Per-episode multiplier of guide_rate."""
    guide_min: float = 0.0
    """Lowest guide_rate."""

    def __post_init__(self) -> None:
        if self.n_step < 1:
            raise ValueError("n_step must be at least 1")
        if not 0 <= self.guide_min <= 1 or not 0 <= self.guide_rate <= 1:
            raise ValueError("guide_rate and guide_min must be in [0, 1]")


class DQNTrainer(Trainer):
    algorithm = "dqn"

    def __init__(self, game: Game, settings: DQNTraining | None = None,
                 agent_params: dict[str, Any] | None = None) -> None:
        super().__init__(game)
        import torch

        self.torch = torch
        torch.set_num_threads(1)  # a small net: one thread is faster than two fighting
        self.training = t = settings or DQNTraining()
        self.agent = DQNAgent(game, weights="none", **(agent_params or {}))
        self.masked = self.agent.settings.masked
        self.network = self.agent.network
        if t.init:
            start = DQNAgent(game, weights=t.init)
            try:
                self.network.load_state_dict(start.network.state_dict())
            except RuntimeError:
                raise BoardLabError(f"init weights {t.init} have another architecture than "
                                    "the training settings (hidden, residual_blocks, "
                                    "dueling)") from None
        self.target = self.agent._build()
        self.target.load_state_dict(self.network.state_dict())
        self.target.eval()
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=t.lr,
                                          betas=(0.9, 0.999), eps=1e-8)
        self.buffer = ReplayBuffer(t.buffer, self.agent.inputs, self.agent.num_actions)
        self.reward = kit_for(game).reward(t.reward, game)
        self.agent.trained_reward = t.reward
        if not t.reply_penalty:
            self.reward = RewardFunction(self.reward.action, _terminal_only(self.reward.reply))
        self.epsilon = t.epsilon
        self.guide_rate = t.guide_rate if t.guide else 0.0
        self.guide = make_agent(t.guide, game) if t.guide else None
        self.view_rng = random.Random(0)
        # per learner seat, its last transitions not yet pushed: (encoded s, a, r)
        self.pending: dict[int, deque[tuple[np.ndarray, int, float]]] = {}
        self.steps = 0
        self.np_rng = np.random.default_rng(0)

    def start_episode(self, seed: int, k: int) -> None:
        self.agent.rng = random.Random(derive_seed(seed, "explore", k))
        self.np_rng = np.random.default_rng(derive_seed(seed, "replay", k))
        self.view_rng = random.Random(derive_seed(seed, "guide view", k))
        self.torch.manual_seed(derive_seed(seed, "dropout", k))
        self.pending = {}
        if self.guide is not None:
            self.guide.start_game(0, derive_seed(seed, "guide", k))

    def end_episode(self) -> None:
        t = self.training
        self.episode += 1
        self.epsilon = max(t.epsilon_min, self.epsilon * t.epsilon_decay)
        if self.guide is not None:
            self.guide_rate = max(t.guide_min, self.guide_rate * t.guide_decay)
        if self.episode % t.target_sync == 0:
            self.target.load_state_dict(self.network.state_dict())

    def choose(self, state: State, explore: bool) -> int:
        if explore and self.guide is not None and self.agent.rng.random() < self.guide_rate:
            # the guide plays from what the learner may know, as in a match
            view = state.view(state.current_player(), self.view_rng)
            return self.guide.act(view, Clock())
        return self.agent.choose(state, self.epsilon if explore else 0.0)

    def observe(self, state: State, action: int, reward: float, next_state: State,
                done: bool) -> None:
        player = state.current_player()
        pending = self.pending.setdefault(player, deque())
        pending.append((state.encode(player), action, reward))
        n, gamma = self.training.n_step, self.training.gamma
        if done:  # the game is over: every waiting transition's return is complete
            while pending:
                self._push(pending, next_state, player, done=True)
        elif len(pending) == n:
            legal = (next_state.legal_actions() if self.masked
                     else list(range(self.agent.num_actions)))
            self._push(pending, next_state, player, done=False, legal=legal,
                       discount=gamma ** n)

    def _push(self, pending: deque, next_state: State, player: int, done: bool,
              legal: list[int] | None = None, discount: float = 0.0) -> None:
        """Push the oldest waiting transition with the discounted sum of the rewards after it
        and bootstrap from `next_state` (nothing to bootstrap when done)."""
        gamma = self.training.gamma
        encoded, action, _ = pending[0]
        ret = sum(gamma ** i * r for i, (_, _, r) in enumerate(pending))
        pending.popleft()
        self.buffer.push(encoded, action, ret, next_state.encode(player), done, legal or [],
                         discount)
        self.steps += 1
        if len(self.buffer) >= max(self.training.warmup, self.training.batch) and \
                self.steps % self.training.train_every == 0:
            self.losses.append(self.update())

    def update(self) -> float:
        """One gradient step on a replay batch: MSE between Q(s, a) and r + gamma max Q'."""
        torch = self.torch
        batch = self.buffer.sample(self.training.batch, self.np_rng)
        states = torch.from_numpy(batch["states"])
        next_states = torch.from_numpy(batch["next_states"])
        with torch.no_grad():
            next_q = self.target(next_states)
            next_q[~torch.from_numpy(batch["next_masks"])] = -1e9
            best = next_q.max(dim=1).values
            done = torch.from_numpy(batch["dones"])
            best = torch.where(done > 0, torch.zeros_like(best), best)
            target = torch.from_numpy(batch["rewards"]) + torch.from_numpy(
                batch["discounts"]) * best
        self.network.train()
        q = self.network(states).gather(1, torch.from_numpy(batch["actions"])[:, None])[:, 0]
        loss = torch.nn.functional.mse_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.network.eval()
        self.updates += 1
        return loss.item()

    def player(self) -> Agent:
        player = DQNAgent(self.game, replace(self.agent.settings, weights="none"))
        player.network = self.network  # shared: evaluation sees the current weights
        player.spec = "dqn (training)"
        return player

    def save_checkpoint(self, path: Path, meta: dict[str, Any]) -> None:
        meta = {**meta, "epsilon": self.epsilon, "episode": self.episode,
                "updates": self.updates, "steps": self.steps, "guide_rate": self.guide_rate}
        self.agent.save(path, extra={
            "checkpoint": json.dumps(meta),
            "target": self.target.state_dict(),
            "optimizer": self.optimizer.state_dict()})

    def load_checkpoint(self, path: Path) -> dict[str, Any]:
        payload = load_payload(path, "boardlab-dqn", self.game.name, "DQN checkpoint")
        if "checkpoint" not in payload:
            raise BoardLabError(f"{path} holds DQN weights but no training state to resume")
        self.network.load_state_dict(payload["state_dict"])
        self.target.load_state_dict(payload["target"])
        self.optimizer.load_state_dict(payload["optimizer"])
        meta = json.loads(payload["checkpoint"])
        self.epsilon, self.episode = meta["epsilon"], meta["episode"]
        self.updates, self.steps = meta["updates"], meta["steps"]
        self.guide_rate = meta.get("guide_rate", self.guide_rate)
        return meta

    def export(self, path: Path) -> int:
        return self.agent.save(path)

    def describe(self) -> str:
        guide = (f"; guide {self.training.guide} at rate {self.guide_rate:.3f}"
                 if self.guide is not None else "")
        return f"replay {len(self.buffer)}/{self.buffer.capacity} transitions{guide}"

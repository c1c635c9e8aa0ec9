"""Tabular Q-learning training (Watkins 1989; seed 000) on the training protocol.

The algorithm (the table, its update and the fallback for unseen states) is the agent's,
agents/qlearning.py; this trainer plays episodes one at a time (learn/episodes.py: a
transition runs from one of the learner's decisions to its next) and feeds them to it. A table
update costs a dictionary look-up, so there is nothing to batch: episodes stay sequential.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.qlearning import QLearningAgent, QTable
from ..core.agent import Agent
from ..core.game import BoardLabError, Game, State
from ..core.match import derive_seed
from .episodes import DEFAULT_OPPONENTS, Episode, OpponentMix, run_episode
from ..core.learning import RewardFunction, terminal_only
from .protocol import Trainer


@dataclass
class QLearningTraining:
    reply_penalty: bool = True
    """Count own pieces the opponent takes in its reply as `be_captured` (docs/learning.md)."""


class QLearningTrainer(Trainer):
    algorithm = "qlearning"
    masked = True

    def __init__(self, game: Game, settings: QLearningTraining | None = None,
                 agent_params: dict[str, Any] | None = None, seed: int = 0,
                 opponent: str = "") -> None:
        super().__init__(game, seed)
        self.training = settings or QLearningTraining()
        self.opponents = OpponentMix(game, opponent or DEFAULT_OPPONENTS)
        self.agent = QLearningAgent(game, weights="none", **(agent_params or {}))
        self.reward = self.agent.reward
        if not self.training.reply_penalty:
            self.reward = RewardFunction(self.reward.action, terminal_only(self.reward.reply))
        self.epsilon = self.agent.settings.epsilon
        self.errors: list[float] = []

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "opponent": str(self.opponents)}

    def train_until(self, total_episodes: int) -> None:
        s = self.agent.settings
        while self.progress.episodes < total_episodes:
            k = self.progress.episodes
            self.agent.rng = random.Random(derive_seed(self.seed, "explore", k))
            episode: Episode[State] = Episode.numbered(
                self.game, self.seed, k, self.opponents, self.opponents.agents.__getitem__,
                self.reward)
            self.progress.env_steps += run_episode(episode, self).plies
            self.progress.episodes += 1
            self.epsilon = max(s.epsilon_min, self.epsilon * s.epsilon_decay)

    # --- the learner side of learn/episodes.py ----------------------------------------------
    def choose(self, state: State, explore: bool) -> int:
        return self.agent.choose(state, self.epsilon if explore else 0.0)

    def observe(self, state: State, action: int, reward: float, next_state: State,
                done: bool) -> None:
        self.errors.append(abs(self.agent.learn(state, action, reward, next_state, done)))
        self.progress.updates += 1

    # --- the protocol's other parts ----------------------------------------------------------
    def player(self) -> Agent:
        player = QLearningAgent(self.game, replace(self.agent.settings, weights="none"))
        player.table = self.agent.table
        player.spec = "qlearning (training)"
        return player

    def metrics(self) -> dict[str, Any]:
        error = float(np.mean(self.errors)) if self.errors else float("nan")
        self.errors = []
        return {"loss": error, "epsilon": round(self.epsilon, 5)}

    def save_checkpoint(self, path: Path, meta: dict[str, Any]) -> None:
        self.agent.table.save(path, self.game.name, min_visits=1)
        side = path.with_name(path.name + ".json")
        tmp = side.with_name(side.name + ".tmp")
        tmp.write_text(json.dumps({**meta, "epsilon": self.epsilon}))
        os.replace(tmp, side)

    def load_checkpoint(self, path: Path) -> dict[str, Any]:
        table = QTable.load(path, self.game.name)
        mine = self.agent.table
        if (table.key, table.key_version, table.reward) != (mine.key, mine.key_version,
                                                            mine.reward):
            raise BoardLabError(f"checkpoint {path} is filed under the table key "
                                f"{table.key!r} (version {table.key_version}) with the "
                                f"reward {table.reward!r}, this run under {mine.key!r} "
                                f"(version {mine.key_version}) with {mine.reward!r}; delete "
                                "it to start the run again")
        self.agent.table = table
        side = path.with_name(path.name + ".json")
        try:
            meta = json.loads(side.read_text())
            self.epsilon = meta["epsilon"]
            self.progress.restore(meta)
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise BoardLabError(f"checkpoint notes {side} are missing or unreadable "
                                f"({type(error).__name__}: {error}); delete {path} to start "
                                "the run again") from None
        return meta

    def export(self, path: Path) -> int:
        return self.agent.table.save(path, self.game.name, self.agent.settings.min_visits)

    def describe(self) -> str:
        table = self.agent.table
        kept = sum(1 for v in table.visits.values() if v >= self.agent.settings.min_visits)
        return (f"table: {len(table)} states, {table.entries()} entries; "
                f"{kept} states visited >= {self.agent.settings.min_visits} times are exported")

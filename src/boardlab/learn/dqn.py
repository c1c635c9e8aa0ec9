"""DQN training on vectorized self-play (Mnih et al. 2015; seed 000, seed 001's variants).

Read top to bottom like CleanRL's dqn.py: settings, then the loop of `train_until`:
    every step: all `envs` games advance by one learner decision (learn/selfplay.py), acting
                epsilon-greedily with one batched forward; finished transitions go to replay;
    then:       gradient steps on replay batches until there is one per `train_every`
                transitions; the target network is copied every `target_sync` episodes;
                epsilon decays per finished episode (the seed's schedule).
The network, its options (residual blocks, dueling heads) and the weights files are the
agent's (agents/dqn.py); the reward is the game's (its learning kit, described in the game
package's rewards.py).

`envs=1, train_every=1` is the sequential loop BoardLab had before (one game, batch-1
forwards, an update per learner step); `boardlab bench` measures it beside the vectorized one.
`actors=K` (K >= 1) moves the games into K processes that act with a copy of the network
refreshed every `sync_every` updates, while this process only learns: the two cores of a
laptop each do one job. `backend=ray` runs those actors on a Ray cluster instead.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.dqn import DQNAgent
from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, Game, State
from ..core.match import derive_seed
from ..core.registry import make_agent
from ..core.weights import load_payload
from .episodes import DEFAULT_OPPONENTS, OpponentMix
from ..core.learning import RewardFunction, declared_symmetries, kit_for, terminal_only
from .protocol import Trainer
from .replay import ReplayBuffer
from .selfplay import EpisodeEnd, Transitions, VectorSelfPlay

RECENT_EPISODES = 1000


@dataclass
class DQNTraining:
    envs: int = 128
    """Games played in lockstep; one batched forward acts for all of them (1 = sequential)."""
    train_every: int = 4
    """Transitions per gradient step (seed silent; the sequential loop used 1)."""
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
    buffer: int = 100_000
    """Replay capacity in transitions (seed silent)."""
    warmup: int = 1_000
    """Transitions collected before the first update (seed silent)."""
    opponent: str = ""
    """Opponents mixed by weight, spec@weight joined by +; `self` is self-play (the seeds'
    training). Empty = `--opponent` of the command, else random@0.3+greedy@0.4+self@0.3."""
    reward: str = "dqn"
    """The game's reward function, by name: one of its learning kit's `rewards` (the game
    package's rewards.py describes each)."""
    reply_penalty: bool = True
    """Count own pieces the opponent takes in its reply as `be captured` (docs/learning.md);
    false keeps only the reply's terminal reward."""
    n_step: int = 1
    """Returns over this many of the learner's own transitions before bootstrapping
    (Sutton 1988; Rainbow): r_t + gamma r_t+1 + ... + gamma^n max Q(s_t+n). 1 = the seed's."""
    double: bool = False
    """Double DQN targets (van Hasselt et al. 2016): the online network picks the next
    action, the target network values it. False = the seed's max over the target network."""
    augment: bool = False
    """Show each replay sample through a random one of the board's symmetries (the game's
    learning kit declares them): states, action and next legal actions turned alike. Not the
    seeds'; a fully connected network does not learn on its own that a turned board plays
    the same."""
    init: str = ""
    """Weights file (.pt) to start from instead of a fresh network; its architecture must
    match the settings."""
    guide: str = ""
    """An agent spec whose move the learner plays instead of its own with probability
    `guide_rate`, learning from it off-policy like any transition. Empty = none (seed)."""
    guide_rate: float = 0.5
    """Probability of the guide's move at the first episode."""
    guide_decay: float = 0.999
    """Per-episode multiplier of guide_rate."""
    guide_min: float = 0.0
    """Lowest guide_rate."""
    actors: int = 0
    """Processes playing the games while this one learns (0 = all in this process)."""
    sync_every: int = 50
    """Updates between copies of the network to the actors."""
    backend: str = "local"
    """Where actors run: `local` processes or `ray` (a Ray cluster: RAY_ADDRESS, else a
    local one)."""

    def __post_init__(self) -> None:
        if self.envs < 1 or self.train_every < 1 or self.batch < 1 or self.n_step < 1:
            raise ValueError("envs, train_every, batch and n_step must be at least 1")
        if not 0 <= self.guide_min <= 1 or not 0 <= self.guide_rate <= 1:
            raise ValueError("guide_rate and guide_min must be in [0, 1]")
        if self.actors < 0 or self.sync_every < 1:
            raise ValueError("actors must be >= 0 and sync_every >= 1")
        if self.backend not in ("local", "ray"):
            raise ValueError("backend must be local or ray")


class DQNTrainer(Trainer):
    algorithm = "dqn"

    def __init__(self, game: Game, settings: DQNTraining | None = None,
                 agent_params: dict[str, Any] | None = None, seed: int = 0,
                 opponent: str = "") -> None:
        super().__init__(game, seed)
        import torch

        self.torch = torch
        self.training = t = settings or DQNTraining()
        self.opponent_text = t.opponent or opponent or DEFAULT_OPPONENTS
        self.agent = DQNAgent(game, weights="none", **(agent_params or {}))
        self.network = self.agent.network
        if t.init:
            self._start_from(t.init)
        self.target = self.agent._build()
        self.target.load_state_dict(self.network.state_dict())
        self.target.eval()
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=t.lr, fused=True)
        self.buffer = ReplayBuffer(t.buffer, self.agent.inputs, self.agent.num_actions)
        kit = kit_for(game)
        self.reward = kit.reward(t.reward, game)
        symmetries = declared_symmetries(game, "augment=true") if t.augment else ()
        self.views = tuple(np.stack([getattr(view, part) for view in symmetries])
                           for part in ("inputs", "actions", "where")) if symmetries else ()
        """Every symmetry's input gather, action gather and action image, stacked."""
        if not t.reply_penalty:
            self.reward = RewardFunction(self.reward.action, terminal_only(self.reward.reply))
        self.agent.trained_reward = t.reward
        self.epsilon = t.epsilon
        self.guide_rate = t.guide_rate if t.guide else 0.0
        self.guide = make_agent(t.guide, game) if t.guide else None
        self.transitions = 0
        self.losses: list[float] = []
        self.rng = np.random.default_rng(derive_seed(seed, "dqn"))
        torch.manual_seed(derive_seed(seed, "dropout"))
        self.games: VectorSelfPlay | None = None
        self.recent: list[EpisodeEnd] = []
        """The last training games, newest last (their results, for tests and metrics)."""
        self.actors: Any = None

    def _start_from(self, path: str) -> None:
        start = DQNAgent(self.game, weights=path)
        try:
            self.network.load_state_dict(start.network.state_dict())
        except RuntimeError:
            raise BoardLabError(f"init weights {path} have another architecture than the "
                                "training settings (hidden, residual_blocks, dueling)") from None

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "opponent": self.opponent_text}

    # --- the loop ----------------------------------------------------------------------------
    def train_until(self, total_episodes: int) -> None:
        if self.training.actors:
            return self._train_with_actors_until(total_episodes)
        if self.games is None:
            self.games = self.new_games(self.progress.episodes)
        self.games.play_until(total_episodes)
        while self.games.running():
            self.step()

    def step(self) -> None:
        """One lockstep step of every running game, then the updates it is owed."""
        assert self.games is not None
        before = self.games.env_steps
        batch = self.games.step(self.choose)
        self.progress.env_steps += self.games.env_steps - before
        self.learn_from(batch, self.games.take_finished())

    def new_games(self, first_episode: int, stride: int = 1) -> VectorSelfPlay:
        t = self.training
        return VectorSelfPlay(self.game, t.envs, self.reward,
                              OpponentMix(self.game, self.opponent_text), self.seed, t.gamma,
                              t.n_step, self.agent.settings.masked, first_episode, stride)

    def learn_from(self, batch: Transitions | None, ended: list[EpisodeEnd]) -> None:
        """Store the transitions, run the updates they are owed, count finished episodes."""
        t = self.training
        if batch is not None:
            self.buffer.push_batch(batch)
            self.transitions += len(batch)
        ready = len(self.buffer) >= max(t.warmup, t.batch)
        owed = (self.transitions - t.warmup) // t.train_every - self.progress.updates
        if ready and owed > 0:
            # dropout on for the updates, off for acting: switched once for all of them
            # (a switch walks every module: it cost a tenth of a small network's update)
            self.network.train()
            for _ in range(owed):
                self.losses.append(self.update())
            self.network.eval()
        self.recent = (self.recent + ended)[-RECENT_EPISODES:]
        for _ in ended:
            self.progress.episodes += 1
            self.epsilon = max(t.epsilon_min, self.epsilon * t.epsilon_decay)
            if self.guide is not None:
                self.guide_rate = max(t.guide_min, self.guide_rate * t.guide_decay)
            if self.progress.episodes % t.target_sync == 0:
                self.target.load_state_dict(self.network.state_dict())

    def choose(self, encoded: np.ndarray, masks: np.ndarray, states: list[State]) -> np.ndarray:
        """Epsilon-greedy for every game at once: one forward for the batch, then per game a
        random action with probability epsilon (a legal one when masked), or the guide's."""
        torch = self.torch
        with torch.no_grad():
            q = self.network(torch.from_numpy(encoded)).numpy()
        masked = self.agent.settings.masked
        if masked:
            q = np.where(masks, q, -np.inf)
        actions = q.argmax(axis=1)
        explore = self.rng.random(len(actions)) < self.epsilon
        for i in np.flatnonzero(explore):
            legal = np.flatnonzero(masks[i]) if masked else np.arange(masks.shape[1])
            actions[i] = self.rng.choice(legal)
        if self.guide is not None:
            for i in np.flatnonzero(self.rng.random(len(actions)) < self.guide_rate):
                view = states[i].view(states[i].current_player(),
                                      random.Random(int(self.rng.integers(2**31))))
                actions[i] = self.guide.act(view, Clock())
        return actions

    def update(self) -> float:
        """One gradient step on a replay batch: MSE between Q(s, a) and the target
        r + discount * max_b Q_target(s', b) over legal b (0 at the end of a game). The
        network's mode (dropout in training) is the caller's: `learn_from` sets it."""
        torch = self.torch
        sample = self.buffer.sample(self.training.batch, self.rng)
        if self.views:
            sample = self.turned(sample)
        batch = {k: torch.from_numpy(v) for k, v in sample.items()}
        with torch.no_grad():
            next_q = self.target(batch["next_states"])
            illegal = ~batch["next_masks"]
            if self.training.double:
                chooser = self.network(batch["next_states"]).masked_fill(illegal, -1e9)
                best = next_q.gather(1, chooser.argmax(dim=1, keepdim=True))[:, 0]
            else:
                best = next_q.masked_fill(illegal, -1e9).max(dim=1).values
            best = torch.where(batch["dones"] > 0, torch.zeros_like(best), best)
            target = batch["rewards"] + batch["discounts"] * best
        q = self.network(batch["states"]).gather(1, batch["actions"][:, None])[:, 0]
        loss = torch.nn.functional.mse_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.progress.updates += 1
        return loss.item()

    def turned(self, sample: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The replay sample, each transition seen through a random symmetry of the board."""
        all_inputs, all_actions, all_where = self.views
        views = self.rng.integers(len(all_inputs), size=len(sample["actions"]))
        inputs, actions, where = all_inputs[views], all_actions[views], all_where[views]
        return {**sample,
                "states": np.take_along_axis(sample["states"], inputs, axis=1),
                "next_states": np.take_along_axis(sample["next_states"], inputs, axis=1),
                "next_masks": np.take_along_axis(sample["next_masks"], actions, axis=1),
                "actions": np.take_along_axis(where, sample["actions"][:, None].astype(np.int64),
                                              axis=1)[:, 0].astype(sample["actions"].dtype)}

    # --- actors in other processes -----------------------------------------------------------
    def _train_with_actors_until(self, total_episodes: int) -> None:
        from .actors import start_actors

        if self.actors is None:
            self.actors = start_actors(self, self.training.actors, self.training.backend)
        self.actors.run_until(total_episodes)

    def close(self) -> None:
        if self.actors is not None:
            self.actors.close()
            self.actors = None

    # --- the protocol's other parts ----------------------------------------------------------
    def player(self) -> Agent:
        player = DQNAgent(self.game, replace(self.agent.settings, weights="none"))
        player.network = self.network  # shared: evaluation sees the current weights
        player.lookahead = self.agent.lookahead
        player.symmetries = self.agent.symmetries
        player.spec = "dqn (training)"
        return player

    def metrics(self) -> dict[str, Any]:
        loss = float(np.mean(self.losses)) if self.losses else float("nan")
        self.losses = []
        return {"loss": loss, "epsilon": round(self.epsilon, 5)}

    def save_checkpoint(self, path: Path, meta: dict[str, Any]) -> None:
        meta = {**meta, "epsilon": self.epsilon, "guide_rate": self.guide_rate,
                "transitions": self.transitions,
                "rng": self.rng.bit_generator.state}
        self.agent.save(path, extra={
            "checkpoint": json.dumps(meta),
            "target": self.target.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "replay": self.buffer.state_dict(),
            "torch_rng": self.torch.get_rng_state()})

    def load_checkpoint(self, path: Path) -> dict[str, Any]:
        payload = load_payload(path, "boardlab-dqn", self.game.name, "DQN checkpoint")
        if "checkpoint" not in payload or "replay" not in payload:
            raise BoardLabError(f"{path} holds DQN weights but no training state to resume; "
                                "delete it to start the run again")
        try:
            self.network.load_state_dict(payload["state_dict"])
            self.target.load_state_dict(payload["target"])
            self.optimizer.load_state_dict(payload["optimizer"])
            self.buffer.load_state_dict(payload["replay"])
            self.torch.set_rng_state(payload["torch_rng"])
            meta = json.loads(payload["checkpoint"])
            self.epsilon, self.guide_rate = meta["epsilon"], meta["guide_rate"]
            self.transitions = meta["transitions"]
            self.rng.bit_generator.state = meta["rng"]
            self.progress.episodes, self.progress.env_steps = meta["episodes"], meta["env_steps"]
            self.progress.updates, self.progress.seconds = meta["updates"], meta["seconds"]
        except (RuntimeError, KeyError, TypeError, ValueError) as error:
            raise BoardLabError(f"DQN checkpoint {path} does not fit this training run "
                                f"({type(error).__name__}: "
                                f"{(str(error).splitlines() or [''])[0][:120]}); delete it or "
                                "use another --out") from None
        self.games = None
        return meta

    def export(self, path: Path) -> int:
        return self.agent.save(path)

    def describe(self) -> str:
        guide = (f"; guide {self.training.guide} at rate {self.guide_rate:.3f}"
                 if self.guide is not None else "")
        return f"replay {len(self.buffer)}/{self.buffer.capacity} transitions{guide}"

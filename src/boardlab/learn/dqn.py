"""The DQN's training, all of it in this file (Mnih et al. 2015; seed 000, seed 001's variants).

Read it top to bottom, as CleanRL's dqn.py:
1. `DQNTraining`, every setting, with the paper or seed it comes from;
2. the loss: `td_targets` (the seed's r + gamma max Q_target(s'), or double-Q; n-step
   returns are already summed in r), `td_loss`, and DQfD's `margin_loss` on demonstrations;
3. `DQNTrainer.train_until`, the loop. Every step: all `envs` games advance by one learner
   decision, acting epsilon-greedily with one batched forward (`choose`); their finished
   transitions go to replay; gradient steps (`update`) are owed one per `train_every`
   transitions; per finished episode epsilon decays and every `target_sync` episodes the
   network is copied into the target network;
4. what the training protocol (learn/protocol.py) asks of a trainer: its player, metrics,
   checkpoint and weights file.

Imported pieces, each doing one thing: the network and its weights file (agents/dqn.py), the
games in lockstep (learn/selfplay.py; what a transition is: learn/episodes.py), replay
(learn/replay.py), actor processes (learn/actors.py), the reward (the game's learning kit,
its rewards.py).

`envs=1, train_every=1` is the sequential loop BoardLab had before (one game, batch-1
forwards, an update per learner step); `boardlab bench` measures it beside the vectorized one.
`actors=K` (K >= 1) moves the games into K processes that act with a copy of the network
refreshed every `sync_every` updates, while this process only learns; `backend=ray` runs
those actors on a Ray cluster instead.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.dqn import DQNAgent, zero_output_layers
from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, Game, State
from ..core.learning import RewardFunction, declared_symmetries, kit_for, terminal_only
from ..core.match import derive_seed
from ..core.registry import make_agent
from ..core.weights import load_payload
from .episodes import DEFAULT_OPPONENTS, SELF, EpisodeEnd, OpponentMix
from .protocol import Trainer, unfit_checkpoint
from .replay import PrioritizedReplay, ReplayBuffer, stack_symmetries, turned
from .selfplay import Transitions, VectorSelfPlay

RECENT_EPISODES = 1000
PRETRAIN_SYNC = 1000
"""Gradient steps between copies into the target network while pre-training on
demonstrations (no episode ends to count; DQfD copies every 10,000 on Atari)."""


TEACHER_LOSSES = ("margin", "cross_entropy")


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
    n_step_weight: float = 0.0
    """With n_step > 1, learn from each transition's one-step target too, the n-step loss
    weighted by this: DQfD's J_DQ + lambda_1 J_n (lambda_1 = 1), every transition then two
    replay rows. 0 = the n-step target alone."""
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
    zero_head: bool = False
    """A fresh network's output layers start at zero (it adds nothing at first: with a shaped
    reward and `lookahead`, training starts from the search the shaping describes)."""
    guide: str = ""
    """An agent spec whose move the learner plays instead of its own with probability
    `guide_rate`, learning from it off-policy like any transition. Empty = none (seed)."""
    guide_rate: float = 0.5
    """Probability of the guide's move at the first episode."""
    guide_decay: float = 0.999
    """Per-episode multiplier of guide_rate."""
    guide_min: float = 0.0
    """Lowest guide_rate."""
    prioritized: bool = False
    """Draw replay in proportion to |TD error| (Schaul et al. 2016, learn/replay.py), the
    loss weighted to correct the skew; false = uniform (the seeds')."""
    priority_alpha: float = 0.4
    """How far priority skews the draw: 0 = uniform (DQfD's 0.4)."""
    priority_beta: float = 0.6
    """Exponent of the importance-sampling correction: 1 = full (DQfD's 0.6)."""
    demos: str = ""
    """An agent spec whose own games (both seats) fill a protected share of replay before the
    first game, never overwritten: DQfD's demonstrations (Hester et al. 2017). Empty = none."""
    demo_episodes: int = 100
    """Games the demonstrator plays."""
    demo_pretrain: int = 0
    """Gradient steps on the demonstrations alone before the first game (DQfD's pre-training)."""
    margin_weight: float = 0.0
    """Weight of DQfD's large-margin imitation loss on demonstrations (`margin_loss`; the
    paper's lambda_2 = 1); 0 = off."""
    margin: float = 0.8
    """The margin by which the demonstrator's action must beat every other (DQfD's 0.8)."""
    teacher: str = ""
    """Teacher datasets (`boardlab teach`; several joined by ':'): before the first game the
    network learns their moves (`teacher_loss`), `teacher_steps` minibatches of
    `teacher_batch` (`learn_teacher`). A deeper search's positions, labelled in parallel
    beforehand, where `demos` plays its games here one at a time. Empty = none."""
    teacher_loss: str = "cross_entropy"
    """How the network learns the teacher's moves: `cross_entropy`, the Q-values read as the
    logits of a policy whose target is the teacher's move (AlphaGo's supervised policy loss),
    which moves every action's value at each step; `margin`, DQfD's large-margin loss (the
    teacher's move above every other by `margin`), which moves only the teacher's and the
    highest other's, and on a 155,304-position dataset did not learn (docs/learning.md)."""
    teacher_steps: int = 0
    """Minibatches of teacher positions."""
    teacher_batch: int = 256
    """Teacher positions a minibatch."""
    teacher_lr: float = 1e-3
    """Adam's learning rate on the teacher's positions, annealed along a half cosine to a
    tenth of it (learn/distill.py); `lr` is the temporal-difference learning's after."""
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
        if min(self.priority_alpha, self.priority_beta, self.margin, self.margin_weight,
               self.demo_episodes, self.demo_pretrain, self.n_step_weight) < 0:
            raise ValueError("priority_alpha, priority_beta, margin, margin_weight, "
                             "demo_episodes, demo_pretrain and n_step_weight must be >= 0")
        if self.demos and self.demo_episodes < 1:
            raise ValueError("demos needs demo_episodes >= 1")
        if self.teacher_steps < 0 or self.teacher_batch < 1 or self.teacher_lr <= 0:
            raise ValueError("teacher_steps must be >= 0, teacher_batch >= 1, teacher_lr > 0")
        if self.teacher_loss not in TEACHER_LOSSES:
            raise ValueError(f"teacher_loss must be one of {', '.join(TEACHER_LOSSES)}")
        if self.teacher and not self.teacher_steps:
            raise ValueError("teacher needs teacher_steps >= 1")


# --- the loss ----------------------------------------------------------------------------------
def td_targets(network: Any, target: Any, batch: dict[str, Any], double: bool) -> Any:
    """y = r + discount * Q_target(s', b) for each transition of a replay batch, b the legal
    action of s' with the highest Q_target (the seed's), or with `double` the one with the
    highest Q of the network (Double DQN); nothing is bootstrapped after the end (done).
    discount = gamma^n: r holds the n discounted rewards of an n-step transition."""
    import torch

    with torch.no_grad():
        next_q = target(batch["next_states"])
        illegal = ~batch["next_masks"]
        if double:
            chooser = network(batch["next_states"]).masked_fill(illegal, -1e9)
            best = next_q.gather(1, chooser.argmax(dim=1, keepdim=True))[:, 0]
        else:
            best = next_q.masked_fill(illegal, -1e9).max(dim=1).values
        best = torch.where(batch["dones"] > 0, torch.zeros_like(best), best)
        return batch["rewards"] + batch["discounts"] * best


def td_loss(q: Any, targets: Any, weights: Any = None) -> Any:
    """The mean squared error between Q(s, a) and the targets (seed 000); with prioritized
    replay, each term weighted by its importance-sampling correction."""
    import torch

    if weights is None:
        return torch.nn.functional.mse_loss(q, targets)
    return (weights * (q - targets) ** 2).mean()


def margin_loss(q_all: Any, actions: Any, demos: Any, margin: float) -> Any:
    """DQfD's large-margin imitation loss, averaged over the batch's demonstrations (0 if
    none): max_a [Q(s, a) + l(a_E, a)] - Q(s, a_E), l = `margin` for a != a_E, else 0. Zero
    once the demonstrator's action a_E beats every other action (legal or not) by the margin;
    no gradient flows to a transition the agent found itself."""
    if not bool(demos.any()):
        return q_all.new_zeros(())
    q, expert = q_all[demos], actions[demos][:, None]
    bonus = q.new_full(q.shape, margin).scatter(1, expert, 0.0)
    return ((q + bonus).max(dim=1).values - q.gather(1, expert)[:, 0]).mean()


def imitation_loss(q_all: Any, actions: Any, kind: str, margin: float) -> Any:
    """The loss by which Q-values learn a teacher's moves (`DQNTraining.teacher_loss`):
    `margin_loss` with every row a demonstration, or the cross-entropy of the Q-values read
    as logits."""
    import torch

    if kind == "cross_entropy":
        return torch.nn.functional.cross_entropy(q_all, actions)
    return margin_loss(q_all, actions, torch.ones_like(actions, dtype=torch.bool), margin)


def imitation_report(network: Any, data: Any, kind: str, margin: float,
                     batch_size: int = 1024) -> tuple[float, float]:
    """(`imitation_loss`, the share of positions whose highest Q-value is the teacher's move)
    over teacher positions (learn/distill.py's TeacherData); nan where there are none."""
    import torch

    if not len(data):
        return float("nan"), float("nan")
    network.eval()
    loss_sum = first = 0.0
    with torch.no_grad():
        for start in range(0, len(data), batch_size):
            planes = torch.from_numpy(data.planes[start:start + batch_size].astype(np.float32))
            actions = torch.from_numpy(data.action[start:start + batch_size])
            q = network(planes.reshape(len(planes), -1))
            loss_sum += float(imitation_loss(q, actions, kind, margin)) * len(actions)
            first += float((q.argmax(1) == actions).sum())
    return loss_sum / len(data), first / len(data)


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
        self.agent = DQNAgent(game, weights="none", trained_reward=t.reward,
                              **(agent_params or {}))
        self.network = self.agent.network
        if t.init:
            self._start_from(t.init)
        elif t.zero_head:
            zero_output_layers(self.network)
        self.target = self.agent.build()
        self.target.load_state_dict(self.network.state_dict())
        self.target.eval()
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=t.lr, fused=True)
        shape = (t.buffer, self.agent.inputs, self.agent.num_actions)
        self.buffer = (PrioritizedReplay(*shape, t.priority_alpha, t.priority_beta)
                       if t.prioritized else ReplayBuffer(*shape))
        self.reward = kit_for(game).reward(t.reward, game)
        if not t.reply_penalty:
            self.reward = RewardFunction(self.reward.action, terminal_only(self.reward.reply))
        self.views = stack_symmetries(declared_symmetries(game, "augment=true")
                                      if t.augment else ())
        self.epsilon = t.epsilon
        self.guide_rate = t.guide_rate if t.guide else 0.0
        self.guide = make_agent(t.guide, game) if t.guide else None
        self.transitions = 0
        self.pretrained = 0
        """Gradient steps on demonstrations alone (owed by no transition)."""
        self.taught = False
        self.teacher_report = ""
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

    # --- the loop ------------------------------------------------------------------------------
    def train_until(self, total_episodes: int) -> None:
        if self.training.teacher and not self.taught:
            self.learn_teacher()
        if self.training.demos and not self.buffer.demos:
            self.demonstrate()
        if self.training.actors:
            return self._train_with_actors_until(total_episodes)
        if self.games is None:
            self.games = self.new_games(self.progress.episodes)
        self.games.play_until(total_episodes)  # the episodes numbered below start...
        while self.games.running():  # ...and end: a run stops between episodes
            self.step()

    def new_games(self, first_episode: int, stride: int = 1, opponent: str = "",
                  seed: int | None = None) -> VectorSelfPlay:
        t = self.training
        return VectorSelfPlay(self.game, t.envs, self.reward,
                              OpponentMix(self.game, opponent or self.opponent_text),
                              self.seed if seed is None else seed, t.gamma, t.n_step,
                              self.agent.settings.masked, first_episode, stride,
                              one_step_too=t.n_step_weight > 0)

    def demonstrate(self) -> None:
        """DQfD's start: the demonstrator's games into replay's protected share, then
        `demo_pretrain` gradient steps on them alone (the target copied every PRETRAIN_SYNC)."""
        t = self.training
        games = self.new_games(0, opponent=SELF, seed=derive_seed(self.seed, "demonstrations"))
        rng = random.Random(derive_seed(self.seed, "demonstrator"))
        try:
            self.buffer.protect(games.played_by(make_agent(t.demos, self.game),
                                                t.demo_episodes, rng))
        except ValueError as error:  # a run begun without demos, or too small a buffer
            raise BoardLabError(f"demos={t.demos}: {error}") from None
        self.network.train()
        for step in range(1, t.demo_pretrain + 1):
            self.losses.append(self.update())
            if step % PRETRAIN_SYNC == 0 or step == t.demo_pretrain:
                self.target.load_state_dict(self.network.state_dict())
        self.network.eval()
        self.pretrained += t.demo_pretrain

    def learn_teacher(self) -> None:
        """DQfD's supervised start from a teacher dataset (learn/teacher.py): `teacher_steps`
        minibatches of `teacher_loss` on the teacher's moves, through learn/distill.py's loop
        (whole games held out, as there); the target network then copies the result."""
        from .distill import distill, load_teacher

        torch, t = self.torch, self.training
        split = load_teacher(t.teacher, self.game, result_weight=0.0)
        before = imitation_report(self.network, split.held_out, t.teacher_loss, t.margin)

        def imitation(network: Any, planes: Any, actions: Any, values: Any) -> tuple[Any, Any]:
            q = network(planes.reshape(len(planes), -1))
            return imitation_loss(q, actions, t.teacher_loss, t.margin), q.new_zeros(())

        optimizer = torch.optim.Adam(self.network.parameters(), lr=t.teacher_lr)
        distill(self.network, optimizer, split.train, t.teacher_steps, t.teacher_batch, 0.0,
                self.rng, lr_end=0.1, loss=imitation)
        after = imitation_report(self.network, split.held_out, t.teacher_loss, t.margin)
        self.target.load_state_dict(self.network.state_dict())
        self.taught = True
        self.teacher_report = (
            f"taught by {split.description}: held out, {t.teacher_loss} loss "
            f"{before[0]:.3f} -> "
            f"{after[0]:.3f}, the teacher's move first {before[1]:.1%} -> {after[1]:.1%}")

    def step(self) -> None:
        """One lockstep step of every running game, then the updates it is owed."""
        assert self.games is not None
        before = self.games.env_steps
        batch = self.games.step(self.choose)
        self.progress.env_steps += self.games.env_steps - before
        self.learn_from(batch, self.games.take_finished())

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

    def learn_from(self, batch: Transitions | None, ended: list[EpisodeEnd]) -> None:
        """Store the transitions, run the updates they are owed, count finished episodes."""
        t = self.training
        if batch is not None:
            self.buffer.push_batch(batch)
            self.transitions += len(batch) - int(batch.n_step_rows.sum())  # not 2 rows each
        ready = len(self.buffer) >= max(t.warmup, t.batch)
        owed = ((self.transitions - t.warmup) // t.train_every
                - (self.progress.updates - self.pretrained))
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

    def update(self) -> float:
        """One gradient step on a replay batch: `td_loss` towards `td_targets`, plus
        `margin_loss` on demonstrations where it has a weight. The network's mode (dropout in
        training) is the caller's: `learn_from` sets it."""
        torch, t = self.torch, self.training
        sample = self.buffer.sample(t.batch, self.rng)
        if self.views:
            sample = turned(sample, self.views, self.rng)
        batch = {k: torch.from_numpy(v) for k, v in sample.items()}
        targets = td_targets(self.network, self.target, batch, t.double)
        q_all = self.network(batch["states"])
        q = q_all.gather(1, batch["actions"][:, None])[:, 0]
        weights = batch.get("weights")  # prioritized replay's corrections
        if "n_step_rows" in batch:  # DQfD's J_DQ + lambda_1 J_n, row by row
            rows = 1 + (t.n_step_weight - 1) * batch["n_step_rows"].float()
            weights = rows if weights is None else weights * rows
        loss = td_loss(q, targets, weights)
        if t.margin_weight and "demos" in batch:
            loss = loss + t.margin_weight * margin_loss(q_all, batch["actions"],
                                                        batch["demos"], t.margin)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        if isinstance(self.buffer, PrioritizedReplay):
            self.buffer.update_priorities(sample["indices"], (q - targets).detach().numpy())
        self.progress.updates += 1
        return loss.item()

    # --- actors in other processes ---------------------------------------------------------------
    def _train_with_actors_until(self, total_episodes: int) -> None:
        from .actors import start_actors

        if self.actors is None:
            self.actors = start_actors(self, self.training.actors, self.training.backend)
        self.actors.run_until(total_episodes)

    def close(self) -> None:
        if self.actors is not None:
            self.actors.close()
            self.actors = None

    # --- the protocol's other parts --------------------------------------------------------------
    def player(self) -> Agent:
        """The agent the exported file would make, playing the trainer's network itself."""
        return DQNAgent.from_network(self.game, self.agent.settings, self.network,
                                     self.training.reward, spec="dqn (training)")

    def metrics(self) -> dict[str, Any]:
        loss = float(np.mean(self.losses)) if self.losses else float("nan")
        self.losses = []
        return {"loss": loss, "epsilon": round(self.epsilon, 5)}

    def save_checkpoint(self, path: Path, meta: dict[str, Any]) -> None:
        meta = {**meta, "epsilon": self.epsilon, "guide_rate": self.guide_rate,
                "transitions": self.transitions, "pretrained": self.pretrained,
                "taught": self.taught, "teacher_report": self.teacher_report,
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
            self.transitions, self.pretrained = meta["transitions"], meta.get("pretrained", 0)
            self.taught = bool(meta.get("taught", False))
            self.teacher_report = str(meta.get("teacher_report", ""))
            self.rng.bit_generator.state = meta["rng"]
            self.progress.restore(meta)
        except (RuntimeError, KeyError, TypeError, ValueError) as error:
            raise unfit_checkpoint(path, "DQN checkpoint", error) from None
        self.games = None
        return meta

    def export(self, path: Path) -> int:
        return self.agent.save(path)

    def describe(self) -> str:
        guide = (f"; guide {self.training.guide} at rate {self.guide_rate:.3f}"
                 if self.guide is not None else "")
        demos = f" ({self.buffer.demos} demonstrations)" if self.buffer.demos else ""
        taught = f"; {self.teacher_report}" if self.teacher_report else ""
        return (f"replay {len(self.buffer)}/{self.buffer.capacity} transitions{demos}{guide}"
                f"{taught}")

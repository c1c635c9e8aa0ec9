"""Training throughput: environment steps and updates per second of each learner.

For every game with a learning kit (`Game.learning_kit`):
- `train-dqn` (env steps/s) and `train-dqn-updates` (updates/s): the vectorized DQN trainer
  (learn/dqn.py: 128 self-play games in lockstep, one batched forward to act, one gradient
  step on a batch of 64 per 8 transitions) beside the sequential loop BoardLab trained with
  before (one game, batch-1 forwards, a gradient step per transition) as the denominator;
- `train-qlearning` (env steps/s): the tabular trainer, one episode at a time.
Both DQN runs use one network shape (128 wide, 2 residual fully connected blocks, no
dropout: a shipped DQN's shape) and self-play, start past the replay warm-up (setup is
not timed), and time whole steps of the training loop: acting, the games, replay and updates.
"""

from __future__ import annotations

from functools import partial

from ..core.game import Game
from .timing import Batch, Job

NETWORK = "hidden=128,residual_blocks=2,dropout=0,lookahead=0"
VECTOR = "envs=128,train_every=8,batch=64"
SEQUENTIAL = "envs=1,train_every=1,batch=64"
WARMUP = 1_000
"""Transitions in replay before the first update, collected in setup."""


def jobs_for(name: str, game: Game, quick: bool) -> list[Job]:
    if game.learning_kit() is None:
        return []
    jobs = []
    for task, unit in (("train-dqn", "env steps"), ("train-dqn-updates", "updates")):
        for label, params, steps, peer in (
                ("vectorized DQN (128 games, 1 update per 8 steps)", VECTOR, 4, False),
                ("sequential DQN (1 game, 1 update per step)", SEQUENTIAL, 64, True)):
            jobs.append(Job(name, task, label, unit,
                            f"self-play DQN training, {NETWORK},{params}",
                            partial(_dqn, game, params, steps, unit),
                            peer=peer))
    if not quick:  # starting a process is no smoke test
        jobs.append(Job(name, "train-dqn", "vectorized DQN, games in 1 actor process",
                        "env steps", f"self-play DQN training, {NETWORK},{VECTOR},actors=1",
                        partial(_dqn_with_actor, game)))
    jobs.append(Job(name, "train-qlearning", "tabular Q-learning (1 game)", "env steps",
                    "self-play Q-learning training, one episode a batch",
                    lambda: _qlearning(game)))
    return jobs


def _dqn(game: Game, params: str, steps: int, unit: str) -> Batch:
    import torch

    from ..learn.cli import build_trainer

    torch.set_num_threads(1)
    _, trainer = build_trainer(game.spec, "dqn", f"{NETWORK},{params},warmup={WARMUP}",
                               seed=0, opponent="self")
    trainer.games = trainer.new_games(0)
    trainer.games.play_until(2**62)  # games keep coming: the steady state is timed
    while trainer.progress.updates == 0:
        trainer.step()

    def batch() -> int:
        before = (trainer.progress.env_steps if unit == "env steps"
                  else trainer.progress.updates)
        for _ in range(steps):
            trainer.step()
        after = (trainer.progress.env_steps if unit == "env steps"
                 else trainer.progress.updates)
        return after - before
    return batch


def _dqn_with_actor(game: Game) -> Batch:
    """The vectorized trainer with its games in another process (the laptop's second core):
    a batch is 256 whole episodes, the actor's games draining at its end as in training."""
    import torch

    from ..learn.cli import build_trainer

    torch.set_num_threads(1)
    _, trainer = build_trainer(game.spec, "dqn",
                               f"{NETWORK},{VECTOR},actors=1,warmup={WARMUP}", seed=0,
                               opponent="self")
    while trainer.progress.updates == 0:
        trainer.train_until(trainer.progress.episodes + 128)

    def batch() -> int:
        before = trainer.progress.env_steps
        trainer.train_until(trainer.progress.episodes + 256)
        return trainer.progress.env_steps - before
    return batch


def _qlearning(game: Game) -> Batch:
    from ..learn.cli import build_trainer

    _, trainer = build_trainer(game.spec, "qlearning", "", seed=0, opponent="self")

    def batch() -> int:
        before = trainer.progress.env_steps
        trainer.train_until(trainer.progress.episodes + 1)
        return trainer.progress.env_steps - before
    return batch

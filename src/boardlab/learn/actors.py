"""Self-play actors: the DQN's games in other processes (or on a Ray cluster: the one worker
pool, core/workers.py) while the trainer's process only learns.

Each actor holds a copy of the trainer (learn/dqn.py) with a one-transition replay: it plays
its share of the episodes (actor i of K plays episodes i, i + K, i + 2K, ...) with the same
`VectorSelfPlay` and the same epsilon-greedy `choose`, and sends back the finished
transitions. The learner pipelines: as soon as an actor's chunk arrives it sends the next one
(with fresh weights every `sync_every` updates), then learns from the chunk it received while
the actor plays. Chunks are collected from the actors in a fixed order and every message is
seeded, so a run with actors is as reproducible as one without (though not the same run: the
actors act with weights one chunk old).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from ..core.game import BoardLabError
from ..core.workers import ActorPool, WorkerDied
from .episodes import EpisodeEnd
from .selfplay import Transitions

CHUNK_STEPS = 8
"""Lockstep steps an actor plays per message: 8 x envs transitions."""


class SelfPlayActor:
    """The games of one actor; `play` is all the learner calls."""

    def __init__(self, game_spec: str, agent_params: dict[str, Any], training: dict[str, Any],
                 seed: int, opponent: str, index: int, count: int, first: int) -> None:
        import torch

        from ..core.registry import make_game
        from .dqn import DQNTrainer, DQNTraining

        torch.set_num_threads(1)  # one core per actor
        settings = DQNTraining(**{**training, "buffer": 1, "actors": 0, "init": ""})
        self.trainer = DQNTrainer(make_game(game_spec), settings, agent_params, seed=seed,
                                  opponent=opponent)
        # the first of its episodes from `first` on (the episodes done when the actors were
        # started): a resumed run's actors play what an uninterrupted run's would
        self.games = self.trainer.new_games(first + (index - first) % count, stride=count)

    def play(self, limit: int, weights: dict | None, epsilon: float, guide_rate: float,
             rng_seed: int) -> tuple[Transitions | None, list[EpisodeEnd], int]:
        """Play up to CHUNK_STEPS steps of this actor's episodes numbered below `limit`;
        returns the transitions, the episodes that ended and the plies played."""
        import numpy as np
        import torch

        if weights is not None:
            self.trainer.network.load_state_dict(
                {k: torch.from_numpy(v) for k, v in weights.items()})
        self.trainer.epsilon, self.trainer.guide_rate = epsilon, guide_rate
        self.trainer.rng = np.random.default_rng(rng_seed)
        self.games.play_until(limit)
        before = self.games.env_steps
        batches = []
        for _ in range(CHUNK_STEPS):
            if not self.games.running():
                break
            batch = self.games.step(self.trainer.choose)
            if batch is not None:
                batches.append(batch)
        joined = Transitions.joined(batches) if batches else None
        return joined, self.games.take_finished(), self.games.env_steps - before

    def running(self) -> bool:
        return self.games.running()


class Actors:
    """K actors feeding one DQN trainer (see the module doc)."""

    def __init__(self, trainer: Any, count: int, backend: str) -> None:
        from ..core.match import derive_seed

        self.trainer = trainer
        self.derive_seed = derive_seed
        training = asdict(trainer.training)
        agent_params = {k: v for k, v in asdict(trainer.agent.settings).items()
                        if k != "weights"}
        # local: a spawned process per actor; ray: a Ray actor per actor (core/workers.py)
        self.pool = ActorPool(SelfPlayActor,
                              [(trainer.game.spec, agent_params, training, trainer.seed,
                                trainer.opponent_text, index, count, trainer.progress.episodes)
                               for index in range(count)],
                              "ray" if backend == "ray" else "local", name="self-play actor")
        self.synced_at = [-1] * count
        """Per actor, the update count of the weights it last received (-1: none yet)."""
        self.messages = 0
        self.first = 0

    def _send(self, index: int, limit: int) -> None:
        t = self.trainer
        weights = None
        synced = self.synced_at[index]
        if synced < 0 or t.progress.updates - synced >= t.training.sync_every:
            # as numpy arrays: torch tensors would cross the pipe as shared file descriptors
            weights = {k: v.numpy().copy() for k, v in t.network.state_dict().items()}
            self.synced_at[index] = t.progress.updates
        self.messages += 1
        self.pool.submit(index, "play", limit, weights, t.epsilon, t.guide_rate,
                         self.derive_seed(t.seed, "actor message", self.first, self.messages))

    def run_until(self, episodes: int) -> None:
        """Play and learn until every episode numbered below `episodes` has ended."""
        busy = list(range(len(self.pool)))
        self.first, self.messages = self.trainer.progress.episodes, 0
        for index in busy:
            self._send(index, episodes)
        while busy:
            for index in list(busy):
                try:
                    batch, ended, plies = self.pool.result(index)
                except WorkerDied as error:
                    raise BoardLabError(f"{error}; rerun the command to resume from the last "
                                        "checkpoint") from None
                if plies == 0 and batch is None and not ended:
                    busy.remove(index)  # its share of the episodes is done
                else:
                    self._send(index, episodes)
                self.trainer.progress.env_steps += plies
                self.trainer.learn_from(batch, ended)
        # the actors wait now; the next call starts them with the weights of then
        self.synced_at = [-1] * len(self.pool)

    def close(self) -> None:
        self.pool.close()


def start_actors(trainer: Any, count: int, backend: str) -> Actors:
    return Actors(trainer, count, backend)

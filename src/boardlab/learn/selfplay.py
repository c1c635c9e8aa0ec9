"""Vectorized self-play: N training episodes stepped in lockstep, one batched forward to act.

Each game is an `Episode` (learn/episodes.py: what a transition is, from one of the learner's
decisions to its next; the reply's reward added when it is to move again). This module only
steps N of them at once and turns their transitions into arrays. In self-play the learner
holds both seats, so every ply is some seat's decision and every game yields a transition
per ply.

One call of `step` advances every game by one learner decision:
1. each game is brought to a learner decision (`Episode.to_decision`: chance drawn, a fixed
   opponent's moves played); a finished game is scored and its slot gets the next episode;
2. every game's position is encoded for its mover in one `Game.encode_batch` call (a compiled
   kernel where the game has one), with its legal-action mask;
3. the mover's waiting transition is completed with that encoding as s' (n-step returns
   when n > 1: the oldest of a seat's transitions leaves once n rewards are known);
4. `choose` picks an action for every game at once (the trainer's batched epsilon-greedy);
5. each action is played (`Episode.play`).

Games are plain `State`s, so this works for every game with a learning kit; the Python work
per ply (tens of microseconds) is small beside a network update. Everything is seeded:
episode k is `Episode.numbered(k)`, and episodes are numbered in the order they start, so a
run with the same settings plays the same games.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from functools import partial
from typing import Callable

import numpy as np

from ..core.agent import Agent, Clock
from ..core.game import Game, State
from ..core.learning import RewardFunction
from ..core.registry import make_agent
from .episodes import Episode, EpisodeEnd, OpponentMix


@dataclass
class Transitions:
    """A batch of finished transitions, inputs as the game encodes them (float32). The
    discount multiplies the bootstrapped value of s': gamma^n for n rewards, 0 at the end."""

    states: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    next_states: np.ndarray
    dones: np.ndarray
    next_masks: np.ndarray
    discounts: np.ndarray
    n_step_rows: np.ndarray
    """True for the n-step row of a transition that also has its one-step row (DQfD's
    loss takes both: `VectorSelfPlay`'s one_step_too)."""

    def __len__(self) -> int:
        return len(self.actions)

    @classmethod
    def joined(cls, batches: list[Transitions]) -> Transitions:
        return cls(**{name: np.concatenate([getattr(b, name) for b in batches])
                      for name in cls.__dataclass_fields__})


ChooseActions = Callable[[np.ndarray, np.ndarray, list[State]], np.ndarray]
"""(encodings N x F, legal masks N x A, states) -> one action per game."""


@dataclass(eq=False)
class VectorSelfPlay:
    """`envs` training games of `game` in lockstep (see the module doc)."""

    game: Game
    envs: int
    reward: RewardFunction
    opponents: OpponentMix
    seed: int
    gamma: float
    n_step: int = 1
    masked: bool = True
    first_episode: int = 0
    episode_stride: int = 1
    """Episode numbers go first, first + stride, ...: actors share the numbers."""
    one_step_too: bool = False
    """Each transition also as a one-step row, beside its n-step row (with n_step > 1)."""

    def __post_init__(self) -> None:
        if self.envs < 1:
            raise ValueError("envs must be at least 1")
        self.one_step_too = self.one_step_too and self.n_step > 1
        self.num_actions = self.game.num_actions
        self.next_episode = self.first_episode
        self.limit = self.first_episode
        """Episodes numbered from `limit` on are not started (see `play_until`)."""
        self.slots: list[Episode[np.ndarray] | None] = [None] * self.envs
        self.pending: list[dict[int, deque]] = [{} for _ in range(self.envs)]
        """Per slot, per seat: (s, a, r) waiting for n rewards (n-step returns)."""
        # each slot builds its own opponents: an agent may keep per-game state (a search
        # tree, a move count), so two games in flight never share one
        self.slot_agents: list[dict[str, Agent]] = [{} for _ in range(self.envs)]
        self.finished: list[EpisodeEnd] = []
        self.ended_plies = 0
        self._out: list[tuple] = []

    @property
    def env_steps(self) -> int:
        """Plies played by anyone (learner and opponents), chance excluded."""
        return self.ended_plies + sum(e.plies for e in self.slots if e is not None)

    # --- episodes ----------------------------------------------------------------------------
    def _new_episode(self, slot: int) -> Episode[np.ndarray] | None:
        k = self.next_episode
        if k >= self.limit:
            return None
        self.next_episode += self.episode_stride
        self.pending[slot] = {}
        return Episode.numbered(self.game, self.seed, k, self.opponents,
                                partial(self._agent, slot), self.reward, self.masked)

    def _agent(self, slot: int, spec: str) -> Agent:
        agents = self.slot_agents[slot]
        if spec not in agents:
            agents[spec] = make_agent(spec, self.game)
        return agents[spec]

    def _to_decision(self, slot: int) -> int | None:
        """Bring the slot's game to a learner decision (its mover); a finished game is scored
        and replaced by the next episode; None once the slot has none left."""
        while (episode := self.slots[slot]) is not None:
            mover = episode.to_decision()
            if mover is not None:
                return mover
            for seat, encoded, action, reward in episode.finish():
                self._add(slot, seat, encoded, action, reward)
            for seat in list(self.pending[slot]):
                self._flush(slot, seat, None, None)
            self.finished.append(episode.end())
            self.ended_plies += episode.plies
            self.slots[slot] = self._new_episode(slot)
        return None

    # --- transitions -------------------------------------------------------------------------
    def _add(self, slot: int, seat: int, encoded: np.ndarray, action: int,
             reward: float) -> None:
        self.pending[slot].setdefault(seat, deque()).append((encoded, action, reward))

    def _flush(self, slot: int, seat: int, next_encoded: np.ndarray | None,
               next_mask: np.ndarray | None) -> None:
        """Emit the seat's waiting transitions: all of them with done when the game is over
        (next_encoded None), else the oldest once n rewards are known."""
        pending = self.pending[slot].get(seat)
        done = next_encoded is None
        if self.one_step_too and pending:  # the newest one's s' is here: its one-step row
            encoded, action, reward = pending[-1]
            self._out.append((encoded, action, reward, next_encoded, done, next_mask,
                              0.0 if done else self.gamma, False))
        while pending and (done or len(pending) == self.n_step):
            ret = sum(self.gamma ** j * r for j, (_, _, r) in enumerate(pending))
            encoded, action, _ = pending[0]
            self._out.append((encoded, action, ret, next_encoded, done, next_mask,
                              0.0 if done else self.gamma ** len(pending), self.one_step_too))
            pending.popleft()

    def _collect(self) -> Transitions | None:
        if not self._out:
            return None
        rows = self._out
        self._out = []
        zeros = np.zeros(rows[0][0].shape, dtype=np.float32)
        no_mask = np.zeros(self.num_actions, dtype=bool)
        return Transitions(
            states=np.stack([r[0] for r in rows]),
            actions=np.array([r[1] for r in rows], dtype=np.int64),
            rewards=np.array([r[2] for r in rows], dtype=np.float32),
            next_states=np.stack([zeros if r[3] is None else r[3] for r in rows]),
            dones=np.array([r[4] for r in rows], dtype=np.float32),
            next_masks=np.stack([no_mask if r[5] is None else r[5] for r in rows]),
            discounts=np.array([r[6] for r in rows], dtype=np.float32),
            n_step_rows=np.array([r[7] for r in rows], dtype=bool))

    # --- the lockstep ------------------------------------------------------------------------
    def play_until(self, limit: int) -> None:
        """Start episodes numbered below `limit` as slots free up; `step` then plays until
        every one of them has ended, so a run stops between episodes, never inside one."""
        self.limit = limit
        for i, episode in enumerate(self.slots):
            if episode is None:
                self.slots[i] = self._new_episode(i)

    def running(self) -> bool:
        return any(episode is not None for episode in self.slots)

    def step(self, choose: ChooseActions) -> Transitions | None:
        """Advance every running game by one learner decision; returns the transitions
        finished (None if none)."""
        movers = [self._to_decision(i) for i in range(len(self.slots))]
        running = [(slot, episode, mover) for slot, (episode, mover)
                   in enumerate(zip(self.slots, movers))
                   if episode is not None and mover is not None]
        if not running:
            return self._collect()
        states = [episode.state for _, episode, _ in running]
        encoded = self.game.encode_batch(states, [mover for *_, mover in running])
        encoded = encoded.reshape(len(states), -1)
        masks = np.zeros((len(states), self.num_actions), dtype=bool)
        legal = [state.legal_actions() for state in states]
        for i, row in enumerate(legal):
            masks[i, row] = True
        for i, (slot, episode, mover) in enumerate(running):
            if (done := episode.arrived(mover)) is not None:
                self._add(slot, mover, *done)
                self._flush(slot, mover, encoded[i], masks[i])
        actions = choose(encoded, masks, states)
        for i, (slot, episode, mover) in enumerate(running):
            for s, a, r, over in episode.play(mover, int(actions[i]), encoded[i], legal[i]):
                self._add(slot, mover, s, a, r)
                if not over:  # an illegal choice: s' is s, the position kept
                    self._flush(slot, mover, encoded[i], masks[i])
        return self._collect()

    def played_by(self, agent: Agent, episodes: int, rng: random.Random) -> Transitions:
        """Every transition of the first `episodes` games with `agent` choosing each learner
        move (from a view drawn with `rng`): an agent's demonstrations."""
        def choose(encoded: np.ndarray, masks: np.ndarray, states: list[State]) -> np.ndarray:
            return np.array([agent.act(s.view(s.current_player(), rng), Clock())
                             for s in states])

        self.play_until(episodes)
        batches = []
        while self.running():
            if (batch := self.step(choose)) is not None:
                batches.append(batch)
        self.take_finished()
        return Transitions.joined(batches)

    def take_finished(self) -> list[EpisodeEnd]:
        finished, self.finished = self.finished, []
        return finished

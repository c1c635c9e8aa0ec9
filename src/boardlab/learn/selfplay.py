"""Vectorized self-play: N training games stepped in lockstep, one batched forward to act.

A learner's transition runs from one of its decisions to its next one (learn/episodes.py has
the same definition, one game at a time): s is the position where it is to move, a its action,
r the game's reward for its own ply (chance included) plus the reward for the opponent's reply,
s' the position where it is to move again. In self-play the learner holds both seats, so every
ply is some seat's decision and every game yields a transition per ply.

One call of `step` advances every game by one learner decision:
1. each game is brought to a learner decision: chance outcomes drawn, opponents (when the
   episode is against a fixed agent) play their moves, finished games are scored and replaced
   by the next episode;
2. every game's position is encoded for its mover in one `Game.encode_batch` call (a compiled
   kernel where the game has one) with its legal-action mask;
3. the waiting transition of each mover is completed with that encoding as s' (n-step returns
   when n > 1) and handed to `push`;
4. `choose` picks an action for every game at once (the trainer's batched epsilon-greedy);
5. each action is applied and its own-ply reward computed; the reply reward is added in step 3
   of a later call, or when the game ends.

Games are plain `State`s, so this works for every game with a learning kit; the readable State
is the reference, and the Python work per ply (tens of microseconds) is small beside a network
update. Everything is seeded: episode k starts from `game.initial_state(derive_seed(seed,
"train", k))`, draws its opponent and chance from generators derived from the same parts, and
the learner holds seat k % 2 against a fixed opponent; episodes are numbered in the order they
start, so a run with the same settings plays the same games.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..core.agent import Agent, Clock
from ..core.game import CHANCE, Game, State
from ..core.match import derive_seed, sample_chance
from ..core.registry import make_agent
from .episodes import MAX_INVALID_IN_A_ROW, SELF, OpponentMix, play_own_ply
from ..core.learning import RewardFunction


@dataclass
class Transitions:
    """A batch of finished transitions, inputs as the game encodes them (float32)."""

    states: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    next_states: np.ndarray
    dones: np.ndarray
    next_masks: np.ndarray
    discounts: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


@dataclass
class _Episode:
    """One game in a slot, and the learner's transitions still waiting for their rewards."""

    number: int
    state: State
    rng: random.Random
    opponent: str
    learner_seats: tuple[int, ...]
    opponent_agent: Agent | None
    # seat -> its last ply, waiting for the reply: (encoding, action, own reward, state after)
    waiting: dict[int, tuple[np.ndarray, int, float, State]] = field(default_factory=dict)
    # seat -> transitions with rewards, waiting for n of them (n-step returns)
    returns: dict[int, deque] = field(default_factory=dict)
    invalid_in_a_row: int = 0
    plies: int = 0


@dataclass
class EpisodeEnd:
    """A finished training game."""

    number: int
    opponent: str
    learner_seats: tuple[int, ...]
    returns: list[float]
    plies: int


ChooseActions = Callable[[np.ndarray, np.ndarray, list[State]], np.ndarray]
"""(encodings N x F, legal masks N x A, states) -> one action per game."""


class VectorSelfPlay:
    """`envs` training games of `game` in lockstep (see the module doc)."""

    def __init__(self, game: Game, envs: int, reward: RewardFunction, opponents: OpponentMix,
                 seed: int, gamma: float, n_step: int = 1, masked: bool = True,
                 first_episode: int = 0, episode_stride: int = 1) -> None:
        if envs < 1:
            raise ValueError("envs must be at least 1")
        self.game = game
        self.reward = reward
        self.opponents = opponents
        self.seed = seed
        self.gamma = gamma
        self.n_step = n_step
        self.masked = masked
        self.num_actions = game.num_actions
        self.next_episode = first_episode
        self.episode_stride = episode_stride
        """Episode numbers go first, first + stride, ...: actors share the numbers."""
        self.limit = first_episode
        """Episodes numbered from `limit` on are not started (see `play_until`)."""
        self.env_steps = 0
        """Plies played by anyone (learner and opponents), chance excluded."""
        self.slots: list[_Episode | None] = [None] * envs
        # each slot builds its own opponents: an agent may keep per-game state (a search
        # tree, a move count), so two games in flight never share one
        self.slot_agents: list[dict[str, Agent]] = [{} for _ in range(envs)]
        self.finished: list[EpisodeEnd] = []
        self._out: list[tuple] = []

    # --- episodes ----------------------------------------------------------------------------
    def _new_episode(self, slot: int) -> _Episode | None:
        k = self.next_episode
        if k >= self.limit:
            return None
        self.next_episode += self.episode_stride
        game_seed = derive_seed(self.seed, "train", k)
        opponent = self.opponents.draw(random.Random(derive_seed(self.seed, "opponent", k)))
        seats = (0, 1) if opponent == SELF else (k % 2,)
        agent = None
        if opponent != SELF:
            agents = self.slot_agents[slot]
            if opponent not in agents:
                agents[opponent] = make_agent(opponent, self.game)
            agent = agents[opponent]
            agent.start_game(1 - k % 2, derive_seed(game_seed, "opponent"))
        return _Episode(k, self.game.initial_state(game_seed),
                        random.Random(derive_seed(game_seed, "episode")), opponent, seats,
                        agent)

    def _to_learner_decision(self, i: int) -> None:
        """Draw chance and play the opponent until a learner seat is to move; a finished game
        is scored and its slot gets the next episode."""
        while True:
            episode = self.slots[i]
            if episode is None:
                return
            state = episode.state
            mover = state.current_player()
            if state.is_terminal():
                self._finish(episode)
                self.slots[i] = self._new_episode(i)
            elif mover == CHANCE:
                state.apply(sample_chance(state, episode.rng))
            elif mover not in episode.learner_seats:
                assert episode.opponent_agent is not None
                state.apply(episode.opponent_agent.act(state.view(mover, episode.rng),
                                                       Clock()))
                episode.plies += 1
                self.env_steps += 1
            else:
                return

    def _finish(self, episode: _Episode) -> None:
        final = episode.state
        for seat, (encoded, action, own, after) in episode.waiting.items():
            self._add_return(episode, seat, encoded, action,
                             own + self.reward.reply(after, final, seat))
        for seat in list(episode.returns):
            self._flush(episode, seat, None, None)
        self.finished.append(EpisodeEnd(episode.number, episode.opponent,
                                        episode.learner_seats, final.returns(), episode.plies))

    # --- transitions -------------------------------------------------------------------------
    def _add_return(self, episode: _Episode, seat: int, encoded: np.ndarray, action: int,
                    reward: float) -> None:
        episode.returns.setdefault(seat, deque()).append((encoded, action, reward))

    def _flush(self, episode: _Episode, seat: int, next_encoded: np.ndarray | None,
               next_mask: np.ndarray | None) -> None:
        """Emit the seat's waiting transitions: all of them with done when the game is over
        (next_encoded None), else the oldest once n rewards are known."""
        pending = episode.returns.get(seat)
        while pending and (next_encoded is None or len(pending) == self.n_step):
            ret = sum(self.gamma ** j * r for j, (_, _, r) in enumerate(pending))
            encoded, action, _ = pending[0]
            done = next_encoded is None
            self._out.append((encoded, action, ret, next_encoded, done, next_mask,
                              0.0 if done else self.gamma ** len(pending)))
            pending.popleft()

    def _collect(self) -> Transitions | None:
        if not self._out:
            return None
        rows = self._out
        self._out = []
        shape = rows[0][0].shape
        zeros = np.zeros(shape, dtype=np.float32)
        no_mask = np.zeros(self.num_actions, dtype=bool)
        return Transitions(
            states=np.stack([r[0] for r in rows]),
            actions=np.array([r[1] for r in rows], dtype=np.int64),
            rewards=np.array([r[2] for r in rows], dtype=np.float32),
            next_states=np.stack([zeros if r[3] is None else r[3] for r in rows]),
            dones=np.array([r[4] for r in rows], dtype=np.float32),
            next_masks=np.stack([no_mask if r[5] is None else r[5] for r in rows]),
            discounts=np.array([r[6] for r in rows], dtype=np.float32))

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
        for i in range(len(self.slots)):
            self._to_learner_decision(i)
        running = [episode for episode in self.slots if episode is not None]
        if not running:
            return self._collect()
        states = [episode.state for episode in running]
        movers = [state.current_player() for state in states]
        encoded = self.game.encode_batch(states, movers).reshape(len(states), -1)
        masks = np.zeros((len(states), self.num_actions), dtype=bool)
        legal = [state.legal_actions() for state in states]
        for i, row in enumerate(legal):
            masks[i, row] = True
        for i, (episode, mover) in enumerate(zip(running, movers)):
            if mover in episode.waiting:
                before, action, own, after = episode.waiting.pop(mover)
                self._add_return(episode, mover, before, action,
                                 own + self.reward.reply(after, states[i], mover))
                self._flush(episode, mover, encoded[i], masks[i])
        actions = choose(encoded, masks, states)
        for i, (episode, mover) in enumerate(zip(running, movers)):
            self._play(episode, mover, int(actions[i]), encoded[i], masks[i], legal[i])
        return self._collect()

    def _play(self, episode: _Episode, mover: int, action: int, encoded: np.ndarray,
              mask: np.ndarray, legal: list[int]) -> None:
        state = episode.state
        if not self.masked and not (0 <= action < self.num_actions and mask[action]):
            # an unmasked learner's illegal choice: the invalid-action reward, position kept
            episode.invalid_in_a_row += 1
            self._add_return(episode, mover, encoded, action,
                             self.reward.action(state, action, None))
            self._flush(episode, mover, encoded, mask)
            if episode.invalid_in_a_row < MAX_INVALID_IN_A_ROW:
                return
            action = episode.rng.choice(legal)
        episode.invalid_in_a_row = 0
        before = state.clone()
        play_own_ply(state, action, episode.rng)
        episode.plies += 1
        self.env_steps += 1
        own = self.reward.action(before, action, state)
        if state.is_terminal():
            self._add_return(episode, mover, encoded, action, own)
        else:
            episode.waiting[mover] = (encoded, action, own, state.clone())

    def take_finished(self) -> list[EpisodeEnd]:
        finished, self.finished = self.finished, []
        return finished

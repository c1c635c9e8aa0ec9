"""A single-agent Gymnasium environment: one BoardLab seat against agents given by spec.

`BoardLabEnv(game_spec, opponent="minimax:depth=2", seat=0)`. Observations are
`view.encode(seat)` (the seat's own view in a hidden-information game); the action space is
`Discrete(num_actions)` and `info["action_mask"]` (int8) marks the legal actions. Opponents
(every other seat plays `opponent`) and chance move inside `step` until it is the learner's turn
again. The reward is the learner's return when the game ends, 0 before.

Illegal actions: by default (`illegal_action="penalty"`) an illegal action ends the episode with
the game's forfeit return for the learner (-1) as reward and `info["illegal_action"] = True`;
this is what Gymnasium's checker and unmasked learners need. `illegal_action="raise"` raises
`IllegalActionError` with the move and the position instead.
"""

from __future__ import annotations

from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..core.agent import Agent, Clock
from ..core.game import BoardLabError, Game, check_action
from ..core.match import derive_seed
from ..core.registry import make_agent
from ._common import action_mask, as_game, episode_rngs, observation_shape, observe, \
    resolve_chance


class BoardLabEnv(gym.Env):
    """Play seat `seat` of `game_spec`; every other seat is an agent built from `opponent`."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game_spec: str | Game, opponent: str = "random", seat: int = 0,
                 render_mode: str | None = None,
                 illegal_action: Literal["penalty", "raise"] = "penalty") -> None:
        self.game = as_game(game_spec)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise BoardLabError(f"seat {seat} does not exist in {self.game.spec}: "
                                f"seats are 0..{n - 1}")
        if render_mode not in (None, "ansi"):
            raise BoardLabError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        if illegal_action not in ("penalty", "raise"):
            raise BoardLabError(f"illegal_action {illegal_action!r} is neither 'penalty' "
                                "nor 'raise'")
        self.seat = seat
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.opponent_spec = opponent
        self.opponents: dict[int, Agent] = {p: make_agent(opponent, self.game)
                                            for p in range(n) if p != seat}
        self.observation_space = spaces.Box(0.0, 1.0, shape=observation_shape(self.game),
                                            dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state = self.game.initial_state(0)
        self._chance_rng, self._view_rngs = episode_rngs(0, n)
        self._done = True

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        # Every episode seed (chance, views, opponents) comes from Gymnasium's np_random, so a
        # seeded reset replays the same episode and an unseeded one continues the series.
        game_seed = int(self.np_random.integers(2**31))
        self.state = self.game.initial_state(game_seed)
        self._chance_rng, self._view_rngs = episode_rngs(game_seed, self.game.num_players)
        for p, agent in self.opponents.items():
            agent.start_game(p, derive_seed(game_seed, "agent", p))
        self._done = False
        self._advance()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise BoardLabError("step() called on a finished episode; call reset() first")
        action = int(action)
        if action not in self.state.legal_actions():
            if self.illegal_action == "raise":
                check_action(self.state, action)
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            reward = float(self.game.forfeit_returns(self.seat)[self.seat])
            return self._observation(), reward, True, False, info
        self.state.apply(action)
        self._advance()
        reward = float(self.state.returns()[self.seat]) if self._done else 0.0
        return self._observation(), reward, self._done, False, self._info()

    def _advance(self) -> None:
        """Play chance and opponents until the learner is to move or the game is over."""
        while True:
            resolve_chance(self.state, self._chance_rng)
            mover = self.state.current_player()
            if mover < 0:
                self._done = True
                return
            if mover == self.seat:
                return
            view = self.state.view(mover, self._view_rngs[mover])
            move = self.opponents[mover].act(view, Clock.start(None))
            check_action(self.state, move)  # a broken opponent is a bug to report, not a win
            self.state.apply(move)

    def _observation(self) -> np.ndarray:
        return observe(self.state, self.seat, self._view_rngs[self.seat],
                       self.game.facts.hidden_information)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": action_mask(self.state, self.game.num_actions)}

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.state)
        return None

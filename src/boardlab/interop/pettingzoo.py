"""A PettingZoo AEC environment over any BoardLab game: `env(game_spec)`.

The wrapper adapts the game's `State` and never re-implements a rule. Agents are
`player_0..player_{n-1}` (seat i is BoardLab player i). Each observation is
`{"observation": view.encode(player), "action_mask": int8 legal-action mask}` where `view` is
`state.view(player, rng)` for hidden-information games, so an agent never sees what its seat
may not know. Chance nodes are drawn inside the environment from generators derived from the
`reset(seed=...)` seed, exactly as `core.match.play_match` derives them. Rewards are the game's
returns, given once when the game ends; games end by their own rules, so `truncations` stay
False. An illegal action raises `IllegalActionError` (PettingZoo's TerminateIllegalWrapper can
turn that into a penalty if wanted). `render_mode="ansi"` renders `str(state)`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.game import BoardLabError, Game, check_action
from ._common import action_mask, as_game, episode_rngs, observation_shape, observe, \
    resolve_chance


def env(game_spec: str | Game, render_mode: str | None = None) -> AECEnv:
    """The environment for `game_spec`, with PettingZoo's usual order and bounds checks."""
    wrapped: AECEnv = raw_env(game_spec, render_mode=render_mode)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped class)
    """The unwrapped AEC environment; use `env()` unless you bring your own wrappers."""

    metadata = {"render_modes": ["ansi"], "name": "boardlab_v0", "is_parallelizable": False}

    def __init__(self, game_spec: str | Game, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise BoardLabError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        self.game = as_game(game_spec)
        self.render_mode = render_mode
        facts = self.game.facts
        self.metadata = dict(self.metadata, name=f"boardlab_{self.game.name}_v0")
        self.possible_agents = [f"player_{p}" for p in range(facts.num_players)]
        self._seat = {name: p for p, name in enumerate(self.possible_agents)}
        shape = observation_shape(self.game)
        space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(facts.num_actions,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(facts.num_actions) for a in self.possible_agents}
        self.state_ = self.game.initial_state(0)
        self._chance_rng, self._view_rngs = episode_rngs(0, facts.num_players)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.state_ = self.game.initial_state(seed)
        self._chance_rng, self._view_rngs = episode_rngs(seed, self.game.num_players)
        resolve_chance(self.state_, self._chance_rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select_next()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._seat[agent]
        hidden = self.game.facts.hidden_information
        observation = observe(self.state_, player, self._view_rngs[player], hidden)
        # Only the agent to move has legal actions; the others get an all-zero mask.
        if self.state_.current_player() == player:
            mask = action_mask(self.state_, self.game.num_actions)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:  # PettingZoo's "no action" is for an agent that is done
            raise BoardLabError(f"{agent} is not done: step() needs an action, not None")
        check_action(self.state_, int(action))  # a sentence with the position if illegal
        self._cumulative_rewards[agent] = 0.0
        self.state_.apply(int(action))
        resolve_chance(self.state_, self._chance_rng)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state_.is_terminal():
            returns = self.state_.returns()
            for name, seat in self._seat.items():
                self.rewards[name] = float(returns[seat])
                self.terminations[name] = True
        self._select_next(after=agent)
        self._accumulate_rewards()

    def _select_next(self, after: str | None = None) -> None:
        mover = self.state_.current_player()
        if mover >= 0:
            self.agent_selection = self.possible_agents[mover]
        else:
            # Game over: every agent still has to take its dead step, in seat order.
            start = 0 if after is None else (self._seat[after] + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[start]

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; "
                                  "build the env with render_mode='ansi'")
            return None
        return str(self.state_)

    def close(self) -> None:
        pass

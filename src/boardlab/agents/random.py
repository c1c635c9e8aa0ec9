"""Uniformly random legal moves, seeded per game by the match runner: the baseline of every
table."""

from __future__ import annotations

from ..core.agent import Agent, Clock
from ..core.game import State


class RandomAgent(Agent):
    name = "random"

    def act(self, state: State, clock: Clock) -> int:
        return self.rng.choice(state.legal_actions())

"""One-ply greedy: play the move whose resulting position the game's heuristic likes best.

With a seed's own heuristic (an evaluator the game's rules page names) this is that seed's
greedy agent. A move that ends in a chance node (a reveal, a blind attack) is scored by the
exact expectation over its outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.agent import Agent, Clock
from ..core.game import Game, State
from .evaluation import expected_value, pick_evaluator


@dataclass
class GreedySettings:
    eval: str = ""
    """Name of the game's heuristic to maximise; empty = the game's `greedy` heuristic."""


class GreedyAgent(Agent):
    name = "greedy"
    Settings = GreedySettings

    def __init__(self, game: Game, settings: GreedySettings | None = None, **params) -> None:
        super().__init__(game, settings, **params)
        self.eval_name, self.evaluate = pick_evaluator(game, self.settings.eval, "greedy")

    def act(self, state: State, clock: Clock) -> int:
        me = state.current_player()
        best_value, best_actions = float("-inf"), []
        for action in state.legal_actions():
            value = expected_value(state.child(action), me, self.evaluate)
            if value > best_value:
                best_value, best_actions = value, [action]
            elif value == best_value:
                best_actions.append(action)
        return self.rng.choice(best_actions)  # ties broken at random, seeded

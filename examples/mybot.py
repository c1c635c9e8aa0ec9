"""MyBot: my first BoardLab agent. Edit `score`, then measure it:

    boardlab arena jungle examples/mybot.py:MyBot random greedy --games 20
"""

from dataclasses import dataclass

import boardlab


@dataclass
class Settings:
    """Parameters, given after a second colon: examples/mybot.py:MyBot:captures_first=false"""

    captures_first: bool = True
    """Prefer moves that take material before looking at the heuristic."""


class MyBot(boardlab.Agent):
    """One ply of lookahead: play the move whose position scores best for me."""

    Settings = Settings

    def act(self, state: boardlab.State, clock: boardlab.Clock) -> int:
        me = state.current_player()
        best_score, best_actions = float("-inf"), []
        for action in state.legal_actions():
            score = self.score(state, action, me)
            if score > best_score:
                best_score, best_actions = score, [action]
            elif score == best_score:
                best_actions.append(action)
        return self.rng.choice(best_actions)  # seeded per game: games replay exactly

    def score(self, state: boardlab.State, action: int, me: int) -> float:
        """How much I like `action`: change this to make the agent stronger."""
        child = state.child(action)
        while child.is_chance_node():  # a reveal: look at its most likely outcome
            outcome = max(child.chance_outcomes(), key=lambda pair: pair[1])[0]
            child = child.child(outcome)
        if child.is_terminal():
            return 1e9 * child.returns()[me]
        bonus = 100.0 if self.settings.captures_first and state.is_capture(action) else 0.0
        evaluate = next(iter(self.game.evaluators.values()), None)
        return bonus + (evaluate(child, me) if evaluate else 0.0)

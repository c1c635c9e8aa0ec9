"""The starting file `boardlab new-agent NAME` writes: a working one-ply agent to edit."""

TEMPLATE = '''"""{name}: my first BoardLab agent. Edit `score`, then measure it:

    boardlab arena {game} {path}:{cls} random greedy --games 20
"""

from dataclasses import dataclass

import boardlab


@dataclass
class Settings:
    """Parameters, given after a second colon: {path}:{cls}:captures_first=false"""

    captures_first: bool = True
    """Prefer moves that take material before looking at the heuristic."""


class {cls}(boardlab.Agent):
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
'''


def example_game() -> str:
    """A game to try a new agent on: the first installed one (`GAME` when none is)."""
    from ..core.registry import game_names

    return next(iter(game_names()), "GAME")


def agent_file(name: str, path: str, game: str | None = None) -> str:
    """The text of a new agent file for class `name` saved at `path`, its docstring's example
    command playing `game` (default: `example_game()`)."""
    return TEMPLATE.format(name=name, cls=name, path=path, game=game or example_game())

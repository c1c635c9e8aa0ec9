"""What search agents share: picking the game's heuristic by name, scoring terminal states,
and the states an action leads to once chance has spoken."""

from __future__ import annotations

from ..core.alphabeta import WIN_VALUE  # a won game's value; learners import it from here too
from ..core.game import CHANCE, Evaluator, Game, ParseError, State


def pick_evaluator(game: Game, wanted: str, default: str) -> tuple[str, Evaluator]:
    """The game's heuristic named `wanted` (or `default`, or the game's first one), with the
    name it is listed under (an alias such as `greedy` gives the heuristic's own name)."""
    evaluators = game.evaluators
    if not evaluators:
        raise ParseError(f"{game.name} offers no heuristic, so this agent cannot play it")
    if wanted:
        if wanted not in evaluators:
            raise ParseError(f"{game.name} has no heuristic {wanted!r}; it has: "
                             f"{', '.join(evaluators)}")
        return game.evaluator_name(wanted), evaluators[wanted]
    name = default if default in evaluators else next(iter(evaluators))
    return game.evaluator_name(name), evaluators[name]


def terminal_value(state: State, player: int) -> float:
    """+-WIN_VALUE for a win/loss, less the plies it took, so a quick win beats a slow one."""
    result = state.returns()[player]
    if result == 0:
        return 0.0
    return result * (WIN_VALUE - state.move_number())


def expected_value(state: State, player: int, evaluate: Evaluator) -> float:
    """Heuristic value of `state` for `player`, averaging over chance nodes exactly."""
    if state.is_terminal():
        return terminal_value(state, player)
    if state.current_player() == CHANCE:
        return sum(p * expected_value(state.child(a), player, evaluate)
                   for a, p in state.chance_outcomes())
    return evaluate(state, player)


def outcomes_after(state: State, action: int) -> list[tuple[float, State]]:
    """(probability, state) for each way `action` can turn out: the child itself, or, when
    the child is a chance node (a reveal, a blind attack), each of its outcomes."""
    child = state.child(action)
    if child.current_player() != CHANCE:
        return [(1.0, child)]
    return [(p, child.child(outcome)) for outcome, p in child.chance_outcomes()]

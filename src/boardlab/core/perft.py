"""Perft: the leaves of the move tree from a position, the standard check of move generation
(`boardlab perft`, `boardlab bench`, each game's perft tables), over the `State` API only."""

from __future__ import annotations

from .game import State


def perft(state: State, depth: int) -> int:
    """Leaves of the move tree `depth` player decisions deep; chance outcomes are expanded
    and do not count as a level; a game that ends earlier adds nothing."""
    if state.is_terminal():
        return 1 if depth == 0 else 0  # a finished game has no moves to count
    if state.is_chance_node():
        return sum(perft(state.child(a), depth) for a, _ in state.chance_outcomes())
    if depth == 0:
        return 1
    if depth == 1 and not state.game.facts.has_chance:
        return len(state.legal_actions())  # bulk counting: the children need not be made
    return sum(perft(state.child(a), depth - 1) for a in state.legal_actions())

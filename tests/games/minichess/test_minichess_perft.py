"""MiniChess move generation counted against its perft table."""

from pathlib import Path

import pytest

from boardlab.games.minichess import MiniChessGame
from boardlab.games.minichess import rules

TABLE = {int(d): int(n) for d, n in (line.split() for line in
         (Path(__file__).parent / "perft_start.txt").read_text().splitlines()
         if line.strip() and not line.startswith("#"))}


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_from_start(depth):
    board = MiniChessGame().initial_state().board.copy()
    assert rules.perft(board, 0, depth) == TABLE[depth]
    assert board == MiniChessGame().initial_state().board  # restored


def test_state_tree_matches_perft_three():
    """The same count walked through the public State API (terminal states are leaves)."""
    def count(state, depth):
        if depth == 0 or state.is_terminal():
            return 1 if depth == 0 else 0
        return sum(count(state.child(a), depth - 1) for a in state.legal_actions())
    assert count(MiniChessGame().initial_state(), 3) == TABLE[3]

"""Xiangqi move generation counted against the published perft table."""

from pathlib import Path

import pytest

from boardlab.games.xiangqi import XiangqiGame
from boardlab.games.xiangqi import rules

TABLE = {int(d): int(n) for d, n in (line.split() for line in
         (Path(__file__).parent / "perft_start.txt").read_text().splitlines()
         if line.strip() and not line.startswith("#"))}


def start_board() -> list[int]:
    return XiangqiGame().initial_state().board.copy()


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_from_start(depth):
    assert rules.perft(start_board(), 0, depth) == TABLE[depth]


@pytest.mark.slow
def test_perft_from_start_depth_4():
    assert rules.perft(start_board(), 0, 4) == TABLE[4]


def test_perft_restores_the_board():
    board = start_board()
    before = board.copy()
    rules.perft(board, 0, 2)
    assert board == before


def test_legal_actions_match_perft_one():
    state = XiangqiGame().initial_state()
    assert len(state.legal_actions()) == TABLE[1]
    assert sum(len(state.child(a).legal_actions()) for a in state.legal_actions()) == TABLE[2]

"""Perft from the start, with the Python State (the reference) and with the numba kernel.

The counts are in perft_start.txt beside this file, with their sources.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.games.reversi import ReversiGame
from boardlab.games.reversi.kernels import perft as kernel_perft

GAME = ReversiGame()


def expected_counts() -> dict[int, int]:
    counts = {}
    for line in (Path(__file__).parent / "perft_start.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            depth, count = line.split()
            counts[int(depth)] = int(count)
    return counts


COUNTS = expected_counts()


def python_perft(state, depth: int) -> int:
    """Leaves `depth` plies down; a pass is a move; a game over before `depth` adds none."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(python_perft(state.child(action), depth - 1)
               for action in state.legal_actions())


def test_data_file_holds_the_design_counts():
    assert [COUNTS[d] for d in range(1, 9)] == [4, 12, 56, 244, 1396, 8200, 55092, 390216]


@pytest.mark.parametrize("depth", range(1, 8))
def test_python_state_perft_from_start(depth):
    assert python_perft(GAME.initial_state(), depth) == COUNTS[depth]


@pytest.mark.parametrize("depth", range(1, 8))
def test_kernel_perft_from_start(depth):
    state = GAME.initial_state()
    assert kernel_perft(state.black, state.white, state.player, depth) == COUNTS[depth]


@pytest.mark.slow
def test_python_state_perft_depth_8():
    assert python_perft(GAME.initial_state(), 8) == COUNTS[8]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [8, 9])
def test_kernel_perft_deep(depth):
    state = GAME.initial_state()
    assert kernel_perft(state.black, state.white, state.player, depth) == COUNTS[depth]


def test_kernel_perft_counts_a_forced_pass_as_a_move():
    state = GAME.state_from_text("ox" + "-" * 62 + " x")  # black passes, white plays c1, over
    assert kernel_perft(state.black, state.white, state.player, 1) == 1
    assert kernel_perft(state.black, state.white, state.player, 2) == 1
    assert kernel_perft(state.black, state.white, state.player, 3) == 0
    assert python_perft(state, 2) == 1 and python_perft(state, 3) == 0


def test_kernel_and_python_perft_agree_on_midgame_positions():
    import random

    rng = random.Random(11)
    for _ in range(30):
        state = GAME.initial_state()
        for _ in range(rng.randrange(10, 50)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        for depth in (1, 2, 3):
            assert (kernel_perft(state.black, state.white, state.player, depth)
                    == python_perft(state, depth)), state.to_text()

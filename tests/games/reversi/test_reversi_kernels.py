"""The numba kernels against the Python State, move by move."""

from __future__ import annotations

import pytest

from boardlab.games.reversi import PASS, ReversiGame
from boardlab.games.reversi.kernels import (
    flip_bits,
    legal_move_bits,
    random_playout,
    random_playouts,
    traced_playout,
)

GAME = ReversiGame()
GAMES = 2000


def test_random_playouts_replayed_by_the_state_move_by_move():
    """2,000 seeded kernel games: at every position the kernel's legal placements and flips
    equal the State's, each kernel move is legal, and the final disc difference agrees."""
    start = GAME.initial_state()
    positions = 0
    for seed in range(GAMES):
        diff, actions = traced_playout(start.black, start.white, start.player, seed)
        state = start.clone()
        for action in actions:
            mover = state.current_player()
            own, opp = state.discs(mover), state.discs(1 - mover)
            assert legal_move_bits(own, opp) == state.legal_moves_mask()
            assert action in state.legal_actions(), (seed, state.to_text(), action)
            if action != PASS:
                before = opp
                state.apply(action)
                assert flip_bits(own, before, action) == before & ~state.discs(1 - mover)
            else:
                state.apply(action)
            positions += 1
        assert state.is_terminal(), (seed, state.to_text())
        assert state.disc_difference() == diff
        assert random_playout(start.black, start.white, start.player, seed) == diff
    assert positions > 100_000


def test_random_playout_from_a_midgame_position_with_white_to_move():
    state = GAME.initial_state()
    for name in ("d3", "c5", "f6", "f5", "e6"):
        state.apply(state.str_to_action(name))
    assert state.current_player() == 1
    for seed in range(200):
        diff, actions = traced_playout(state.black, state.white, 1, seed)
        replay = state.clone()
        for action in actions:
            replay.apply(action)
        assert replay.is_terminal() and replay.disc_difference() == diff


def test_random_playout_is_reproducible_and_varies_with_the_seed():
    start = GAME.initial_state()
    results = [random_playout(start.black, start.white, 0, seed) for seed in range(50)]
    assert results == [random_playout(start.black, start.white, 0, s) for s in range(50)]
    assert len(set(results)) > 10
    batch = random_playouts(start.black, start.white, 0, 7, 5)
    assert batch[0] == random_playout(start.black, start.white, 0, 7)


def test_random_playout_of_a_finished_game_is_its_score():
    assert random_playout((1 << 40) - 1, ((1 << 64) - 1) ^ ((1 << 40) - 1), 0, 3) == 40 - 24


def test_kernel_inputs_are_checked():
    with pytest.raises(ValueError, match="overlap"):
        random_playout(1, 1, 0, 0)
    with pytest.raises(ValueError, match="side_to_move"):
        random_playout(1, 2, 2, 0)
    with pytest.raises(ValueError, match="64-bit"):
        random_playout(1 << 64, 2, 0, 0)

"""The numba kernels agree with the readable Python rules, move by move and on perft."""

import random

from boardlab.games.minichess import MiniChessGame, kernels, rules

GAME = MiniChessGame()


def test_kernel_perft_matches_table_and_python_to_depth_6():
    board = GAME.initial_state().board
    assert [kernels.perft(board, 0, d) for d in (1, 2, 3, 4, 5)] == [7, 49, 452, 4212, 46360]
    assert kernels.perft(board, 0, 6) == rules.perft(board.copy(), 0, 6)


def test_kernel_moves_equal_state_moves_on_random_games():
    rng = random.Random(8)
    checked = 0
    for _ in range(300):
        state = GAME.initial_state()
        while True:
            moves, takes_king = kernels.moves(state.board, state.player)
            assert takes_king == state.can_capture_king()
            if state.is_terminal():
                break
            assert sorted(f * 30 + t for f, t in moves) == state.legal_actions(), \
                state.to_text()
            checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 3000

"""The numba kernels agree with the readable Python rules, move by move and on perft."""

import random

from boardlab.games.xiangqi import XiangqiGame, kernels, rules

GAME = XiangqiGame()


def test_kernel_perft_matches_table_and_python():
    board = GAME.initial_state().board
    assert [kernels.perft(board, 0, d) for d in (1, 2, 3, 4)] == [44, 1920, 79666, 3290240]


def test_kernel_perft_matches_python_from_a_middlegame():
    state = GAME.state_from_text("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/"
                                 "2BAKAB2 w")
    assert kernels.perft(state.board, 0, 3) == rules.perft(state.board.copy(), 0, 3)


def test_kernel_moves_equal_state_moves_on_random_games():
    rng = random.Random(21)
    checked = 0
    for _ in range(20):
        state = GAME.initial_state()
        while not state.is_terminal():
            ours = sorted(state.action_to_str(a) for a in state.legal_actions())
            from_kernel = kernels.legal_moves(state.board, state.player)
            named = sorted(state.action_to_str(state.str_to_action(
                _iccs(f) + _iccs(t))) for f, t in from_kernel) if ours else []
            assert named == ours, state.to_text()
            checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 2000


def _iccs(square: int) -> str:
    row, col = divmod(square, 9)
    return f"{'abcdefghi'[col]}{9 - row}"

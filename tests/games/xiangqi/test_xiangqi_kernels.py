"""The numba kernels agree with the readable XiangqiState, move by move, on perft, on the
end-of-game verdicts (repetitions included), on whole random games and on network input."""

import numpy as np
import pytest

from boardlab.games.xiangqi import XiangqiGame, kernels, rules
from boardlab.games.xiangqi.actions import ACTION_OF_MOVE
from xiangqi_games import perpetual_check_game, repeating_game

GAME = XiangqiGame()


def test_kernel_perft_matches_table_and_python():
    board = GAME.initial_state().board
    assert [kernels.perft(board, 0, d) for d in (1, 2, 3, 4)] == [44, 1920, 79666, 3290240]


def test_kernel_perft_matches_python_from_a_middlegame():
    state = GAME.state_from_text("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/"
                                 "2BAKAB2 w")
    assert kernels.perft(state.board, 0, 3) == rules.perft(state.board.copy(), 0, 3)


@pytest.fixture(scope="module")
def games() -> list[list]:
    return [repeating_game(seed) for seed in range(30)] + [perpetual_check_game()]


def test_the_games_reach_every_kind_of_end(games):
    reasons = {states[-1].end_reason.split()[0] for states in games}
    assert {"checkmate", "threefold", "perpetual", "300"} <= reasons, reasons


def test_kernel_moves_equal_state_moves_on_random_games(games):
    checked = 0
    for states in games[:10]:
        for state in states[:-1]:
            ours = sorted(state.legal_actions())
            assert sorted(ACTION_OF_MOVE[m] for m in
                          kernels.legal_moves(state.board, state.player)) == ours, \
                state.to_text()
            checked += 1
    assert checked > 1000


def test_verdict_equals_the_state_after_every_move(games):
    ends = 0
    for states in games:
        for state in states:
            expected = kernels.ONGOING if state.winner is None else state.winner
            assert kernels.verdict(state) == expected, (state.end_reason, state.to_text())
        ends += 1
    assert ends == len(games)


def test_ply_cap_verdict_is_a_draw():
    game = XiangqiGame(max_plies=6)
    states = repeating_game(4, game)
    assert states[-1].end_reason == "6 plies played"
    assert kernels.verdict(states[-1]) == kernels.DRAW


def replay(state, trace: list[int]):
    """Play the kernel's moves on the State; every one must be legal there."""
    state = state.clone()
    for move in trace:
        action = ACTION_OF_MOVE[divmod(move, 90)]
        assert action in state.legal_actions(), state.to_text()
        state.apply(action)
    return state


def test_random_playout_replays_on_the_state_to_the_same_end(games):
    starts = [GAME.initial_state()] + [states[len(states) // 2] for states in games] + \
             [states[-4] for states in games if len(states) > 4]
    for i, start in enumerate(starts):
        if start.is_terminal():
            continue
        returns, trace = kernels.random_playout(start, i, trace_length=GAME.settings.max_plies)
        end = replay(start, trace)
        assert end.is_terminal(), start.to_text()
        assert end.returns() == returns, (end.end_reason, start.to_text())


def test_random_playout_is_seeded_and_varies():
    start = GAME.initial_state()
    first = kernels.random_playout(start, 7, trace_length=40)
    assert kernels.random_playout(start, 7, trace_length=40) == first
    assert kernels.random_playout(start, 8, trace_length=40) != first


def test_random_playout_draws_moves_uniformly():
    # Each legal first move about 200 times (a chi-square check that drawing pseudo-legal
    # moves without replacement is uniform over the legal ones; the general has illegal ones).
    state = GAME.state_from_text("4k4/9/9/9/9/9/9/9/4A4/3K1R3 w")
    legal = dict.fromkeys(kernels.legal_moves(state.board, 0), 0)
    for seed in range(200 * len(legal)):
        move = kernels.random_playout(state, seed, trace_length=1)[1][0]
        legal[divmod(move, 90)] += 1
    expected = 200
    chi_square = sum((n - expected) ** 2 / expected for n in legal.values())
    assert chi_square < 2 * len(legal), legal


def test_game_hook_returns_the_playout_result():
    state = GAME.state_from_text("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b")  # black is mated
    assert state.is_terminal()
    assert GAME.random_playout_kernel(state, 0) == [1.0, -1.0]
    returns = GAME.random_playout_kernel(GAME.initial_state(), 3)
    assert returns in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_encode_batch_equals_encode_for_both_seats(games):
    states = [s for states in games[:5] for s in states[::7]]
    for seat in (0, 1):
        players = [seat] * len(states)
        expected = np.stack([s.encode(seat) for s in states])
        got = GAME.encode_batch(states, players)
        assert got.dtype == np.float32 and got.shape == expected.shape
        assert np.array_equal(got, expected)
    mixed = [i % 2 for i in range(len(states))]
    assert np.array_equal(GAME.encode_batch(states, mixed),
                          np.stack([s.encode(p) for s, p in zip(states, mixed)]))

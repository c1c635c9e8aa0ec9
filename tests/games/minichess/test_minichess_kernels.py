"""The numba kernels agree with the readable Python rules, move by move and on perft."""

import random

import numpy as np

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


# --- the end of a game, random games and network input -------------------------------------------

def random_games(count: int, seed: int, game: MiniChessGame = GAME) -> list[list]:
    """Every state of `count` seeded random games."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        state = game.initial_state()
        states = [state.clone()]
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            states.append(state.clone())
        games.append(states)
    return games


def test_verdict_equals_the_state_on_every_position_of_random_games():
    reasons = set()
    for states in random_games(300, 3) + random_games(100, 4, MiniChessGame(max_plies=12)):
        for state in states:
            expected = kernels.ONGOING if state.winner is None else state.winner
            assert kernels.verdict(state) == expected, (state.end_reason, state.to_text())
        reasons.add(states[-1].end_reason.split()[1])
    assert {"can", "after"} <= reasons, reasons  # a king capture on offer, the ply cap


def test_a_side_without_moves_loses():
    # No random game reaches it (a king always has a step), so the rule is asked directly.
    board = np.asarray(GAME.initial_state().board, dtype=np.int8)
    assert kernels.settle(board, 0, 10, 50, 0, False) == 1
    assert kernels.settle(board, 1, 10, 50, 0, False) == 0


def test_random_playout_replays_on_the_state_to_the_same_end():
    starts = [GAME.initial_state()] + [s[len(s) // 2] for s in random_games(200, 5)]
    for i, start in enumerate(starts):
        if start.is_terminal():
            continue
        returns, trace = kernels.random_playout(start, i, trace_length=GAME.settings.max_plies)
        end = start.clone()
        for move in trace:
            action = move // 30 * 30 + move % 30
            assert action in end.legal_actions(), end.to_text()
            end.apply(action)
        assert end.is_terminal() and end.returns() == returns, (end.end_reason, start.to_text())


def test_random_playout_is_seeded_and_the_hook_gives_returns():
    start = GAME.initial_state()
    assert kernels.random_playout(start, 7, 30) == kernels.random_playout(start, 7, 30)
    assert kernels.random_playout(start, 7, 30) != kernels.random_playout(start, 8, 30)
    assert GAME.random_playout_kernel(start, 1) in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_encode_batch_equals_encode_for_both_seats():
    states = [s for states in random_games(20, 6) for s in states]
    for players in ([0] * len(states), [1] * len(states), [i % 2 for i in range(len(states))]):
        expected = np.stack([s.encode(p) for s, p in zip(states, players)])
        got = GAME.encode_batch(states, players)
        assert got.dtype == np.float32 and np.array_equal(got, expected)


def test_king_capture_and_any_move_tests_agree_with_generation():
    checked = 0
    for states in random_games(200, 9):
        for state in states:
            board = np.asarray(state.board, dtype=np.int8)
            for player in (0, 1):
                moves, takes_king = kernels.moves(state.board, player)
                assert kernels.king_capturable(board, player) == takes_king, state.to_text()
                assert kernels.has_move(board, player) == bool(moves), state.to_text()
                checked += 1
    assert checked > 7000

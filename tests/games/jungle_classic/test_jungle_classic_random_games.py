"""Seeded random games of classic Jungle with the invariants checked after every move:
2,000 in CI, 10,000 marked slow (`-m slow`)."""

import random

import numpy as np
import pytest

from boardlab import make_game
from boardlab.games.jungle.classic.rules import DENS, IS_WATER, SQUARES, position_hash
from boardlab.games.jungle.pieces import RAT


def check_invariants(state, previous_counts):
    board = state.board
    counts = (sum(1 for c in board if c > 0), sum(1 for c in board if c < 0))
    assert counts == state.piece_counts(), "the piece counts drifted from the board"
    assert counts[0] <= previous_counts[0] and counts[1] <= previous_counts[1], \
        "a piece appeared"
    assert len(board) == SQUARES  # one cell per square, so one piece per square at most
    for sign in (1, -1):
        ranks = [sign * c for c in board if sign * c > 0]
        assert len(set(ranks)) == len(ranks), "an animal twice: two pieces became one"
    for sq, cell in enumerate(board):
        if IS_WATER[sq]:
            assert cell in (0, RAT, -RAT), "a piece other than a rat in the water"
    assert board[DENS[0]] <= 0 and board[DENS[1]] >= 0, "a piece in its own den"
    if not state.is_terminal():
        assert board[DENS[0]] == 0 and board[DENS[1]] == 0, "the game goes on after a den entry"
    assert state.hash == position_hash(board, state.player), "the incremental hash drifted"
    assert state.no_capture < state.game.settings.no_capture_limit or state.is_terminal()
    return counts


def check_encoding(state, player):
    planes = state.encode(player)
    assert planes.shape == (21, 9, 7) and planes.dtype == np.float32
    counts = state.piece_counts()
    assert planes[0:8].sum() == counts[player] and planes[8:16].sum() == counts[1 - player]
    assert planes[0:16].sum(axis=0).max() <= 1, "two pieces on one encoded square"
    board = np.asarray(state.board).reshape(9, 7)
    if player == 1:
        board = -board[::-1, ::-1]
    for rank in range(1, 9):
        assert np.array_equal(planes[rank - 1] > 0, board == rank)
        assert np.array_equal(planes[7 + rank] > 0, board == -rank)


def run_random_games(games, seed):
    game = make_game("jungle-classic")
    rng = random.Random(seed)
    endings = {"den or wipe-out": 0, "draw": 0}
    for index in range(games):
        state = game.initial_state()
        counts = (8, 8)
        check_encoding_this_game = index % 20 == 0  # the encoding is the slow check
        while not state.is_terminal():
            actions = state.legal_actions()
            assert actions and actions == sorted(set(actions))
            if check_encoding_this_game:
                check_encoding(state, state.player)
                check_encoding(state, 1 - state.player)
            state.apply(rng.choice(actions))
            counts = check_invariants(state, counts)
        assert state.legal_actions() == []
        endings["draw" if state.winner == -1 else "den or wipe-out"] += 1
        assert len(state.history) <= game.settings.no_capture_limit + 1
    return endings


@pytest.mark.parametrize("games", [300, pytest.param(2_000, marks=pytest.mark.e2e)])
def test_random_games_keep_the_invariants(games):
    # The contributors' fast loop plays 300; the full suite 2,000 as well.
    endings = run_random_games(games, seed=2026)
    assert endings["den or wipe-out"] > 0 and endings["draw"] > 0


@pytest.mark.slow
def test_ten_thousand_random_games_keep_the_invariants():
    endings = run_random_games(10_000, seed=9)
    assert endings["den or wipe-out"] > 0 and endings["draw"] > 0

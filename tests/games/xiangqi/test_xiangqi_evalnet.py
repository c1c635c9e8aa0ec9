"""Xiangqi's evaluation network (evalnet.py, the `neural` heuristic): the compiled forward pass
is the network's arithmetic, one set of weights serves both sides, a file that is not a
network is one sentence, and the compiled search with it equals the Python agent."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.core.game import BoardLabError
from boardlab.games.xiangqi import XiangqiGame
from boardlab.games.xiangqi.evalnet import (FEATURES, NETWORK_FORMAT, NO_NETWORK, Network,
                                            correction, feature, features, read_network,
                                            shipped_network, write_network)
from boardlab.testing import check_compiled_search

GAME = XiangqiGame()


def random_network(width: int = 8, second: int = 4, seed: int = 0) -> Network:
    rng = np.random.default_rng(seed)
    return Network(rng.normal(0.0, 0.3, (FEATURES, width)), rng.normal(0.0, 0.3, width),
                   rng.normal(0.0, 0.5, (second, width)), rng.normal(0.0, 0.3, second),
                   rng.normal(0.0, 5.0, second), rng.normal(0.0, 1.0, 1))


def played(plies: int, seed: int):
    state = GAME.initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def reference(board: np.ndarray, player: int, network: Network) -> float:
    """The forward pass in numpy, from the features' one-hot vector."""
    x = np.zeros(FEATURES)
    x[features(board, player)] = 1.0
    hidden = np.clip(x @ network.w1 + network.b1, 0.0, 1.0)
    second = np.clip(network.w2 @ hidden + network.b2, 0.0, 1.0)
    return float(network.w3 @ second + network.b3[0])


def test_the_compiled_pass_is_the_networks_arithmetic():
    network = random_network()
    hidden = np.zeros(8)
    for seed in range(5):
        state = played(30, seed)
        board = np.asarray(state.board, dtype=np.int64)
        for player in (0, 1):
            assert correction(board, player, network, hidden) == pytest.approx(
                reference(board, player, network), abs=1e-9)
    assert correction(board, 0, NO_NETWORK, hidden) == 0.0


def test_the_features_see_the_board_from_the_side_to_move():
    board = np.asarray(GAME.initial_state().board, dtype=np.int64)
    # Red's general on e0 (square 85) is red's own piece on e0 for red, the enemy's on e9
    # (square 4, ranks flipped) for black.
    assert feature(board[85], 85, 0) == 0 * 630 + 0 * 90 + 85
    assert feature(board[85], 85, 1) == 630 + 0 * 90 + 4
    assert len(set(features(board, 0))) == 32 and max(features(board, 0)) < FEATURES
    # The start position is the same for either side to move: so are its features.
    assert sorted(features(board, 0)) == sorted(features(board, 1))


def test_one_network_serves_both_sides():
    """A position and its colour mirror (colours swapped, ranks flipped, the other side to
    move) get the same correction; a network that saw only one side would not."""
    network = random_network(seed=3)
    hidden = np.zeros(8)
    for seed in range(5):
        board = np.asarray(played(25, seed).board, dtype=np.int64)
        mirror = np.zeros_like(board)
        for square, cell in enumerate(board):
            row, col = divmod(square, 9)
            mirror[(9 - row) * 9 + col] = -cell
        for player in (0, 1):
            # (the same sum in another order of squares: equal to the last bits)
            assert correction(board, player, network, hidden) == pytest.approx(
                correction(mirror, 1 - player, network, hidden), abs=1e-9)


def test_a_network_file_round_trips_and_a_wrong_one_is_one_sentence(tmp_path):
    network = random_network()
    path = tmp_path / "net.npz"
    write_network(path, network, how="a test")
    again = read_network(path)
    for name in Network._fields:
        np.testing.assert_allclose(getattr(again, name),
                                   np.asarray(getattr(network, name), dtype=np.float32))
    bad = tmp_path / "bad.npz"
    np.savez(bad, format=NETWORK_FORMAT, **{name: getattr(network, name)
                                            for name in Network._fields if name != "w2"})
    short = tmp_path / "short.npz"
    np.savez(short, format=NETWORK_FORMAT, **{**network._asdict(), "w1": network.w1[:10]})
    text = tmp_path / "text.npz"
    text.write_text("not a network")
    for path, why in ((bad, "no w2"), (short, "w1 of shape (10, 8)"),
                      (text, "not an .npz archive"), (tmp_path / "none.npz", "no such file")):
        with pytest.raises(BoardLabError, match="is not a xiangqi evaluation network") as error:
            read_network(path)
        assert why in str(error.value) and "\n" not in str(error.value)


def test_the_neural_heuristic_is_the_tuned_table_corrected():
    network = shipped_network()
    state = played(40, 11)
    board = np.asarray(state.board, dtype=np.int8)
    hidden = np.zeros(network.b1.shape[0])
    for player in (0, 1):
        assert GAME.evaluators["neural"](state, player) == \
            GAME.evaluators["tuned"](state, player) + correction(board, player, network, hidden)


def test_the_neural_search_equals_the_python_agent():
    for seed in (1, 2):
        check_compiled_search(played(30, seed), 2, evaluator="neural")


def test_a_missing_shipped_network_names_the_script_that_makes_one(monkeypatch):
    import boardlab.core.weights

    monkeypatch.setattr(boardlab.core.weights, "MODELS", "no-such-folder")
    shipped_network.cache_clear()
    try:
        with pytest.raises(BoardLabError, match="experiments/xiangqi_eval_net.py") as error:
            GAME.evaluators["neural"](GAME.initial_state(), 0)
        assert "\n" not in str(error.value)
    finally:
        monkeypatch.undo()
        shipped_network.cache_clear()
    assert shipped_network().w1.shape[0] == FEATURES

"""Xiangqi's evaluation network (evalnet.py, the `neural` heuristic): the compiled forward pass
is the quantised network's arithmetic and stays near the float one, one set of weights serves
both sides, the search's accumulator updated move by move equals the one summed from the
board, a file that is not a network is one sentence, and the compiled search with it equals
the Python agent."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab import Clock
from boardlab.core.game import BoardLabError
from boardlab.games.xiangqi import XiangqiGame
from boardlab.games.xiangqi.actions import ACTION_FROM, ACTION_TO
from boardlab.games.xiangqi.evalnet import (FEATURES, NETWORK_FILE, NETWORK_FORMAT, NO_NETWORK,
                                            SCALE_BITS, SECOND_SCALE, UNIT_BITS, Network,
                                            QuantisedNetwork, accumulate,
                                            buffer, correction, feature, features, output,
                                            network_base, quantise, read_network,
                                            shipped_base, shipped_network,
                                            shipped_quantised, views, write_network)
from boardlab.games.xiangqi.search import (EVALUATION, Line, XiangqiSearch, _pass_accumulator,
                                           _play_accumulator, compiled_search)
from boardlab.testing import check_compiled_search

GAME = XiangqiGame()


def random_network(width: int = 8, second: int = 4, seed: int = 0, views: int = 1) -> Network:
    rng = np.random.default_rng(seed)
    return Network(rng.normal(0.0, 0.3, (FEATURES, width)), rng.normal(0.0, 0.3, width),
                   rng.normal(0.0, 0.5, (second, views * width)), rng.normal(0.0, 0.3, second),
                   rng.normal(0.0, 5.0, second), rng.normal(0.0, 1.0, 1))


def played(plies: int, seed: int):
    state = GAME.initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def line_for(network: QuantisedNetwork) -> Line:
    """A search's `Line` with `network`, its accumulators zero (only they are used here)."""
    search = XiangqiSearch(True, EVALUATION, network=network)
    board = np.asarray(GAME.initial_state().board, dtype=np.int8)
    return Line(board, np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.bool_), search.moves,
                search.evaluation, search.endgame_table, search.activity, search.scratch,
                search.counts, network, search.units, search.accumulators)


def reference(board: np.ndarray, player: int, network: Network | QuantisedNetwork) -> float:
    """The forward pass in numpy, from the features' one-hot vectors: the side to move's view,
    then the other side's for a network of two views. For a quantised network, its integer
    arithmetic: the accumulator's units rounded to 2**-UNIT_BITS, the second layer's sums of
    integer products."""
    quantised = isinstance(network, QuantisedNetwork)
    hidden = []
    for seen_by in [player, 1 - player][:views(network)]:
        x = np.zeros(FEATURES, dtype=np.int64)
        x[features(board, seen_by)] = 1
        summed = x @ network.w1.astype(np.int64 if quantised else np.float64) + network.b1
        if quantised:
            shift = SCALE_BITS - UNIT_BITS
            hidden.append(np.clip((summed + (1 << (shift - 1))) >> shift, 0, 1 << UNIT_BITS))
        else:
            hidden.append(np.clip(summed, 0.0, 1.0))
    units = np.concatenate(hidden)
    if quantised:
        second = (network.w2.astype(np.int64) @ units + network.b2) / SECOND_SCALE
    else:
        second = network.w2 @ units + network.b2
    return float(network.w3 @ np.clip(second, 0.0, 1.0) + network.b3[0])


@pytest.mark.parametrize("two_views", [False, True])
def test_the_compiled_pass_is_the_quantised_networks_arithmetic(two_views):
    network = quantise(random_network(views=2 if two_views else 1))
    assert views(network) == (2 if two_views else 1)
    assert network.w1.dtype == network.b1.dtype == network.w2.dtype == network.b2.dtype == \
        np.int32
    units = buffer(network)
    for seed in range(5):
        state = played(30, seed)
        board = np.asarray(state.board, dtype=np.int64)
        for player in (0, 1):
            assert correction(board, player, network, units) == pytest.approx(
                reference(board, player, network), abs=1e-9)
    assert correction(board, 0, NO_NETWORK, units) == 0.0


def test_quantising_moves_the_shipped_correction_by_a_hair():
    # README.md#the-accumulator measured at most 0.019 units (a soldier is 10) over 20,000
    # positions of the engine's games, both sides to move; 0.05 leaves room for others.
    network = shipped_network()
    units = buffer(shipped_quantised())
    for seed in range(6):
        board = np.asarray(played(20 + 10 * seed, seed).board, dtype=np.int64)
        for player in (0, 1):
            assert correction(board, player, shipped_quantised(), units) == pytest.approx(
                reference(board, player, network), abs=0.05)


def test_a_layer_past_int32_is_refused():
    network = random_network()
    with pytest.raises(BoardLabError, match="first layer .* past what int32 holds"):
        quantise(network._replace(w1=network.w1 * 200.0))
    with pytest.raises(BoardLabError, match="second layer .* past what int32 holds"):
        quantise(network._replace(w2=network.w2 * 200.0))


def test_the_features_see_the_board_from_the_side_to_move():
    board = np.asarray(GAME.initial_state().board, dtype=np.int64)
    # Red's general on e0 (square 85) is red's own piece on e0 for red, the enemy's on e9
    # (square 4, ranks flipped) for black.
    assert feature(board[85], 85, 0) == 0 * 630 + 0 * 90 + 85
    assert feature(board[85], 85, 1) == 630 + 0 * 90 + 4
    assert len(set(features(board, 0))) == 32 and max(features(board, 0)) < FEATURES
    # The start position is the same for either side to move: so are its features.
    assert sorted(features(board, 0)) == sorted(features(board, 1))


@pytest.mark.parametrize("two_views", [False, True])
def test_one_network_serves_both_sides(two_views):
    """A position and its colour mirror (colours swapped, ranks flipped, the other side to
    move) get the same correction; a network that saw only one side would not."""
    network = quantise(random_network(seed=3, views=2 if two_views else 1))
    units = buffer(network)
    for seed in range(5):
        board = np.asarray(played(25, seed).board, dtype=np.int64)
        mirror = np.zeros_like(board)
        for square, cell in enumerate(board):
            row, col = divmod(square, 9)
            mirror[(9 - row) * 9 + col] = -cell
        for player in (0, 1):
            # (the same sum in another order of squares: integers, so equal)
            assert correction(board, player, network, units) == \
                correction(mirror, 1 - player, network, units)


def test_a_network_file_round_trips_and_a_wrong_one_is_one_sentence(tmp_path):
    write_network(tmp_path / "two.npz", random_network(views=2))
    assert views(read_network(tmp_path / "two.npz")) == 2
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
    three = tmp_path / "three.npz"  # a second layer reading three views: there are two
    write_network(three, random_network(views=3))
    for path, why in ((bad, "no w2"), (short, "w1 of shape (10, 8)"),
                      (three, "w2 of shape (4, 24), not (4, 8)"),
                      (text, "not an .npz archive"), (tmp_path / "none.npz", "no such file")):
        with pytest.raises(BoardLabError, match="is not a xiangqi evaluation network") as error:
            read_network(path)
        assert why in str(error.value) and "\n" not in str(error.value)


def test_the_neural_heuristic_is_the_tuned_tables_corrected_for_the_side_to_move():
    from boardlab.games.xiangqi.heuristics import tuned_tables

    assert shipped_base() == "tables"  # the shipped network corrects the tables alone
    network = shipped_quantised()
    state = played(40, 11)
    board = np.asarray(state.board, dtype=np.int8)
    units = buffer(network)
    mover = state.current_player()
    judged = correction(board, mover, network, units)
    assert judged != correction(board, 1 - mover, network, units)
    # The network judges for the side to move; the other player's value is its negation
    # (the search's negamax), not the network asked from the other side's view.
    assert GAME.evaluators["neural"](state, mover) == tuned_tables(state, mover) + judged
    assert GAME.evaluators["neural"](state, 1 - mover) == \
        tuned_tables(state, 1 - mover) - judged
    assert compiled_search(GAME, "neural", True).activity.shape[0] == 0


def test_the_neural_search_equals_the_python_agent():
    for seed in (1, 2):
        check_compiled_search(played(30, seed), 2, evaluator="neural")
    check_compiled_search(played(60, 3), 3, evaluator="neural")  # captures on the board


@pytest.mark.parametrize("two_views", [False, True])
def test_the_searchs_accumulator_follows_moves_captures_and_null_moves(two_views):
    """The search's accumulator, updated as it makes moves (search.py `_play_accumulator`)
    and null moves (`_pass_accumulator`), equals the one summed from the board after each,
    and so does the correction read from it, for either side to move."""
    network = quantise(random_network(seed=4, views=2 if two_views else 1))
    line = line_for(network)
    units = buffer(network)
    state = GAME.initial_state()
    accumulators = line.accumulators
    accumulate(np.asarray(state.board, dtype=np.int64), network, accumulators[0])
    rng = random.Random(7)
    captures = passes = 0
    for ply in range(accumulators.shape[0] - 1):
        board = np.asarray(state.board, dtype=np.int64)
        actions = [] if state.is_terminal() else state.legal_actions()
        if not actions:
            break
        taking = [a for a in actions if board[ACTION_TO[a]] != 0]
        if ply % 7 == 6:
            passes += 1
            _pass_accumulator(line, ply)
        else:
            action = rng.choice(taking if taking and rng.random() < 0.7 else actions)
            frm, to = ACTION_FROM[action], ACTION_TO[action]
            captures += board[to] != 0
            _play_accumulator(line, ply, board[frm], frm, to, board[to])
            state.apply(action)
            board = np.asarray(state.board, dtype=np.int64)
        summed = np.zeros((2, 8), dtype=np.int32)
        accumulate(board, network, summed)
        assert (accumulators[ply + 1] == summed).all(), (ply, state.to_text())
        for player in (0, 1):
            assert output(accumulators[ply + 1], player, network, units) == \
                correction(board, player, network, units)
    assert captures >= 10 and passes >= 5, (captures, passes)


def test_a_missing_shipped_network_names_the_script_that_makes_one(monkeypatch):
    import boardlab.core.weights

    monkeypatch.setattr(boardlab.core.weights, "MODELS", "no-such-folder")
    shipped_network.cache_clear()
    shipped_quantised.cache_clear()
    try:
        with pytest.raises(BoardLabError, match="experiments/xiangqi_eval_net.py") as error:
            GAME.evaluators["neural"](GAME.initial_state(), 0)
        assert "\n" not in str(error.value)
    finally:
        monkeypatch.undo()
        shipped_network.cache_clear()
        shipped_quantised.cache_clear()
    assert shipped_network().w1.shape[0] == FEATURES


def test_eval_weights_plays_a_network_file(tmp_path):
    """`minimax:eval_weights=FILE` plays the network in FILE: the heuristic is the tuned
    table corrected by it, the engine search reading the shipped network's file through the
    setting searches as without it, and another network changes the search's value."""
    from boardlab.core.registry import make_agent
    from boardlab.core.weights import shipped_file
    from boardlab.games.xiangqi.heuristics import tuned

    mine = tmp_path / "mine.npz"
    write_network(mine, random_network(seed=5, views=2))
    network = quantise(read_network(mine))
    state = played(40, 12)
    board = np.asarray(state.board, dtype=np.int8)
    judged = correction(board, state.player, network, buffer(network))
    heuristic = GAME.evaluator_with_weights("engine", str(mine))
    assert heuristic(state, state.player) == tuned(state, state.player) + judged
    assert heuristic(state, 1 - state.player) == tuned(state, 1 - state.player) - judged

    def searched(spec: str) -> float:
        agent = make_agent(f"minimax:depth=3,quiescence=true{spec}", GAME)
        agent.start_game(state.current_player(), 0)
        agent.act(state.clone(), Clock())
        return agent.last_info()["value"]

    shipped = shipped_file(NETWORK_FILE)
    assert searched(f",eval_weights={shipped}") == searched("")
    assert searched(f",eval_weights={mine}") != searched("")


def test_a_network_of_the_tables_alone_leaves_the_activity_term_out(tmp_path):
    """A network file whose base is "tables" corrects the tuned tables without the activity
    term: the heuristic is them plus the correction, the compiled search counts no activity
    and searches as the Python agent does; a file without a base corrects `tuned`, as the
    first files did; one naming another base is refused in one sentence."""
    from boardlab.games.xiangqi.heuristics import tuned, tuned_tables

    lean = tmp_path / "lean.npz"
    write_network(lean, random_network(seed=6), base="tables")
    assert network_base(lean) == "tables"
    write_network(tmp_path / "old.npz", random_network(seed=6))
    assert network_base(tmp_path / "old.npz") == "tuned"
    network = quantise(read_network(lean))
    state = played(40, 13)
    board = np.asarray(state.board, dtype=np.int8)
    judged = correction(board, state.player, network, buffer(network))
    heuristic = GAME.evaluator_with_weights("engine", str(lean))
    mover = state.player
    assert tuned_tables(state, mover) != tuned(state, mover)  # the activity term is not 0
    assert heuristic(state, mover) == tuned_tables(state, mover) + judged
    assert heuristic(state, 1 - mover) == tuned_tables(state, 1 - mover) - judged
    search = GAME.compiled_quiescence("neural", str(lean))
    assert search is not None and search.activity.shape[0] == 0
    assert GAME.compiled_quiescence("neural", str(tmp_path / "old.npz")).activity.shape[0] > 0
    for seed in (1, 2):
        check_compiled_search(played(30, seed), 2, evaluator="neural", weights=str(lean))
    odd = tmp_path / "odd.npz"
    write_network(odd, random_network(), base="psqt")
    with pytest.raises(BoardLabError, match="odd.npz is not a xiangqi evaluation network "
                                            "\\(base 'psqt', not one of tuned, tables\\)"):
        GAME.evaluator_with_weights("neural", str(odd))


def test_eval_weights_refuses_a_heuristic_without_weights_and_a_file_that_is_not_one(tmp_path):
    from boardlab.core.game import ParseError
    from boardlab.core.registry import make_agent

    with pytest.raises(ParseError, match="heuristic 'tuned' reads no weights file"):
        make_agent("minimax:depth=2,quiescence=true,eval=tuned,eval_weights=x.npz", GAME)
    (tmp_path / "notes.txt").write_text("not a network")
    with pytest.raises(BoardLabError, match="notes.txt is not a xiangqi evaluation network"):
        make_agent(f"minimax:depth=2,quiescence=true,eval_weights={tmp_path / 'notes.txt'}",
                   GAME)

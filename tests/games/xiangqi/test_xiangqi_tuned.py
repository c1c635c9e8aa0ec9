"""Xiangqi's `tuned` heuristic (heuristics.py): the activity term counts the moves the kernels
generate, the phase blends a midgame and an endgame table, the compiled search computes the
same floats as the Python heuristic, the tuner's features give the evaluators' values, and a
malformed or missing table is one sentence. The tests write their own table, with entries and
activity weights of no round numbers, to a temporary folder and point the shipped models
there."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab.core.weights
from boardlab.core.game import BoardLabError
from boardlab.games.xiangqi import XiangqiGame, rules
from boardlab.core.weights import shipped_file
from boardlab.games.xiangqi.evalnet import NETWORK_FILE
from boardlab.games.xiangqi.heuristics import (ACTIVITY, ENDGAME, PHASE_MAX, TUNED_FILE, ZONE,
                                               activity, activity_counts, parameters, phase,
                                               read_tuned, tuned, tuned_parameters)
from boardlab.games.xiangqi.kernels import MAX_MOVES, _pseudo
from boardlab.games.xiangqi.search import EVALUATION, Line, compiled_search
from boardlab.games.xiangqi.search import _static as compiled_static
from boardlab.games.xiangqi.search import activity as compiled_activity
from boardlab.learn.texel import TexelSettings, collect, values
from boardlab.testing import check_compiled_search, search_decision

GAME = XiangqiGame()
WEIGHTS = np.random.default_rng(7).normal(0.0, 0.7, ZONE + 1)
"""Activity weights with no round numbers (0: the unused column 0), so that a sum in another
order would show in the last bits."""
WEIGHTS[0] = 0.0


def tuned_table() -> np.ndarray:
    """`positional`'s tables with every entry moved a little (the endgame's otherwise than the
    midgame's) and the activity weights set."""
    table = parameters("positional")
    rng = np.random.default_rng(8)
    table[1:ACTIVITY] += rng.normal(0.0, 1.0, (ACTIVITY - 1, 90))
    table[ENDGAME + 1:] += rng.normal(0.0, 5.0, (ACTIVITY - 1, 90))
    table[ACTIVITY, :ZONE + 1] = WEIGHTS
    return table


@pytest.fixture
def shipped_tuned(tmp_path, monkeypatch):
    """A tuned table where `tuned_parameters` looks for the shipped one, beside the shipped
    evaluation network (`neural`, the engine search's default, reads both); the table."""
    table = tuned_table()
    np.savez(tmp_path / TUNED_FILE, format="boardlab-texel", game="xiangqi", table=table)
    (tmp_path / NETWORK_FILE).write_bytes(shipped_file(NETWORK_FILE).read_bytes())
    monkeypatch.setattr(boardlab.core.weights, "MODELS", str(tmp_path))
    tuned_parameters.cache_clear()
    yield table
    tuned_parameters.cache_clear()


def random_positions(seeds=range(4), plies=160) -> list:
    """Every state of seeded random games, up to `plies` plies each."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.initial_state()
        while not state.is_terminal() and state.plies < plies:
            found.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return found


def kernel_pseudo_moves(board, player) -> list[tuple[int, int]]:
    out = np.zeros((MAX_MOVES, 3), dtype=np.int64)
    n = _pseudo(np.asarray(board, dtype=np.int8), player, out)
    return [(int(out[i, 0]), int(out[i, 1])) for i in range(n)]


def test_the_python_moves_are_the_kernels_and_both_activities_agree_bit_for_bit(
        shipped_tuned):
    search = compiled_search(GAME, "tuned", True)
    assert np.array_equal(search.activity, WEIGHTS)
    weights = tuple(float(w) for w in WEIGHTS)
    for state in random_positions():
        board = np.asarray(state.board, dtype=np.int8)
        for player in (0, 1):
            # What activity_counts counts is what the compiled activity counts.
            assert sorted(rules.pseudo_moves(state.board, player)) == \
                sorted(kernel_pseudo_moves(state.board, player))
        assert compiled_activity(board, WEIGHTS, search.scratch, search.counts) == \
            activity(state.board, weights)
        assert search.counts.tolist() == [list(side) for side in activity_counts(state.board)]
        line = Line(board, np.zeros(1, np.int64), np.zeros(1, np.bool_), search.moves,
                    search.evaluation, search.endgame_table, search.activity, search.scratch,
                    search.counts)
        for player in (0, 1):
            assert compiled_static(line, player, 0) == tuned(state, player)


def test_the_activity_of_a_position_counted_by_hand():
    state = GAME.state_from_text("3k5/9/4P4/9/9/5R3/9/9/8c/4K4 w")
    # Red: general e0 3 moves (e1, d0, f0); chariot f4 17 (5 up, of which f7 f8 f9 in black's
    # palace, 4 down, 5 left, 3 right); soldier e7 3 (e8, d7, f7, all in black's palace).
    # Black: general d9 2 (d8, e9); cannon i1 17 (8 up, 1 down, 8 left, of which f1 e1 d1 in
    # red's palace). Into the enemy palace: red 3 + 3, black 3.
    red, black = activity_counts(state.board)
    assert red == [0, 3, 0, 0, 0, 17, 0, 3, 6]
    assert black == [0, 2, 0, 0, 0, 0, 17, 0, 3]
    weights = [0.0, 0.5, 0.25, 0.125, 1.0, 2.0, 4.0, 8.0, 16.0]
    expected = 0.5 * (3 - 2) + 2.0 * 17 + 4.0 * -17 + 8.0 * 3 + 16.0 * (6 - 3)
    assert activity(state.board, weights) == expected == 38.5
    search = compiled_search(GAME, "positional", True)
    board = np.asarray(state.board, dtype=np.int8)
    assert compiled_activity(board, np.array(weights), search.scratch, search.counts) == 38.5


def test_the_features_give_the_evaluators_values(shipped_tuned):
    linear = GAME.linear_evaluation()
    positions, _ = collect("xiangqi", TexelSettings(depth=1, positions=50, games_per_chunk=2))
    states = [GAME.state_from_text(str(text)) for text in positions.text]
    movers = [int(mover) for mover in positions.mover]
    for name, evaluator in (("minimax", "positional"), ("tuned", "tuned")):
        table = linear.parameters(name)
        assert table.shape == linear.shape == (ENDGAME + ACTIVITY, 90)
        expected = [GAME.evaluators[evaluator](state, mover)
                    for state, mover in zip(states, movers)]
        np.testing.assert_allclose(values(positions, table), expected, atol=1e-9)
    assert not linear.parameters("positional")[ACTIVITY].any()
    assert np.array_equal(linear.parameters("tuned"), shipped_tuned)


def test_only_the_activity_weights_that_count_are_free():
    fixed = GAME.linear_evaluation().fixed
    assert fixed[0].all() and not fixed[1:ACTIVITY].any()  # every piece-square entry moves
    assert fixed[ENDGAME].all() and not fixed[ENDGAME + 1:].any()  # the endgame's too
    assert not fixed[ACTIVITY, 1:ZONE + 1].any()
    assert fixed[ACTIVITY, 0] and fixed[ACTIVITY, ZONE + 1:].all()


def test_the_positional_search_keeps_its_table():
    search = compiled_search(GAME, "minimax", False)
    assert np.array_equal(search.evaluation, EVALUATION) and search.activity.shape == (0,)


def test_the_tuned_search_plays_and_equals_the_python_agent(shipped_tuned):
    move, value = search_decision("minimax:depth=3,quiescence=true,eval=tuned",
                                  GAME.initial_state())
    assert move in {GAME.initial_state().action_to_str(a)
                    for a in GAME.initial_state().legal_actions()}
    assert np.isfinite(value) and abs(value) < 1000
    for state in random_positions(seeds=[1], plies=61)[20::20]:
        check_compiled_search(state, 2, evaluator="tuned")


def test_a_malformed_file_is_one_sentence(tmp_path):
    table = tuned_table()
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a zip at all")
    no_table = tmp_path / "no-table.npz"
    np.savez(no_table, format="boardlab-texel", game="xiangqi")
    wrong_shape = tmp_path / "wrong-shape.npz"
    np.savez(wrong_shape, format="boardlab-texel", game="xiangqi", table=np.zeros((7, 30)))
    other_game = tmp_path / "other-game.npz"
    np.savez(other_game, format="boardlab-texel", game="minichess", table=table)
    not_finite = tmp_path / "nan.npz"
    np.savez(not_finite, format="boardlab-texel", game="xiangqi",
             table=np.full_like(table, np.nan))
    for path in (garbage, no_table, wrong_shape, other_game, not_finite, tmp_path / "none"):
        with pytest.raises(BoardLabError) as error:
            read_tuned(path)
        message = str(error.value)
        assert str(path) in message and "\n" not in message, message
        assert message.startswith(f"{path} is not a tuned xiangqi evaluation ("), message
    # A table without the activity row reads with the weights 0, and one without an endgame
    # table with the midgame table in its place: both evaluate as they did.
    table_only = tmp_path / "table-only.npz"
    np.savez(table_only, format="boardlab-texel", game="xiangqi", table=table[:ACTIVITY])
    read = read_tuned(table_only)
    assert read.shape == (ENDGAME + ACTIVITY, 90) and not read[ACTIVITY].any()
    assert np.array_equal(read[:ACTIVITY], table[:ACTIVITY])
    assert np.array_equal(read[ENDGAME:], table[:ACTIVITY])
    no_endgame = tmp_path / "no-endgame.npz"
    np.savez(no_endgame, format="boardlab-texel", game="xiangqi", table=table[:ENDGAME])
    read = read_tuned(no_endgame)
    assert np.array_equal(read[:ENDGAME], table[:ENDGAME])
    assert np.array_equal(read[ENDGAME:], table[:ACTIVITY])


def test_a_missing_shipped_table_names_the_command_that_makes_it(monkeypatch):
    monkeypatch.setattr(boardlab.core.weights, "MODELS", "no-such-folder")
    tuned_parameters.cache_clear()
    try:
        with pytest.raises(BoardLabError, match="boardlab train xiangqi texel --out "
                                                "xiangqi-tuned-eval.npz") as error:
            tuned(GAME.initial_state(), 0)
        assert "\n" not in str(error.value)
    finally:
        tuned_parameters.cache_clear()


def test_the_phase_blends_the_midgame_and_the_endgame_table(shipped_tuned):
    # Every heavy piece on the board: the midgame table alone; none: the endgame's; between,
    # the share phase / PHASE_MAX of the midgame's.
    start = GAME.initial_state()
    assert phase(start.board) == PHASE_MAX
    bare = GAME.state_from_text("3k5/9/4P4/9/9/9/9/9/9/4K4 w")  # a soldier and the generals
    assert phase(bare.board) == 0
    middle = GAME.state_from_text("3k5/9/4P4/9/9/5R3/9/9/8c/4K4 w")  # a chariot, a cannon
    assert phase(middle.board) == 3
    table = shipped_tuned
    no_activity = table.copy()
    no_activity[ACTIVITY] = 0.0
    rows = tuple(tuple(float(x) for x in row) for row in no_activity)

    def one_table(state, rows_of):
        from boardlab.games.chesslike import material_and_position
        return material_and_position(state.board, 0, (0.0,) * ACTIVITY, rows_of, 10, 9)

    tuned_parameters.cache_clear()
    import boardlab.games.xiangqi.heuristics as heuristics
    original = heuristics.tuned_parameters
    heuristics.tuned_parameters = lambda: rows
    try:
        midgame, endgame = rows[:ACTIVITY], rows[ENDGAME:]
        assert tuned(start, 0) == one_table(start, midgame) * PHASE_MAX / PHASE_MAX
        assert tuned(bare, 0) == one_table(bare, endgame)
        expected = (3 * one_table(middle, midgame) + 13 * one_table(middle, endgame)) / 16
        assert tuned(middle, 0) == pytest.approx(expected) and tuned(middle, 1) == -tuned(middle, 0)
    finally:
        heuristics.tuned_parameters = original

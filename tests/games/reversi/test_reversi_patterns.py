"""Reversi's pattern tables (patterns.py): they hold the hand-written heuristics exactly, read
the same value from every symmetric image of a position, give Texel the features of their own
value, and the compiled evaluator and search agree with the Python ones to the bit; Texel's fit
of them lowers the loss on games it never saw."""

from __future__ import annotations

import numpy as np
import pytest

from boardlab.core.game import BoardLabError
from boardlab.games.reversi import ReversiGame, patterns, search
from boardlab.games.reversi.heuristics import mobility_value, positional_value
from boardlab.games.reversi.kernels import traced_playout
from boardlab.learn.texel import TexelSettings, collect, tune, values
from boardlab.testing import check_compiled_search

GAME = ReversiGame()


def decision_positions(seeds) -> list:
    """Every decision position of seeded random games."""
    found = []
    for seed in seeds:
        state = GAME.initial_state()
        for action in traced_playout(state.black, state.white, state.player, seed)[1]:
            found.append(state.clone())
            state.apply(action)
    return found


def random_table(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 30, patterns.SHAPE)


def mirrored(bits: int, symmetry) -> int:
    out = 0
    for square in range(64):
        if bits >> square & 1:
            row, col = symmetry(square // 8, square % 8)
            out |= 1 << (row * 8 + col)
    return out


def test_the_starting_tables_hold_mobility_and_positional_exactly():
    mobility = patterns.compiled_table(patterns.parameters("mobility"))
    positional = patterns.compiled_table(patterns.parameters("positional"))
    cases = decision_positions(range(40))
    assert len(cases) > 2000
    for state in cases:
        mover = state.current_player()
        own, opp = state.discs(mover), state.discs(1 - mover)
        assert patterns.table_value(mobility, own, opp) == mobility_value(state, mover)
        assert patterns.table_value(positional, own, opp) == positional_value(state, mover)


def test_every_symmetric_image_of_a_position_has_the_same_value():
    # One table per kind of pattern, shared by its images and symmetric where the pattern maps
    # onto itself: a random table still values a position and its seven images alike.
    table = patterns.compiled_table(random_table(1))
    for state in decision_positions(range(3))[::7]:
        own, opp = state.discs(0), state.discs(1)
        value = patterns.table_value(table, own, opp)
        for symmetry in patterns._SYMMETRIES[1:]:
            assert patterns.table_value(table, mirrored(own, symmetry),
                                        mirrored(opp, symmetry)) == value


def test_every_square_is_read_and_the_layout_is_a_partition_of_columns():
    covered = {square for instance in patterns.INSTANCES for square in instance}
    assert covered == set(range(64))
    assert patterns.WIDTH == sum(3 ** len(base) for _, base in patterns.PATTERN_KINDS) + 3
    # The canonical column of a column is canonical itself, and in the same kind's block.
    assert np.array_equal(patterns.CANONICAL[patterns.CANONICAL], patterns.CANONICAL)
    assert (patterns.CANONICAL <= np.arange(patterns.WIDTH)).all()


def test_texels_features_give_the_tables_value_for_player_0():
    table = random_table(2)
    compiled = patterns.compiled_table(table)
    flat = np.append(table.ravel(), 0.0)
    for state in decision_positions(range(2)):
        index, sign = patterns.features(state)
        mover = state.current_player()
        for_mover = float(np.dot(sign, flat[index])) * (1 if mover == 0 else -1)
        own, opp = state.discs(mover), state.discs(1 - mover)
        # The compiled table is rounded to 1/SCALE: 38 entries and 3 counts of rounding.
        assert for_mover == pytest.approx(patterns.table_value(compiled, own, opp), abs=2.0)


def test_the_stages_blend_from_the_first_anchor_to_the_last():
    assert patterns.stage_shares(4) == (0, 0)
    assert patterns.stage_shares(64) == (patterns.STAGES - 2, patterns.SPAN)
    stage, share = patterns.stage_shares(19)
    assert (stage, share) == (0, 60) or (stage, share) == (1, 0)


def test_the_compiled_pattern_value_equals_the_python_one():
    weights = search.heuristic_weights()._replace(
        patterns=np.ascontiguousarray(patterns.compiled_table(random_table(3)).T))
    for state in decision_positions(range(4)):
        for player in (0, 1):
            own, opp = state.discs(player), state.discs(1 - player)
            compiled = search.evaluate(np.uint64(own), np.uint64(opp),
                                       np.uint64(state.moves_of(player)), search.TUNED, weights)
            assert compiled == patterns.table_value(weights.patterns.T, own, opp)


@pytest.mark.parametrize("depth", [1, 3])
def test_the_compiled_search_with_the_tuned_tables_equals_the_python_agent(depth):
    cases = decision_positions(range(3))
    for state in cases[3::11]:
        check_compiled_search(state, depth, evaluator="tuned")


def test_the_tuned_value_is_antisymmetric():
    for state in decision_positions(range(2))[::5]:
        assert patterns.tuned_value(state, 0) == -patterns.tuned_value(state, 1)


def test_texel_lowers_the_held_out_loss_from_the_hand_written_start():
    # 278,655 entries and 12,000 positions: the pull towards the start (a mean over all the
    # entries, most of which these games never meet) must be strong; at l2=30 the fit learnt
    # the training games and missed the others (held out 0.174 -> 0.182; 3000: -> 0.165).
    settings = TexelSettings(start="mobility", depth=2, positions=12_000, games_per_chunk=25,
                             l2=3000.0, iterations=60, seed=3)
    positions, _ = collect("reversi", settings)
    linear = GAME.linear_evaluation()
    start = linear.parameters("mobility")
    # The features give the starting evaluator's value (the mover's, in points).
    expected = [mobility_value(GAME.state_from_text(str(text)), int(mover))
                for text, mover in zip(positions.text[:300], positions.mover[:300])]
    np.testing.assert_allclose(values(positions.take(np.arange(300)), start), expected,
                               atol=1e-6)
    report = tune(positions, linear, settings)
    assert report.held > 1000
    assert report.losses["held_after"] < report.losses["held_before"]
    assert report.losses["train_after"] < report.losses["train_before"]


def test_a_malformed_tables_file_is_one_sentence(tmp_path):
    path = tmp_path / "bad.npz"
    np.savez(path, format="boardlab-texel", game="reversi", table=np.zeros((2, 3)))
    with pytest.raises(BoardLabError, match="not a tuned reversi evaluation") as error:
        patterns.read_tables(path)
    assert "\n" not in str(error.value)
    with pytest.raises(BoardLabError, match="no such file"):
        patterns.read_tables(tmp_path / "missing.npz")

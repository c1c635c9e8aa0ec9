"""Self-play games that end before their rules end them (learn/game_end.py): adjudication at
a move cap by the game's heuristic, and resignation with played-out games that count the
false resignations."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boardlab import make_game
from boardlab.agents.evaluation import pick_evaluator
from boardlab.learn.game_end import ResignWatch, adjudicated_returns, resigned_returns

pytest.importorskip("torch")

from boardlab.learn.alphazero import AlphaZeroTraining, self_play  # noqa: E402

TINY = {"workers": 1, "games_per_worker": 2, "sims": 6, "train_steps": 10, "batch": 32,
        "eval_games": 2, "eval_sims": 4, "temperature_moves": 4}


def tiny_network(game):
    from boardlab.agents.alphazero import AlphaZeroAgent

    return AlphaZeroAgent(game, weights="none", channels=8, blocks=1).network.eval()


def test_a_rook_up_is_adjudicated_a_near_win_for_its_side():
    game = make_game("xiangqi")
    # black's rook on a9 is gone: red is a rook up, black to move
    state = game.state_from_text("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR "
                                 "b - - 0 1")
    evaluate = pick_evaluator(game, "", "minimax")[1]
    red, black = adjudicated_returns(state, evaluate, 30.0, 2)
    assert red == -black and red > math.tanh(1.0)  # a rook is 90 units: tanh(3) after the mean
    even = adjudicated_returns(game.initial_state(0), evaluate, 30.0, 2)
    assert even == pytest.approx([0.0, 0.0])
    with pytest.raises(ValueError, match="positive"):
        adjudicated_returns(state, evaluate, 0.0, 2)


def test_a_resignation_loses_for_the_resigner():
    assert resigned_returns(1, 2) == [1.0, -1.0]
    assert resigned_returns(0, 4) == [-1.0, 1 / 3, 1 / 3, 1 / 3]


def test_a_played_out_game_counts_who_would_have_resigned_and_who_was_wrong():
    watch = ResignWatch(threshold=-0.9, may_resign=False)
    assert not watch.resigns(0, -0.95) and not watch.resigns(1, -0.5)
    assert not watch.resigns(0, -0.99)  # noted once per player
    assert watch.false_resignations([1.0, -1.0]) == (1, 1)  # player 0 came back and won
    assert watch.false_resignations([-1.0, 1.0]) == (1, 0)
    may = ResignWatch(threshold=-0.9, may_resign=True)
    assert may.resigns(1, -0.95) and not may.resigns(1, -0.85)


def test_self_play_adjudicates_every_game_at_the_cap():
    game = make_game("xiangqi")
    config = AlphaZeroTraining(**TINY, max_moves=3, adjudicate_scale=30.0)
    samples, stats = self_play(game, tiny_network(game), config, 2, seed=5)
    assert stats.adjudicated == 2 and stats.positions == len(samples) == 6
    # the targets are the heuristic's verdict, for each mover, not a draw's zeros
    evaluate = pick_evaluator(game, "", "minimax")[1]
    assert np.all(np.abs(samples.value) < 1.0)
    assert samples.value[0] == pytest.approx(-samples.value[1])
    assert evaluate is not None


def test_self_play_without_a_scale_scores_a_capped_game_a_draw():
    game = make_game("xiangqi")
    config = AlphaZeroTraining(**TINY, max_moves=2)
    samples, stats = self_play(game, tiny_network(game), config, 2, seed=5)
    assert stats.adjudicated == 2 and not samples.value.any()


def test_self_play_resigns_and_plays_out_the_share_that_never_resigns():
    game = make_game("reversi")
    always = AlphaZeroTraining(**TINY, resign=1.5, never_resign=0.0)  # every value is below
    samples, stats = self_play(game, tiny_network(game), always, 2, seed=1)
    assert stats.resigned == 2 and stats.positions == 2  # the first mover resigns at once
    assert samples.value.tolist() == [-1.0, -1.0]
    never = AlphaZeroTraining(**TINY, resign=1.5, never_resign=1.0)
    samples, stats = self_play(game, tiny_network(game), never, 2, seed=1)
    assert stats.resigned == 0 and stats.would_resign == 4  # both players of both games
    assert stats.false_resignations == 2  # each game's winner (or both, in a draw)

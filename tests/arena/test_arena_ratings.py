"""Bradley-Terry Elo: known strengths come back, `random` anchors at 0, 100% stays finite."""

from __future__ import annotations

import math

import pytest

from boardlab.arena.ratings import (PairCounts, Rating, bradley_terry_elo, elo_gap,
                                    expected_score)


def by_agent(ratings: list[Rating]) -> dict[str, Rating]:
    return {rating.agent: rating for rating in ratings}


def synthetic(true_elo: dict[str, float], games: int) -> list[PairCounts]:
    """Pairs whose wins are exactly the model's expectation (no noise, no draws)."""
    names = list(true_elo)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            wins = round(games * expected_score(true_elo[a] - true_elo[b]))
            pairs.append(PairCounts(a, b, wins, 0, games - wins))
    return pairs


def test_a_75_percent_score_is_191_elo():
    ratings = by_agent(bradley_terry_elo([("strong", "random", 7500, 0, 2500)]))
    assert ratings["strong"].elo == pytest.approx(400 * math.log10(3), abs=0.1)  # 190.8
    assert elo_gap(0.75) == pytest.approx(190.85, abs=0.01)


def test_random_anchors_at_zero():
    ratings = by_agent(bradley_terry_elo([("random", "greedy", 30, 10, 60),
                                          ("greedy", "minimax", 20, 0, 80)]))
    assert ratings["random"].elo == 0.0 and ratings["random"].ci95 == (0.0, 0.0)
    assert ratings["minimax"].elo > ratings["greedy"].elo > 0


def test_without_random_the_mean_is_zero():
    ratings = bradley_terry_elo([("a", "b", 60, 0, 40), ("b", "c", 70, 0, 30)], resamples=0)
    assert sum(r.elo for r in ratings) == pytest.approx(0.0, abs=1e-6)


def test_known_strengths_are_recovered():
    truth = {"random": 0.0, "greedy": 150.0, "minimax": 400.0, "mcts": 650.0}
    ratings = by_agent(bradley_terry_elo(synthetic(truth, 20000), resamples=0))
    for agent, elo in truth.items():
        assert ratings[agent].elo == pytest.approx(elo, abs=2.0)


def test_ratings_come_strongest_first():
    truth = {"random": 0.0, "c": 300.0, "b": 200.0, "a": 100.0}
    ratings = bradley_terry_elo(synthetic(truth, 1000), resamples=0)
    assert [r.agent for r in ratings] == ["c", "b", "a", "random"]


def test_a_draw_counts_half_a_win_each_way():
    drawn = by_agent(bradley_terry_elo([("random", "x", 0, 100, 0)], resamples=0))
    assert drawn["x"].elo == pytest.approx(0.0, abs=1e-6)
    # 50 wins, 50 draws and no losses score 75%, like 75 wins and 25 losses.
    mixed = by_agent(bradley_terry_elo([("x", "random", 50, 50, 0)], resamples=0))
    plain = by_agent(bradley_terry_elo([("x", "random", 75, 0, 25)], resamples=0))
    assert mixed["x"].elo == pytest.approx(plain["x"].elo, abs=1e-6)


def test_a_perfect_score_stays_finite_through_the_prior():
    # 10-0 reads as 10.5 out of 11 with the one virtual draw.
    ratings = by_agent(bradley_terry_elo([("x", "random", 10, 0, 0)]))
    assert ratings["x"].elo == pytest.approx(elo_gap(10.5 / 11), abs=0.01)  # +528.9
    assert all(math.isfinite(value) for value in ratings["x"].ci95)


def test_a_perfect_round_robin_orders_agents_and_stays_finite():
    pairs = [("c", "b", 10, 0, 0), ("c", "a", 10, 0, 0), ("b", "a", 10, 0, 0)]
    ratings = bradley_terry_elo(pairs)
    assert [r.agent for r in ratings] == ["c", "b", "a"]
    assert all(math.isfinite(r.elo) and abs(r.elo) < 1500 for r in ratings)


def test_the_interval_holds_the_estimate_and_narrows_with_more_games():
    small = by_agent(bradley_terry_elo([("x", "random", 15, 0, 5)]))["x"]
    large = by_agent(bradley_terry_elo([("x", "random", 1500, 0, 500)]))["x"]
    for rating in (small, large):
        assert rating.ci95[0] < rating.elo < rating.ci95[1]
    assert large.ci95[1] - large.ci95[0] < (small.ci95[1] - small.ci95[0]) / 5


def test_the_bootstrap_is_seeded():
    pairs = [("a", "random", 12, 3, 5), ("a", "b", 6, 2, 12), ("b", "random", 9, 9, 2)]
    assert bradley_terry_elo(pairs, seed=4) == bradley_terry_elo(pairs, seed=4)


def test_pairs_given_in_both_orders_add_up():
    once = by_agent(bradley_terry_elo([("x", "random", 60, 0, 40)], resamples=0))
    split = by_agent(bradley_terry_elo([("x", "random", 30, 0, 20), ("random", "x", 20, 0, 30)],
                                       resamples=0))
    assert split["x"].elo == pytest.approx(once["x"].elo, abs=1e-6)


def test_an_agent_named_in_agents_but_absent_from_results_is_rejected():
    with pytest.raises(ValueError, match="'z'"):
        bradley_terry_elo([("x", "z", 1, 0, 0)], agents=["x", "random"])


def test_unreadable_results_are_a_type_error():
    with pytest.raises(TypeError, match="a_wins"):
        bradley_terry_elo([{"a": "x"}])

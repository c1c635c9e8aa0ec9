"""Bradley-Terry Elo: known strengths come back, `random` anchors at 0, 100% stays finite, and
the profile-likelihood intervals are honest: wide at a sweep, about 95% coverage."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boardlab.arena.ratings import (CHI2_95, PairCounts, Rating, bradley_terry_elo,
                                    elo_gap, expected_score)


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
    ratings = bradley_terry_elo([("a", "b", 60, 0, 40), ("b", "c", 70, 0, 30)], intervals=False)
    assert sum(r.elo for r in ratings) == pytest.approx(0.0, abs=1e-6)


def test_known_strengths_are_recovered():
    truth = {"random": 0.0, "greedy": 150.0, "minimax": 400.0, "mcts": 650.0}
    ratings = by_agent(bradley_terry_elo(synthetic(truth, 20000), intervals=False))
    for agent, elo in truth.items():
        assert ratings[agent].elo == pytest.approx(elo, abs=2.0)


def test_ratings_come_strongest_first():
    truth = {"random": 0.0, "c": 300.0, "b": 200.0, "a": 100.0}
    ratings = bradley_terry_elo(synthetic(truth, 1000), intervals=False)
    assert [r.agent for r in ratings] == ["c", "b", "a", "random"]


def test_a_draw_counts_half_a_win_each_way():
    drawn = by_agent(bradley_terry_elo([("random", "x", 0, 100, 0)], intervals=False))
    assert drawn["x"].elo == pytest.approx(0.0, abs=1e-6)
    # 50 wins, 50 draws and no losses score 75%, like 75 wins and 25 losses.
    mixed = by_agent(bradley_terry_elo([("x", "random", 50, 50, 0)], intervals=False))
    plain = by_agent(bradley_terry_elo([("x", "random", 75, 0, 25)], intervals=False))
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


def test_a_sweep_is_at_least_as_uncertain_as_a_three_one_result():
    """4-0 once printed +382 [+382, +382]: every bootstrap resample of a sweep is a sweep."""
    sweep = by_agent(bradley_terry_elo([("x", "random", 4, 0, 0)]))["x"]
    three_one = by_agent(bradley_terry_elo([("x", "random", 3, 0, 1)]))["x"]
    assert sweep.ci95[1] - sweep.ci95[0] >= three_one.ci95[1] - three_one.ci95[0]
    assert sweep.ci95[0] < 0.0  # four games cannot tell +382 from no edge at all
    assert sweep.ci95[1] > sweep.elo + 500  # the long side: a sweep says little about how big


def test_the_interval_is_the_likelihood_ratio_bound():
    """At each end the deviance, the other ratings refitted, is chi-square(1)'s 3.84."""
    low, high = by_agent(bradley_terry_elo([("x", "random", 14, 2, 4)]))["x"].ci95
    wins = 14 + 1 + 0.5  # draws and the prior's virtual draw count half each way

    def deviance(elo: float) -> float:
        def log_likelihood(p: float) -> float:
            return wins * math.log(p) + (21 - wins) * math.log(1 - p)
        return 2 * (log_likelihood(wins / 21) - log_likelihood(expected_score(elo)))

    assert deviance(low) == pytest.approx(CHI2_95, abs=1e-3)
    assert deviance(high) == pytest.approx(CHI2_95, abs=1e-3)


def test_intervals_cover_known_strengths_about_95_percent_of_the_time():
    """200 simulated round robins of 20 games a pair among agents of known Elo: the share of
    intervals holding the true Elo (relative to `random`) is near 0.95."""
    truth = {"random": 0.0, "a": 100.0, "b": 250.0, "c": -50.0}
    rng = np.random.default_rng(1)
    names = list(truth)
    covered = checked = 0
    for _ in range(200):
        pairs = []
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                wins = int(rng.binomial(20, expected_score(truth[a] - truth[b])))
                pairs.append((a, b, wins, 0, 20 - wins))
        for rating in bradley_terry_elo(pairs):
            if rating.agent != "random":
                checked += 1
                covered += rating.ci95[0] <= truth[rating.agent] <= rating.ci95[1]
    assert 0.92 <= covered / checked <= 0.98


def test_pairs_given_in_both_orders_add_up():
    once = by_agent(bradley_terry_elo([("x", "random", 60, 0, 40)], intervals=False))
    split = by_agent(bradley_terry_elo([("x", "random", 30, 0, 20), ("random", "x", 20, 0, 30)],
                                       intervals=False))
    assert split["x"].elo == pytest.approx(once["x"].elo, abs=1e-6)


def test_an_agent_named_in_agents_but_absent_from_results_is_rejected():
    with pytest.raises(ValueError, match="'z'"):
        bradley_terry_elo([("x", "z", 1, 0, 0)], agents=["x", "random"])


def test_unreadable_results_are_a_type_error():
    with pytest.raises(TypeError, match="a_wins"):
        bradley_terry_elo([{"a": "x"}])

"""Elo ratings from a round robin: a Bradley-Terry fit with profile-likelihood intervals.

The model (Bradley & Terry 1952; Elo's scale): agent i beats agent j with probability
    P(i beats j) = 1 / (1 + 10 ** ((elo_j - elo_i) / 400)),
so a 75% score is a gap of 400*log10(3) = +190.8 Elo.

Choices, each stated once:
- Draws count as half a win each way (the "two half games" reading), so an agent's data
  against another is its score, wins + draws/2, out of the games played. This keeps the fit
  consistent with the `a_score` column of the tables.
- Prior: every pair that played also counts one virtual draw (half a win each way), as
  BayesElo's prior does. A 100% score then gives a large but finite gap (10-0 reads as
  10.5/11, +529 Elo; 200-0 as +1041) instead of diverging; on real data it moves ratings by a
  fraction of the game count's noise. The fit maximizes this penalized likelihood.
- Fit: Newton's method with a backtracking line search on the log-likelihood, which is
  concave, so it reaches the unique maximum for any connected comparison graph (the prior
  makes every played pair two-way).
- Anchor: the agent spelled exactly `random` has Elo 0 when present, else the mean is 0.
- 95% intervals: profile likelihood (the likelihood-ratio interval, as Ordo and BayesElo give
  likelihood-based ones). An agent's interval holds every value of its Elo minus the anchor's
  (or minus the mean) whose best fit, all other ratings refitted, is within chi-square(1)
  95% = 3.84 of the best fit's deviance. It is asymmetric where the data are (a sweep leaves
  the upper side long), never collapses, and covers the true Elo in about 95% of simulated
  tournaments (tests/arena/test_arena_ratings.py). The bootstrap it replaces resampled games
  and gave a sweep a zero-width interval, since every resample of 4-0 is 4-0.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple

import numpy as np

ANCHOR = "random"
"""The agent pinned at Elo 0 when it takes part."""

PRIOR_DRAWS = 1.0
"""Virtual drawn games added to every pair that played (see the module docstring)."""

ELO_SCALE = 400.0 / math.log(10.0)
"""Elo per natural-log unit of Bradley-Terry strength."""


@dataclass(frozen=True)
class Rating:
    agent: str
    elo: float
    ci95: tuple[float, float]


class PairCounts(NamedTuple):
    """The results of a against b: a's wins, draws, b's wins."""

    a: str
    b: str
    a_wins: int
    draws: int
    b_wins: int


def elo_gap(score: float) -> float:
    """The Elo difference at which the stronger side's expected score is `score` (0 < s < 1)."""
    return 400.0 * math.log10(score / (1.0 - score))


def expected_score(gap: float) -> float:
    """The expected score of a side `gap` Elo above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-gap / 400.0))


CHI2_95 = 3.841458820694124
"""The 95% point of chi-square with one degree of freedom: the interval's deviance bound."""


def bradley_terry_elo(results: Iterable[Any], agents: Collection[str] | None = None,
                      intervals: bool = True, prior_draws: float = PRIOR_DRAWS) -> list[Rating]:
    """Ratings, strongest first, from pair results.

    `results`: PairCounts, or any objects with attributes a, b, a_wins, draws, b_wins (such as
    a tournament's pairs), or (a, b, a_wins, draws, b_wins) tuples. The same pair may appear
    more than once (both orders too); counts add up. `agents` fixes the set and tie order
    (default: order of first appearance). `intervals=False` gives intervals of (elo, elo).
    """
    pairs = [_as_counts(item) for item in results]
    names = list(agents) if agents is not None else []
    for pair in pairs:
        for name in (pair.a, pair.b):
            if name not in names:
                if agents is not None:
                    raise ValueError(f"results name agent {name!r}, which is not in {names}")
                names.append(name)
    if not names:
        return []
    index = {name: i for i, name in enumerate(names)}
    score = np.zeros((len(names), len(names)))
    for p in pairs:  # score[i, j]: i's points against j, draws halved
        score[index[p.a], index[p.b]] += p.a_wins + 0.5 * p.draws
        score[index[p.b], index[p.a]] += p.b_wins + 0.5 * p.draws
    played = (score + score.T) > 0
    score += 0.5 * prior_draws * played
    anchor = index.get(ANCHOR)

    theta, best = _maximize(score, np.zeros(len(names)))
    elo = ELO_SCALE * (theta - (theta[anchor] if anchor is not None else theta.mean()))
    ratings = []
    for i, name in enumerate(names):
        low = high = float(elo[i])
        if intervals and i != anchor and played[i].any():
            contrast = -np.full(len(names), 1.0 / len(names)) if anchor is None else \
                -np.eye(len(names))[anchor]
            contrast[i] += 1.0
            low, high = (ELO_SCALE * bound for bound in
                         _profile_interval(score, theta, best, contrast))
        ratings.append(Rating(name, float(elo[i]), (low, high)))
    # Stable sort: equal ratings keep the agents' given order.
    return sorted(ratings, key=lambda rating: -rating.elo)


def _as_counts(item: Any) -> PairCounts:
    if isinstance(item, PairCounts):
        return item
    if isinstance(item, tuple) and len(item) == 5:
        return PairCounts(*item)
    try:
        return PairCounts(item.a, item.b, item.a_wins, item.draws, item.b_wins)
    except AttributeError:
        raise TypeError(f"cannot read pair results from {item!r}: give a, b, a_wins, draws, "
                        "b_wins") from None


def _log_likelihood(score: np.ndarray, theta: np.ndarray) -> float:
    gap = theta[:, None] - theta[None, :]
    return float(-(score * np.logaddexp(0.0, -gap)).sum())


def _maximize(score: np.ndarray, theta: np.ndarray, contrast: np.ndarray | None = None,
              tolerance: float = 1e-9, max_iterations: int = 200) -> tuple[np.ndarray, float]:
    """The strengths (natural-log units) maximizing the Bradley-Terry log-likelihood of
    `score`, and that maximum: Newton's method with a backtracking line search, from `theta`.
    With `contrast`, only steps that keep `contrast @ theta` as it is in `theta` are taken (the
    profile likelihood's constrained fit)."""
    n = len(theta)
    games = score + score.T
    total = score.sum(axis=1)
    # The likelihood fixes only differences: the ones-direction term pins the mean, and a tiny
    # ridge pins each part of a disconnected comparison graph (or an agent with no games).
    pin = np.ones((n, n)) / n + 1e-9 * np.eye(n)
    # Steps move in the directions orthogonal to `contrast` (all directions without one).
    basis = np.eye(n) if contrast is None else \
        np.linalg.svd(contrast[None, :])[2][1:].T
    current = _log_likelihood(score, theta)
    for _ in range(max_iterations):
        win = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
        gradient = total - (games * win).sum(axis=1)
        curvature = games * win * (1.0 - win)
        information = np.diag(curvature.sum(axis=1)) - curvature + pin
        step = basis @ np.linalg.solve(basis.T @ information @ basis, basis.T @ gradient)
        size = 1.0
        while True:  # halve the step until the likelihood rises (Newton may overshoot)
            trial = theta + size * step
            value = _log_likelihood(score, trial)
            if value >= current or size < 1e-6:
                break
            size /= 2
        theta, current = trial, value
        if np.abs(size * step).max() < tolerance:
            break
    return theta, current


def _profile_interval(score: np.ndarray, theta: np.ndarray, best: float,
                      contrast: np.ndarray) -> tuple[float, float]:
    """(low, high) of `contrast @ theta` where the profile deviance 2 (best - max likelihood
    with the contrast held there) is at most CHI2_95: each side bracketed by doubling steps,
    then bisected to a hundredth of an Elo point."""
    centre = float(contrast @ theta)
    along = contrast / (contrast @ contrast)  # moves the contrast by 1, nothing else

    def excess(value: float) -> float:
        """Deviance past the bound at contrast = value (negative inside the interval)."""
        fitted, top = _maximize(score, theta + (value - centre) * along, contrast)
        return 2.0 * (best - top) - CHI2_95

    bounds = []
    for side in (-1.0, 1.0):
        inside, step = centre, 0.5
        outside = centre + side * step
        while excess(outside) < 0.0 and step < 1e3:  # the prior keeps every bound finite
            inside, step = outside, 2.0 * step
            outside = centre + side * step
        while abs(outside - inside) > 0.01 / ELO_SCALE:
            middle = 0.5 * (inside + outside)
            inside, outside = (middle, outside) if excess(middle) < 0.0 else (inside, middle)
        bounds.append(0.5 * (inside + outside))
    return bounds[0], bounds[1]

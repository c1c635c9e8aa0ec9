"""Elo ratings from a round robin: a maximum-likelihood Bradley-Terry fit with bootstrap CIs.

The model (Bradley & Terry 1952; Elo's scale): agent i beats agent j with probability
    P(i beats j) = 1 / (1 + 10 ** ((elo_j - elo_i) / 400)),
so a 75% score is a gap of 400*log10(3) = +190.8 Elo.

Choices, each stated once:
- Draws count as half a win each way (the "two half games" reading), so an agent's data
  against another is its score, wins + draws/2, out of the games played. This keeps the fit
  consistent with the `a_score` column of the tables.
- Prior: every pair that played also counts one virtual draw (half a win each way). A 100%
  score then gives a large but finite gap (10-0 reads as 10.5/11, +529 Elo; 200-0 as +1041)
  instead of diverging; on real data it moves ratings by a fraction of the game count's noise.
- Fit: Newton's method with a backtracking line search on the log-likelihood, which is
  concave, so it reaches the unique maximum for any connected comparison graph (the prior
  makes every played pair two-way); a few iterations, so the bootstrap stays cheap.
- Anchor: the agent spelled exactly `random` has Elo 0 when present, else the mean is 0.
- 95% intervals: a bootstrap over games, stratified by pair (each pair's games are resampled
  with replacement, `resamples` times, seeded), refitted and re-anchored; the 2.5th and 97.5th
  percentiles. The anchor's own interval is (0, 0) by construction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple, Sequence

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


def bradley_terry_elo(results: Iterable[Any], agents: Sequence[str] | None = None,
                      resamples: int = 200, seed: int = 0,
                      prior_draws: float = PRIOR_DRAWS) -> list[Rating]:
    """Ratings, strongest first, from pair results.

    `results`: PairCounts, or any objects with attributes a, b, a_wins, draws, b_wins (such as
    a tournament's pairs), or (a, b, a_wins, draws, b_wins) tuples. The same pair may appear
    more than once (both orders too); counts add up. `agents` fixes the set and tie order
    (default: order of first appearance). `resamples=0` gives intervals of (elo, elo).
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
    ia = np.array([index[p.a] for p in pairs], dtype=np.int64)
    ib = np.array([index[p.b] for p in pairs], dtype=np.int64)
    counts = np.array([(p.a_wins, p.draws, p.b_wins) for p in pairs],
                      dtype=np.float64).reshape(-1, 3)
    anchor = index.get(ANCHOR)

    elo = _fit(len(names), ia, ib, counts, prior_draws, anchor)
    if resamples > 0 and len(pairs):
        rng = np.random.default_rng(seed)
        samples = np.empty((resamples, len(names)))
        games = counts.sum(axis=1).astype(np.int64)
        shares = np.divide(counts, games[:, None], out=np.full_like(counts, 1 / 3),
                           where=games[:, None] > 0)
        for r in range(resamples):
            drawn = np.array([rng.multinomial(n, p) for n, p in zip(games, shares)],
                             dtype=np.float64).reshape(-1, 3)
            samples[r] = _fit(len(names), ia, ib, drawn, prior_draws, anchor)
        low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    else:
        low, high = elo, elo
    ratings = [Rating(name, float(elo[i]), (float(low[i]), float(high[i])))
               for i, name in enumerate(names)]
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


def _fit(n: int, ia: np.ndarray, ib: np.ndarray, counts: np.ndarray, prior_draws: float,
         anchor: int | None, tolerance: float = 1e-9, max_iterations: int = 200) -> np.ndarray:
    """Maximum-likelihood Elo: Newton's method with a backtracking line search on the
    (concave) Bradley-Terry log-likelihood in natural-log strengths theta = elo / scale."""
    # score[i, j]: i's points against j, draws halved, plus the prior's half point.
    score = np.zeros((n, n))
    np.add.at(score, (ia, ib), counts[:, 0] + 0.5 * counts[:, 1])
    np.add.at(score, (ib, ia), counts[:, 2] + 0.5 * counts[:, 1])
    played = (score + score.T) > 0
    score += 0.5 * prior_draws * played
    games = score + score.T
    total = score.sum(axis=1)
    # The likelihood fixes only differences: the ones-direction term pins the mean, and a tiny
    # ridge pins each part of a disconnected comparison graph (or an agent with no games).
    pin = np.ones((n, n)) / n + 1e-9 * np.eye(n)

    def log_likelihood(theta: np.ndarray) -> float:
        gap = theta[:, None] - theta[None, :]
        return float(-(score * np.logaddexp(0.0, -gap)).sum())

    theta = np.zeros(n)
    current = log_likelihood(theta)
    for _ in range(max_iterations):
        win = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
        gradient = total - (games * win).sum(axis=1)
        curvature = games * win * (1.0 - win)
        information = np.diag(curvature.sum(axis=1)) - curvature
        step = np.linalg.solve(information + pin, gradient)
        size = 1.0
        while True:  # halve the step until the likelihood rises (Newton may overshoot)
            trial = theta + size * step
            value = log_likelihood(trial)
            if value >= current or size < 1e-6:
                break
            size /= 2
        theta, current = trial, value
        if np.abs(size * step).max() < tolerance:
            break
    elo = ELO_SCALE * (theta - theta.mean())
    return elo - (elo[anchor] if anchor is not None else elo.mean())

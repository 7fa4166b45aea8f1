r"""Anytime-valid intervals for mid-quantiles, and for the difference of two runs' mid-quantiles.

Howard and Ramdas, "Sequential estimation of quantiles with applications to A/B-testing and
best-arm identification" (Bernoulli 28(3), 2022; arXiv 1906.09712), Theorem 2: for i.i.d.
draws with any CDF F and its empirical CDF F_t after t draws,

    P( exists t >= m: sup_x |F_t(x) - F(x)| > eps_t ) <= alpha,
    eps_t = A sqrt( (log(1 + log(t / m)) + C) / t ),

a time-uniform Dvoretzky-Kiefer-Wolfowitz band (A = 0.85; C solves the theorem's crossing
bound 4 exp(-g C)(1 + 1 / ((g - 1) log eta)) = alpha, g = 2/eta (A - sqrt(2 (eta - 1) / C))^2,
minimised over eta > 1). It holds at every look, so the run may stop as soon as it decides.

Mid-quantile bounds inside the band (F(x) and F(x-) both within eps of the sample's):

- always valid: Q(q) >= the largest seen value x with F_t(x) + eps < q (then m(x) <= F(x) < q)
  and Q(q) <= the smallest seen x with F_t(x-) - eps > q;
- tighter, when the values are whole numbers and every whole number between those two
  bounds has been seen (so they are all the support there): the mid-distribution is then
  within eps of the sample's at every support point, and Q(q) lies between the sample
  mid-quantiles at q - eps and q + eps.

A difference b - a: each run's bound at alpha / 2, combined as [low_b - high_a, high_b - low_a]
(a union bound: valid at level alpha whatever the dependence between the runs, and
conservative, since it does not use the pairing).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import optimize

from uno_stats.analysis.quantiles import mid_quantile

DKW_A = 0.85


def _crossing(c: float, a: float) -> float:
    """Theorem 2's bound on the probability of ever leaving the band, minimised over eta."""

    def bound(eta: float) -> float:
        root = a - math.sqrt(2 * (eta - 1) / c)
        g = 2 / eta * root * root
        if root <= 0 or g <= 1:
            return math.inf
        return 4 * math.exp(-g * c) * (1 + 1 / ((g - 1) * math.log(eta)))

    top = 1 + c * a * a / 2  # beyond it the root is negative
    grid = 1 + (top - 1) * np.arange(1, 2000) / 2000
    values = [bound(float(eta)) for eta in grid]
    best = int(np.argmin(values))
    if not math.isfinite(values[best]):
        return math.inf
    lo, hi = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    res = optimize.minimize_scalar(bound, bounds=(float(lo), float(hi)), method="bounded")
    return float(min(res.fun, values[best]))


@functools.lru_cache(maxsize=32)
def dkw_constant(alpha: float, a: float = DKW_A) -> float:
    """The smallest C whose crossing probability is at most ``alpha`` (bisection)."""
    low, high = 0.5, 500.0
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if _crossing(mid, a) > alpha else (low, mid)
    return high


def dkw_radius(t: float, alpha: float, t_min: float, a: float = DKW_A) -> float:
    """The band's half-width eps_t after ``t`` draws (valid from ``t_min`` draws on)."""
    if t < t_min or t <= 0:
        return math.inf
    return a * math.sqrt((math.log(1 + math.log(t / t_min)) + dkw_constant(alpha, a)) / t)


def mid_quantile_bounds(
    values: np.ndarray, counts: np.ndarray, q: float, eps: float
) -> tuple[float, float]:
    """Bounds on the ``q`` mid-quantile valid whenever the CDF lies within ``eps`` of the
    sample's (see the module doc); infinite where the band allows any value."""
    values = np.asarray(values, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum()
    cdf = np.cumsum(counts) / n
    below = cdf - counts / n  # F_t(x-)
    low_ok = np.flatnonzero(cdf + eps < q)
    high_ok = np.flatnonzero(below - eps > q)
    low = float(values[low_ok[-1]]) if low_ok.size else -math.inf
    high = float(values[high_ok[0]]) if high_ok.size else math.inf
    whole = bool(np.all(values == np.round(values)))
    if whole and math.isfinite(low) and math.isfinite(high):
        inside = values[(values >= low) & (values <= high)]
        if inside.size == high - low + 1:  # every whole number between the bounds was seen
            low = max(low, mid_quantile(values, counts, max(q - eps, 0.0)))
            high = min(high, mid_quantile(values, counts, min(q + eps, 1.0)))
    return low, high


class RunningCounts:
    """Distinct values seen so far in a stream and how often each was seen."""

    def __init__(self) -> None:
        self.values = np.zeros(0)
        self.counts = np.zeros(0, dtype=np.int64)

    @property
    def n(self) -> int:
        """Values seen so far."""
        return int(self.counts.sum())

    def update(self, batch: np.ndarray) -> None:
        """Add a batch of observations."""
        new, k = np.unique(np.asarray(batch, dtype=np.float64), return_counts=True)
        merged, index = np.unique(np.concatenate([self.values, new]), return_inverse=True)
        weights = np.concatenate([self.counts, k]).astype(np.float64)
        self.values = merged
        self.counts = np.bincount(index, weights=weights, minlength=merged.size).astype(np.int64)


def difference_bounds(
    a: RunningCounts, b: RunningCounts, q: float, alpha: float, t_min: float
) -> tuple[float, float, float]:
    """(estimate, low, high) of mid-quantile b - mid-quantile a: each run's time-uniform
    bound at ``alpha / 2`` (union bound, so (1 - alpha) for the difference at every look)."""
    est = mid_quantile(b.values, b.counts, q) - mid_quantile(a.values, a.counts, q)
    la, ha = mid_quantile_bounds(a.values, a.counts, q, dkw_radius(a.n, alpha / 2, t_min))
    lb, hb = mid_quantile_bounds(b.values, b.counts, q, dkw_radius(b.n, alpha / 2, t_min))
    return est, lb - ha, hb - la

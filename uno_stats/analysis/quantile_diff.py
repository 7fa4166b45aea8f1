"""Quantile difference between two runs, independent or paired: bootstrap SE, normal interval.

The quantiles are mid-quantiles (:mod:`uno_stats.analysis.quantiles`). Independent runs:
each run's mid-quantile is bootstrapped on its own
(:func:`uno_stats.analysis.quantiles.bootstrap_quantiles`) and the replicates subtracted.

Paired runs: game indices are resampled, so a resample keeps game k of both runs together.
Drawn exactly but cheaply: the n pairs (a_k, b_k) of small integers have K << n distinct
values, so a resample holds each distinct pair a Multinomial(n, counts / n) number of times
(O(resamples x K) instead of O(resamples x n)); each run's resampled quantile then comes
from the marginal counts. With continuous data (K close to n) it is the same draw.

Interval: d +- z x SE, d = q_b - q_a observed and SE the standard deviation of the
replicates of q_b - q_a; p-value: 2 (1 - Phi(|d| / SE)), so p < alpha exactly when the
(1 - alpha) interval excludes zero. Reading: the percentile interval (the earlier method)
covered 97-98% for paired runs, since the bootstrap distribution is centred on a smoother
(bagged) estimate than the one shown; centring on the estimate itself keeps 95% (measured
coverage in ``docs/METHODS.md``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy import special

from uno_stats.analysis.estimates import BOOTSTRAP_RESAMPLES, LEVEL, normal_interval
from uno_stats.analysis.quantiles import (
    bootstrap_quantiles,
    bootstrap_se,
    mid_quantile,
    mid_quantiles,
)

if TYPE_CHECKING:
    from scipy import sparse

_CELLS = 4_000_000  # resamples x distinct pairs drawn per batch


@dataclass(frozen=True)
class QuantileReplicates:
    """Observed quantiles of both runs and their bootstrap replicates (aligned by resample)."""

    a: float
    b: float
    reps_a: np.ndarray
    reps_b: np.ndarray

    @property
    def difference(self) -> np.ndarray:
        """Replicates of q_b - q_a."""
        return self.reps_b - self.reps_a

    @property
    def estimate(self) -> float:
        """The observed difference q_b - q_a."""
        return self.b - self.a

    @property
    def se(self) -> float:
        """Bootstrap standard error of q_b - q_a."""
        return bootstrap_se(self.difference)

    def interval(self, level: float = LEVEL) -> tuple[float, float]:
        """``d +- z x SE``: excludes 0 exactly when ``p < 1 - level``."""
        return normal_interval(self.estimate, self.se, level)

    @property
    def p(self) -> float:
        """Two-sided normal p-value of q_b - q_a = 0 (a zero SE: 1 if d = 0, else 0)."""
        d, se = self.estimate, self.se
        if not (se > 0):
            return 1.0 if d == 0 else (0.0 if math.isfinite(d) else math.nan)
        return float(2 * special.ndtr(-abs(d) / se))

    @property
    def direction(self) -> int:
        """The sign of the observed difference."""
        d = self.estimate
        return (d > 0) - (d < 0)


def independent_quantile_replicates(
    values_a: np.ndarray,
    counts_a: np.ndarray,
    values_b: np.ndarray,
    counts_b: np.ndarray,
    q: float,
    resamples: int = BOOTSTRAP_RESAMPLES,
    rng: np.random.Generator | int = 0,
) -> QuantileReplicates:
    """Bootstrap replicates of each run's ``q`` quantile, resampled independently."""
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    reps_a = bootstrap_quantiles(values_a, counts_a, [q], resamples, gen)[0]
    reps_b = bootstrap_quantiles(values_b, counts_b, [q], resamples, gen)[0]
    return QuantileReplicates(
        mid_quantile(values_a, counts_a, q),
        mid_quantile(values_b, counts_b, q),
        reps_a,
        reps_b,
    )


def _marginal(values: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, sparse.csr_matrix]:
    """Distinct values of one side and the (pairs x values) 0/1 matrix mapping pairs to them."""
    from scipy import sparse  # lazy: scipy.sparse is slow to import

    distinct, index = np.unique(values, return_inverse=True)
    k = len(values)
    onehot = sparse.csr_matrix(
        (np.ones(k), (np.arange(k), index)), shape=(k, len(distinct)), dtype=np.float64
    )
    return distinct, onehot


@dataclass(frozen=True)
class PairedResamples:
    """Paired bootstrap resamples kept as cumulative marginal counts, so every quantile of
    both runs is read from the same draws (median and p90 cost one multinomial draw)."""

    values_a: np.ndarray
    values_b: np.ndarray
    counts_a: np.ndarray
    counts_b: np.ndarray
    cum_a: np.ndarray  # (resamples, distinct values of a)
    cum_b: np.ndarray

    @property
    def n(self) -> int:
        """Pairs (games) per resample."""
        return int(self.counts_a.sum())

    def replicates(self, q: float) -> QuantileReplicates:
        """Observed ``q`` mid-quantiles of both runs and their paired bootstrap replicates."""
        return QuantileReplicates(
            mid_quantile(self.values_a, self.counts_a, q),
            mid_quantile(self.values_b, self.counts_b, q),
            mid_quantiles(self.values_a, self.cum_a, q),
            mid_quantiles(self.values_b, self.cum_b, q),
        )


def paired_resamples(
    a: np.ndarray,
    b: np.ndarray,
    counts: np.ndarray,
    resamples: int = BOOTSTRAP_RESAMPLES,
    rng: np.random.Generator | int = 0,
) -> PairedResamples:
    """Resample game indices: ``a[i], b[i]`` is a distinct pair of values (game k of each
    run) seen ``counts[i]`` times; each resample draws Multinomial(n, counts / n) of them."""
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    if n <= 0:
        raise ValueError("no pairs to bootstrap")
    va, map_a = _marginal(np.asarray(a, dtype=np.float64), counts)
    vb, map_b = _marginal(np.asarray(b, dtype=np.float64), counts)
    cum_a, cum_b = np.empty((resamples, len(va))), np.empty((resamples, len(vb)))
    probs = counts / n
    batch = max(1, _CELLS // max(1, len(counts)))
    for start in range(0, resamples, batch):
        size = min(batch, resamples - start)
        draws = gen.multinomial(n, probs, size=size).astype(np.float64)  # (size, K)
        for onehot, out in ((map_a, cum_a), (map_b, cum_b)):
            marginal = np.asarray((onehot.T @ draws.T).T)  # (size, distinct values)
            out[start : start + size] = np.cumsum(marginal, axis=1)
    count_a = np.asarray(map_a.T @ counts).ravel().astype(np.int64)
    count_b = np.asarray(map_b.T @ counts).ravel().astype(np.int64)
    return PairedResamples(va, vb, count_a, count_b, cum_a, cum_b)


def paired_quantile_replicates(
    a: np.ndarray,
    b: np.ndarray,
    counts: np.ndarray,
    q: float,
    resamples: int = BOOTSTRAP_RESAMPLES,
    rng: np.random.Generator | int = 0,
) -> QuantileReplicates:
    """Paired bootstrap of the ``q`` quantiles of two runs from distinct pairs and their counts."""
    return paired_resamples(a, b, counts, resamples, rng).replicates(q)

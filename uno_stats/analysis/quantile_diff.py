"""Bootstrap of a quantile difference between two runs, independent or paired.

Independent runs: each run's quantile is bootstrapped on its own
(:func:`uno_stats.analysis.estimates.bootstrap_quantiles`) and the replicates subtracted.

Paired runs: game indices are resampled, so a resample keeps game k of both runs together.
Drawn exactly but cheaply: the n pairs (a_k, b_k) of small integers have K << n distinct
values, so a resample holds each distinct pair a Multinomial(n, counts / n) number of times
(O(resamples x K) instead of O(resamples x n)); each run's resampled quantile then comes
from the marginal counts. With continuous data (K close to n) it is the same draw.

Interval: percentile interval of the replicates of q_b - q_a. p-value: the inversion of
that interval, p = min(1, 2 min(P*(D <= 0), P*(D >= 0))), so p < alpha exactly when the
(1 - alpha) percentile interval excludes zero; its resolution is 1 / resamples.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from uno_stats.analysis.estimates import (
    BOOTSTRAP_RESAMPLES,
    LEVEL,
    bootstrap_quantiles,
    quantile_from_counts,
)
from uno_stats.analysis.methods import inversion_p

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

    def interval(self, level: float = LEVEL) -> tuple[float, float]:
        """Percentile interval of q_b - q_a: the k-th smallest and k-th largest replicate,
        k = ceil(R (1 - level) / 2), so it excludes 0 exactly when ``p < 1 - level``."""
        reps = np.sort(self.difference)
        k = max(1, math.ceil(len(reps) * (1 - level) / 2 - 1e-9))
        return float(reps[k - 1]), float(reps[len(reps) - k])

    @property
    def p(self) -> float:
        """Two-sided p-value by inverting the percentile interval."""
        return float(inversion_p(self.difference))

    @property
    def direction(self) -> int:
        """+1 when the bootstrap mass lies above zero, -1 below, 0 when balanced."""
        d = self.difference
        above, below = float(np.mean(d > 0)), float(np.mean(d < 0))
        return (above > below) - (below > above)


def _ranks(n: int, q: float) -> int:
    return max(1, math.ceil(q * n - 1e-9))


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
        quantile_from_counts(values_a, counts_a, q),
        quantile_from_counts(values_b, counts_b, q),
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
        """Observed ``q`` quantiles of both runs and their paired bootstrap replicates."""
        rank = _ranks(self.n, q)
        return QuantileReplicates(
            quantile_from_counts(self.values_a, self.counts_a, q),
            quantile_from_counts(self.values_b, self.counts_b, q),
            self.values_a[(self.cum_a >= rank).argmax(axis=1)],
            self.values_b[(self.cum_b >= rank).argmax(axis=1)],
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

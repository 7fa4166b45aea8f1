"""Quantiles as mid-quantiles, with bootstrap standard errors and normal intervals.

Estimand. The ``q`` quantile shown everywhere is Parzen's *mid-quantile*: with distinct
values x_1 < ... < x_K holding shares p_1..p_K, the mid-distribution at x_i is
m_i = F(x_i) - p_i / 2, and the mid-quantile Q(q) interpolates linearly between the points
(m_i, x_i) (x_1 below m_1, x_K above m_K). Without ties it is the Hazen quantile
(numpy ``method="hazen"``); for whole numbers with ties, such as turns per round, it lies
between two neighbouring values in proportion to where q falls between their
mid-distributions. Reading (the issue asks for 95% +- 2% coverage on data with ties): the
inverted-CDF quantile of whole numbers is a whole number that the sample hits exactly with
probability tending to 1, so no interval can have a stated coverage for it; the sample
mid-quantile is asymptotically normal for discrete laws (Ma, Genton and Parzen 2011) and
equals the ordinary quantile for continuous ones.

Interval. ``estimate +- z x SE``, SE the standard deviation of bootstrap replicates of the
mid-quantile (rows resampled; drawn as Multinomial(n, counts / n) over the distinct values,
O(resamples x distinct values)). Measured coverage is in ``docs/METHODS.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from uno_stats.analysis.estimates import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    LEVEL,
    Estimate,
    normal_interval,
)

CELLS = 4_000_000
"""Resamples x distinct values drawn per batch (memory bound of the bootstrap)."""


def mid_quantiles(values: np.ndarray, cum: np.ndarray, q: float) -> np.ndarray:
    """The ``q`` mid-quantile of each row of cumulative counts ``cum`` (rows, distinct values).

    ``values`` ascending; a value with count 0 in a row is not part of that row's sample.
    """
    cum = np.asarray(cum, dtype=np.float64)
    counts = np.diff(cum, axis=-1, prepend=0.0)
    n = cum[..., -1:]
    with np.errstate(invalid="ignore", divide="ignore"):
        mid = (cum - counts / 2) / n
    seen = counts > 0
    at_or_above = np.where(seen, mid, -np.inf) >= q
    below = np.where(seen, mid, np.inf) < q
    hi = at_or_above.argmax(axis=-1)
    lo = cum.shape[-1] - 1 - below[..., ::-1].argmax(axis=-1)
    m_lo = np.take_along_axis(mid, lo[..., None], axis=-1)[..., 0]
    m_hi = np.take_along_axis(mid, hi[..., None], axis=-1)[..., 0]
    v_lo, v_hi = values[lo], values[hi]
    with np.errstate(invalid="ignore", divide="ignore"):
        weight = np.where(m_hi > m_lo, (q - m_lo) / (m_hi - m_lo), 0.0)
    out = v_lo + weight * (v_hi - v_lo)
    out = np.where(below.any(axis=-1), out, v_hi)  # q at or below the first mid-distribution
    return np.where(at_or_above.any(axis=-1), out, v_lo)  # q above the last one


def mid_quantile(values: np.ndarray, counts: np.ndarray, q: float) -> float:
    """The ``q`` mid-quantile of a sample given as ascending distinct values and counts."""
    cum = np.cumsum(np.asarray(counts, dtype=np.float64))
    return float(mid_quantiles(np.asarray(values, dtype=np.float64), cum[None, :], q)[0])


def bootstrap_quantiles(
    values: np.ndarray,
    counts: np.ndarray,
    qs: Sequence[float],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int | np.random.Generator = BOOTSTRAP_SEED,
) -> np.ndarray:
    """Bootstrap replicates of each mid-quantile in ``qs``: shape (len(qs), resamples).

    The ordinary bootstrap of all n rows: a resample holds each distinct value a
    Multinomial(n, counts / n) number of times (exactly the law of n rows drawn with
    replacement), so the cost is O(resamples x distinct values) whatever n is.
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    values = np.asarray(values, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    out = np.empty((len(qs), resamples))
    probs = counts / n
    batch = max(1, CELLS // max(1, len(values)))
    for start in range(0, resamples, batch):
        size = min(batch, resamples - start)
        cum = np.cumsum(rng.multinomial(n, probs, size=size), axis=1).astype(np.float64)
        for i, q in enumerate(qs):
            out[i, start : start + size] = mid_quantiles(values, cum, q)
    return out


def bootstrap_se(replicates: np.ndarray) -> float:
    """Standard error from bootstrap replicates (their standard deviation, NaN ones dropped)."""
    finite = replicates[np.isfinite(replicates)]
    return float(np.std(finite, ddof=1)) if finite.size > 1 else math.nan


def quantile_estimates(
    values: np.ndarray,
    counts: np.ndarray,
    qs: Sequence[float],
    level: float = LEVEL,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> list[Estimate]:
    """Each mid-quantile in ``qs`` with its normal interval from a bootstrap SE."""
    values = np.asarray(values, dtype=np.float64)
    n = int(np.sum(counts))
    if n == 0:
        return [Estimate(math.nan, math.nan, math.nan, 0) for _ in qs]
    reps = bootstrap_quantiles(values, counts, qs, resamples, seed)
    out = []
    for q, row in zip(qs, reps, strict=True):
        value = mid_quantile(values, counts, q)
        out.append(Estimate(value, *normal_interval(value, bootstrap_se(row), level), n))
    return out

"""Interval and test primitives shared by :mod:`uno_stats.analysis.questions` and
:mod:`uno_stats.analysis.compare`.

Everything here works on numbers that polars has already aggregated (counts, means,
standard deviations, value counts); nothing loops over rounds. Critical values and
p-values come from ``scipy.special`` (the functions ``scipy.stats`` calls, with the same
results; importing ``scipy.stats`` costs about 1 s, which a 2,000-round run cannot afford).

Quantiles (mid-quantiles with bootstrap-SE intervals) are in
:mod:`uno_stats.analysis.quantiles`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import special

from uno_stats.engine.schema import STATUS_NAMES
from uno_stats.errors import ResultsError

LEVEL = 0.95
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20260

STATUS_CODES: dict[int, str] = dict(enumerate(STATUS_NAMES))


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% interval and the sample size behind it."""

    value: float
    low: float
    high: float
    n: int


# --- polars helpers -------------------------------------------------------------------------


def status_expr(lf: pl.LazyFrame) -> pl.Expr:
    """``status`` as a string expression, whether stored as a name (``won``, ``void``,
    ``capped``, ``exhausted``) or as its code 0-3."""
    dtype = lf.collect_schema().get("status")
    if dtype is None:
        raise ResultsError("results have no status column")
    if dtype.is_integer():
        return pl.col("status").replace_strict(STATUS_CODES, return_dtype=pl.String)
    return pl.col("status").cast(pl.String)


def won_rounds(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Only the rounds somebody won by going out (void and capped rounds have no winner; an
    exhausted round's fewest-cards winner did not go out and is not counted either)."""
    return lf.filter(status_expr(lf) == "won")


def has_column(lf: pl.LazyFrame, name: str) -> bool:
    """Whether ``lf`` has the column ``name``."""
    return name in lf.collect_schema().names()


def has_matches(lf: pl.LazyFrame) -> bool:
    """Whether any row carries a finished match (``match_rounds`` not null)."""
    if not has_column(lf, "match_rounds"):
        return False
    return bool(lf.select(pl.col("match_rounds").is_not_null().any()).collect().item())


def value_counts(lf: pl.LazyFrame, column: str) -> tuple[np.ndarray, np.ndarray]:
    """Distinct non-null values of ``column`` (ascending) and how often each occurs."""
    df = (
        lf.select(pl.col(column).drop_nulls().alias("v"))
        .group_by("v")
        .agg(pl.len().alias("k"))
        .sort("v")
        .collect()
    )
    return df["v"].to_numpy().astype(np.float64), df["k"].to_numpy().astype(np.int64)


def row_slices(lf: pl.LazyFrame, size: int) -> Iterator[pl.LazyFrame]:
    """``lf`` cut into consecutive slices of ``size`` rows, each to be collected on its own.

    A slice of a scan reads only the parts (row groups) it covers, so a loop that reduces
    each collected slice holds one slice at a time, whatever the rows; ``collect_batches``
    reads ahead of a slow consumer and can hold a whole run.
    """
    rows = int(lf.select(pl.len()).collect().item())
    for start in range(0, rows, size):
        yield lf.slice(start, size)


def require_rows(n: int, what: str) -> None:
    """Raise :class:`ResultsError` when an aggregation saw no rows."""
    if n <= 0:
        raise ResultsError(f"no {what} in these results (empty results?)")


# --- intervals ------------------------------------------------------------------------------


def z_value(level: float = LEVEL) -> float:
    """The two-sided normal critical value for ``level``."""
    return float(special.ndtri(0.5 + level / 2))  # = scipy.stats.norm.ppf


def wilson(
    successes: np.ndarray | int, n: np.ndarray | int, level: float = LEVEL
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wilson score interval (no continuity correction), vectorised; n = 0 gives NaN.

    Identical to ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``.
    """
    x = np.asarray(successes, dtype=np.float64)
    m = np.asarray(n, dtype=np.float64)
    z = z_value(level)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / m
        denom = 1 + z * z / m
        centre = (p + z * z / (2 * m)) / denom
        half = z * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / denom
    low = np.clip(centre - half, 0.0, 1.0)
    high = np.clip(centre + half, 0.0, 1.0)
    return p, low, high


def proportion(successes: int, n: int, level: float = LEVEL) -> Estimate:
    """A proportion with its Wilson interval."""
    p, low, high = wilson(successes, n, level)
    return Estimate(float(p), float(low), float(high), int(n))


def proportions(successes: np.ndarray, n: np.ndarray | int) -> tuple[Estimate, ...]:
    """One Wilson :class:`Estimate` per entry of ``successes`` (``n`` scalar or per entry)."""
    totals = np.broadcast_to(np.asarray(n), np.shape(successes))
    rate, low, high = wilson(successes, totals)
    return tuple(
        Estimate(float(r), float(a), float(b), int(m))
        for r, a, b, m in zip(rate, low, high, totals, strict=True)
    )


def mean_estimate(mean: float, sd: float, n: int, level: float = LEVEL) -> Estimate:
    """A mean with its Student t interval (mean ± t[n-1]·sd/√n); NaN interval for n < 2."""
    if n < 2 or not math.isfinite(sd):
        return Estimate(float(mean) if n else math.nan, math.nan, math.nan, int(n))
    if sd == 0:
        return Estimate(float(mean), float(mean), float(mean), int(n))
    half = float(special.stdtrit(n - 1, 0.5 + level / 2)) * sd / math.sqrt(n)  # = t.interval
    return Estimate(float(mean), float(mean - half), float(mean + half), int(n))


def newcombe_interval(a: Estimate, b: Estimate) -> tuple[float, float]:
    """Newcombe's (1998, method 10) hybrid score interval of ``b - a`` from two Wilson intervals.

    For independent proportions; its level is the one of the two Wilson intervals.
    """
    diff = b.value - a.value
    low = diff - math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2)
    high = diff + math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2)
    return low, high


def cluster_ratio(
    numerator: np.ndarray, denominator: np.ndarray, share: bool = False, level: float = LEVEL
) -> tuple[Estimate, np.ndarray]:
    """``sum(numerator) / sum(denominator)`` over clusters, with a cluster-robust interval.

    One entry per cluster (e.g. per deal). Linearisation: the ratio's influence of cluster
    i is ``e_i = (x_i - r·d_i) / sum(d)``, var = m/(m-1)·sum(e_i²) over m clusters; the
    interval is r ± z·se, clipped to [0, 1] for a ``share`` (x_i counts some of d_i). Returns the
    estimate (n = clusters with d_i > 0) and the influence values ``e`` so that a difference
    of ratios over the same clusters can be judged (:func:`cluster_difference`).
    """
    x = np.asarray(numerator, dtype=np.float64)
    d = np.asarray(denominator, dtype=np.float64)
    total = d.sum()
    m = int(np.count_nonzero(d))
    if total <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0), np.zeros_like(x)
    r = float(x.sum() / total)
    e = (x - r * d) / total
    se = math.sqrt(cluster_variance(e[d > 0]))  # clusters without data carry no information
    half = z_value(level) * se
    low, high = r - half, r + half
    if share:
        low, high = max(0.0, low), min(1.0, high)
    return Estimate(r, low, high, m), e


def cluster_ratio_counts(
    numerator: np.ndarray, denominator: np.ndarray, weights: np.ndarray, level: float = LEVEL
) -> Estimate:
    """:func:`cluster_ratio` of clusters given as distinct (numerator, denominator) pairs,
    each seen ``weights`` times (a joint histogram): the same ratio and cluster-robust
    interval, without one entry per cluster."""
    x = np.asarray(numerator, dtype=np.float64)
    d = np.asarray(denominator, dtype=np.float64)
    w = np.asarray(weights, dtype=np.int64)
    total = float(w @ d)
    informative = (d > 0) & (w > 0)
    m = int(w[informative].sum())
    if total <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    r = float((w @ x) / total)
    e = (x - r * d) / total
    squares = float(np.sum(w[informative] * e[informative] * e[informative]))
    se = math.sqrt(m / (m - 1) * squares) if m > 1 else math.nan
    half = z_value(level) * se
    return Estimate(r, r - half, r + half, m)


def cluster_variance(influence: np.ndarray) -> float:
    """Cluster-robust variance from per-cluster influence values: m/(m-1)·sum(e²)."""
    m = influence.size
    return m / (m - 1) * float(np.sum(influence * influence)) if m > 1 else math.nan


def normal_interval(value: float, se: float, level: float = LEVEL) -> tuple[float, float]:
    """``value +- z x se`` (a zero SE gives the point itself)."""
    half = z_value(level) * se
    return value - half, value + half


def normal_estimate(
    value: float, se: float, n: int, level: float = LEVEL
) -> tuple[Estimate, float]:
    """``value ± z·se`` and the two-sided normal p-value of ``value = 0``."""
    p = float(2 * special.ndtr(-abs(value) / se)) if se > 0 else (1.0 if value == 0 else math.nan)
    return Estimate(value, *normal_interval(value, se, level), n), p


def cluster_difference(
    first: tuple[Estimate, np.ndarray], second: tuple[Estimate, np.ndarray], level: float = LEVEL
) -> tuple[Estimate, float]:
    """``first - second`` of two :func:`cluster_ratio` results over the same clusters.

    Both influence arrays must be aligned by cluster (zeros where a cluster has no data):
    the covariance of the two ratios through shared clusters is then part of the variance.
    Returns the difference (normal interval) and its two-sided p-value against 0.
    """
    (a, ea), (b, eb) = first, second
    se = math.sqrt(cluster_variance(ea - eb))
    return normal_estimate(a.value - b.value, se, max(a.n, b.n), level)


# --- tests and corrections ------------------------------------------------------------------


@dataclass(frozen=True)
class ChiSquare:
    """A chi-square goodness-of-fit test against equal shares."""

    statistic: float
    df: int
    p: float
    n: int


def chi_square_equal(counts: Sequence[int] | np.ndarray) -> ChiSquare:
    """Pearson chi-square of ``counts`` against equal expected shares (scipy.stats.chisquare)."""
    observed = np.asarray(counts, dtype=np.float64)
    n = int(observed.sum())
    if n == 0 or observed.size < 2:
        return ChiSquare(math.nan, max(0, observed.size - 1), math.nan, n)
    expected = n / observed.size
    statistic = float(((observed - expected) ** 2 / expected).sum())
    df = observed.size - 1
    return ChiSquare(statistic, df, float(special.chdtrc(df, statistic)), n)


def holm(pvalues: Sequence[float]) -> np.ndarray:
    """Holm step-down adjusted p-values (NaN entries are left out of the family and stay NaN)."""
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    finite = np.flatnonzero(np.isfinite(p))
    m = finite.size
    if m == 0:
        return out
    order = finite[np.argsort(p[finite], kind="stable")]
    scaled = (m - np.arange(m)) * p[order]
    out[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return out


def format_p(p: float) -> str:
    """A p-value as text: ``p < 1e-300`` when it underflows, 3 significant digits otherwise."""
    if not math.isfinite(p):
        return "p = n/a"
    if p < 1e-300:
        return "p < 1e-300"
    if p < 1e-3:
        return f"p = {p:.1e}"
    return f"p = {p:.3g}"

"""Interval and test primitives shared by :mod:`uno_stats.analysis.questions` and :mod:`uno_stats.analysis.compare`.

Everything here works on numbers that polars has already aggregated (counts, means,
standard deviations, value counts); nothing loops over rounds. Critical values come
from ``scipy.stats``.

Quantile convention: the ``q`` quantile is the smallest observed value with at least
``q·n`` observations at or below it (numpy's ``inverted_cdf``), so a quantile of whole
turns is always a whole number of turns that some round actually took.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats as st

from uno_stats.errors import ResultsError

LEVEL = 0.95
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20260
_BOOTSTRAP_CELLS = 4_000_000  # resamples x distinct values generated per batch

STATUS_CODES: dict[int, str] = {0: "won", 1: "void", 2: "capped", 3: "exhausted"}


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


def require_rows(n: int, what: str) -> None:
    """Raise :class:`ResultsError` when an aggregation saw no rows."""
    if n <= 0:
        raise ResultsError(f"no {what} in these results (empty results?)")


# --- intervals ------------------------------------------------------------------------------


def z_value(level: float = LEVEL) -> float:
    """The two-sided normal critical value for ``level``."""
    return float(st.norm.ppf(0.5 + level / 2))


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
    low, high = st.t.interval(level, df=n - 1, loc=mean, scale=sd / math.sqrt(n))
    return Estimate(float(mean), float(low), float(high), int(n))


def quantile_from_counts(values: np.ndarray, counts: np.ndarray, q: float) -> float:
    """The ``q`` quantile (inverted CDF) of a sample given as distinct values and counts."""
    n = int(counts.sum())
    rank = max(1, math.ceil(q * n - 1e-9))
    return float(values[int(np.searchsorted(np.cumsum(counts), rank))])


def bootstrap_quantiles(
    values: np.ndarray,
    counts: np.ndarray,
    qs: Sequence[float],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int | np.random.Generator = BOOTSTRAP_SEED,
) -> np.ndarray:
    """Bootstrap replicates of each quantile in ``qs``: an array of shape (len(qs), resamples).

    The ordinary nonparametric bootstrap of all n rows, drawn the cheaper of two exact ways:
    with many rows per distinct value (turns: n in the millions, a few hundred values) a
    resample holds each value a Multinomial(n, counts/n) number of times, costing
    O(resamples x distinct values); otherwise row indices are drawn directly.
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    n = int(counts.sum())
    ranks = np.array([max(1, math.ceil(q * n - 1e-9)) for q in qs])
    out = np.empty((len(qs), resamples))
    if n <= 8 * len(values):  # few ties: resample row indices, take order statistics
        rows = np.repeat(values, counts)  # ascending, so order statistics of indices map
        batch = max(1, _BOOTSTRAP_CELLS // n)
        for start in range(0, resamples, batch):
            size = min(batch, resamples - start)
            idx = np.sort(rng.integers(0, n, size=(size, n), dtype=np.int32), axis=1)
            out[:, start : start + size] = rows[idx[:, ranks - 1]].T
        return out
    probs = counts / n
    batch = max(1, _BOOTSTRAP_CELLS // max(1, len(values)))
    for start in range(0, resamples, batch):
        size = min(batch, resamples - start)
        cum = np.cumsum(rng.multinomial(n, probs, size=size), axis=1)
        for i, rank in enumerate(ranks):
            out[i, start : start + size] = values[(cum >= rank).argmax(axis=1)]
    return out


def percentile_interval(replicates: np.ndarray, level: float = LEVEL) -> tuple[float, float]:
    """The percentile interval of bootstrap replicates (NaN replicates dropped)."""
    finite = replicates[np.isfinite(replicates)]
    if finite.size == 0:
        return math.nan, math.nan
    low, high = np.quantile(finite, [(1 - level) / 2, (1 + level) / 2], method="inverted_cdf")
    return float(low), float(high)


def quantile_estimates(
    values: np.ndarray,
    counts: np.ndarray,
    qs: Sequence[float],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int | np.random.Generator = BOOTSTRAP_SEED,
    level: float = LEVEL,
) -> list[Estimate]:
    """Each quantile in ``qs`` with its bootstrap percentile interval."""
    n = int(counts.sum())
    boot = bootstrap_quantiles(values, counts, qs, resamples, seed)
    out = []
    for q, reps in zip(qs, boot, strict=True):
        low, high = percentile_interval(reps, level)
        out.append(Estimate(quantile_from_counts(values, counts, q), low, high, n))
    return out


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
    result = st.chisquare(observed)
    return ChiSquare(float(result.statistic), observed.size - 1, float(result.pvalue), n)


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

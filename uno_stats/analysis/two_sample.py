"""Two-sample comparisons of one metric, independent or paired: one function per kind.

Called by :func:`uno_stats.analysis.compare.compare_metric`, which chooses the kind and
whether the runs are paired; the formulas are in :mod:`uno_stats.analysis.methods` and
:mod:`uno_stats.analysis.quantile_diff`. Paired runs come as the joint counts of the metric's
value in game k of each run (:func:`uno_stats.analysis.paired_rows.paired_joint`).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from uno_stats.analysis import methods as mt
from uno_stats.analysis.estimates import (
    Estimate,
    mean_estimate,
    normal_interval,
    proportion,
    require_rows,
    value_counts,
)
from uno_stats.analysis.metrics import TOST_LEVEL, MetricComparison, MetricSpec
from uno_stats.analysis.paired_rows import RATIO_COLUMNS, Joint, value_expr
from uno_stats.analysis.quantile_diff import (
    PairedResamples,
    QuantileReplicates,
    independent_quantile_replicates,
    paired_resamples,
)
from uno_stats.analysis.quantiles import bootstrap_se
from uno_stats.analysis.ratios import paired_ratio as mt_paired_ratio
from uno_stats.analysis.seats import comeback_counts

_NA = Estimate(math.nan, math.nan, math.nan, 0)


def _sign(x: float) -> int:
    return (x > 0) - (x < 0) if math.isfinite(x) else 0


def _est(values: tuple[np.ndarray, np.ndarray, np.ndarray], n: int) -> Estimate:
    v, low, high = values
    return Estimate(float(v), float(low), float(high), n)


def _ok_n(n: int, what: str) -> None:
    require_rows(n, what)


def _comparison(
    spec: MetricSpec,
    pairs: Joint | None,
    status: str,
    *,
    baseline: Estimate,
    other: Estimate,
    difference: Estimate,
    ratio: Estimate,
    test: str,
    statistic: float,
    p: float,
    effect_name: str,
    effect: float,
    direction: int,
    tost: tuple[float, float] = (math.nan, math.nan),
    unit: str | None = None,
) -> MetricComparison:
    """The comparison record of one metric: the spec's names, paired when ``pairs`` is given;
    a statistic and p-value (which Holm later adjusts) only when ``status`` is ``tested``."""
    if status != "tested":
        statistic, p = math.nan, math.nan
    return MetricComparison(
        metric=spec.key,
        label=spec.label,
        kind=spec.kind,
        unit=spec.unit if unit is None else unit,
        baseline=baseline,
        other=other,
        difference=difference,
        ratio=ratio,
        test=test,
        statistic=statistic,
        p=p,
        effect_name=effect_name,
        effect=effect,
        p_holm=p,
        question=spec.question,
        paired=pairs is not None,
        status=status,
        direction=direction,
        tost=tost,
    )


def compare_means(
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec, pairs: Joint | None
) -> MetricComparison:
    if pairs is not None:
        x, y, w = pairs.column("a"), pairs.column("b"), pairs.counts
        n = pairs.n
        _ok_n(n, f"paired values of {spec.column}")
        (ma, sa), (mb, sb) = _moments(x, w), _moments(y, w)
        md, sd = _moments(y - x, w)
        cov = float(np.sum(w * (x - ma) * (y - mb)) / (n - 1)) if n > 1 else math.nan
        na = nb = n
        diff = mt.paired_t(md, sd, n)
        tost = mt.paired_t(md, sd, n, TOST_LEVEL)
        ratio = mt.log_ratio(ma, sa * sa / n, mb, sb * sb / n, cov / n)
        test, stat, p = "paired t", float(diff[3]), float(diff[4])
        identical = n > 0 and sd == 0 and md == 0
    else:
        col = pl.col(str(spec.column)).drop_nulls().cast(pl.Float64)
        aggs = (col.len().alias("n"), col.mean().alias("mean"), col.std().alias("sd"))
        (na, ma, sa), (nb, mb, sb) = (lf.select(*aggs).collect().row(0) for lf in (a_lf, b_lf))
        _ok_n(min(na, nb), f"values of {spec.column}")
        sa, sb = (s if s is not None else math.nan for s in (sa, sb))
        diff = mt.welch(ma, sa * sa, na, mb, sb * sb, nb)
        tost = mt.welch(ma, sa * sa, na, mb, sb * sb, nb, TOST_LEVEL)
        ratio = mt.log_ratio(ma, sa * sa / na, mb, sb * sb / nb)
        test, stat, p = "Welch t", float(diff[3]), float(diff[4])
        identical = False
    pooled = math.sqrt(((na - 1) * sa * sa + (nb - 1) * sb * sb) / max(1, na + nb - 2))
    delta = mb - ma
    effect = delta / pooled if pooled > 0 else (0.0 if delta == 0 else math.nan)
    absent = ma == 0 and mb == 0 and sa == 0 and sb == 0
    status = "absent" if absent else ("identical" if identical else "tested")
    return _comparison(
        spec,
        pairs,
        status,
        baseline=mean_estimate(ma, sa, na),
        other=mean_estimate(mb, sb, nb),
        difference=Estimate(float(diff[0]), float(diff[1]), float(diff[2]), na + nb),
        ratio=_est(ratio, na + nb),
        test=test,
        statistic=stat,
        p=p,
        effect_name="Cohen's d",
        effect=effect,
        direction=_sign(delta),
        tost=(float(tost[1]), float(tost[2])),
    )


def _moments(x: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """Mean and standard deviation (n - 1) of distinct values ``x`` seen ``w`` times."""
    n = int(w.sum())
    mean = float(np.sum(w * x) / n)
    sd = math.sqrt(float(np.sum(w * (x - mean) ** 2)) / (n - 1)) if n > 1 else math.nan
    return mean, sd


def _rate_counts(lf: pl.LazyFrame, spec: MetricSpec) -> tuple[int, int]:
    if spec.kind == "comeback":  # seat-rounds of won rounds at some point K+ cards behind
        _, n_k, w_k, _ = comeback_counts(lf, [int(spec.behind or 0)])
        return int(w_k[0]), int(n_k[0])
    value = value_expr(lf, spec)
    row = lf.select(value.sum().alias("x"), value.count().alias("n")).collect().row(0)
    return int(row[0] or 0), int(row[1])


def compare_rates(
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec, pairs: Joint | None
) -> MetricComparison:
    what = {"seat": "won rounds", "comeback": "seat-rounds behind"}.get(spec.kind, "rounds")
    if pairs is not None:
        x, y, w = pairs.column("a"), pairs.column("b"), pairs.counts
        n = pairs.n
        _ok_n(n, f"paired {what}")
        both, only_a = int(w[(x == 1) & (y == 1)].sum()), int(w[(x == 1) & (y == 0)].sum())
        only_b = int(w[(x == 0) & (y == 1)].sum())
        neither = n - both - only_a - only_b
        xa, na, xb, nb = both + only_a, n, both + only_b, n
        diff = mt.newcombe_paired(both, only_a, only_b, neither)
        tost = mt.newcombe_paired(both, only_a, only_b, neither, TOST_LEVEL)
        pa, pb = xa / n, xb / n
        cov = (both / n - pa * pb) / n
        ratio = mt.log_ratio(pa, pa * (1 - pa) / n, pb, pb * (1 - pb) / n, cov)
        z, p = mt.mcnemar(only_a, only_b)
        test = "McNemar"
        identical = only_a == only_b == 0
    else:
        (xa, na), (xb, nb) = _rate_counts(a_lf, spec), _rate_counts(b_lf, spec)
        _ok_n(min(na, nb), what)
        diff = mt.newcombe(xa, na, xb, nb)
        tost = mt.newcombe(xa, na, xb, nb, TOST_LEVEL)
        ratio = mt.katz_ratio(xa, na, xb, nb)
        z, p = mt.two_proportion_z(xa, na, xb, nb)
        test = "two-proportion z"
        identical = False
    a, b = proportion(xa, na), proportion(xb, nb)
    h = 2 * math.asin(math.sqrt(b.value)) - 2 * math.asin(math.sqrt(a.value))
    status = "absent" if xa == xb == 0 else ("identical" if identical else "tested")
    return _comparison(
        spec,
        pairs,
        status,
        unit="",
        baseline=a,
        other=b,
        difference=_est(diff, na + nb),
        ratio=_est(ratio, na + nb),
        test=test,
        statistic=float(z),
        p=float(p),
        effect_name="Cohen's h",
        effect=h,
        direction=_sign(b.value - a.value),
        tost=(float(tost[1]), float(tost[2])),
    )


def compare_quantiles(
    a_lf: pl.LazyFrame,
    b_lf: pl.LazyFrame,
    spec: MetricSpec,
    pairs: Joint | None,
    resamples: int,
    seed: int,
    cache: dict[tuple[str, int, int], PairedResamples] | None = None,
) -> MetricComparison:
    assert spec.column is not None and spec.q is not None
    rng = np.random.default_rng(seed)
    reps: QuantileReplicates
    if pairs is not None:
        na = nb = pairs.n
        _ok_n(na, f"paired values of {spec.column}")
        a_vals, b_vals = pairs.frame["a"].to_numpy(), pairs.frame["b"].to_numpy()
        key = (spec.column, resamples, seed)
        drawn = cache.get(key) if cache is not None else None
        if drawn is None:
            drawn = paired_resamples(a_vals, b_vals, pairs.counts, resamples, rng)
            if cache is not None:
                cache[key] = drawn
        reps = drawn.replicates(spec.q)
        identical = bool(np.all(a_vals == b_vals))
        absent = bool(np.all(a_vals == 0) and np.all(b_vals == 0))
    else:
        (va, ca), (vb, cb) = value_counts(a_lf, spec.column), value_counts(b_lf, spec.column)
        na, nb = int(ca.sum()), int(cb.sum())
        _ok_n(min(na, nb), f"values of {spec.column}")
        reps = independent_quantile_replicates(va, ca, vb, cb, spec.q, resamples, rng)
        identical = False
        absent = bool(np.all(va == 0) and np.all(vb == 0))
    with np.errstate(divide="ignore", invalid="ignore"):
        log_ratio_reps = np.where(
            (reps.reps_a > 0) & (reps.reps_b > 0), np.log(reps.reps_b / reps.reps_a), np.nan
        )
    status = "absent" if absent else ("identical" if identical else "tested")
    low, high = reps.interval()
    se = reps.se
    ratio = reps.b / reps.a if reps.a > 0 else math.nan
    if ratio > 0:  # Reading: normal on the log scale with the SE of the log-ratio replicates
        ratio_low, ratio_high = np.exp(
            normal_interval(math.log(ratio), bootstrap_se(log_ratio_reps))
        )
    else:
        ratio_low = ratio_high = math.nan
    return _comparison(
        spec,
        pairs,
        status,
        baseline=Estimate(reps.a, *normal_interval(reps.a, bootstrap_se(reps.reps_a)), na),
        other=Estimate(reps.b, *normal_interval(reps.b, bootstrap_se(reps.reps_b)), nb),
        difference=Estimate(reps.estimate, low, high, na + nb),
        ratio=Estimate(ratio, float(ratio_low), float(ratio_high), na + nb),
        test="paired bootstrap SE" if pairs is not None else "bootstrap SE",
        statistic=reps.estimate / se if se > 0 else math.nan,
        p=reps.p,
        effect_name="shift",
        effect=reps.estimate,
        direction=reps.direction,
        tost=reps.interval(TOST_LEVEL),
    )


def compare_distributions(
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec, pairs: Joint | None
) -> MetricComparison:
    assert spec.column is not None
    if pairs is not None:
        x, y, w = pairs.column("a"), pairs.column("b"), pairs.counts
        na = nb = pairs.n
        _ok_n(na, f"paired values of {spec.column}")
        test, effect_name = "Wilcoxon signed-rank", "matched-pairs r"
        stat, p, plus, minus = mt.wilcoxon_counts(y - x, w)
        effect = (plus - minus) / (plus + minus)
        ma, mb = float(np.sum(w * x) / na), float(np.sum(w * y) / nb)
        identical = bool(np.all(x == y))
        absent = identical and not np.any(x)
    else:
        (va, ca), (vb, cb) = value_counts(a_lf, spec.column), value_counts(b_lf, spec.column)
        na, nb = int(ca.sum()), int(cb.sum())
        _ok_n(min(na, nb), f"values of {spec.column}")
        test, effect_name = "Mann-Whitney U", "rank-biserial r"
        stat, p = mt.mann_whitney_counts(vb, cb, va, ca)
        effect = 2 * stat / (na * nb) - 1
        ma, mb = float(va @ ca / na), float(vb @ cb / nb)
        identical = False
        absent = bool(np.all(va == 0) and np.all(vb == 0))
    status = "absent" if absent else ("identical" if identical else "tested")
    return _comparison(
        spec,
        pairs,
        status,
        baseline=Estimate(ma, math.nan, math.nan, na),
        other=Estimate(mb, math.nan, math.nan, nb),
        difference=_NA,
        ratio=_NA,
        test=test,
        statistic=stat,
        p=p,
        effect_name=effect_name,
        effect=effect,
        direction=_sign(effect),
    )


def compare_paired_ratio(spec: MetricSpec, joint: Joint) -> MetricComparison:
    """A rate that is a ratio of per-game counts (the comeback rate: winners among the
    seat-rounds K+ behind), paired by game: delta-method interval and z test of R_b - R_a
    (:func:`uno_stats.analysis.ratios.paired_ratio`), clustered by game."""
    from uno_stats.analysis.estimates import normal_estimate, z_value

    rows, times = joint.values(RATIO_COLUMNS), joint.counts
    ra, rb, d, se, log_se = mt_paired_ratio(rows, times)
    wa, na, wb, nb = (int(times @ rows[:, i].astype(np.int64)) for i in range(4))
    _ok_n(min(na, nb), "seat-rounds behind")
    games = joint.n
    diff, p = normal_estimate(d, se, games)
    half = z_value(TOST_LEVEL) * se
    if math.isfinite(log_se) and ra > 0 and rb > 0:
        ratio = Estimate(
            rb / ra, rb / ra * math.exp(-1.959963984540054 * log_se),
            rb / ra * math.exp(1.959963984540054 * log_se), games,
        )  # fmt: skip
    else:
        ratio = _NA
    a, b = proportion(wa, na), proportion(wb, nb)
    identical = bool(np.all(rows[:, 0] == rows[:, 2]) and np.all(rows[:, 1] == rows[:, 3]))
    status = "absent" if wa == wb == 0 else ("identical" if identical else "tested")
    stat = d / se if se > 0 else math.nan
    h = 2 * math.asin(math.sqrt(b.value)) - 2 * math.asin(math.sqrt(a.value))
    return MetricComparison(
        metric=spec.key,
        label=spec.label,
        kind=spec.kind,
        unit="",
        baseline=a,
        other=b,
        difference=diff,
        ratio=ratio,
        test="paired delta method (by game)",
        statistic=stat if status == "tested" else math.nan,
        p=p if status == "tested" else math.nan,
        effect_name="Cohen's h",
        effect=h,
        p_holm=p if status == "tested" else math.nan,
        question=spec.question,
        paired=True,
        status=status,
        direction=_sign(d),
        tost=(d - half, d + half),
    )


def shift_edge(c: MetricComparison, fair_a: float, fair_b: float) -> MetricComparison:
    """The first mover's win-rate comparison ``c`` as an edge comparison (share - 1/players).

    Each run's edge is its share minus its fair share; the difference of edges is the
    difference of shares minus (fair_b - fair_a). With equal player counts that constant is
    0 and the test is the win rate's; otherwise the interval shifts by it and the p-value
    is the normal test of the shifted difference, its standard error read from the 95%
    interval's half-width (the test is then named "z (edge, SE from the interval)").
    """
    from dataclasses import replace

    from uno_stats.analysis.estimates import normal_estimate

    shift = fair_b - fair_a
    a, b, d = c.baseline, c.other, c.difference
    base = Estimate(a.value - fair_a, a.low - fair_a, a.high - fair_a, a.n)
    other = Estimate(b.value - fair_b, b.low - fair_b, b.high - fair_b, b.n)
    out = replace(
        c, baseline=base, other=other, ratio=_NA, direction=_sign(other.value - base.value)
    )
    if shift == 0:
        return out
    diff = Estimate(d.value - shift, d.low - shift, d.high - shift, d.n)
    se = (d.high - d.low) / (2 * 1.959963984540054)
    _, p = normal_estimate(diff.value, se, d.n)
    tost = (c.tost[0] - shift, c.tost[1] - shift)
    tested = c.status == "tested"
    return replace(
        out,
        difference=diff,
        tost=tost,
        test="z (edge, SE from the interval)",
        statistic=diff.value / se if tested and se > 0 else math.nan,
        p=p if tested else math.nan,
        p_holm=p if tested else math.nan,
        direction=_sign(diff.value),
    )

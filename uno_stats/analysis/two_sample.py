"""Two-sample comparisons of one metric, independent or paired: one function per kind.

Called by :func:`uno_stats.analysis.compare.compare_metric`, which chooses the kind and
whether the runs are paired; the formulas are in :mod:`uno_stats.analysis.methods` and
:mod:`uno_stats.analysis.quantile_diff`. Paired rows come from :func:`paired_values`.
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
    status_expr,
    value_counts,
)
from uno_stats.analysis.metrics import TOST_LEVEL, MetricComparison, MetricSpec
from uno_stats.analysis.quantile_diff import (
    PairedResamples,
    QuantileReplicates,
    independent_quantile_replicates,
    paired_resamples,
)
from uno_stats.analysis.quantiles import bootstrap_se
from uno_stats.analysis.ratios import game_counts
from uno_stats.analysis.ratios import paired_ratio as mt_paired_ratio
from uno_stats.analysis.seats import comeback_counts

_NA = Estimate(math.nan, math.nan, math.nan, 0)


def _sign(x: float) -> int:
    return (x > 0) - (x < 0) if math.isfinite(x) else 0


def _est(values: tuple[np.ndarray, np.ndarray, np.ndarray], n: int) -> Estimate:
    v, low, high = values
    return Estimate(float(v), float(low), float(high), n)


def _keys(spec: MetricSpec) -> list[str]:
    return ["game"] if spec.column == "match_rounds" else ["game", "round"]


def _value_expr(lf: pl.LazyFrame, spec: MetricSpec) -> pl.Expr:
    if spec.kind == "seat":
        won = status_expr(lf) == "won"
        return pl.when(won).then((pl.col("winner").cast(pl.Int64) == spec.seat).cast(pl.Int8))
    if spec.kind in ("first_mover", "first_mover_edge"):
        won = status_expr(lf) == "won"
        first = pl.col("first_player").cast(pl.Int64)
        return pl.when(won).then((pl.col("winner").cast(pl.Int64) == first).cast(pl.Int8))
    if spec.kind == "rate":
        return (status_expr(lf) == spec.status).cast(pl.Int8)
    if spec.kind == "chain":
        return (pl.col("longest_stack") >= int(spec.behind or 0)).cast(pl.Int8)
    return pl.col(str(spec.column))


def paired_values(a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec) -> pl.DataFrame | None:
    """Columns ``a`` and ``b``: the metric's value in game k of each run (rows joined on
    ``game``, ``round``), nulls dropped; None when the runs' rows do not line up one to one."""
    keys = _keys(spec)
    frames = []
    for lf, name in ((a_lf, "a"), (b_lf, "b")):
        sel = lf
        if spec.column == "match_rounds":
            sel = lf.filter(pl.col("match_rounds").is_not_null())
        frames.append(sel.select(*keys, _value_expr(lf, spec).alias(name)).collect())
    fa, fb = frames
    joined = fa.join(fb, on=keys, how="inner")
    if not (joined.height == fa.height == fb.height):
        return None
    return joined.sort(keys).drop_nulls(["a", "b"]).select("a", "b")


def _ok_n(n: int, what: str) -> None:
    require_rows(n, what)


def _comparison(
    spec: MetricSpec,
    pairs: pl.DataFrame | None,
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
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec, pairs: pl.DataFrame | None
) -> MetricComparison:
    if pairs is not None:
        x, y = (pairs[c].cast(pl.Float64).to_numpy() for c in ("a", "b"))
        n = len(x)
        _ok_n(n, f"paired values of {spec.column}")
        ma, mb, sa, sb = float(x.mean()), float(y.mean()), _sd(x), _sd(y)
        d = y - x
        md, sd = float(d.mean()), _sd(d)
        cov = float(np.cov(x, y)[0, 1]) if n > 1 else math.nan
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


def _sd(x: np.ndarray) -> float:
    return float(x.std(ddof=1)) if len(x) > 1 else math.nan


def _rate_counts(lf: pl.LazyFrame, spec: MetricSpec) -> tuple[int, int]:
    if spec.kind == "comeback":  # seat-rounds of won rounds at some point K+ cards behind
        _, n_k, w_k, _ = comeback_counts(lf, [int(spec.behind or 0)])
        return int(w_k[0]), int(n_k[0])
    value = _value_expr(lf, spec)
    row = lf.select(value.sum().alias("x"), value.count().alias("n")).collect().row(0)
    return int(row[0] or 0), int(row[1])


def compare_rates(
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec, pairs: pl.DataFrame | None
) -> MetricComparison:
    what = {"seat": "won rounds", "comeback": "seat-rounds behind"}.get(spec.kind, "rounds")
    if pairs is not None:
        x, y = (pairs[c].cast(pl.Int64).to_numpy() for c in ("a", "b"))
        n = len(x)
        _ok_n(n, f"paired {what}")
        both, only_a = int(np.sum((x == 1) & (y == 1))), int(np.sum((x == 1) & (y == 0)))
        only_b = int(np.sum((x == 0) & (y == 1)))
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
    pairs: pl.DataFrame | None,
    resamples: int,
    seed: int,
    cache: dict[tuple[str, int, int], PairedResamples] | None = None,
) -> MetricComparison:
    assert spec.column is not None and spec.q is not None
    rng = np.random.default_rng(seed)
    reps: QuantileReplicates
    if pairs is not None:
        joint = pairs.group_by("a", "b").agg(pl.len().alias("k")).sort("a", "b")
        na = nb = int(joint["k"].sum())
        _ok_n(na, f"paired values of {spec.column}")
        a_vals, b_vals = joint["a"].to_numpy(), joint["b"].to_numpy()
        key = (spec.column, resamples, seed)
        drawn = cache.get(key) if cache is not None else None
        if drawn is None:
            drawn = paired_resamples(a_vals, b_vals, joint["k"].to_numpy(), resamples, rng)
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
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec, pairs: pl.DataFrame | None
) -> MetricComparison:
    from scipy import stats as st  # lazy: scipy.stats costs ~1 s to import

    assert spec.column is not None
    if pairs is not None:
        x, y = (pairs[c].cast(pl.Float64).to_numpy() for c in ("a", "b"))
        na = nb = len(x)
        _ok_n(na, f"paired values of {spec.column}")
        d = y - x
        nonzero = d[d != 0]
        test, effect_name = "Wilcoxon signed-rank", "matched-pairs r"
        if nonzero.size == 0:
            stat = p = effect = math.nan
        else:
            ranks = st.rankdata(np.abs(nonzero))
            plus, minus = float(ranks[nonzero > 0].sum()), float(ranks[nonzero < 0].sum())
            effect = (plus - minus) / (plus + minus)
            res = st.wilcoxon(nonzero, zero_method="wilcox", method="approx")
            stat, p = float(res.statistic), float(res.pvalue)
        ma, mb = float(x.mean()), float(y.mean())
        identical = nonzero.size == 0
        absent = identical and not np.any(x)
    else:
        (va, ca), (vb, cb) = value_counts(a_lf, spec.column), value_counts(b_lf, spec.column)
        na, nb = int(ca.sum()), int(cb.sum())
        _ok_n(min(na, nb), f"values of {spec.column}")
        test, effect_name = "Mann-Whitney U", "rank-biserial r"
        res = st.mannwhitneyu(np.repeat(vb, cb), np.repeat(va, ca), method="asymptotic")
        stat, p = float(res.statistic), float(res.pvalue)
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


def paired_counts(a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec) -> np.ndarray | None:
    """(games, 4) per-game counts num_a, den_a, num_b, den_b of a ratio metric
    (:mod:`uno_stats.analysis.ratios`), or None when the runs' games do not line up."""
    fa, fb = (game_counts(lf, spec) for lf in (a_lf, b_lf))
    joined = fa.join(fb, on="game", how="inner", suffix="_b")
    if not (joined.height == fa.height == fb.height):
        return None
    return joined.select("num", "den", "num_b", "den_b").to_numpy().astype(np.float64)


def compare_paired_ratio(spec: MetricSpec, counts: np.ndarray) -> MetricComparison:
    """A rate that is a ratio of per-game counts (the comeback rate: winners among the
    seat-rounds K+ behind), paired by game: delta-method interval and z test of R_b - R_a
    (:func:`uno_stats.analysis.ratios.paired_ratio`), clustered by game."""
    from uno_stats.analysis.estimates import normal_estimate, z_value

    ra, rb, d, se, log_se = mt_paired_ratio(counts)
    wa, na, wb, nb = (round(float(counts[:, i].sum())) for i in range(4))
    _ok_n(min(na, nb), "seat-rounds behind")
    games = counts.shape[0]
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
    identical = bool(np.all(counts[:, 0] == counts[:, 2]) and np.all(counts[:, 1] == counts[:, 3]))
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

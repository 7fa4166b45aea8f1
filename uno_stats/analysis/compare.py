"""Rule effect: one metric between two runs, as difference and ratio with intervals and a test.

Metric names (``metric_spec``): ``mean_<column>``, ``median_<column>``, ``p<NN>_<column>``,
``dist_<column>`` (do the distributions differ), ``won_rate`` / ``void_rate`` /
``capped_rate`` and ``seat<K>_win_rate`` (seat K's share of won rounds).

Pairing (common random numbers): every game's random stream depends only on (seed, game
index), so two runs with the same seed and game count start game k from the same deal.
Such runs are *paired*: rows are joined on ``game`` (and ``round``; match length on
``game``) and the paired method is used. Methods (formulas in
:mod:`uno_stats.analysis.methods` and :mod:`uno_stats.analysis.quantile_diff`):

=============  =====================================  =========================================
metric         independent runs                       paired runs
=============  =====================================  =========================================
mean           Welch t                                paired t
rate           Newcombe hybrid score + 2-prop. z      Newcombe paired (method 10) + McNemar
quantile       bootstrap of each run, inverted for p  paired bootstrap (games resampled)
distribution   Mann-Whitney U (rank-biserial r)       Wilcoxon signed-rank (matched-pairs r)
ratio          delta method on the log ratio / Katz   delta method with the covariance
=============  =====================================  =========================================

Holm families are per question (round length, cards drawn, round outcome, seat advantage,
match length) and per pair of runs; metrics that are zero in both runs, or identical in
every paired game, get no test and stay out of the family. Baseline is ``a``: differences
are b - a and ratios b / a.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import polars as pl
from scipy import stats as st

from uno_stats.analysis import methods as mt
from uno_stats.analysis.estimates import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    Estimate,
    has_matches,
    holm,
    mean_estimate,
    percentile_interval,
    proportion,
    require_rows,
    status_expr,
    value_counts,
)
from uno_stats.analysis.quantile_diff import (
    QuantileReplicates,
    independent_quantile_replicates,
    paired_quantile_replicates,
)
from uno_stats.errors import ResultsError
from uno_stats.run.results import Run

ALPHA = 0.05
TOST_LEVEL = 1 - 2 * ALPHA
"""Equivalence uses the 90% interval: two one-sided tests at 5% each (TOST)."""
DEFAULT_METRICS: tuple[str, ...] = (
    "mean_turns",
    "median_turns",
    "p90_turns",
    "dist_turns",
    "mean_cards_drawn",
    "seat0_win_rate",
    "void_rate",
    "capped_rate",
)
MATCH_METRICS: tuple[str, ...] = ("mean_match_rounds",)
UNITS = {"turns": "turns", "cards_drawn": "cards", "match_rounds": "rounds"}
QUESTIONS = {"turns": "round length", "cards_drawn": "cards drawn", "match_rounds": "match length"}


@dataclass(frozen=True)
class MetricSpec:
    """What a metric name means: its kind (mean, quantile, distribution, rate, seat) and column."""

    key: str
    label: str
    kind: str
    column: str | None = None
    q: float | None = None
    status: str | None = None
    seat: int | None = None

    @property
    def per_seat(self) -> bool:
        """Whether the metric belongs to one seat (needs equal player counts)."""
        return self.kind == "seat"

    @property
    def unit(self) -> str:
        """Unit of the metric's values (empty for rates)."""
        return UNITS.get(self.column or "", "")

    @property
    def question(self) -> str:
        """The question (Holm family) the metric answers."""
        if self.kind == "seat":
            return "seat advantage"
        if self.kind == "rate":
            return "round outcome"
        return QUESTIONS.get(self.column or "", str(self.column).replace("_", " "))


def metric_spec(key: str) -> MetricSpec:
    """Parse a metric name such as ``mean_turns``, ``p90_turns``, ``void_rate``, ``seat0_win_rate``."""
    if m := re.fullmatch(r"mean_(\w+)", key):
        return MetricSpec(key, f"mean {m[1].replace('_', ' ')}", "mean", m[1])
    if m := re.fullmatch(r"median_(\w+)", key):
        return MetricSpec(key, f"median {m[1].replace('_', ' ')}", "quantile", m[1], 0.5)
    if m := re.fullmatch(r"p(\d{1,2})_(\w+)", key):
        return MetricSpec(
            key, f"p{m[1]} {m[2].replace('_', ' ')}", "quantile", m[2], int(m[1]) / 100
        )
    if m := re.fullmatch(r"dist_(\w+)", key):
        return MetricSpec(key, f"distribution of {m[1].replace('_', ' ')}", "distribution", m[1])
    if m := re.fullmatch(r"(won|void|capped)_rate", key):
        return MetricSpec(key, f"{m[1]} rate", "rate", status=m[1])
    if m := re.fullmatch(r"seat(\d+)_win_rate", key):
        return MetricSpec(key, f"seat {m[1]} win rate", "seat", seat=int(m[1]))
    raise ResultsError(
        f"unknown metric {key!r}: use mean_COL, median_COL, pNN_COL, dist_COL, won_rate, "
        "void_rate, capped_rate or seatK_win_rate"
    )


@dataclass(frozen=True)
class Margin:
    """An equivalence margin: ``value`` in the metric's units, or a fraction of the baseline."""

    value: float
    relative: bool

    def absolute(self, baseline: float, rate: bool) -> float:
        """The margin in the metric's units for a baseline estimate.

        Reading (the spec is silent): an absolute margin for a rate is in percentage points
        (``--margin 1.5`` on a win rate means +-1.5 pp); a relative one is a fraction of the
        baseline estimate, taken as known.
        """
        if self.relative:
            return self.value * abs(baseline)
        return self.value / 100 if rate else self.value

    def text(self) -> str:
        """The margin as the user wrote it: ``2%`` or ``1.5``."""
        return f"{100 * self.value:g}%" if self.relative else f"{self.value:g}"


def parse_margin(text: str) -> Margin:
    """``"2%"`` (relative to the baseline) or ``"1.5"`` (absolute; pp for rates)."""
    raw = text.strip()
    relative = raw.endswith("%")
    try:
        value = float(raw.rstrip("%"))
    except ValueError:
        raise ResultsError(f"margin {text!r}: give a number such as 1.5 or 2%") from None
    if not (value > 0 and math.isfinite(value)):
        raise ResultsError(f"margin {text!r} must be positive")
    return Margin(value / 100 if relative else value, relative)


@dataclass(frozen=True)
class Equivalence:
    """TOST verdict on a difference: ``same`` (90% interval inside +-margin), ``different``
    (outside it entirely) or ``undecided``, with the games per run that would decide it."""

    margin: Margin
    bound: float
    low: float
    high: float
    outcome: str
    games_needed: int | None


@dataclass(frozen=True)
class Pairing:
    """Whether two runs are paired game by game (same seed and same number of games)."""

    paired: bool
    seed_a: int
    seed_b: int
    games_a: int
    games_b: int


def run_pairing(a: Run, b: Run) -> Pairing:
    """Detect common random numbers from the two manifests: same seed and same game count."""
    ma, mb = a.manifest, b.manifest
    paired = ma.seed == mb.seed and ma.games == mb.games
    return Pairing(paired, ma.seed, mb.seed, ma.games, mb.games)


@dataclass(frozen=True)
class MetricComparison:
    """Run b against baseline a on one metric: estimates, b - a, b / a, test and effect size.

    ``status``: ``tested``; ``identical`` (paired, and every game gave the same value);
    ``absent`` (zero in every round of both runs). Only ``tested`` rows have a p-value.
    ``direction``: the sign of the effect the test saw (+1: b higher). ``tost``: the 90%
    difference interval. ``p_resolution``: smallest p the method can give (bootstrap).
    """

    metric: str
    label: str
    kind: str
    unit: str
    baseline: Estimate
    other: Estimate
    difference: Estimate
    ratio: Estimate
    test: str
    statistic: float
    p: float
    effect_name: str
    effect: float
    p_holm: float
    family: int = 1
    question: str = ""
    paired: bool = False
    status: str = "tested"
    direction: int = 0
    tost: tuple[float, float] = (math.nan, math.nan)
    p_resolution: float = 0.0
    equivalence: Equivalence | None = None
    note: str = ""


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
    if spec.kind == "rate":
        return (status_expr(lf) == spec.status).cast(pl.Int8)
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
    return joined.drop_nulls(["a", "b"]).select("a", "b")


def _ok_n(n: int, what: str) -> None:
    require_rows(n, what)


def _compare_means(
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
    if status != "tested":
        stat, p = math.nan, math.nan
    return MetricComparison(
        metric=spec.key,
        label=spec.label,
        kind=spec.kind,
        unit=spec.unit,
        baseline=mean_estimate(ma, sa, na),
        other=mean_estimate(mb, sb, nb),
        difference=Estimate(float(diff[0]), float(diff[1]), float(diff[2]), na + nb),
        ratio=_est(ratio, na + nb),
        test=test,
        statistic=stat,
        p=p,
        effect_name="Cohen's d",
        effect=effect,
        p_holm=p,
        question=spec.question,
        paired=pairs is not None,
        status=status,
        direction=_sign(delta),
        tost=(float(tost[1]), float(tost[2])),
    )


def _sd(x: np.ndarray) -> float:
    return float(x.std(ddof=1)) if len(x) > 1 else math.nan


def _rate_counts(lf: pl.LazyFrame, spec: MetricSpec) -> tuple[int, int]:
    value = _value_expr(lf, spec)
    row = lf.select(value.sum().alias("x"), value.count().alias("n")).collect().row(0)
    return int(row[0] or 0), int(row[1])


def _compare_rates(
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec, pairs: pl.DataFrame | None
) -> MetricComparison:
    what = "won rounds" if spec.kind == "seat" else "rounds"
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
    stat, pv = (float(z), float(p)) if status == "tested" else (math.nan, math.nan)
    return MetricComparison(
        metric=spec.key,
        label=spec.label,
        kind=spec.kind,
        unit="",
        baseline=a,
        other=b,
        difference=_est(diff, na + nb),
        ratio=_est(ratio, na + nb),
        test=test,
        statistic=stat,
        p=pv,
        effect_name="Cohen's h",
        effect=h,
        p_holm=pv,
        question=spec.question,
        paired=pairs is not None,
        status=status,
        direction=_sign(b.value - a.value),
        tost=(float(tost[1]), float(tost[2])),
    )


def _compare_quantiles(
    a_lf: pl.LazyFrame,
    b_lf: pl.LazyFrame,
    spec: MetricSpec,
    pairs: pl.DataFrame | None,
    resamples: int,
    seed: int,
) -> MetricComparison:
    assert spec.column is not None and spec.q is not None
    rng = np.random.default_rng(seed)
    reps: QuantileReplicates
    if pairs is not None:
        joint = pairs.group_by("a", "b").agg(pl.len().alias("k"))
        na = nb = int(joint["k"].sum())
        _ok_n(na, f"paired values of {spec.column}")
        a_vals, b_vals = joint["a"].to_numpy(), joint["b"].to_numpy()
        reps = paired_quantile_replicates(
            a_vals, b_vals, joint["k"].to_numpy(), spec.q, resamples, rng
        )
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
        ratio_reps = np.where(reps.reps_a > 0, reps.reps_b / reps.reps_a, np.nan)
    status = "absent" if absent else ("identical" if identical else "tested")
    p = reps.p if status == "tested" else math.nan
    low, high = reps.interval()
    d = reps.difference
    spread = float(np.std(d))
    return MetricComparison(
        metric=spec.key,
        label=spec.label,
        kind=spec.kind,
        unit=spec.unit,
        baseline=Estimate(reps.a, *percentile_interval(reps.reps_a), na),
        other=Estimate(reps.b, *percentile_interval(reps.reps_b), nb),
        difference=Estimate(reps.b - reps.a, low, high, na + nb),
        ratio=Estimate(
            reps.b / reps.a if reps.a > 0 else math.nan, *percentile_interval(ratio_reps), na + nb
        ),
        test="paired bootstrap" if pairs is not None else "bootstrap",
        statistic=(reps.b - reps.a) / spread if spread > 0 else math.nan,
        p=p,
        effect_name="shift",
        effect=reps.b - reps.a,
        p_holm=p,
        question=spec.question,
        paired=pairs is not None,
        status=status,
        direction=reps.direction,
        tost=reps.interval(TOST_LEVEL),
        p_resolution=1 / resamples,
    )


def _compare_distributions(
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec, pairs: pl.DataFrame | None
) -> MetricComparison:
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
    if status != "tested":
        stat, p = math.nan, math.nan
    return MetricComparison(
        metric=spec.key,
        label=spec.label,
        kind=spec.kind,
        unit=spec.unit,
        baseline=Estimate(ma, math.nan, math.nan, na),
        other=Estimate(mb, math.nan, math.nan, nb),
        difference=_NA,
        ratio=_NA,
        test=test,
        statistic=stat,
        p=p,
        effect_name=effect_name,
        effect=effect,
        p_holm=p,
        question=spec.question,
        paired=pairs is not None,
        status=status,
        direction=_sign(effect),
    )


def equivalence(c: MetricComparison, margin: Margin) -> Equivalence | None:
    """Equivalence against ``margin``; None for distribution rows and metrics absent in both.

    ``same``: the 90% interval lies inside (-m, m) (TOST, two one-sided tests at 5%).
    ``different``: the 95% interval lies wholly outside [-m, m] (so it is also a
    significant difference, and never contradicts the main verdict). Otherwise
    ``undecided``, with the games per run after which the relevant interval (90% when the
    estimate is inside the margin, 95% outside) would clear the margin if the estimate held.
    """
    low, high = c.tost
    if c.kind == "distribution" or c.status == "absent":
        return None
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    bound = margin.absolute(c.baseline.value, c.kind in ("rate", "seat"))
    d = c.difference
    if -bound < low and high < bound:
        outcome = "same"
    elif d.low > bound or d.high < -bound:
        outcome = "different"
    else:
        outcome = "undecided"
    needed = None
    if outcome == "undecided":
        inside = abs(d.value) < bound
        half = (high - low) / 2 if inside else (d.high - d.low) / 2
        room = abs(bound - abs(d.value))
        if room > 0 and half > 0:
            # Reading: the interval narrows as 1/sqrt(n) around an unchanged estimate.
            needed = math.ceil(c.baseline.n * (half / room) ** 2)
    return Equivalence(margin, bound, low, high, outcome, needed)


def compare_metric(
    a_lf: pl.LazyFrame,
    b_lf: pl.LazyFrame,
    metric: str,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    paired: bool = False,
    margin: Margin | None = None,
) -> MetricComparison:
    """Compare ``metric`` of run b against baseline a (see the module doc for the methods).

    ``paired``: the runs share seed and game count; rows are joined on game (and round)
    and the paired method is used; if the rows do not line up one to one (match rounds
    that exist in one run only), the independent method is used and ``note`` says so.
    Per-seat metrics raise :class:`ResultsError` when the runs seat different player counts.
    """
    spec = metric_spec(metric)
    if spec.column is not None:
        for lf in (a_lf, b_lf):
            if spec.column not in lf.collect_schema().names():
                raise ResultsError(f"cannot compare {spec.label}: no column {spec.column!r}")
    if spec.kind == "seat":
        _require_same_players(a_lf, b_lf, spec.label)
    pairs, note = None, ""
    if paired:
        pairs = paired_values(a_lf, b_lf, spec)
        if pairs is None:
            note = "rows do not line up game by game (matches of different lengths), so independent"
    if spec.kind == "mean":
        c = _compare_means(a_lf, b_lf, spec, pairs)
    elif spec.kind == "quantile":
        c = _compare_quantiles(a_lf, b_lf, spec, pairs, resamples, seed)
    elif spec.kind == "distribution":
        c = _compare_distributions(a_lf, b_lf, spec, pairs)
    else:
        c = _compare_rates(a_lf, b_lf, spec, pairs)
    if margin is not None:
        c = replace(c, equivalence=equivalence(c, margin))
    return replace(c, note=note) if note else c


def _players(lf: pl.LazyFrame) -> set[int]:
    return {int(v) for v in lf.select(pl.col("players").unique()).collect().to_series()}


def _require_same_players(a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, label: str) -> None:
    pa, pb = _players(a_lf), _players(b_lf)
    if pa != pb:
        a_text, b_text = ("/".join(str(v) for v in sorted(p)) or "no" for p in (pa, pb))
        raise ResultsError(
            f"cannot compare {label}: the runs seat different player counts ({a_text} vs {b_text})"
        )


def seat_win_rate_difference(
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, seat: int = 0
) -> MetricComparison:
    """Seat ``seat``'s share of won rounds, b against a; different player counts raise."""
    return compare_metric(a_lf, b_lf, f"seat{seat}_win_rate")


def with_holm(comparisons: Sequence[MetricComparison]) -> list[MetricComparison]:
    """The comparisons with Holm-adjusted p-values over one family (untested rows stay NaN)."""
    adjusted = holm([c.p for c in comparisons])
    size = int(np.isfinite([c.p for c in comparisons]).sum()) if comparisons else 0
    return [
        replace(c, p_holm=float(p), family=size) for c, p in zip(comparisons, adjusted, strict=True)
    ]


@dataclass(frozen=True)
class RunComparison:
    """One metric of one run against the baseline run, and how the two runs are paired."""

    baseline: Run
    run: Run
    pairing: Pairing
    comparison: MetricComparison


def compare_runs(
    runs: Sequence[Run],
    metrics: Sequence[str] | None = None,
    margin: Margin | None = None,
) -> tuple[list[RunComparison], list[str]]:
    """Every run after the first against ``runs[0]``; Holm per run and question.

    Without ``metrics``: :data:`DEFAULT_METRICS` (plus match length when both runs play
    matches), skipping per-seat metrics where player counts differ (returned as notes).
    Metrics asked for by name are never skipped: a per-seat one then raises ResultsError.
    """
    if len(runs) < 2:
        raise ResultsError("compare needs at least two runs (a baseline and one more)")
    base = runs[0]
    base_lf = base.scan()
    base_matches = has_matches(base_lf)
    out: list[RunComparison] = []
    notes: list[str] = []
    for other in runs[1:]:
        lf = other.scan()
        pairing = run_pairing(base, other)
        wanted = (
            list(metrics)
            if metrics
            else [*DEFAULT_METRICS, *(MATCH_METRICS if base_matches and has_matches(lf) else ())]
        )
        found: list[MetricComparison] = []
        for metric in wanted:
            spec = metric_spec(metric)
            if not metrics and spec.per_seat and base.players != other.players:
                notes.append(
                    f"{spec.label} not compared for {other.name}: {other.players} players "
                    f"against {base.players} in {base.name}."
                )
                continue
            found.append(compare_metric(base_lf, lf, metric, paired=pairing.paired, margin=margin))
        for question in dict.fromkeys(c.question for c in found):
            family = with_holm([c for c in found if c.question == question])
            out.extend(RunComparison(base, other, pairing, c) for c in family)
    return out, notes

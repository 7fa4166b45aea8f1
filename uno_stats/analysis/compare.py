"""Rule effect: one metric between two runs, as difference and ratio with intervals and a test.

Metric names (``metric_spec``): ``mean_<column>``, ``median_<column>``, ``p<NN>_<column>``,
``won_rate`` / ``void_rate`` / ``capped_rate`` and ``seat<K>_win_rate``. Methods:

- means: Welch t test (``scipy.stats.ttest_ind_from_stats``); difference interval with
  Welch-Satterthwaite degrees of freedom; ratio interval by the delta method on the log
  ratio, var(log b/a) ≈ s_a²/(n_a·a²) + s_b²/(n_b·b²); effect size Cohen's d (pooled sd).
- quantiles: Mann-Whitney U test of the two distributions (``scipy.stats.mannwhitneyu``,
  asymptotic, tie-corrected); difference and ratio intervals are percentile intervals of
  independent bootstrap replicates of each run's quantile; effect size rank-biserial r.
- rates: two-proportion z test, computed as the 2x2 chi-square without continuity
  correction (``scipy.stats.chi2_contingency``; z² = χ²); difference interval Newcombe's
  hybrid score (from Wilson intervals); ratio interval Katz log
  (``scipy.stats.contingency.relative_risk``); effect size Cohen's h.

Baseline is ``a``; differences are b - a and ratios b / a.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import polars as pl
from scipy import stats as st
from scipy.stats.contingency import relative_risk

from uno_stats.analysis.estimates import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    LEVEL,
    Estimate,
    bootstrap_quantiles,
    format_p,
    has_matches,
    holm,
    mean_estimate,
    percentile_interval,
    proportion,
    quantile_from_counts,
    require_rows,
    status_expr,
    value_counts,
    z_value,
)
from uno_stats.errors import ResultsError
from uno_stats.run.results import Run

DEFAULT_METRICS: tuple[str, ...] = (
    "mean_turns",
    "median_turns",
    "p90_turns",
    "mean_cards_drawn",
    "seat0_win_rate",
    "void_rate",
    "capped_rate",
)
MATCH_METRICS: tuple[str, ...] = ("mean_match_rounds",)
UNITS = {"turns": "turns", "cards_drawn": "cards", "match_rounds": "rounds"}


@dataclass(frozen=True)
class MetricSpec:
    """What a metric name means: its kind (mean, quantile, rate, seat) and column."""

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
    if m := re.fullmatch(r"(won|void|capped|exhausted)_rate", key):
        return MetricSpec(key, f"{m[1]} rate", "rate", status=m[1])
    if m := re.fullmatch(r"seat(\d+)_win_rate", key):
        return MetricSpec(key, f"seat {m[1]} win rate", "seat", seat=int(m[1]))
    raise ResultsError(
        f"unknown metric {key!r}: use mean_COL, median_COL, pNN_COL, won_rate, void_rate, "
        "capped_rate, exhausted_rate or seatK_win_rate"
    )


@dataclass(frozen=True)
class MetricComparison:
    """Run b against baseline a on one metric: estimates, b - a, b / a, test and effect size."""

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


def _players(lf: pl.LazyFrame) -> set[int]:
    return {int(v) for v in lf.select(pl.col("players").unique()).collect().to_series()}


def _require_same_players(a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, label: str) -> None:
    pa, pb = _players(a_lf), _players(b_lf)
    if pa != pb:
        a_text, b_text = ("/".join(str(v) for v in sorted(p)) or "no" for p in (pa, pb))
        raise ResultsError(
            f"cannot compare {label}: the runs seat different player counts ({a_text} vs {b_text})"
        )


def _compare_means(a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec) -> MetricComparison:
    col = pl.col(spec.column).drop_nulls().cast(pl.Float64)
    aggs = (col.len().alias("n"), col.mean().alias("mean"), col.std().alias("sd"))
    (na, ma, sa), (nb, mb, sb) = (lf.select(*aggs).collect().row(0) for lf in (a_lf, b_lf))
    require_rows(min(na, nb), f"values of {spec.column}")
    sa, sb = (s if s is not None else math.nan for s in (sa, sb))
    va, vb = sa * sa / na, sb * sb / nb
    diff, se = mb - ma, math.sqrt(va + vb)
    if not math.isfinite(se):  # a run with a single value: no variance estimate
        half = stat = p = math.nan
    elif se > 0:
        df = (va + vb) ** 2 / (va**2 / (na - 1) + vb**2 / (nb - 1))
        half = float(st.t.ppf(0.5 + LEVEL / 2, df)) * se
        test = st.ttest_ind_from_stats(mb, sb, nb, ma, sa, na, equal_var=False)
        stat, p = float(test.statistic), float(test.pvalue)
    else:  # both runs constant: the difference is exact
        half = 0.0
        stat, p = (0.0, 1.0) if diff == 0 else (math.copysign(math.inf, diff), 0.0)
    ratio, r_low, r_high = math.nan, math.nan, math.nan
    if ma > 0 and mb > 0:
        ratio = mb / ma
        se_log = math.sqrt(va / ma**2 + vb / mb**2)
        r_low, r_high = (ratio * math.exp(s * z_value() * se_log) for s in (-1, 1))
    pooled = math.sqrt(((na - 1) * sa * sa + (nb - 1) * sb * sb) / max(1, na + nb - 2))
    d = diff / pooled if pooled > 0 else (0.0 if diff == 0 else math.nan)
    return MetricComparison(
        spec.key,
        spec.label,
        spec.kind,
        spec.unit,
        mean_estimate(ma, sa, na),
        mean_estimate(mb, sb, nb),
        Estimate(diff, diff - half, diff + half, na + nb),
        Estimate(ratio, r_low, r_high, na + nb),
        "Welch t",
        stat,
        p,
        "Cohen's d",
        d,
        p,
    )


def _compare_quantiles(
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec, resamples: int, seed: int
) -> MetricComparison:
    assert spec.column is not None and spec.q is not None
    (va, ca), (vb, cb) = value_counts(a_lf, spec.column), value_counts(b_lf, spec.column)
    na, nb = int(ca.sum()), int(cb.sum())
    require_rows(min(na, nb), f"values of {spec.column}")
    rng = np.random.default_rng(seed)
    boot_a = bootstrap_quantiles(va, ca, [spec.q], resamples, rng)[0]
    boot_b = bootstrap_quantiles(vb, cb, [spec.q], resamples, rng)[0]
    qa, qb = quantile_from_counts(va, ca, spec.q), quantile_from_counts(vb, cb, spec.q)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio_reps = np.where(boot_a > 0, boot_b / boot_a, np.nan)
    test = st.mannwhitneyu(np.repeat(vb, cb), np.repeat(va, ca), method="asymptotic")
    return MetricComparison(
        spec.key,
        spec.label,
        spec.kind,
        spec.unit,
        Estimate(qa, *percentile_interval(boot_a), na),
        Estimate(qb, *percentile_interval(boot_b), nb),
        Estimate(qb - qa, *percentile_interval(boot_b - boot_a), na + nb),
        Estimate(qb / qa if qa > 0 else math.nan, *percentile_interval(ratio_reps), na + nb),
        "Mann-Whitney U",
        float(test.statistic),
        float(test.pvalue),
        "rank-biserial r",
        float(2 * test.statistic / (na * nb) - 1),
        float(test.pvalue),
    )


def _rate_counts(lf: pl.LazyFrame, spec: MetricSpec) -> tuple[int, int]:
    status = status_expr(lf)
    if spec.kind == "seat":
        won = status == "won"
        hit = won & (pl.col("winner").cast(pl.Int64) == spec.seat)
        row = lf.select(hit.sum().alias("x"), won.sum().alias("n")).collect().row(0)
    else:
        row = lf.select((status == spec.status).sum().alias("x"), pl.len()).collect().row(0)
    return int(row[0]), int(row[1])


def _compare_rates(a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec) -> MetricComparison:
    (xa, na), (xb, nb) = _rate_counts(a_lf, spec), _rate_counts(b_lf, spec)
    require_rows(min(na, nb), "won rounds" if spec.kind == "seat" else "rounds")
    a, b = proportion(xa, na), proportion(xb, nb)
    diff = b.value - a.value
    # Newcombe (1998) method 10: hybrid score interval from the two Wilson intervals.
    low = diff - math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2)
    high = diff + math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2)
    ratio, r_low, r_high = math.nan, math.nan, math.nan
    if xa > 0:
        rr = relative_risk(xb, nb, xa, na)
        ci = rr.confidence_interval(LEVEL)
        ratio, r_low, r_high = float(rr.relative_risk), float(ci.low), float(ci.high)
    if xa + xb in (0, na + nb):  # both rates 0 or both 1: nothing to test
        stat, p = 0.0, 1.0
    else:
        chi2, p, _, _ = st.chi2_contingency([[xb, nb - xb], [xa, na - xa]], correction=False)
        stat, p = math.copysign(math.sqrt(chi2), diff), float(p)
    h = 2 * math.asin(math.sqrt(b.value)) - 2 * math.asin(math.sqrt(a.value))
    return MetricComparison(
        spec.key,
        spec.label,
        spec.kind,
        "",
        a,
        b,
        Estimate(diff, low, high, na + nb),
        Estimate(ratio, r_low, r_high, na + nb),
        "two-proportion z",
        float(stat),
        float(p),
        "Cohen's h",
        h,
        float(p),
    )


def compare_metric(
    a_lf: pl.LazyFrame,
    b_lf: pl.LazyFrame,
    metric: str,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> MetricComparison:
    """Compare ``metric`` of run b against baseline a (see the module doc for the methods).

    Per-seat metrics raise :class:`ResultsError` when the runs seat different player counts.
    """
    spec = metric_spec(metric)
    if spec.column is not None:
        for lf in (a_lf, b_lf):
            if spec.column not in lf.collect_schema().names():
                raise ResultsError(f"cannot compare {spec.label}: no column {spec.column!r}")
    if spec.kind == "mean":
        return _compare_means(a_lf, b_lf, spec)
    if spec.kind == "quantile":
        return _compare_quantiles(a_lf, b_lf, spec, resamples, seed)
    if spec.kind == "seat":
        _require_same_players(a_lf, b_lf, spec.label)
    return _compare_rates(a_lf, b_lf, spec)


def seat_win_rate_difference(
    a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, seat: int = 0
) -> MetricComparison:
    """Seat ``seat``'s share of won rounds, b against a; different player counts raise."""
    return compare_metric(a_lf, b_lf, f"seat{seat}_win_rate")


def with_holm(comparisons: Sequence[MetricComparison]) -> list[MetricComparison]:
    """The comparisons with Holm-adjusted p-values over the whole family."""
    adjusted = holm([c.p for c in comparisons])
    return [
        replace(c, p_holm=float(p), family=len(comparisons))
        for c, p in zip(comparisons, adjusted, strict=True)
    ]


def _signed(x: float, digits: int) -> str:
    """``x`` with an explicit sign, never "-0.00"."""
    if not math.isfinite(x):
        return "n/a"
    rounded = round(x, digits) or 0.0
    return f"{rounded:+.{digits}f}"


def _pcts(*xs: float) -> list[str]:
    """Percentages with one shared precision (2 decimals when all are below 1), no "-0.0"."""
    digits = 1 if max(abs(x) for x in xs) >= 1 else 2
    return [f"{round(x, digits) or 0.0:.{digits}f}" for x in xs]


def _number(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def verdict(
    c: MetricComparison,
    a_name: str,
    b_name: str,
    players: int | None = None,
    alpha: float = 0.05,
) -> str:
    """One plain-words line: the effect of b against baseline a on ``c``'s metric.

    Uses the Holm-corrected p; at ``p >= alpha`` it says "no detectable difference".
    """
    n_a, n_b = c.baseline.n, c.other.n
    n_text = f"n = {n_a:,} each" if n_a == n_b else f"n = {n_a:,} and {n_b:,}"
    p_text = format_p(c.p_holm)
    if c.family > 1:
        p_text = "Holm " + p_text
    tail = f"{p_text}, {n_text}"
    rate = c.kind in ("rate", "seat")
    if rate:
        pp = [100 * v for v in (c.difference.value, c.difference.low, c.difference.high)]
        change = (
            f"{_signed(pp[0], 2)} percentage points, "
            f"95% CI {_signed(pp[1], 2)} to {_signed(pp[2], 2)}"
        )
    elif math.isfinite(c.ratio.value):
        pct = [100 * (v - 1) for v in (c.ratio.value, c.ratio.low, c.ratio.high)]
        change = f"{_signed(pct[0], 1)}%, 95% CI {_signed(pct[1], 1)} to {_signed(pct[2], 1)}%"
    else:
        d = c.difference
        change = f"{d.value:+.3g} {c.unit}, 95% CI {d.low:+.3g} to {d.high:+.3g}".strip()
    if not (c.p_holm < alpha):
        return f"{b_name} vs {a_name}: no detectable difference in {c.label} ({change}; {tail})."
    if rate:
        word = "raises" if c.difference.value > 0 else "lowers"
        return (
            f"{b_name} {word} the {c.label} from {100 * c.baseline.value:.2f}% to "
            f"{100 * c.other.value:.2f}% against {a_name} ({change}; {tail})."
        )
    if c.difference.value == 0:
        return (
            f"{b_name} vs {a_name}: same {c.label} ({_number(c.other.value)} {c.unit}) but the "
            f"distributions differ ({c.effect_name} = {c.effect:+.3f}; {tail})."
        )
    up = c.difference.value > 0
    if not math.isfinite(c.ratio.value):
        word = "higher" if up else "lower"
        return f"{b_name} has a {word} {c.label} than {a_name} ({change}; {tail})."
    lo, hi = (100 * (v - 1) for v in (c.ratio.low, c.ratio.high))
    if not up:
        lo, hi = -hi, -lo
    size, lo_text, hi_text = _pcts(abs(100 * (c.ratio.value - 1)), lo, hi)
    size, ci = f"{size}%", f"95% CI {lo_text} to {hi_text}%"
    if c.unit in ("turns", "rounds"):
        subject = (
            "matches"
            if c.unit == "rounds"
            else (f"{players}-player rounds" if players else "rounds")
        )
        word = "longer" if up else "shorter"
        return f"{b_name} makes {subject} {size} {word} than {a_name} in {c.label} ({ci}, {tail})."
    word = "higher" if up else "lower"
    return f"{b_name} has {size} {word} {c.label} than {a_name} ({ci}, {tail})."


@dataclass(frozen=True)
class RunComparison:
    """One metric of one run against the baseline run, with its verdict line."""

    baseline: Run
    run: Run
    comparison: MetricComparison
    verdict: str


def compare_runs(
    runs: Sequence[Run], metrics: Sequence[str] | None = None
) -> tuple[list[RunComparison], list[str]]:
    """Every run after the first against ``runs[0]``, Holm-corrected over all comparisons.

    Without ``metrics``: :data:`DEFAULT_METRICS` (plus match length when both runs play
    matches), skipping per-seat metrics where player counts differ (returned as notes).
    Metrics asked for by name are never skipped: a per-seat one then raises ResultsError.
    """
    if len(runs) < 2:
        raise ResultsError("compare needs at least two runs (a baseline and one more)")
    base = runs[0]
    base_lf = base.scan()
    base_matches = has_matches(base_lf)
    pending: list[tuple[Run, MetricComparison]] = []
    notes: list[str] = []
    for other in runs[1:]:
        lf = other.scan()
        wanted = (
            list(metrics)
            if metrics
            else [*DEFAULT_METRICS, *(MATCH_METRICS if base_matches and has_matches(lf) else ())]
        )
        for metric in wanted:
            spec = metric_spec(metric)
            if not metrics and spec.per_seat and base.players != other.players:
                notes.append(
                    f"{spec.label} not compared for {other.name}: {other.players} players "
                    f"against {base.players} in {base.name}."
                )
                continue
            pending.append((other, compare_metric(base_lf, lf, metric)))
    adjusted = with_holm([c for _, c in pending])
    out = []
    for (other, _), c in zip(pending, adjusted, strict=True):
        players = base.players if base.players == other.players else None
        out.append(RunComparison(base, other, c, verdict(c, base.name, other.name, players)))
    return out, notes

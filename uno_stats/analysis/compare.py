"""Rule effect: one metric between two runs, as difference and ratio with intervals and a test.

Metric names (:func:`uno_stats.analysis.metrics.metric_spec`): ``mean_<column>``,
``median_<column>``, ``p<NN>_<column>``, ``dist_<column>`` (do the distributions differ),
``won_rate`` / ``void_rate`` / ``capped_rate``, ``seat<K>_win_rate`` (seat K's share of
won rounds), ``first_mover_win_rate`` (the share won by whoever moved first),
``first_mover_edge`` (that share minus 1/players) and ``comeback<K>_rate`` (winners among
the seat-rounds of won rounds K or more cards behind).

Pairing (common random numbers): every game's random stream depends only on (seed, game
index), so two runs with the same seed and game count start game k from the same deal.
Such runs are *paired*: rows are joined on ``game`` (and ``round``; match length on
``game``) and the paired method is used. Reading: the chunk size is not compared, since
the runner derives each game's stream from (seed, game index) alone, whatever the
chunking. Methods (one function per kind in :mod:`uno_stats.analysis.two_sample`, formulas
in :mod:`uno_stats.analysis.methods` and :mod:`uno_stats.analysis.quantile_diff`):

=============  =====================================  =========================================
metric         independent runs                       paired runs
=============  =====================================  =========================================
mean           Welch t                                paired t
rate           Newcombe hybrid score + 2-prop. z      Newcombe paired (method 10) + McNemar
comeback       Newcombe hybrid score + 2-prop. z      delta method by game (:mod:`.ratios`)
quantile       mid-quantile d +- z x bootstrap SE     the same, game indices resampled
distribution   Mann-Whitney U (rank-biserial r)       Wilcoxon signed-rank (matched-pairs r)
ratio          delta method on the log ratio / Katz   delta method with the covariance
=============  =====================================  =========================================

Seat and first-mover rates count won rounds (paired: the games won in both runs); the
first mover's edge shifts the win rate's estimates by 1/players (and, between different
player counts, its difference by 1/players_b - 1/players_a, tested by a z statistic).

Holm families are per question (round length, cards drawn, round outcome, seat advantage,
first mover, comebacks, match length) and per pair of runs; metrics that are zero in both
runs, or identical in every paired game, get no test and stay out of the family. Baseline
is ``a``: differences are b - a and ratios b / a.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import polars as pl

from uno_stats.analysis.estimates import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, has_matches, holm
from uno_stats.analysis.metrics import (
    RATE_KINDS,
    Equivalence,
    Margin,
    MetricComparison,
    metric_spec,
)
from uno_stats.analysis.paired_rows import PairedWindows, paired_joint
from uno_stats.analysis.quantile_diff import PairedResamples
from uno_stats.analysis.two_sample import (
    compare_distributions,
    compare_means,
    compare_paired_ratio,
    compare_quantiles,
    compare_rates,
    shift_edge,
)
from uno_stats.errors import ResultsError
from uno_stats.store.runs import Run

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
    bound = margin.absolute(c.baseline.value, c.kind in RATE_KINDS)
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
    cache: dict[tuple[str, int, int], PairedResamples] | None = None,
    windows: PairedWindows | None = None,
) -> MetricComparison:
    """Compare ``metric`` of run b against baseline a (see the module doc for the methods).

    ``cache``: a dict shared by calls on the same two runs, so every quantile of a column
    is read from one set of paired bootstrap draws.

    ``paired``: the runs share seed and game count; rows are joined on game (and round)
    and the paired method is used; if the rows do not line up one to one (match rounds
    that exist in one run only), the independent method is used and ``note`` says so.
    ``windows``: the two runs' rows a window of games at a time
    (:meth:`PairedWindows.of_runs`), so that paired rows are never all in memory; default:
    the two frames whole.
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
        pairs = paired_joint(windows or PairedWindows.whole(a_lf, b_lf), spec)
        if pairs is None:
            note = "rows do not line up game by game (matches of different lengths), so independent"
        elif spec.kind == "comeback":
            c = compare_paired_ratio(spec, pairs)
            return replace(c, equivalence=equivalence(c, margin)) if margin is not None else c
    if spec.kind == "mean":
        c = compare_means(a_lf, b_lf, spec, pairs)
    elif spec.kind == "quantile":
        c = compare_quantiles(a_lf, b_lf, spec, pairs, resamples, seed, cache)
    elif spec.kind == "distribution":
        c = compare_distributions(a_lf, b_lf, spec, pairs)
    else:
        c = compare_rates(a_lf, b_lf, spec, pairs)
    if spec.kind == "first_mover_edge":
        c = shift_edge(c, *(1 / _one_player_count(lf) for lf in (a_lf, b_lf)))
    if margin is not None:
        c = replace(c, equivalence=equivalence(c, margin))
    return replace(c, note=note) if note else c


def _one_player_count(lf: pl.LazyFrame) -> int:
    counts = _players(lf)
    if len(counts) != 1:
        raise ResultsError("the first mover's edge needs one player count per run")
    return counts.pop()


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
        cache: dict[tuple[str, int, int], PairedResamples] = {}
        windows = PairedWindows.of_runs(base, other) if pairing.paired else None
        for metric in wanted:
            spec = metric_spec(metric)
            if not metrics and spec.per_seat and base.players != other.players:
                notes.append(
                    f"{spec.label} not compared for {other.name}: {other.players} players "
                    f"against {base.players} in {base.name}."
                )
                continue
            found.append(
                compare_metric(
                    base_lf,
                    lf,
                    metric,
                    paired=pairing.paired,
                    margin=margin,
                    cache=cache,
                    windows=windows,
                )
            )
        for question in dict.fromkeys(c.question for c in found):
            family = with_holm([c for c in found if c.question == question])
            out.extend(RunComparison(base, other, pairing, c) for c in family)
    return out, notes

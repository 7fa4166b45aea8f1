"""``settle``: run two scenarios paired, batch by batch, until the answer is decided.

Both scenarios are run with the same seed (so game k of each starts from the same deal)
and grown one batch of games at a time through :func:`uno_stats.run.runner.run_scenario`.
After every batch the paired differences d_k = b_k - a_k update an anytime-valid
confidence sequence (:mod:`uno_stats.analysis.sequential`); for a quantile metric
(``median_COL``, ``pNN_COL``) each run's values update a time-uniform band on its
mid-quantile instead (:mod:`uno_stats.analysis.sequential_quantiles`, alpha / 2 per run,
combined into a conservative interval of the difference). The loop stops as soon as it
decides (``different`` / ``same``) or at ``max_games`` (``undecided``). The runs stay on
disk, as ordinary (incomplete) results folders for ``summary``, ``compare`` and ``report``.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from tqdm import tqdm

from uno_stats.analysis.metrics import Margin, MetricSpec, metric_spec
from uno_stats.analysis.quantiles import mid_quantile
from uno_stats.analysis.sequential import (
    ALPHA,
    RunningMoments,
    confidence_sequence,
    decide,
    rho_squared,
)
from uno_stats.analysis.sequential_quantiles import RunningCounts, difference_bounds
from uno_stats.errors import RunError
from uno_stats.run.results import Run, part_path
from uno_stats.run.runner import run_scenario
from uno_stats.run.scenario import Scenario, with_overrides

SETTLE_METRICS = (
    "mean_COL (e.g. mean_turns, mean_cards_drawn), median_COL, pNN_COL (e.g. p90_turns), "
    "won_rate, void_rate, capped_rate"
)
DEFAULT_BATCH = 20_000
DEFAULT_MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class SettleResult:
    """What ``settle`` decided: b - a on the metric, its confidence sequence, games, time.

    ``mean_a`` / ``mean_b``: each run's value of the metric (its mid-quantile for a
    quantile metric)."""

    metric: MetricSpec
    a: Run
    b: Run
    outcome: str  # "different", "same" or "undecided"
    mean_a: float
    mean_b: float
    estimate: float
    low: float
    high: float
    games: int
    max_games: int
    seconds: float
    bound: float | None
    margin: Margin | None
    changed_games: int


def _check(spec: MetricSpec, s: Scenario) -> None:
    if s.sweep_points():
        raise RunError(f"settle compares two single scenarios; {s.name} is a sweep or tournament")
    if spec.kind not in ("mean", "rate", "quantile"):
        raise RunError(
            f"settle decides means, rates and quantiles ({SETTLE_METRICS}), not {spec.key}"
        )
    if s.match_target is not None and spec.column != "match_rounds":
        raise RunError(
            f"{s.name} plays matches, whose rounds do not line up game by game: settle "
            "mean_match_rounds instead"
        )


def _values(run_dir: Path, chunk: int, spec: MetricSpec) -> pl.DataFrame:
    """The metric's value per game in one chunk's part: columns game, v."""
    lf = pl.scan_parquet(part_path(run_dir, chunk))
    if spec.kind == "rate":
        value = (pl.col("status").cast(pl.String) == spec.status).cast(pl.Float64)
    else:
        value = pl.col(str(spec.column)).cast(pl.Float64)
    if spec.column == "match_rounds":
        lf = lf.filter(pl.col("match_rounds").is_not_null())
    names = lf.collect_schema().names()
    if spec.column is not None and spec.column not in names:
        raise RunError(f"cannot settle {spec.label}: no column {spec.column!r} in the results")
    return lf.select("game", value.alias("v")).collect()


def settle(
    a: Scenario,
    b: Scenario,
    metric: str = "mean_turns",
    margin: Margin | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    batch: int = DEFAULT_BATCH,
    alpha: float = ALPHA,
    out_dir: str | Path = "results/settle",
    workers: int | None = None,
    progress: bool = True,
    fresh: bool = False,
) -> SettleResult:
    """Run ``a`` and ``b`` paired (b takes a's seed) in batches until decided or ``max_games``.

    The decision uses the (1 - alpha) asymptotic confidence sequence of the mean paired
    difference b - a (see :mod:`uno_stats.analysis.sequential`), tuned to be tightest near
    sqrt(batch x max_games) games (a reading: halfway, on a log scale, between the first
    look and the last). A quantile metric uses the time-uniform band of each run's
    mid-quantile instead (:func:`uno_stats.analysis.sequential_quantiles.difference_bounds`,
    valid from the first look on). A relative margin is taken of a's running value. Runs go to
    ``out_dir/<name>/`` with chunks of ``batch`` games. Batches already on disk from an
    earlier settle of the same scenarios (same ``max_games`` and ``batch``) are reused; a
    folder holding other results is an error unless ``fresh`` (which clears it first).
    """
    spec = metric_spec(metric)
    if a.name == b.name:
        raise RunError(f"both scenarios are named {a.name!r}; settle needs two names")
    if max_games < 1 or batch < 1:
        raise RunError("max games and batch must be at least 1")
    batch = min(batch, max_games)
    for s in (a, b):
        _check(spec, s)
    a = with_overrides(a, games=max_games)
    b = with_overrides(b, games=max_games, seed=a.seed)
    rho2 = rho_squared(math.sqrt(batch * max_games), alpha)
    diffs, ma, mb = RunningMoments.empty(), RunningMoments.empty(), RunningMoments.empty()
    seen_a, seen_b = RunningCounts(), RunningCounts()
    changed = 0
    started = time.perf_counter()
    bar = tqdm(
        total=max_games,
        unit="game",
        unit_scale=True,
        desc=f"settle {spec.key}",
        file=sys.stderr,
        disable=None if progress else True,
        dynamic_ncols=True,
    )
    outcome, low, high, bound = "undecided", math.nan, math.nan, None
    estimate = value_a = value_b = math.nan
    runs: list[Run] = []
    try:
        for look, limit in enumerate(range(batch, max_games + batch, batch)):
            limit = min(limit, max_games)
            runs = [
                run_scenario(
                    s,
                    out_dir=out_dir,
                    workers=workers,
                    progress=False,
                    chunk_size=batch,
                    fresh=fresh and look == 0,
                    games_limit=limit,
                ).runs[0]
                for s in (a, b)
            ]
            va, vb = (_values(r.path, look, spec) for r in runs)
            joined = va.join(vb, on="game", how="inner", suffix="_b")
            if not (joined.height == va.height == vb.height):
                raise RunError(f"batch {look}: the two runs' games do not line up")
            x, y = joined["v"].to_numpy(), joined["v_b"].to_numpy()
            diffs.update(y - x)
            ma.update(x)
            mb.update(y)
            changed += int(np.count_nonzero(y != x))
            if spec.kind == "quantile":
                assert spec.q is not None
                seen_a.update(x)
                seen_b.update(y)
                estimate, lo, hi = difference_bounds(seen_a, seen_b, spec.q, alpha, batch)
                spread = 1.0  # Reading: the band is never degenerate, so it may decide
                baseline = mid_quantile(seen_a.values, seen_a.counts, spec.q)
                value_a, value_b = baseline, baseline + estimate
            else:
                cs_low, cs_high = confidence_sequence(diffs, rho2, alpha)
                lo, hi = float(cs_low), float(cs_high)
                estimate, spread, baseline = float(diffs.mean), float(diffs.sd), float(ma.mean)
                value_a, value_b = float(ma.mean), float(mb.mean)
            low, high = float(lo), float(hi)
            bound = None if margin is None else margin.absolute(baseline, spec.kind == "rate")
            bar.update(joined.height)
            bar.set_postfix_str(f"d={estimate:+.4g} [{low:+.4g}, {high:+.4g}]")
            decision = str(decide(np.array(lo), np.array(hi), np.array(spread), bound))
            if decision:
                outcome = decision
                break
    finally:
        bar.close()
    return SettleResult(
        metric=spec,
        a=runs[0],
        b=runs[1],
        outcome=outcome,
        mean_a=value_a,
        mean_b=value_b,
        estimate=estimate,
        low=low,
        high=high,
        games=int(diffs.n),
        max_games=max_games,
        seconds=time.perf_counter() - started,
        bound=bound,
        margin=margin,
        changed_games=changed,
    )

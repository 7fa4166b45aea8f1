"""Metrics as ratios of per-game counts, and the paired difference of two such ratios.

Every metric ``settle`` decides by a confidence sequence, and the comeback rate of a paired
``compare``, is a ratio R = sum(num_i) / sum(den_i) over games i (the deal is the unit
that two paired runs share): a mean has den_i = the rounds of game i (1 for single rounds),
a rate of rounds the same with num_i = the rounds with that status, a seat's or the first
mover's share of won rounds num_i = those rounds' wins and den_i = the won rounds, a
comeback rate num_i = the winners that were K or more cards behind and den_i = the seats
that were (seat-rounds of won rounds, as in ``summary``).

Paired runs (same seed: game i of each starts from the same deal): by the delta method the
difference R_b - R_a behaves as the mean of the per-game influences

    z_i = (num_b,i - R_b den_b,i) / mean(den_b) - (num_a,i - R_a den_a,i) / mean(den_a),

so its standard error is sd(z) / sqrt(n); for den_i = 1 this is the paired t's sd of
b_i - a_i. :class:`RatioMoments` keeps the running mean and covariance of
(num_a, den_a, num_b, den_b), from which ``settle`` reads the estimate and sd(z) after every
batch without keeping the games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from uno_stats.analysis.estimates import status_expr
from uno_stats.analysis.metrics import MetricSpec

RATIO_KINDS = ("mean", "rate", "seat", "comeback", "first_mover", "first_mover_edge", "chain")
"""Metric kinds that are ratios of per-game counts (quantiles and distributions are not)."""


def _count_exprs(lf: pl.LazyFrame, spec: MetricSpec) -> tuple[pl.Expr, pl.Expr]:
    """Per-round numerator and denominator expressions of ``spec`` (see the module doc)."""
    one = pl.lit(1, pl.Float64)
    if spec.kind == "mean":
        col = pl.col(str(spec.column)).cast(pl.Float64)
        return col, pl.when(col.is_not_null()).then(one)
    if spec.kind == "chain":
        return (pl.col("longest_stack") >= int(spec.behind or 0)).cast(pl.Float64), one
    status = status_expr(lf)
    if spec.kind == "rate":
        return (status == spec.status).cast(pl.Float64), one
    won = (status == "won").cast(pl.Float64)
    winner = pl.col("winner").cast(pl.Int64)
    if spec.kind == "seat":
        return won * (winner == spec.seat).cast(pl.Float64).fill_null(0), won
    if spec.kind in ("first_mover", "first_mover_edge"):
        first = pl.col("first_player").cast(pl.Int64)
        return won * (winner == first).cast(pl.Float64).fill_null(0), won
    if spec.kind == "comeback":
        k = int(spec.behind or 0)
        behind = pl.col("max_deficit").list.eval(pl.element() >= k).list.sum().cast(pl.Float64)
        at_winner = pl.col("max_deficit").list.get(winner.clip(0), null_on_oob=True) >= k
        return won * at_winner.cast(pl.Float64).fill_null(0), won * behind.fill_null(0)
    raise ValueError(f"{spec.key} is not a ratio of per-game counts")


def game_counts(lf: pl.LazyFrame, spec: MetricSpec, by: tuple[str, ...] = ()) -> pl.DataFrame:
    """Columns ``game``, ``num``, ``den``: the metric's counts per game, in game order (``by``:
    columns before ``game``, such as a sweep's ``point``, grouped and sorted by too)."""
    if spec.column is not None and spec.column not in lf.collect_schema().names():
        raise ValueError(f"no column {spec.column!r} in the results")
    num, den = _count_exprs(lf, spec)
    keys = [*by, "game"]
    return (
        lf.select(*keys, num.alias("num"), den.alias("den"))
        .group_by(keys)
        .agg(pl.col("num").sum(), pl.col("den").sum())
        .sort(keys)
        .collect()
    )


def fair_share(players: int, spec: MetricSpec) -> float:
    """What ``first_mover_edge`` subtracts from the first mover's share (1/players); else 0."""
    return 1 / players if spec.kind == "first_mover_edge" else 0.0


@dataclass
class RatioMoments:
    """Running mean and covariance of (num_a, den_a, num_b, den_b) over paired games."""

    n: int = 0
    mean: np.ndarray | None = None
    m2: np.ndarray | None = None

    def update(self, rows: np.ndarray, times: np.ndarray | None = None) -> None:
        """Add games: ``rows`` of shape (k, 4), columns num_a, den_a, num_b, den_b; with
        ``times``, row i stands for ``times[i]`` games alike."""
        x = np.asarray(rows, dtype=np.float64)
        if times is None:
            k = x.shape[0]
            if k == 0:
                return
            bm = x.mean(axis=0)
            dev = x - bm
            bm2 = dev.T @ dev
        else:
            w = np.asarray(times, dtype=np.float64)
            k = int(w.sum())
            if k == 0:
                return
            bm = w @ x / k
            dev = x - bm
            bm2 = (dev * w[:, None]).T @ dev
        if self.mean is None or self.m2 is None:
            self.n, self.mean, self.m2 = k, bm, bm2
            return
        total = self.n + k
        delta = bm - self.mean
        self.mean = self.mean + delta * k / total
        self.m2 = self.m2 + bm2 + np.outer(delta, delta) * self.n * k / total
        self.n = total

    def ratios(self) -> tuple[float, float]:
        """R_a and R_b (NaN while a denominator is still zero)."""
        if self.mean is None:
            return math.nan, math.nan
        na, da, nb, db = (float(v) for v in self.mean)
        return (na / da if da > 0 else math.nan), (nb / db if db > 0 else math.nan)

    def difference(self) -> tuple[float, float]:
        """R_b - R_a and sd(z) of the per-game influences (module doc; NaN below 2 games)."""
        ra, rb = self.ratios()
        if self.mean is None or self.m2 is None or not (math.isfinite(ra) and math.isfinite(rb)):
            return math.nan, math.nan
        if self.n < 2:
            return rb - ra, math.nan
        da, db = float(self.mean[1]), float(self.mean[3])
        c = np.array([-1 / da, ra / da, 1 / db, -rb / db])
        var = float(c @ (self.m2 / (self.n - 1)) @ c)
        return rb - ra, math.sqrt(max(var, 0.0))


def paired_ratio(
    counts: np.ndarray, times: np.ndarray | None = None
) -> tuple[float, float, float, float, float]:
    """R_a, R_b, R_b - R_a, its standard error and the standard error of log(R_b / R_a),
    from (games, 4) counts num_a, den_a, num_b, den_b (delta method, see the module doc);
    ``times``: how many games each row stands for (distinct rows of many games)."""
    m = RatioMoments()
    m.update(counts, times)
    ra, rb = m.ratios()
    d, sd = m.difference()
    n = max(m.n, 1)
    se = sd / math.sqrt(n)
    if not (ra > 0 and rb > 0) or m.mean is None or m.m2 is None or m.n < 2:
        return ra, rb, d, se, math.nan
    da, db = float(m.mean[1]), float(m.mean[3])
    c = np.array([-1 / (ra * da), 1 / da, 1 / (rb * db), -1 / db])
    var = float(c @ (m.m2 / (m.n - 1)) @ c)
    return ra, rb, d, se, math.sqrt(max(var, 0.0) / n)

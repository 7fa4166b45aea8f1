"""The main answers of every point of a sweep at once: what its short summary shows.

A sweep's short summary (:mod:`uno_stats.present.points_summary`, what ``run`` prints) shows
each point's rounds, mean, median and p90 turns, seat 0's win share and its void and capped
rates, and its Answers quote each point's mean round length, first mover's edge and mean
match length. :func:`point_answers` reads them for every point in one grouped aggregation
over the points' rows (:func:`~uno_stats.store.runs.points_scan`: a sweep dataset's parts
scanned once, grouped by ``point``) instead of a view and a dozen queries per point. Each
figure is the one :func:`~uno_stats.analysis.questions.answer_run` gives for the point: the
same counts into the same formulas (``tests/analysis/test_point_answers.py``). The median
and p90 and their bootstrap intervals, the costly part, are computed when first read: the
summary shows at most 40 points' rows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import polars as pl

from uno_stats.analysis.estimates import (
    Estimate,
    has_column,
    mean_estimate,
    proportion,
    require_rows,
    status_expr,
)
from uno_stats.analysis.quantiles import quantile_estimates
from uno_stats.analysis.questions import RunAnswers, StatusCounts
from uno_stats.engine.schema import STATUS_NAMES
from uno_stats.store.parts import POINT
from uno_stats.store.runs import Run, points_scan

SHOWN_QUANTILES = (0.5, 0.9)
"""The quantiles of the points table (a run's :data:`~uno_stats.analysis.questions.QUANTILES`
bootstrap draws the same resamples whichever quantiles it is asked for)."""


@dataclass(frozen=True, eq=False)
class PointLength:
    """A point's round length: rounds, mean (t interval) and, when read, the median and p90
    (mid-quantiles with bootstrap-SE intervals) from its exact histogram."""

    n: int
    mean: Estimate
    values: np.ndarray  # distinct values, ascending
    counts: np.ndarray  # how often each occurs

    @cached_property
    def _quantiles(self) -> list[Estimate]:
        return quantile_estimates(self.values, self.counts, SHOWN_QUANTILES)

    @property
    def median(self) -> Estimate:
        """The median (a mid-quantile) with its 95% interval."""
        return self._quantiles[0]

    @property
    def p90(self) -> Estimate:
        """The 90th percentile (a mid-quantile) with its 95% interval."""
        return self._quantiles[1]


@dataclass(frozen=True)
class PointAnswers:
    """The main answers of one point (see the module doc); None where the point cannot
    answer (no won round, no finished match)."""

    run: Run
    status: StatusCounts
    length: PointLength
    seat0: Estimate | None
    first_mover_edge: Estimate | None
    mean_match_rounds: Estimate | None


Answered = RunAnswers | PointAnswers
"""A point's answers, all of them or the main ones."""


def _aggregations(frame: pl.LazyFrame) -> list[pl.Expr]:
    """Per point: rows by status, the turns' count, mean and sd, the won rounds' seat-0
    wins and first-mover wins, and the finished matches' count, mean and sd."""
    status = status_expr(frame)
    won = status == "won"
    winner = pl.col("winner").cast(pl.Int64)
    out = [
        pl.len().alias("rows"),
        *((status == s).sum().alias(s) for s in STATUS_NAMES),
        pl.col("turns").drop_nulls().len().alias("n"),
        pl.col("turns").mean().alias("mean"),
        pl.col("turns").std().alias("sd"),
        winner.filter(won).drop_nulls().len().alias("seat_n"),
        (winner == 0).filter(won).sum().alias("seat0"),
        (winner == pl.col("first_player").cast(pl.Int64)).filter(won).sum().alias("first_wins"),
    ]
    if has_column(frame, "match_rounds"):
        rounds = pl.col("match_rounds")
        out += [
            rounds.drop_nulls().len().alias("match_n"),
            rounds.mean().alias("match_mean"),
            rounds.std().alias("match_sd"),
        ]
    return out


def point_answers(runs: Sequence[Run]) -> list[PointAnswers]:
    """The main answers of each of ``runs`` (the points of a sweep), in order, from one
    grouped aggregation of their rows and one exact histogram of their turns."""
    columns = ["status", "turns", "winner", "first_player"]
    if has_column(runs[0].scan(), "match_rounds"):
        columns.append("match_rounds")
    frame = points_scan(runs, columns)
    scalars, histogram = pl.collect_all(
        [
            frame.group_by(POINT).agg(_aggregations(frame)).sort(POINT),
            frame.select(POINT, pl.col("turns").cast(pl.Float64).alias("v"))
            .drop_nulls("v")
            .group_by(POINT, "v")
            .agg(pl.len().alias("k"))
            .sort(POINT, "v"),
        ]
    )
    held = histogram[POINT].to_numpy()
    starts = np.searchsorted(held, np.arange(len(runs) + 1))
    values, counts = histogram["v"].to_numpy(), histogram["k"].to_numpy().astype(np.int64)
    by_point = {int(row[POINT]): row for row in scalars.iter_rows(named=True)}
    out = []
    for position, run in enumerate(runs):
        row = by_point.get(position)
        require_rows(0 if row is None else int(row["rows"]), f"rounds of {run.path}")
        assert row is not None
        span = slice(starts[position], starts[position + 1])
        out.append(_answers(run, row, values[span], counts[span]))
    return out


def _answers(run: Run, row: dict, values: np.ndarray, counts: np.ndarray) -> PointAnswers:
    """One point's answers from its aggregated ``row`` and its turns' histogram, as
    :func:`~uno_stats.analysis.questions.answer_run` computes them."""
    n = int(row["rows"])
    won, void, capped, exhausted = (int(row[s]) for s in STATUS_NAMES)
    status = StatusCounts(
        n,
        proportion(won, n),
        proportion(void, n),
        proportion(capped, n),
        proportion(exhausted, n),
        (won, void, capped, exhausted),
    )
    rounds = int(row["n"])
    require_rows(rounds, "values of turns")
    sd = float(row["sd"]) if row["sd"] is not None else math.nan
    length = PointLength(rounds, mean_estimate(float(row["mean"]), sd, rounds), values, counts)
    seat0 = edge = None
    if won > 0:  # answer_run asks seats and the first mover only of runs with a won round
        seat0 = proportion(int(row["seat0"]), int(row["seat_n"]))
        share = proportion(int(row["first_wins"]), won)
        fair = 1 / run.players
        edge = Estimate(share.value - fair, share.low - fair, share.high - fair, won)
    match = None
    if row.get("match_n"):
        match_sd = float(row["match_sd"]) if row["match_sd"] is not None else math.nan
        match = mean_estimate(float(row["match_mean"]), match_sd, int(row["match_n"]))
    return PointAnswers(run, status, length, seat0, edge, match)

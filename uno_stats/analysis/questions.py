"""Answers to the questions of SCENARIO.md, one function per question.

Every function takes a polars ``LazyFrame`` of result rows (``Run.scan()``) and does its
aggregation in polars; intervals and tests come from ``scipy.stats`` through
:mod:`uno_stats.analysis.estimates`. Results are small frozen dataclasses. Conventions:

- Round length uses every round (won, void and capped; a capped round counts its
  ``max_turns``). Quantiles are mid-quantiles with bootstrap-SE normal intervals.
- Seat, comeback, deficit and strategy questions (:mod:`uno_stats.analysis.seats`) use won
  rounds only; see that module for the points conventions.

Other question families live in their own modules (seats, first mover, round events,
tournaments); :func:`answer_run` gathers what one run can answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from uno_stats.analysis import tally_answers
from uno_stats.analysis.estimates import (
    ChiSquare,
    Estimate,
    chi_square_equal,
    has_matches,
    mean_estimate,
    proportion,
    proportions,
    require_rows,
    status_expr,
    value_counts,
    wilson,
)
from uno_stats.analysis.first_mover import FirstMover, first_mover_counts
from uno_stats.analysis.quantiles import quantile_estimates
from uno_stats.analysis.round_events import RoundEvents, round_events
from uno_stats.analysis.row_counts import FrameCounts, RowCounts, TallyCounts, counts_mean_sd
from uno_stats.analysis.seats import (
    ComebackCurve,
    DeficitTable,
    PointsEdge,
    SeatWinRates,
    StrategyRow,
    wins_by_seat,
)
from uno_stats.engine.schema import STATUS_NAMES
from uno_stats.errors import ResultsError
from uno_stats.store.runs import Run
from uno_stats.store.tally_sums import Tallies, run_tallies

QUANTILES: tuple[float, ...] = (0.1, 0.5, 0.9, 0.99)


# --- round status and length ----------------------------------------------------------------


@dataclass(frozen=True)
class StatusCounts:
    """How many rounds were won, void, capped or exhausted, with Wilson intervals on the shares."""

    n: int
    won: Estimate
    void: Estimate
    capped: Estimate
    exhausted: Estimate
    counts: tuple[int, int, int, int]

    @property
    def shares(self) -> tuple[Estimate, Estimate, Estimate, Estimate]:
        """The four shares in the order of ``counts`` and ``STATUS_NAMES``."""
        return (self.won, self.void, self.capped, self.exhausted)


def status_counts(lf: pl.LazyFrame) -> StatusCounts:
    """Rounds by status: ``won``, ``void`` (deadlock remedy), ``capped`` (hit max_turns) and
    ``exhausted`` (``reshuffle: false``, the draw pile ran out; RULES.md S17)."""
    status = status_expr(lf)
    row = (
        lf.select(*((status == s).sum().alias(s) for s in STATUS_NAMES))
        .collect()
        .row(0, named=True)
    )
    return status_from_counts(tuple(int(row[s]) for s in STATUS_NAMES))


def status_from_counts(counts: Sequence[int]) -> StatusCounts:
    """:class:`StatusCounts` from the rounds of each status, in ``STATUS_NAMES`` order."""
    won, void, capped, exhausted = (int(c) for c in counts)
    n = won + void + capped + exhausted
    require_rows(n, "rounds")
    return StatusCounts(
        n,
        proportion(won, n),
        proportion(void, n),
        proportion(capped, n),
        proportion(exhausted, n),
        (won, void, capped, exhausted),
    )


@dataclass(frozen=True)
class LengthStats:
    """Distribution summary of a length column (turns, or rounds per match).

    ``mean`` carries a t interval; ``p10``, ``median``, ``p90`` and ``p99`` are
    mid-quantiles with bootstrap-SE normal intervals (:mod:`uno_stats.analysis.quantiles`:
    between two neighbouring whole numbers when the data are whole numbers). ``mode`` is the
    most frequent value (the smallest on a tie) and ``mode_share`` its share (Wilson).
    """

    column: str
    n: int
    mean: Estimate
    sd: float
    p10: Estimate
    median: Estimate
    p90: Estimate
    p99: Estimate
    minimum: float
    maximum: float
    mode: float
    mode_share: Estimate


def round_length(source: pl.LazyFrame | RowCounts, column: str = "turns") -> LengthStats:
    """Mean (t interval), p10/median/p90/p99 (mid-quantiles), mode, min, max of ``column``,
    from its exact histogram (of the rows, or of a run's tallies)."""
    rows = FrameCounts(source) if isinstance(source, pl.LazyFrame) else source
    values, counts = rows.counts(column)
    n, mean, sd = counts_mean_sd(values, counts)
    require_rows(n, f"values of {column}")
    p10, median, p90, p99 = quantile_estimates(values, counts, QUANTILES)
    top = int(np.argmax(counts))  # first maximum: the smallest most frequent value
    return LengthStats(
        column,
        n,
        mean_estimate(mean, sd, n),
        sd,
        p10,
        median,
        p90,
        p99,
        float(values[0]),
        float(values[-1]),
        float(values[top]),
        proportion(int(counts[top]), n),
    )


@dataclass(frozen=True, eq=False)
class SurvivalCurve:
    """P(round still running after t turns) = P(turns > t) for t = 0..max_t, Wilson band."""

    t: np.ndarray
    survival: np.ndarray
    low: np.ndarray
    high: np.ndarray
    n: int


def survival_curve(
    lf: pl.LazyFrame, max_t: int | None = None, column: str = "turns"
) -> SurvivalCurve:
    """Empirical survival function of ``column`` with pointwise Wilson 95% intervals."""
    values, counts = value_counts(lf, column)
    n = int(counts.sum())
    require_rows(n, "rounds")
    top = int(values[-1]) if max_t is None else int(max_t)
    t = np.arange(0, top + 1)
    at_or_below = np.concatenate(([0], np.cumsum(counts)))[np.searchsorted(values, t, "right")]
    above = n - at_or_below
    rate, low, high = wilson(above, n)
    return SurvivalCurve(t, rate, low, high, n)


@dataclass(frozen=True, eq=False)
class Histogram:
    """Counts of ``column`` in bins ``[edges[i], edges[i+1])``;
    values past the last edge overflow."""

    edges: np.ndarray
    counts: np.ndarray
    overflow: int
    n: int


def turns_histogram(
    lf: pl.LazyFrame, width: int = 1, max_value: int | None = None, column: str = "turns"
) -> Histogram:
    """Histogram of ``column`` in bins of ``width`` from 0 up to ``max_value``
    (default: the max)."""
    binned = (
        lf.select((pl.col(column).drop_nulls() // width).cast(pl.Int64).alias("bin"))
        .group_by("bin")
        .agg(pl.len().alias("k"))
        .collect()
    )
    bins, k = binned["bin"].to_numpy(), binned["k"].to_numpy()
    n = int(k.sum())
    require_rows(n, "rounds")
    last = int(bins.max()) if max_value is None else int(max_value) // width
    counts = np.zeros(last + 1, dtype=np.int64)
    inside = bins <= last
    counts[bins[inside]] = k[inside]
    edges = np.arange(last + 2, dtype=np.float64) * width
    return Histogram(edges, counts, int(k[~inside].sum()), n)


# --- matches --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchLength:
    """Rounds per match and match-winner shares (per seat, or per pair under partners)."""

    length: LengthStats
    sides: int
    shares: tuple[Estimate, ...]
    wins: tuple[int, ...]
    chi_square: ChiSquare


def match_length(source: pl.LazyFrame | RowCounts, sides: int | None = None) -> MatchLength:
    """Match length in rounds (rows with ``match_rounds`` set) and who won the matches.

    ``sides``: seats that can win a match (default: the players column; 2 under partners).
    """
    if isinstance(source, pl.LazyFrame):
        if not has_matches(source):
            raise ResultsError("no finished matches in these results (match columns are null)")
        finished = source.filter(pl.col("match_rounds").is_not_null())
        if sides is None:
            sides = int(finished.select(pl.col("players").max()).collect().item())
        source = FrameCounts(finished)
    if sides is None:
        raise ValueError("sides is needed to answer from counts")
    length = round_length(source, "match_rounds")
    keys, counts = source.joint("match_rounds", "match_winner")
    wins = wins_by_seat(keys[:, 1], counts, sides, "match_winner")
    return MatchLength(
        length,
        sides,
        proportions(wins, int(wins.sum())),
        tuple(int(w) for w in wins),
        chi_square_equal(wins),
    )


# --- a whole run ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RunAnswers:
    """Every question answered for one run; parts are None where the data cannot answer."""

    run: Run
    status: StatusCounts
    length: LengthStats
    seats: SeatWinRates | None
    first_mover: FirstMover | None
    edge: PointsEdge | None
    comeback: ComebackCurve | None
    deficit: DeficitTable | None
    strategies: tuple[StrategyRow, ...]
    match: MatchLength | None
    events: RoundEvents

    @property
    def mixed(self) -> bool:
        """Whether strategies differ by seat: then seat and strategy are confounded."""
        return mixed_seats(self.run)

    @property
    def seat0(self) -> Estimate | None:
        """Seat 0's share of the won rounds (None without one)."""
        return self.seats.seats[0] if self.seats is not None else None

    @property
    def first_mover_edge(self) -> Estimate | None:
        """The first mover's share of won rounds minus the fair share (None without one)."""
        return self.first_mover.edge if self.first_mover is not None else None

    @property
    def mean_match_rounds(self) -> Estimate | None:
        """Rounds per finished match, mean and t interval (None without matches)."""
        return self.match.length.mean if self.match is not None else None


def run_preset(run: Run) -> str:
    """The rule preset the run started from."""
    return run.scenario.preset


def run_rules(run: Run) -> dict[str, Any]:
    """Every resolved rule value of the run."""
    return dict(run.scenario.rules)


def run_seats(run: Run) -> list[dict[str, Any]]:
    """One strategy dict per seat."""
    return [dict(seat) for seat in run.scenario.seats]


def run_match_target(run: Run) -> int | None:
    """The match target, or None for single rounds."""
    return run.scenario.match_target


def seat_key(seat: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """A seat's strategy and knobs as a comparable key."""
    return tuple(sorted((str(k), str(v)) for k, v in seat.items()))


def mixed_seats(run: Run) -> bool:
    """Whether the run's seats play different strategies (or knobs)."""
    return len({seat_key(s) for s in run_seats(run)}) > 1


def run_scoring(run: Run) -> str:
    """The run's ``scoring`` rule."""
    return str(run.scenario.rules["scoring"])


def answer_run(run: Run) -> RunAnswers:
    """Answer every question of SCENARIO.md for ``run``, from its parts' tallies (counted
    when each part was written, or from its rows for parts written before that): memory and
    time do not grow with the rows read (docs/PERFORMANCE.md "Summaries in flat memory")."""
    return answer_tallies(run, run_tallies(run))


def answer_tallies(run: Run, tallies: Tallies) -> RunAnswers:
    """Every question of SCENARIO.md for ``run`` from its summed part ``tallies``."""
    rows = TallyCounts(tallies)
    players = run.players
    scoring = run_scoring(run)
    status = status_from_counts(tallies.status)
    won = status.counts[0] > 0
    matches = tallies.counted("match_rounds")
    has_matches = matches is not None and matches[1].size > 0
    return RunAnswers(
        run=run,
        status=status,
        length=round_length(rows),
        seats=tally_answers.seat_win_rates(tallies, players) if won else None,
        first_mover=first_mover_counts(
            *tally_answers.start_counts(tallies), players, run_rules(run)
        )
        if won
        else None,
        edge=tally_answers.points_edge(tallies, scoring) if won else None,
        comeback=tally_answers.comeback_curve(tallies, players) if won else None,
        deficit=tally_answers.deficit(tallies, players) if won else None,
        strategies=tally_answers.strategy_strength(tallies, run_seats(run), scoring) if won else (),
        match=match_length(rows, 2 if scoring == "partners" else players) if has_matches else None,
        events=round_events(rows),
    )


@dataclass(frozen=True)
class SweepGroup:
    """The point runs of one sweep, with the swept keys in scenario order."""

    name: str
    axes: tuple[str, ...]
    runs: tuple[Run, ...]


def sweep_groups(runs: Sequence[Run]) -> list[SweepGroup]:
    """Group sweep point runs (manifest ``sweep_assignment`` set) by scenario name."""
    groups: dict[str, list[Run]] = {}
    for run in runs:
        if run.manifest.sweep_assignment:
            groups.setdefault(run.manifest.name, []).append(run)
    out = []
    for name, members in groups.items():
        axes = tuple(members[0].manifest.sweep_assignment or {})
        out.append(SweepGroup(name, axes, tuple(members)))
    return out

"""Answers to the questions of SCENARIO.md, one function per question.

Every function takes a polars ``LazyFrame`` of result rows (``Run.scan()``) and does its
aggregation in polars; intervals and tests come from ``scipy.stats`` through
:mod:`uno_stats.analysis.estimates`. Results are small frozen dataclasses. Conventions:

- Round length uses every round (won, void and capped; a capped round counts its
  ``max_turns``). Quantile intervals are nonparametric bootstrap percentile intervals.
- Seat, comeback, deficit and strategy questions (:mod:`uno_stats.analysis.seats`) use won
  rounds only; see that module for the points conventions.

The per-seat questions and the rule-effect comparisons (:mod:`uno_stats.analysis.compare`) are
re-exported here, so ``stats`` is the one place to call every question from.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from uno_stats.analysis.compare import (
    DEFAULT_METRICS,
    MetricComparison,
    compare_metric,
    seat_win_rate_difference,
    verdict,
)
from uno_stats.analysis.estimates import (
    ChiSquare,
    Estimate,
    chi_square_equal,
    has_matches,
    holm,
    mean_estimate,
    proportion,
    proportions,
    quantile_estimates,
    require_rows,
    status_expr,
    value_counts,
    wilson,
    won_rounds,
)
from uno_stats.analysis.seats import (
    ComebackCurve,
    DeficitTable,
    PointsEdge,
    SeatWinRates,
    StrategyRow,
    _per_seat,
    _seat_credited,
    _winning_side_score,
    checkpoint_columns,
    comeback_curve,
    deficit_win_table,
    first_seat_points_edge,
    seat_chi_square,
    seat_label,
    seat_win_rates,
    seat_wins,
    strategy_strength,
)
from uno_stats.engine.schema import STATUS_NAMES
from uno_stats.errors import ResultsError
from uno_stats.run.results import Run

__all__ = [
    "DEFAULT_METRICS",
    "ChiSquare",
    "ComebackCurve",
    "DeficitTable",
    "Estimate",
    "Histogram",
    "LengthStats",
    "MatchLength",
    "MetricComparison",
    "PointsEdge",
    "RunAnswers",
    "SeatWinRates",
    "StatusCounts",
    "StrategyRow",
    "SurvivalCurve",
    "SweepGroup",
    "TournamentPair",
    "TournamentRow",
    "TournamentTable",
    "answer_run",
    "comeback_curve",
    "compare_metric",
    "deficit_win_table",
    "first_seat_points_edge",
    "has_matches",
    "holm",
    "match_length",
    "round_length",
    "run_match_target",
    "run_preset",
    "run_rules",
    "run_scoring",
    "run_seats",
    "seat_chi_square",
    "seat_label",
    "seat_win_rate_difference",
    "seat_win_rates",
    "status_counts",
    "strategy_strength",
    "survival_curve",
    "sweep_groups",
    "tournament_groups",
    "tournament_table",
    "turns_histogram",
    "verdict",
]

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
        lf.select(
            pl.len().alias("n"),
            *((status == s).sum().alias(s) for s in STATUS_NAMES),
        )
        .collect()
        .row(0, named=True)
    )
    require_rows(row["n"], "rounds")
    n = row["n"]
    won, void, capped, exhausted = (int(row[s]) for s in STATUS_NAMES)
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

    ``mean`` carries a t interval; ``p10``, ``median``, ``p90`` and ``p99`` carry
    bootstrap percentile intervals (quantiles as inverted CDF: an observed value).
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


def round_length(
    lf: pl.LazyFrame, column: str = "turns", resamples: int = 1000, seed: int = 20260
) -> LengthStats:
    """Mean (t interval), p10/median/p90/p99 (bootstrap, ``resamples`` seeded) of ``column``."""
    row = (
        lf.select(
            pl.col(column).drop_nulls().len().alias("n"),
            pl.col(column).mean().alias("mean"),
            pl.col(column).std().alias("sd"),
            pl.col(column).min().cast(pl.Float64).alias("min"),
            pl.col(column).max().cast(pl.Float64).alias("max"),
        )
        .collect()
        .row(0, named=True)
    )
    n = int(row["n"])
    require_rows(n, f"values of {column}")
    sd = float(row["sd"]) if row["sd"] is not None else math.nan
    values, counts = value_counts(lf, column)
    p10, median, p90, p99 = quantile_estimates(values, counts, QUANTILES, resamples, seed)
    return LengthStats(
        column,
        n,
        mean_estimate(float(row["mean"]), sd, n),
        sd,
        p10,
        median,
        p90,
        p99,
        float(row["min"]),
        float(row["max"]),
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
    """Counts of ``column`` in bins ``[edges[i], edges[i+1])``; values past the last edge overflow."""

    edges: np.ndarray
    counts: np.ndarray
    overflow: int
    n: int


def turns_histogram(
    lf: pl.LazyFrame, width: int = 1, max_value: int | None = None, column: str = "turns"
) -> Histogram:
    """Histogram of ``column`` in bins of ``width`` from 0 up to ``max_value`` (default: the max)."""
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


def match_length(lf: pl.LazyFrame, sides: int | None = None, seed: int = 20260) -> MatchLength:
    """Match length in rounds (rows with ``match_rounds`` set) and who won the matches.

    ``sides``: seats that can win a match (default: the players column; 2 under partners).
    """
    if not has_matches(lf):
        raise ResultsError("no finished matches in these results (match columns are null)")
    finished = lf.filter(pl.col("match_rounds").is_not_null())
    if sides is None:
        sides = int(finished.select(pl.col("players").max()).collect().item())
    length = round_length(finished, "match_rounds", seed=seed)
    wins = seat_wins(finished, "match_winner", sides)
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
    edge: PointsEdge | None
    comeback: ComebackCurve | None
    deficit: DeficitTable | None
    strategies: tuple[StrategyRow, ...]
    match: MatchLength | None


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


def run_scoring(run: Run) -> str:
    """The run's ``scoring`` rule."""
    return str(run.scenario.rules["scoring"])


def answer_run(run: Run) -> RunAnswers:
    """Answer every question of SCENARIO.md for ``run``."""
    lf = run.scan()
    players = run.players
    scoring = run_scoring(run)
    status = status_counts(lf)
    won = status.counts[0] > 0
    seats = run_seats(run)
    deficit = None
    if won and checkpoint_columns(lf):
        try:
            deficit = deficit_win_table(lf, players)
        except ResultsError:  # every checkpoint null: rounds shorter than the first checkpoint
            deficit = None
    matches = has_matches(lf)
    return RunAnswers(
        run=run,
        status=status,
        length=round_length(lf),
        seats=seat_win_rates(lf, players) if won else None,
        edge=first_seat_points_edge(lf, players, scoring) if won else None,
        comeback=comeback_curve(lf, players) if won else None,
        deficit=deficit,
        strategies=strategy_strength(lf, seats, scoring) if won else (),
        match=match_length(lf, 2 if scoring == "partners" else players) if matches else None,
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


# --- tournaments ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentRow:
    """One strategy pooled over every rotation: win share per seat-round and points scored."""

    label: str
    wins: int
    win: Estimate
    points_scored: Estimate


@dataclass(frozen=True)
class TournamentPair:
    """P(``label`` finishes ahead of ``opponent``): its wins over both's, rounds both played."""

    label: str
    opponent: str
    wins: int
    opponent_wins: int
    ahead: Estimate


@dataclass(frozen=True)
class TournamentTable:
    """A tournament's strategies (seat advantage cancels over the rotations) and its pairs."""

    name: str
    players: int
    rotations: int
    n_won: int
    fair: float
    rows: tuple[TournamentRow, ...]
    pairs: tuple[TournamentPair, ...]


def tournament_groups(runs: Sequence[Run]) -> list[tuple[str, list[Run]]]:
    """The rotation runs of each tournament (manifest ``tournament`` set), by scenario name."""
    groups: dict[str, list[Run]] = {}
    for run in runs:
        if run.manifest.tournament:
            groups.setdefault(run.manifest.name, []).append(run)
    return list(groups.items())


def tournament_table(runs: Sequence[Run]) -> TournamentTable:
    """Pool a tournament's rotation runs (won rounds only).

    Per strategy: win share over its seat-rounds (Wilson 95%) against 1/players and mean points
    scored per seat-round (t 95%). Per ordered pair (A, B): over the rounds of rotations seating
    both, wins_A / (wins_A + wins_B) with its Wilson interval and n = wins_A + wins_B.
    """
    if not runs:
        raise ResultsError("no tournament runs given")
    players = {run.players for run in runs}
    if len(players) != 1:
        raise ResultsError("tournament runs differ in player count")
    seat_labels = [[seat_label(s) for s in run_seats(run)] for run in runs]
    frames = []
    for i, (run, labels) in enumerate(zip(runs, seat_labels, strict=True)):
        scoring = run_scoring(run)
        mapping = pl.LazyFrame(
            {"seat": list(range(len(labels))), "strategy": labels},
            schema={"seat": pl.Int64, "strategy": pl.String},
        )
        side = _winning_side_score(scoring).alias("side")
        rows = _per_seat(won_rounds(run.scan()).select("winner", "points", side), "points")
        score = pl.when(_seat_credited(pl.col("seat"), scoring)).then(pl.col("side")).otherwise(0)
        frames.append(
            rows.join(mapping, on="seat", how="left").select(
                pl.lit(i, pl.Int64).alias("run"),
                "strategy",
                (pl.col("seat") == pl.col("winner").cast(pl.Int64)).alias("won"),
                score.cast(pl.Float64).alias("score"),
            )
        )
    seat_rounds = pl.concat(frames)
    by_strategy, by_run = pl.collect_all(
        [
            seat_rounds.group_by("strategy").agg(
                pl.len().alias("n"),
                pl.col("won").sum().alias("wins"),
                pl.col("score").mean().alias("mean"),
                pl.col("score").std().alias("sd"),
            ),
            seat_rounds.filter("won").group_by("run", "strategy").agg(pl.len().alias("wins")),
        ]
    )
    require_rows(by_strategy.height, "won rounds")
    order = list(dict.fromkeys(label for labels in seat_labels for label in labels))
    stats = {row["strategy"]: row for row in by_strategy.iter_rows(named=True)}
    rows = tuple(
        TournamentRow(
            label,
            int(stats[label]["wins"]),
            proportion(int(stats[label]["wins"]), int(stats[label]["n"])),
            mean_estimate(
                stats[label]["mean"], stats[label]["sd"] or math.nan, int(stats[label]["n"])
            ),
        )
        for label in order
        if label in stats
    )
    wins = {(r["run"], r["strategy"]): int(r["wins"]) for r in by_run.iter_rows(named=True)}
    pairs = []
    for a in order:
        for b in order:
            if a == b:
                continue
            both = [i for i, labels in enumerate(seat_labels) if a in labels and b in labels]
            wa = sum(wins.get((i, a), 0) for i in both)
            wb = sum(wins.get((i, b), 0) for i in both)
            pairs.append(TournamentPair(a, b, wa, wb, proportion(wa, wa + wb)))
    n_won = sum(wins.values())
    n_players = players.pop()
    return TournamentTable(
        runs[0].manifest.name,
        n_players,
        len(runs),
        n_won,
        1 / n_players,
        rows,
        tuple(pairs),
    )


@dataclass(frozen=True)
class SkillSpread:
    """Best minus worst strategy's win share in one tournament: the bigger, the more skill."""

    name: str
    preset: str
    best: str
    worst: str
    spread: Estimate


def skill_spread(table: TournamentTable, preset: str) -> SkillSpread:
    """The win-share gap between a tournament's best and worst strategy.

    The interval is Newcombe's hybrid score interval for a difference of two proportions,
    built from the two Wilson intervals. Best and worst are picked after looking, which
    widens the gap by a hair; with 10^5 seat-rounds per strategy that bias is negligible.
    ``n`` is the smaller of the two strategies' seat-rounds.
    """
    if len(table.rows) < 2:
        raise ResultsError(f"{table.name}: a tournament needs two strategies for a spread")
    best = max(table.rows, key=lambda r: r.win.value)
    worst = min(table.rows, key=lambda r: r.win.value)
    p1, l1, u1 = best.win.value, best.win.low, best.win.high
    p2, l2, u2 = worst.win.value, worst.win.low, worst.win.high
    gap = p1 - p2
    low = gap - float(np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2))
    high = gap + float(np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))
    n = min(best.win.n, worst.win.n)
    return SkillSpread(table.name, preset, best.label, worst.label, Estimate(gap, low, high, n))


def tournament_preset(runs: Sequence[Run]) -> str:
    """The rule preset of a tournament's rotation runs."""
    return str(run_preset(runs[0]))

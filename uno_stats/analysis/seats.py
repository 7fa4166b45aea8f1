"""Seat advantage, comebacks and strategy strength: the per-seat questions of SCENARIO.md.

All use won rounds only (void and capped rounds have no winner), so each seat's fair
share is exactly 1/players. "Points scored" is Mattel scoring: the round winner scores
every opponent's remaining card points (under ``partners`` both partners are credited
with their pair's score); "points left" is a seat's own remaining card points.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from scipy import special

from uno_stats.analysis.estimates import (
    ChiSquare,
    Estimate,
    chi_square_equal,
    has_column,
    mean_estimate,
    newcombe_interval,
    proportion,
    proportions,
    require_rows,
    row_slices,
    wilson,
    won_rounds,
)
from uno_stats.engine.schema import NOT_REACHED
from uno_stats.engine.strategy_table import KNOBS
from uno_stats.errors import ResultsError
from uno_stats.store.columns import checkpoint_arrays, checkpoint_columns_in, checkpoint_hands
from uno_stats.store.tallies import deficit_counts, seat_scores

CHECKPOINT_BATCH = 100_000
"""Rounds per slice of the deficit table (at most 8 MB of checkpoint bytes at 4 seats)."""
WON_BATCH = 200_000
"""Rounds per slice of the per-seat questions (points edge, comebacks, strategies): the won
rounds of each slice are reduced to exact integer sums and counts, so memory does not grow
with rows."""

# --- seat advantage -------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatWinRates:
    """Share of won rounds won by each seat (Wilson intervals)
    and a chi-square test of 1/players."""

    players: int
    n_won: int
    seats: tuple[Estimate, ...]
    wins: tuple[int, ...]
    fair: float
    chi_square: ChiSquare


def seat_wins(lf: pl.LazyFrame, column: str, sides: int) -> np.ndarray:
    """Wins by seat (0..sides-1) counted from ``column``; a seat out of range raises."""
    grouped = (
        lf.select(pl.col(column).drop_nulls().cast(pl.Int64).alias("seat"))
        .group_by("seat")
        .agg(pl.len().alias("k"))
        .collect()
    )
    return wins_by_seat(grouped["seat"].to_numpy(), grouped["k"].to_numpy(), sides, column)


def wins_by_seat(seats: np.ndarray, counts: np.ndarray, sides: int, column: str) -> np.ndarray:
    """Wins of each seat 0..sides-1 from a histogram of seat numbers (of ``column``); a seat
    out of range raises."""
    bad = (seats < 0) | (seats >= sides)
    if bad.any():
        raise ResultsError(f"{column} holds seat {int(seats[bad][0])} outside 0..{sides - 1}")
    wins = np.zeros(sides, dtype=np.int64)
    np.add.at(wins, seats.astype(np.int64), counts)
    return wins


def seat_win_rates(lf: pl.LazyFrame, players: int) -> SeatWinRates:
    """Win share of each seat over won rounds, Wilson 95% intervals, against 1/players."""
    return seat_rates(seat_wins(won_rounds(lf), "winner", players), players)


def seat_rates(wins: np.ndarray, players: int) -> SeatWinRates:
    """:class:`SeatWinRates` from each seat's wins."""
    n = int(wins.sum())
    require_rows(n, "won rounds")
    return SeatWinRates(
        players,
        n,
        proportions(wins, n),
        tuple(int(w) for w in wins),
        1 / players,
        chi_square_equal(wins),
    )


def seat_chi_square(lf: pl.LazyFrame, players: int) -> ChiSquare:
    """Pearson chi-square goodness of fit of wins by seat against equal shares (won rounds)."""
    wins = seat_wins(won_rounds(lf), "winner", players)
    require_rows(int(wins.sum()), "won rounds")
    return chi_square_equal(wins)


def seat_matrix(df: pl.DataFrame, column: str) -> np.ndarray:
    """A per-seat list column of ``df`` (every list as long) as a (rows, seats) int64 matrix."""
    if df.height == 0:
        return np.zeros((0, 0), dtype=np.int64)
    flat = df[column].explode().to_numpy().astype(np.int64)
    return flat.reshape(df.height, flat.size // df.height)


def won_frame(lf: pl.LazyFrame, *columns: str | pl.Expr) -> pl.DataFrame:
    """The won rounds' ``winner`` (int64) and ``columns``, collected."""
    return won_rounds(lf).select(pl.col("winner").cast(pl.Int64), *columns).collect()


def won_batches(
    lf: pl.LazyFrame, *columns: str | pl.Expr, size: int | None = None
) -> Iterator[pl.DataFrame]:
    """The won rounds' ``winner`` (int64) and ``columns``, batch by batch: the won rounds
    among each :func:`row_slices` slice of ``size`` rows (default :data:`WON_BATCH`; empty
    batches skipped)."""
    for rows in row_slices(lf, size or WON_BATCH):
        batch = won_rounds(rows).select(pl.col("winner").cast(pl.Int64), *columns).collect()
        if batch.height:
            yield batch


@dataclass
class Moments:
    """Exact running count, sum and sum of squares of integer values (Python ints)."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, values: np.ndarray) -> None:
        """Add integer ``values`` (int64 sums per batch, exact)."""
        self.n += int(values.size)
        self.total += int(values.sum(dtype=np.int64))
        self.squares += int(np.square(values).sum(dtype=np.int64))

    def mean_sd(self, scale: float = 1.0) -> tuple[float, float]:
        """Mean and sample sd of the values / ``scale`` (:func:`_mean_sd`)."""
        return _moments_mean_sd(self.n, self.total, self.squares, scale)


@dataclass(frozen=True)
class PointsEdge:
    """First player's points per won round against the mean of the other seats (paired)."""

    first: Estimate
    others: Estimate
    edge: Estimate
    t: float
    p: float


def _mean_sd(values: np.ndarray, scale: float = 1.0) -> tuple[float, float]:
    """Mean and sample sd of integer ``values`` / ``scale`` from exact int64 sums."""
    m = Moments()
    m.add(values)
    return m.mean_sd(scale)


def _moments_mean_sd(n: int, total: int, squares: int, scale: float) -> tuple[float, float]:
    """Mean and sample sd of n values / ``scale`` with exact ``total`` and sum of ``squares``."""
    mean = total / n / scale
    if n < 2:
        return mean, math.nan
    var = (squares - total * total / n) / (n - 1) / (scale * scale)
    return mean, math.sqrt(max(var, 0.0))


def first_seat_points_edge(lf: pl.LazyFrame, players: int, scoring: str = "points") -> PointsEdge:
    """Per won round, d = points scored by ``first_player`` minus the others' mean; t test d = 0."""
    k = players - 1
    sums = {"first": Moments(), "others": Moments(), "d": Moments()}
    for batch in won_batches(lf, pl.col("first_player").cast(pl.Int64), "points"):
        scores = seat_scores(seat_matrix(batch, "points"), batch["winner"].to_numpy(), scoring)
        first = scores[np.arange(batch.height), batch["first_player"].to_numpy()]
        rest = scores.sum(axis=1) - first  # the others' mean is rest / (players - 1)
        for name, x in (("first", first), ("others", rest), ("d", k * first - rest)):
            sums[name].add(x)
    return points_edge(sums["first"], sums["others"], sums["d"], k)


def points_edge(first: Moments, others: Moments, d: Moments, k: int) -> PointsEdge:
    """:class:`PointsEdge` from the exact sums of the first player's points, the others'
    total and ``d = k * first - others`` over won rounds (``k``: players - 1)."""
    sums = {"first": first, "others": others, "d": d}
    n = d.n
    require_rows(n, "won rounds")
    est = {}
    for name, scale in (("first", 1), ("others", k), ("d", k)):
        mean, sd = sums[name].mean_sd(scale)
        est[name] = mean_estimate(mean, sd, n)
    d_mean, sd = d.mean_sd(k)
    if n < 2 or not sd > 0:
        t_stat, p = (0.0, 1.0) if d_mean == 0 else (math.nan, math.nan)
    else:
        t_stat = d_mean / (sd / math.sqrt(n))
        p = float(2 * special.stdtr(n - 1, -abs(t_stat)))  # = scipy.stats.t.sf
    return PointsEdge(est["first"], est["others"], est["d"], float(t_stat), float(p))


# --- comebacks ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ComebackCurve:
    """P(win | max_deficit >= k) against P(win | max_deficit < k), seat-rounds of won rounds.

    ``rates[i]``: win share of the seat-rounds that were at some point ``ks[i]`` or more cards
    behind the smallest hand; ``never[i]``: of those never that far behind; ``gap[i]``:
    rates - never with Newcombe's interval (seat-rounds treated as independent).
    """

    players: int
    ks: tuple[int, ...]
    rates: tuple[Estimate, ...]
    wins: tuple[int, ...]
    never: tuple[Estimate, ...]
    gap: tuple[Estimate, ...]
    overall: float


def comeback_counts(lf: pl.LazyFrame, ks: Sequence[int]) -> tuple[int, np.ndarray, np.ndarray, int]:
    """Seat-rounds of won rounds: total n, n and wins with max_deficit >= k, won rounds.

    Counts of each max_deficit value (all seat-rounds, and the winners') are summed over
    batches of won rounds; the tail sums at each k are taken at the end.
    """
    every = np.zeros(0, dtype=np.int64)  # seat-rounds by max_deficit
    won = np.zeros(0, dtype=np.int64)  # winners by max_deficit
    rounds = 0
    for batch in won_batches(lf, "max_deficit"):
        md = seat_matrix(batch, "max_deficit")
        rounds += batch.height
        if md.size == 0:
            continue
        win = np.arange(md.shape[1])[None, :] == batch["winner"].to_numpy()[:, None]
        every = _add_counts(every, np.bincount(md.ravel()))
        won = _add_counts(won, np.bincount(md[win]))
    return comeback_tails(every, won, rounds, ks)


def comeback_tails(
    every: np.ndarray, won: np.ndarray, rounds: int, ks: Sequence[int]
) -> tuple[int, np.ndarray, np.ndarray, int]:
    """:func:`comeback_counts` from the seat-rounds' and the winners' counts by max_deficit
    (indexed by value) over ``rounds`` won rounds."""
    size = int(every.sum())
    if size == 0:
        return 0, np.zeros(len(ks), np.int64), np.zeros(len(ks), np.int64), rounds
    top = max(every.size, won.size, *(k + 1 for k in ks))
    every_k = np.pad(every, (0, top - every.size))[::-1].cumsum()[::-1]  # n with md >= k
    won_k = np.pad(won, (0, top - won.size))[::-1].cumsum()[::-1]
    n_k = np.array([every_k[k] if k >= 0 else size for k in ks], dtype=np.int64)
    w_k = np.array([won_k[k] if k >= 0 else int(won.sum()) for k in ks], dtype=np.int64)
    return size, n_k, w_k, rounds


def _add_counts(into: np.ndarray, more: np.ndarray) -> np.ndarray:
    """``into + more`` for count vectors of any lengths (the shorter padded with zeros)."""
    if more.size > into.size:
        into, more = more.astype(np.int64), into
    else:
        into = into.copy()
    into[: more.size] += more
    return into


def comeback_curve(
    lf: pl.LazyFrame, players: int, ks: Iterable[int] = range(1, 11)
) -> ComebackCurve:
    """P(win | at some point held k or more cards above the smallest hand), k in ``ks``, and
    P(win | never k behind), the reference a comeback is judged against.

    Counts seat-rounds of won rounds (one winner each). Seats of one round are not
    independent (one winner), which makes Wilson slightly conservative here.
    """
    ks = tuple(int(k) for k in ks)
    return comeback_from(comeback_counts(lf, ks), ks, players)


def comeback_from(
    counted: tuple[int, np.ndarray, np.ndarray, int], ks: tuple[int, ...], players: int
) -> ComebackCurve:
    """:class:`ComebackCurve` from :func:`comeback_counts`' (or :func:`comeback_tails`')
    counts at ``ks``."""
    n, n_k, w_k, rounds = counted
    require_rows(n, "won rounds")
    rates = proportions(w_k, n_k)
    never = proportions(rounds - w_k, n - n_k)
    gap = []
    for behind, ahead in zip(rates, never, strict=True):
        low, high = newcombe_interval(ahead, behind)
        gap.append(Estimate(behind.value - ahead.value, low, high, behind.n + ahead.n))
    return ComebackCurve(
        players, ks, rates, tuple(int(w) for w in w_k), never, tuple(gap), 1 / players
    )


@dataclass(frozen=True, eq=False)
class DeficitTable:
    """P(win | deficit d at checkpoint turn t); arrays are indexed [d, t] (rows d = 0, 1, ...)."""

    players: int
    turns: np.ndarray
    deficits: np.ndarray
    n: np.ndarray
    wins: np.ndarray
    rate: np.ndarray
    low: np.ndarray
    high: np.ndarray


def checkpoint_columns(lf: pl.LazyFrame) -> list[int]:
    """The checkpoint turns (5, 10, ...) whose hand sizes the results hold; [] when none."""
    return sorted(checkpoint_hands(lf.collect_schema().names(), 0))


def deficit_win_table(lf: pl.LazyFrame, players: int) -> DeficitTable:
    """From the hand-size checkpoints: deficit = own hand minus smallest hand at turn t; win
    rate per (d, t).

    Counts seat-rounds of won rounds still running at t (checkpoint reached). The rounds
    are read in slices of :data:`CHECKPOINT_BATCH` rows (:func:`won_batches`) and counted
    with ``np.bincount`` over (t, d): memory stays bounded; a million rounds take about 1.5 s of
    CPU, reading included (the polars group-bys before took 5 s).
    """
    columns = checkpoint_columns_in(lf.collect_schema().names())
    if not columns:
        raise ResultsError("results have no hand-size checkpoints (hand_checkpoints)")
    levels = NOT_REACHED + 1  # deficits 0..254: one bin per (turn, deficit)
    turns = np.zeros(0, dtype=np.int64)
    counts: np.ndarray | None = None  # (2, turns * levels): seat-rounds, then wins
    for batch in won_batches(lf, *columns, size=CHECKPOINT_BATCH):
        turns, hands = checkpoint_arrays(batch, players)
        batch_counts = np.stack(deficit_counts(hands, batch["winner"].to_numpy(), levels))
        counts = batch_counts if counts is None else counts + batch_counts
    return deficit_table(turns, counts, players)


def deficit_table(turns: np.ndarray, counts: np.ndarray | None, players: int) -> DeficitTable:
    """:class:`DeficitTable` from the seat-rounds' and wins' counts ``(2, turns * levels)``
    by (checkpoint turn, deficit) cell (:func:`~uno_stats.store.tallies.deficit_counts`)."""
    levels = NOT_REACHED + 1
    turns = np.asarray(turns)
    require_rows(0 if counts is None else int(counts[0].sum()), "checkpoint hands in won rounds")
    assert counts is not None
    n = counts[0].reshape(turns.size, levels).T
    wins = counts[1].reshape(turns.size, levels).T
    top = int(np.flatnonzero(n.sum(axis=1))[-1])
    n, wins = n[: top + 1], wins[: top + 1]
    deficits = np.arange(top + 1)
    rate, low, high = wilson(wins, n)
    return DeficitTable(players, turns, deficits, n, wins, rate, low, high)


# --- strategies -----------------------------------------------------------------------------


def seat_label(seat: dict[str, Any]) -> str:
    """A seat's strategy name plus any knob its strategy reads that differs from its default
    (a run written before a default changed keeps the old value of knobs its seats ignore)."""
    name = str(seat.get("strategy", "random"))
    changed = [
        f"{k.key}={seat[k.key]}"
        for k in KNOBS
        if k.key in seat and seat[k.key] != k.default and (not k.only or name in k.only)
    ]
    return f"{name} ({', '.join(changed)})" if changed else name


@dataclass(frozen=True)
class StrategyRow:
    """One strategy (name plus non-default knobs): its seats, win share and points per round."""

    label: str
    seats: tuple[int, ...]
    win: Estimate
    points_scored: Estimate
    points_left: Estimate


def strategy_strength(
    lf: pl.LazyFrame, seats: Sequence[dict[str, Any]], scoring: str = "points"
) -> tuple[StrategyRow, ...]:
    """Per strategy over its seat-rounds in won rounds: win share (Wilson) and mean points (t)."""
    if not seats:
        raise ResultsError("no seat strategies in the manifest")
    seating = has_column(lf, "seating")
    labels: list[str] = []
    order: list[str] = []
    tallies: list[tuple[list[int], Moments, Moments]] = []  # per strategy: [n, wins], sums
    rounds = 0
    for batch in won_batches(lf, "points", *(("seating",) if seating else ())):
        points = seat_matrix(batch, "points")
        winner = batch["winner"].to_numpy()
        scores = seat_scores(points, winner, scoring)
        players = points.shape[1]
        if not labels:
            labels = [seat_label(seats[i if len(seats) > 1 else 0]) for i in range(players)]
            order = list(dict.fromkeys(labels))
            tallies = [([0, 0], Moments(), Moments()) for _ in order]
        # RULES.md S16: the scenario seat at each position, from the seating column (identity
        # without it); each seat-round is credited to the strategy of the seat sitting there
        sitter = seat_matrix(batch, "seating") if seating else np.arange(players)[None, :]
        label_at = np.array([order.index(x) for x in labels])[sitter]
        label_at = np.broadcast_to(label_at, points.shape)
        rows = np.arange(batch.height)
        rounds += batch.height
        for k, (counts, score, left) in enumerate(tallies):
            mask = label_at == k
            counts[0] += int(mask.sum())
            counts[1] += int(mask[rows, winner].sum())
            score.add(scores[mask])
            left.add(points[mask])
    require_rows(rounds, "won rounds")
    return strategy_rows(labels, order, tallies)


def strategy_rows(
    labels: Sequence[str],
    order: Sequence[str],
    tallies: Sequence[tuple[list[int], Moments, Moments]],
) -> tuple[StrategyRow, ...]:
    """One :class:`StrategyRow` per label of ``order`` from its seat-rounds and wins and the
    moments of its points scored and left (``labels``: each position's label)."""
    out = []
    for label, ((n, wins), score, left) in zip(order, tallies, strict=True):
        out.append(
            StrategyRow(
                label,
                tuple(i for i, x in enumerate(labels) if x == label),
                proportion(wins, n),
                mean_estimate(*score.mean_sd(), n),
                mean_estimate(*left.mean_sd(), n),
            )
        )
    return tuple(out)

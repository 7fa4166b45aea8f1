"""Seat advantage, comebacks and strategy strength: the per-seat questions of SCENARIO.md.

All use won rounds only (void and capped rounds have no winner), so each seat's fair
share is exactly 1/players. "Points scored" is Mattel scoring: the round winner scores
every opponent's remaining card points (under ``partners`` both partners are credited
with their pair's score); "points left" is a seat's own remaining card points.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from scipy import stats as st

from uno_stats.analysis.estimates import (
    ChiSquare,
    Estimate,
    chi_square_equal,
    mean_estimate,
    proportion,
    proportions,
    require_rows,
    wilson,
    won_rounds,
)
from uno_stats.engine.strategy_table import KNOBS
from uno_stats.errors import ResultsError

# --- seat advantage -------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatWinRates:
    """Share of won rounds won by each seat (Wilson intervals) and a chi-square test of 1/players."""

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
    wins = np.zeros(sides, dtype=np.int64)
    seats, k = grouped["seat"].to_numpy(), grouped["k"].to_numpy()
    bad = (seats < 0) | (seats >= sides)
    if bad.any():
        raise ResultsError(f"{column} holds seat {int(seats[bad][0])} outside 0..{sides - 1}")
    wins[seats] = k
    return wins


def seat_win_rates(lf: pl.LazyFrame, players: int) -> SeatWinRates:
    """Win share of each seat over won rounds, Wilson 95% intervals, against 1/players."""
    wins = seat_wins(won_rounds(lf), "winner", players)
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


def _winning_side_score(scoring: str) -> pl.Expr:
    """Per round, the points the winner (or, under partners, the winning pair) scores."""
    pts = pl.col("points").cast(pl.List(pl.Int64))
    if scoring == "partners":
        return pts.list.gather_every(2, offset=1 - pl.col("winner").cast(pl.Int64) % 2).list.sum()
    return pts.list.sum()


def _seat_credited(seat: pl.Expr, scoring: str) -> pl.Expr:
    winner = pl.col("winner").cast(pl.Int64)
    return (seat % 2 == winner % 2) if scoring == "partners" else (seat == winner)


@dataclass(frozen=True)
class PointsEdge:
    """First player's points per won round against the mean of the other seats (paired)."""

    first: Estimate
    others: Estimate
    edge: Estimate
    t: float
    p: float


def first_seat_points_edge(lf: pl.LazyFrame, players: int, scoring: str = "points") -> PointsEdge:
    """Per won round, d = points scored by ``first_player`` minus the others' mean; t test d = 0."""
    fp = pl.col("first_player").cast(pl.Int64)
    side = _winning_side_score(scoring)
    credited = _seat_credited(fp, scoring)
    total = side * (2 if scoring == "partners" else 1)
    first = pl.when(credited).then(side).otherwise(0)
    per_round = (
        won_rounds(lf)
        .select(
            first.cast(pl.Float64).alias("first"),
            ((total - first) / (players - 1)).alias("others"),
        )
        .with_columns((pl.col("first") - pl.col("others")).alias("d"))
    )
    row = (
        per_round.select(
            pl.len().alias("n"),
            *(pl.col(c).mean().alias(f"{c}_mean") for c in ("first", "others", "d")),
            *(pl.col(c).std().alias(f"{c}_sd") for c in ("first", "others", "d")),
        )
        .collect()
        .row(0, named=True)
    )
    n = int(row["n"])
    require_rows(n, "won rounds")
    est = {
        c: mean_estimate(row[f"{c}_mean"], row[f"{c}_sd"] or math.nan, n)
        for c in ("first", "others", "d")
    }
    sd = row["d_sd"]
    if n < 2 or sd is None or sd == 0:
        t_stat, p = (0.0, 1.0) if row["d_mean"] == 0 else (math.nan, math.nan)
    else:
        t_stat = row["d_mean"] / (sd / math.sqrt(n))
        p = float(2 * st.t.sf(abs(t_stat), df=n - 1))
    return PointsEdge(est["first"], est["others"], est["d"], float(t_stat), float(p))


# --- comebacks ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ComebackCurve:
    """P(win | max_deficit >= k) over seat-rounds of won rounds, with Wilson intervals."""

    players: int
    ks: tuple[int, ...]
    rates: tuple[Estimate, ...]
    wins: tuple[int, ...]
    overall: float


def _per_seat(
    lf: pl.LazyFrame, column: str, dtype: pl.DataType | type[pl.DataType] = pl.Int64
) -> pl.LazyFrame:
    """One row per (round, seat) with ``seat`` and ``column`` as a scalar."""
    return lf.with_columns(
        pl.col(column).cast(pl.List(dtype)),
        pl.int_ranges(0, pl.col(column).list.len()).alias("seat"),
    ).explode([column, "seat"])


def comeback_curve(
    lf: pl.LazyFrame, players: int, ks: Iterable[int] = range(1, 11)
) -> ComebackCurve:
    """P(win | at some point held k or more cards above the smallest hand), k in ``ks``.

    Counts seat-rounds of won rounds; the reference is the overall win rate 1/players.
    Seats of one round are not independent (one winner), which makes Wilson slightly
    conservative here.
    """
    ks = tuple(int(k) for k in ks)
    rows = _per_seat(won_rounds(lf).select("winner", "max_deficit"), "max_deficit")
    win = pl.col("seat") == pl.col("winner").cast(pl.Int64)
    md = pl.col("max_deficit")
    row = (
        rows.select(
            pl.len().alias("n"),
            *((md >= k).sum().alias(f"n{k}") for k in ks),
            *(((md >= k) & win).sum().alias(f"w{k}") for k in ks),
        )
        .collect()
        .row(0, named=True)
    )
    require_rows(row["n"], "won rounds")
    n_k = np.array([row[f"n{k}"] for k in ks])
    w_k = np.array([row[f"w{k}"] for k in ks])
    return ComebackCurve(
        players, ks, proportions(w_k, n_k), tuple(int(w) for w in w_k), 1 / players
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


def checkpoint_columns(lf: pl.LazyFrame) -> list[str]:
    """The ``hands_t<T>`` columns present, by checkpoint turn."""
    names = [c for c in lf.collect_schema().names() if c.startswith("hands_t")]
    return sorted(names, key=lambda c: int(c.removeprefix("hands_t")))


def deficit_win_table(lf: pl.LazyFrame, players: int) -> DeficitTable:
    """From ``hands_t*``: deficit = own hand minus smallest hand at turn t; win rate per (d, t).

    Counts seat-rounds of won rounds still running at t (checkpoint not null). One small
    group-by per (checkpoint, seat) with ``list.get``, summed: much faster than exploding.
    """
    cols = checkpoint_columns(lf)
    if not cols:
        raise ResultsError("results have no hands_t* checkpoint columns")
    won = won_rounds(lf).select(pl.col("winner").cast(pl.Int64), *cols)
    parts = []
    for col in cols:  # 20 checkpoints x players seats: lazy plans, not rows
        hands = pl.col(col).cast(pl.List(pl.Int64))
        at_t = won.filter(pl.col(col).is_not_null()).select(
            "winner", hands.alias("h"), hands.list.min().alias("smallest")
        )
        for seat in range(players):
            parts.append(
                at_t.group_by((pl.col("h").list.get(seat) - pl.col("smallest")).alias("d"))
                .agg(pl.len().alias("n"), (pl.col("winner") == seat).sum().alias("wins"))
                .with_columns(pl.lit(int(col.removeprefix("hands_t"))).alias("t"))
            )
    grouped = (
        pl.concat(parts)
        .group_by("t", "d")
        .agg(pl.col("n").sum(), pl.col("wins").sum())
        .drop_nulls("d")
        .collect()
    )
    require_rows(grouped.height, "checkpoint hands in won rounds")
    turns = np.array([int(c.removeprefix("hands_t")) for c in cols])
    deficits = np.arange(int(grouped["d"].max()) + 1)
    n = np.zeros((deficits.size, turns.size), dtype=np.int64)
    wins = np.zeros_like(n)
    t_idx = np.searchsorted(turns, grouped["t"].to_numpy())
    d_idx = grouped["d"].to_numpy()
    n[d_idx, t_idx] = grouped["n"].to_numpy()
    wins[d_idx, t_idx] = grouped["wins"].to_numpy()
    rate, low, high = wilson(wins, n)
    return DeficitTable(players, turns, deficits, n, wins, rate, low, high)


# --- strategies -----------------------------------------------------------------------------


def seat_label(seat: dict[str, Any]) -> str:
    """A seat's strategy name plus any knob that differs from its default."""
    changed = [
        f"{k.key}={seat[k.key]}" for k in KNOBS if k.key in seat and seat[k.key] != k.default
    ]
    name = str(seat.get("strategy", "random"))
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
    players = int(lf.select(pl.col("players").max()).collect().item() or len(seats))
    labels = [seat_label(seats[i if len(seats) > 1 else 0]) for i in range(players)]
    mapping = pl.LazyFrame(
        {"seat": list(range(players)), "strategy": labels},
        schema={"seat": pl.Int64, "strategy": pl.String},
    )
    side = _winning_side_score(scoring)
    won = won_rounds(lf)
    if "seating" in won.collect_schema().names():
        # RULES.md S16: position -> scenario seat through the seating column
        exploded = (
            won.select("winner", "points", "seating", side.alias("side"))
            .with_columns(
                pl.col("points").cast(pl.List(pl.Int64)),
                pl.int_ranges(0, pl.col("points").list.len()).alias("seat"),
            )
            .explode(["points", "seating", "seat"])
            .with_columns(pl.col("seating").cast(pl.Int64).alias("sitter"))
        )
    else:
        exploded = _per_seat(won.select("winner", "points", side.alias("side")), "points")
        exploded = exploded.with_columns(pl.col("seat").alias("sitter"))
    score = pl.when(_seat_credited(pl.col("seat"), scoring)).then(pl.col("side")).otherwise(0)
    grouped = (
        exploded.with_columns(score.cast(pl.Float64).alias("score"))
        .join(mapping.rename({"seat": "sitter"}), on="sitter", how="left")
        .group_by("strategy")
        .agg(
            pl.len().alias("n"),
            (pl.col("seat") == pl.col("winner").cast(pl.Int64)).sum().alias("wins"),
            pl.col("score").mean().alias("score_mean"),
            pl.col("score").std().alias("score_sd"),
            pl.col("points").mean().alias("left_mean"),
            pl.col("points").std().alias("left_sd"),
        )
        .collect()
    )
    require_rows(grouped.height, "won rounds")
    out = []
    for row in grouped.iter_rows(named=True):  # one row per strategy, not per round
        n = int(row["n"])
        out.append(
            StrategyRow(
                row["strategy"],
                tuple(i for i, label in enumerate(labels) if label == row["strategy"]),
                proportion(int(row["wins"]), n),
                mean_estimate(row["score_mean"], row["score_sd"] or math.nan, n),
                mean_estimate(row["left_mean"], row["left_sd"] or math.nan, n),
            )
        )
    return tuple(sorted(out, key=lambda r: r.seats))

"""Questions about what happens inside a round: stacking chains, reshuffles, draws, hands.

All use every round (won, void and capped). Each part is None when the results lack its
column (an older engine); ``notes`` then says which question was skipped and why.

- Stacking chains (``longest_stack``: draw cards in the round's longest penalty chain):
  share of rounds with a chain of 2+ and of 3+ (Wilson), mean longest chain (t), longest.
- Reshuffles (``reshuffles``): mean per round (t), share of rounds with any (Wilson), most.
- Draw-until-playable draws (``turn_draws``: own-turn draws, ``turn_draw_cards``: cards they
  took): cards per draw = sum of cards / sum of draws, a ratio with a cluster-robust
  interval over rounds.
- Largest hand (``largest_hand``: the most cards any seat held in the round): mean (t),
  median and p90 (mid-quantiles, bootstrap-SE intervals), largest.
- The mercy rule and the Color Roulette (``last_standing``, ``eliminated``,
  ``roulette_draws``; RULES.md S21, S22): the share of rounds the mercy rule ended (won by
  the last player standing) and with any knock-out (Wilson), knock-outs and cards turned up
  by roulettes per round (t), the most knock-outs in a round. None when no round knocked
  anyone out or turned a roulette (a run without the No Mercy rules and cards).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from uno_stats.analysis.estimates import (
    Estimate,
    cluster_ratio_counts,
    has_column,
    mean_estimate,
    proportion,
    value_counts,
)
from uno_stats.analysis.quantiles import quantile_estimates


@dataclass(frozen=True)
class StackChains:
    """Longest penalty chain per round: shares of 2+ and 3+ chains, mean and longest."""

    n: int
    chain2: Estimate
    chain3: Estimate
    mean: Estimate
    longest: int


@dataclass(frozen=True)
class Reshuffles:
    """Discard pile reshuffled into the draw pile: per round, share with any, most."""

    n: int
    mean: Estimate
    any: Estimate
    most: int


@dataclass(frozen=True)
class TurnDraws:
    """Own-turn draws: cards per draw (ratio over rounds) and the rounds' draw counts."""

    n: int
    draws: int
    cards: int
    per_draw: Estimate
    per_round: Estimate


@dataclass(frozen=True)
class LargestHand:
    """The most cards any seat held in a round."""

    n: int
    mean: Estimate
    median: Estimate
    p90: Estimate
    largest: int


@dataclass(frozen=True)
class MercyRule:
    """Knock-outs (RULES.md S22) and Color Roulette draws (S21) per round."""

    n: int
    last_standing: Estimate  # share of rounds ended by the last player standing
    any_out: Estimate  # share of rounds with at least one knock-out
    eliminated: Estimate  # knock-outs per round
    most: int
    roulette: Estimate  # cards turned up by roulettes per round


@dataclass(frozen=True)
class RoundEvents:
    """Every in-round question; a part is None when its column is missing (see ``notes``)."""

    stacks: StackChains | None
    reshuffles: Reshuffles | None
    draws: TurnDraws | None
    largest_hand: LargestHand | None
    notes: tuple[str, ...]
    mercy: MercyRule | None = None


def _mean_sd(lf: pl.LazyFrame, column: str, *extra: pl.Expr) -> dict:
    col = pl.col(column).cast(pl.Float64)
    return (
        lf.select(
            pl.len().alias("n"),
            col.mean().alias("mean"),
            col.std().alias("sd"),
            col.max().alias("max"),
            *extra,
        )
        .collect()
        .row(0, named=True)
    )


def _t(row: dict) -> Estimate:
    sd = row["sd"] if row["sd"] is not None else math.nan
    return mean_estimate(float(row["mean"]), float(sd), int(row["n"]))


def stack_chains(lf: pl.LazyFrame) -> StackChains:
    """Share of rounds whose longest penalty chain held 2+ / 3+ draw cards; mean; longest."""
    c = pl.col("longest_stack")
    row = _mean_sd(lf, "longest_stack", (c >= 2).sum().alias("k2"), (c >= 3).sum().alias("k3"))
    n = int(row["n"])
    return StackChains(
        n, proportion(int(row["k2"]), n), proportion(int(row["k3"]), n), _t(row), int(row["max"])
    )


def reshuffles(lf: pl.LazyFrame) -> Reshuffles:
    """Reshuffles per round (t interval), share of rounds with any (Wilson), the most."""
    row = _mean_sd(lf, "reshuffles", (pl.col("reshuffles") > 0).sum().alias("k"))
    n = int(row["n"])
    return Reshuffles(n, _t(row), proportion(int(row["k"]), n), int(row["max"]))


def turn_draws(lf: pl.LazyFrame) -> TurnDraws:
    """Cards per own-turn draw: a ratio over rounds with a cluster-robust interval.

    Read as the joint histogram of (draws, cards) per round, so memory does not grow with
    rounds; the ratio, its interval and the draws' mean and sd are those of every round.
    """
    joint = (
        lf.select(pl.col("turn_draws").alias("d"), pl.col("turn_draw_cards").alias("x"))
        .group_by("d", "x")
        .agg(pl.len().alias("k"))
        .sort("d", "x")
        .collect()
    )
    draws = joint["d"].cast(pl.Int64).to_numpy()
    cards = joint["x"].cast(pl.Int64).to_numpy()
    weights = joint["k"].to_numpy().astype(np.int64)
    per_draw = cluster_ratio_counts(cards, draws, weights)
    n = int(weights.sum())
    total_draws = int(weights @ draws)
    mean = total_draws / n if n else math.nan
    sd = (
        math.sqrt(float(np.sum(weights * np.square(draws - mean))) / (n - 1)) if n > 1 else math.nan
    )
    return TurnDraws(n, total_draws, int(weights @ cards), per_draw, mean_estimate(mean, sd, n))


def largest_hand(lf: pl.LazyFrame) -> LargestHand:
    """Mean (t), median and p90 (mid-quantiles) and maximum of ``largest_hand``."""
    row = _mean_sd(lf, "largest_hand")
    values, counts = value_counts(lf, "largest_hand")
    median, p90 = quantile_estimates(values, counts, (0.5, 0.9))
    return LargestHand(int(row["n"]), _t(row), median, p90, int(row["max"]))


def mercy_rule(lf: pl.LazyFrame) -> MercyRule | None:
    """The mercy rule's answers, or None when no round knocked anyone out or turned up a
    roulette (so runs of the classic rules report nothing new)."""
    out, last = pl.col("eliminated"), pl.col("last_standing")
    row = _mean_sd(
        lf,
        "eliminated",
        (out > 0).sum().alias("k_any"),
        (last > 0).sum().alias("k_last"),
        pl.col("roulette_draws").cast(pl.Float64).mean().alias("r_mean"),
        pl.col("roulette_draws").cast(pl.Float64).std().alias("r_sd"),
        pl.col("roulette_draws").max().alias("r_max"),
    )
    n = int(row["n"])
    if n == 0 or (int(row["max"] or 0) == 0 and int(row["r_max"] or 0) == 0):
        return None
    roulette = {"n": n, "mean": row["r_mean"], "sd": row["r_sd"]}
    return MercyRule(
        n,
        proportion(int(row["k_last"]), n),
        proportion(int(row["k_any"]), n),
        _t(row),
        int(row["max"]),
        _t(roulette),
    )


def round_events(lf: pl.LazyFrame) -> RoundEvents:
    """Every in-round question the columns of ``lf`` can answer (empty frames give None)."""
    notes = []
    empty = lf.select(pl.len()).collect().item() == 0

    def need(*columns: str, question: str) -> bool:
        missing = [c for c in columns if not has_column(lf, c)]
        if missing:
            notes.append(
                f"{question}: not answered, the results have no {', '.join(missing)} column"
            )
        return not missing and not empty

    return RoundEvents(
        stack_chains(lf) if need("longest_stack", question="stacking chains") else None,
        reshuffles(lf) if need("reshuffles", question="reshuffles") else None,
        turn_draws(lf)
        if need("turn_draws", "turn_draw_cards", question="cards per draw")
        else None,
        largest_hand(lf) if need("largest_hand", question="largest hand") else None,
        tuple(notes),
        # results written before the No Mercy columns answer nothing here and need no note
        mercy_rule(lf) if _has_mercy_columns(lf) and not empty else None,
    )


def _has_mercy_columns(lf: pl.LazyFrame) -> bool:
    return all(has_column(lf, c) for c in ("eliminated", "last_standing", "roulette_draws"))

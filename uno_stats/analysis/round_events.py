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
    mean_estimate,
    proportion,
)
from uno_stats.analysis.quantiles import quantile_estimates
from uno_stats.analysis.row_counts import FrameCounts, RowCounts, counts_mean_sd


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


def _summary(rows: RowCounts, column: str) -> dict:
    """n, mean, sd and maximum of ``column`` from its histogram, and the histogram."""
    values, counts = rows.counts(column)
    n, mean, sd = counts_mean_sd(values, counts)
    top = int(values[-1]) if values.size else 0
    return {"n": n, "mean": mean, "sd": sd, "max": top, "values": values, "counts": counts}


def _t(row: dict) -> Estimate:
    return mean_estimate(float(row["mean"]), float(row["sd"]), int(row["n"]))


def _at_least(row: dict, low: int) -> int:
    """Rounds whose value is ``low`` or more."""
    return int(row["counts"][row["values"] >= low].sum())


def stack_chains(rows: RowCounts) -> StackChains:
    """Share of rounds whose longest penalty chain held 2+ / 3+ draw cards; mean; longest."""
    row = _summary(rows, "longest_stack")
    n = int(row["n"])
    k2, k3 = _at_least(row, 2), _at_least(row, 3)
    return StackChains(n, proportion(k2, n), proportion(k3, n), _t(row), int(row["max"]))


def reshuffles(rows: RowCounts) -> Reshuffles:
    """Reshuffles per round (t interval), share of rounds with any (Wilson), the most."""
    row = _summary(rows, "reshuffles")
    n = int(row["n"])
    return Reshuffles(n, _t(row), proportion(_at_least(row, 1), n), int(row["max"]))


def turn_draws(rows: RowCounts) -> TurnDraws:
    """Cards per own-turn draw: a ratio over rounds with a cluster-robust interval.

    Read as the joint histogram of (draws, cards) per round, so memory does not grow with
    rounds; the ratio, its interval and the draws' mean and sd are those of every round.
    """
    keys, weights = rows.joint("turn_draws", "turn_draw_cards")
    draws, cards = keys[:, 0], keys[:, 1]
    per_draw = cluster_ratio_counts(cards, draws, weights)
    n = int(weights.sum())
    total_draws = int(weights @ draws)
    mean = total_draws / n if n else math.nan
    sd = (
        math.sqrt(float(np.sum(weights * np.square(draws - mean))) / (n - 1)) if n > 1 else math.nan
    )
    return TurnDraws(n, total_draws, int(weights @ cards), per_draw, mean_estimate(mean, sd, n))


def largest_hand(rows: RowCounts) -> LargestHand:
    """Mean (t), median and p90 (mid-quantiles) and maximum of ``largest_hand``."""
    row = _summary(rows, "largest_hand")
    median, p90 = quantile_estimates(row["values"], row["counts"], (0.5, 0.9))
    return LargestHand(int(row["n"]), _t(row), median, p90, int(row["max"]))


def mercy_rule(rows: RowCounts) -> MercyRule | None:
    """The mercy rule's answers, or None when no round knocked anyone out or turned up a
    roulette (so runs of the classic rules report nothing new)."""
    out, last = _summary(rows, "eliminated"), _summary(rows, "last_standing")
    roulette = _summary(rows, "roulette_draws")
    n = int(out["n"])
    if n == 0 or (int(out["max"]) == 0 and int(roulette["max"]) == 0):
        return None
    return MercyRule(
        n,
        proportion(_at_least(last, 1), n),
        proportion(_at_least(out, 1), n),
        _t(out),
        int(out["max"]),
        _t(roulette),
    )


def round_events(source: pl.LazyFrame | RowCounts) -> RoundEvents:
    """Every in-round question the columns of ``source`` (rows, or a run's tallies) can
    answer (empty results give None)."""
    rows = FrameCounts(source) if isinstance(source, pl.LazyFrame) else source
    notes = []
    empty = rows.rows == 0

    def need(*columns: str, question: str) -> bool:
        missing = [c for c in columns if not rows.has(c)]
        if missing:
            notes.append(
                f"{question}: not answered, the results have no {', '.join(missing)} column"
            )
        return not missing and not empty

    return RoundEvents(
        stack_chains(rows) if need("longest_stack", question="stacking chains") else None,
        reshuffles(rows) if need("reshuffles", question="reshuffles") else None,
        turn_draws(rows)
        if need("turn_draws", "turn_draw_cards", question="cards per draw")
        else None,
        largest_hand(rows) if need("largest_hand", question="largest hand") else None,
        tuple(notes),
        # results written before the No Mercy columns answer nothing here and need no note
        mercy_rule(rows) if _has_mercy_columns(rows) and not empty else None,
    )


def _has_mercy_columns(rows: RowCounts) -> bool:
    return all(rows.has(c) for c in ("eliminated", "last_standing", "roulette_draws"))

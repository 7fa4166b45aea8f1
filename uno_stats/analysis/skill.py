"""How much of UNO is skill: the same deals played by each strategy in one seat.

The paired-deal design (SCENARIO.md, one-seat sweep axes): every point of a sweep over one
seat's strategy (``strategies.<seat>.strategy``) replays the same deals with that seat, the
focal seat, played by another strategy, the other seats unchanged; with ``seating: random``
the focal seat sits at the same random position in a game at every point. For deal d and
strategy s, ``y[d, s]`` is 1 when the focal seat won the round (a round without a winner:
0). From that table:

- each strategy's win share (Wilson interval over the deals);
- the spread between the best and the worst strategy: the mean of ``y[d, best] -
  y[d, worst]`` over the deals, with its paired t interval (best and worst are picked by
  their shares, so the spread leans high when they are close; it is reported with that
  caveat);
- the decomposition of the outcome's variance (:func:`decompose`): the two-way layout
  without replication, strategy a fixed factor and deal a random one, its components
  estimated by the ANOVA method: strategy ``sum(a_s^2) / S`` with ``a_s`` the strategy's
  mean minus the grand mean (less its noise, ``(S - 1) / S x MS_rest / D``), deal
  ``(MS_deal - MS_rest) / S``, the rest ``MS_rest`` (what happens after the deal that
  neither explains: later draws and the strategy-by-deal interaction); each as a share
  of their sum, negative estimates counted as 0; 95% intervals by a percentile bootstrap
  over deals (``BOOTSTRAP_RESAMPLES`` resamples, seeded).

Rule effects on skill (:func:`spread_effects`): with other two-valued axes beside the focal
one (house rules), each axis's effect on the spread is, deal by deal, the mean spread at its
second value minus at its first (over the other axes' points), averaged over the deals with
a paired t interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from uno_stats.analysis.estimates import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    LEVEL,
    Estimate,
    proportion,
    require_rows,
)
from uno_stats.errors import ResultsError


@dataclass(frozen=True)
class Decomposition:
    """Shares of the outcome's variance (each with its interval; the three sum to 1)."""

    strategy: Estimate
    deal: Estimate
    rest: Estimate


@dataclass(frozen=True)
class FocalSkill:
    """The answers of one paired-deal table: the focal seat played by each strategy."""

    strategies: tuple[str, ...]
    shares: tuple[Estimate, ...]  # each strategy's win share, in ``strategies`` order
    best: str
    worst: str
    spread: Estimate  # best minus worst, paired over deals
    decomposition: Decomposition
    deals: int


def _t_quantile(df: int, level: float = LEVEL) -> float:
    from scipy import special

    return float(special.stdtrit(max(df, 1), 0.5 + level / 2))


def paired_mean(differences: np.ndarray, level: float = LEVEL) -> Estimate:
    """The mean of per-deal ``differences`` with its t interval (n - 1 degrees of freedom)."""
    n = differences.size
    require_rows(n, "deals")
    mean = float(differences.mean())
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n)
    half = _t_quantile(n - 1, level) * float(differences.std(ddof=1)) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


def components(y: np.ndarray) -> tuple[float, float, float]:
    """The variance components (strategy, deal, rest) of the deals x strategies table ``y``
    by the ANOVA method (see the module docstring); negative estimates become 0."""
    deals, strategies = y.shape
    if deals < 2 or strategies < 2:
        raise ResultsError("a decomposition needs at least 2 deals and 2 strategies")
    grand = y.mean()
    by_strategy = y.mean(axis=0) - grand
    by_deal = y.mean(axis=1) - grand
    rest = y - grand - by_strategy[None, :] - by_deal[:, None]
    ms_rest = float((rest**2).sum()) / ((deals - 1) * (strategies - 1))
    ms_deal = strategies * float((by_deal**2).sum()) / (deals - 1)
    strategy = float((by_strategy**2).mean()) - (strategies - 1) / strategies * ms_rest / deals
    deal = (ms_deal - ms_rest) / strategies
    return max(strategy, 0.0), max(deal, 0.0), ms_rest


def _shares(y: np.ndarray) -> np.ndarray:
    parts = np.array(components(y))
    total = parts.sum()
    return parts / total if total > 0 else np.full(3, math.nan)


def decompose(
    y: np.ndarray, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED
) -> Decomposition:
    """The shares of :func:`components` with percentile bootstrap intervals over deals."""
    point = _shares(y)
    gen = np.random.default_rng(seed)
    deals = y.shape[0]
    draws = np.array([_shares(y[gen.integers(0, deals, deals)]) for _ in range(resamples)])
    tail = (1 - LEVEL) / 2 * 100
    low = np.nanpercentile(draws, tail, axis=0)
    high = np.nanpercentile(draws, 100 - tail, axis=0)
    strategy, deal, rest = (
        Estimate(float(point[k]), float(low[k]), float(high[k]), deals) for k in range(3)
    )
    return Decomposition(strategy, deal, rest)


def focal_skill(
    strategies: Sequence[str],
    y: np.ndarray,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> FocalSkill:
    """Win shares, the best-minus-worst spread and the decomposition of ``y`` (deals x
    strategies, 1 where the focal seat won)."""
    if y.ndim != 2 or y.shape[1] != len(strategies) or len(strategies) < 2:
        raise ResultsError("a paired-deal table needs one column per strategy, at least 2")
    deals = y.shape[0]
    require_rows(deals, "deals")
    shares = tuple(proportion(int(y[:, k].sum()), deals) for k in range(len(strategies)))
    order = np.argsort([-s.value for s in shares], kind="stable")
    best, worst = int(order[0]), int(order[-1])
    spread = paired_mean(y[:, best].astype(float) - y[:, worst])
    return FocalSkill(
        tuple(strategies),
        shares,
        strategies[best],
        strategies[worst],
        spread,
        decompose(y, resamples, seed),
        deals,
    )


@dataclass(frozen=True)
class SpreadEffect:
    """How one two-valued axis moves the spread between two strategies (second value minus
    first), paired by deal."""

    axis: str
    values: tuple[Any, Any]
    effect: Estimate


def spread_effects(
    points: Sequence[tuple[dict[str, Any], np.ndarray]], better: int = 1, worse: int = 0
) -> tuple[SpreadEffect, ...]:
    """``points``: per combination of the other axes, its assignment and its deals x
    strategies table (the same deals, the same strategy columns); per two-valued axis, the
    effect on the spread ``y[:, better] - y[:, worse]`` (see the module docstring)."""
    if not points:
        return ()
    spreads = {
        tuple(sorted(a.items(), key=str)): t[:, better].astype(float) - t[:, worse]
        for a, t in points
    }
    axes = list(points[0][0])
    out = []
    for axis in axes:
        values = list(dict.fromkeys(a[axis] for a, _ in points))
        if len(values) != 2:
            continue
        sides = [
            np.mean(
                [spreads[tuple(sorted(a.items(), key=str))] for a, _ in points if a[axis] == v],
                axis=0,
            )
            for v in values
        ]
        out.append(SpreadEffect(axis, (values[0], values[1]), paired_mean(sides[1] - sides[0])))
    return tuple(out)


def focal_wins(lf: Any, focal: int) -> tuple[np.ndarray, np.ndarray]:
    """``(games, won)`` of one run, sorted by game: whether the scenario seat ``focal`` won
    each round (RULES.md S16: at the position the ``seating`` column puts it; a round
    without a winner: not won). One row per game (single rounds)."""

    from uno_stats.analysis.estimates import has_column
    from uno_stats.analysis.seats import seat_matrix

    seating = has_column(lf, "seating")
    columns = ["game", "winner", *(["seating"] if seating else [])]
    df = lf.select(columns).sort("game").collect()
    if df.height and df["game"].n_unique() != df.height:
        raise ResultsError("a paired-deal table needs single rounds (one row per game)")
    winner = df["winner"].to_numpy().astype(np.int64)
    if seating:
        at = np.argmax(seat_matrix(df, "seating") == focal, axis=1)
    else:
        at = np.full(df.height, focal)
    return df["game"].to_numpy().astype(np.int64), (winner == at).astype(np.int8)


def paired_table(columns: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The deals x strategies table from each strategy's :func:`focal_wins`: the games all
    of them played (an incomplete run leaves its missing games out of every column)."""
    common = columns[0][0]
    for games, _ in columns[1:]:
        common = np.intersect1d(common, games)
    table = np.empty((common.size, len(columns)), dtype=np.int8)
    for k, (games, won) in enumerate(columns):
        table[:, k] = won[np.searchsorted(games, common)]
    return table

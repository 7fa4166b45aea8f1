"""Every table of the report as tidy records: one number per row, with how it was computed.

The machine-readable form behind ``uno-stats summary --format json|csv``. Columns
(:data:`COLUMNS`): ``run`` (run, or tournament, name), ``group`` (sweep or tournament name,
else empty), ``question``, ``metric``, ``estimate``, ``low``/``high`` (the interval, empty for
a test statistic or a count), ``n`` (what the estimate counts: rounds, won rounds,
seat-rounds, deals), ``method`` (interval or test), ``level`` (confidence level of the
interval, empty without one) and ``seed`` (the run's seed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from uno_stats.analysis.estimates import LEVEL, Estimate
from uno_stats.analysis.questions import RunAnswers, SweepGroup
from uno_stats.analysis.tournament import METHOD as CLUSTER
from uno_stats.analysis.tournament import Tournaments
from uno_stats.engine.schema import STATUS_NAMES

COLUMNS = [
    "run",
    "group",
    "question",
    "metric",
    "estimate",
    "low",
    "high",
    "n",
    "method",
    "level",
    "seed",
]
WILSON, T = "Wilson score interval", "Student t interval"
MID = "mid-quantile, normal interval from a bootstrap SE"
NEWCOMBE = "Newcombe hybrid score interval"
CHI2, COUNT = "Pearson chi-square vs equal shares", "count"


class _Sink:
    """Collects records of one run (or tournament) with its seed and group."""

    def __init__(self, run: str, seed: int | None, group: str = "") -> None:
        self.run, self.seed, self.group = run, seed, group
        self.rows: list[dict[str, Any]] = []

    def add(
        self, question: str, metric: str, e: Estimate | float, method: str, n: int | None = None
    ) -> None:
        if isinstance(e, Estimate):
            values, n, level = [e.value, e.low, e.high], e.n, LEVEL
        else:
            values, level = [float(e), math.nan, math.nan], None
        clean = [v if math.isfinite(v) else None for v in values]
        self.rows.append(
            {
                "run": self.run,
                "group": self.group,
                "question": question,
                "metric": metric,
                "estimate": clean[0],
                "low": clean[1],
                "high": clean[2],
                "n": n,
                "method": method,
                "level": level if clean[1] is not None else None,
                "seed": self.seed,
            }
        )


def _length(out: _Sink, question: str, unit: str, length: Any) -> None:
    out.add(question, f"mean_{unit}", length.mean, T)
    for key in ("p10", "median", "p90", "p99"):
        out.add(question, f"{key}_{unit}", getattr(length, key), MID)
    out.add(question, f"sd_{unit}", length.sd, "sample standard deviation", length.n)
    out.add(question, f"mode_{unit}", length.mode, "most frequent value", length.n)
    out.add(question, f"mode_share_{unit}", length.mode_share, WILSON)
    out.add(question, f"min_{unit}", length.minimum, "sample minimum", length.n)
    out.add(question, f"max_{unit}", length.maximum, "sample maximum", length.n)


def _events(out: _Sink, a: RunAnswers) -> None:
    ev = a.events
    if ev.stacks is not None:
        out.add("stacking_chains", "share_chain_2_plus", ev.stacks.chain2, WILSON)
        out.add("stacking_chains", "share_chain_3_plus", ev.stacks.chain3, WILSON)
        out.add("stacking_chains", "mean_longest_chain", ev.stacks.mean, T)
        out.add(
            "stacking_chains", "longest_chain", ev.stacks.longest, "sample maximum", ev.stacks.n
        )
    if ev.reshuffles is not None:
        r = ev.reshuffles
        out.add("reshuffles", "mean_per_round", r.mean, T)
        out.add("reshuffles", "share_rounds_with_any", r.any, WILSON)
        out.add("reshuffles", "most_in_a_round", r.most, "sample maximum", r.n)
    if ev.draws is not None:
        d = ev.draws
        out.add("turn_draws", "cards_per_draw", d.per_draw, "ratio, cluster-robust over rounds")
        out.add("turn_draws", "draws_per_round", d.per_round, T)
    if ev.largest_hand is not None:
        h = ev.largest_hand
        out.add("largest_hand", "mean", h.mean, T)
        out.add("largest_hand", "median", h.median, MID)
        out.add("largest_hand", "p90", h.p90, MID)
        out.add("largest_hand", "largest", h.largest, "sample maximum", h.n)
    if ev.mercy is not None:
        m = ev.mercy
        out.add("mercy_rule", "share_ended_by_last_standing", m.last_standing, WILSON)
        out.add("mercy_rule", "share_rounds_with_a_knock_out", m.any_out, WILSON)
        out.add("mercy_rule", "knock_outs_per_round", m.eliminated, T)
        out.add("mercy_rule", "most_knock_outs", m.most, "sample maximum", m.n)
        out.add("mercy_rule", "roulette_cards_per_round", m.roulette, T)


def records(a: RunAnswers, sweeps: Sequence[SweepGroup] = ()) -> list[dict[str, Any]]:
    """Every answer of one run as tidy records (:data:`COLUMNS`)."""
    group = next((g.name for g in sweeps if any(r.path == a.run.path for r in g.runs)), "")
    if not group and a.run.manifest.tournament:
        group = a.run.manifest.name
    out = _Sink(a.run.name, a.run.manifest.seed, group)
    for s, e, c in zip(STATUS_NAMES, a.status.shares, a.status.counts, strict=True):
        out.add("round_status", f"{s}_rate", e, WILSON)
        out.add("round_status", f"{s}_count", c, COUNT, a.status.n)
    _length(out, "round_length", "turns", a.length)
    if a.match is not None:
        _length(out, "match_length", "rounds", a.match.length)
        for i, e in enumerate(a.match.shares):
            out.add("match_winner", f"side{i}_share", e, WILSON)
        chi = a.match.chi_square
        out.add("match_winner", "chi_square_statistic", chi.statistic, CHI2, chi.n)
        out.add("match_winner", "chi_square_p", chi.p, CHI2, chi.n)
    if a.first_mover is not None:
        f = a.first_mover
        out.add("first_mover", "seat0_moved_first_share", f.seat0_first, WILSON)
        out.add("first_mover", "first_mover_win_share", f.first, WILSON)
        out.add("first_mover", "first_mover_edge", f.edge, "Wilson interval minus 1/players")
        out.add("first_mover", "first_mover_edge_p", f.edge_p, "exact binomial test", f.n_won)
        if f.positions is not None and f.chi_square is not None:
            for k, e in enumerate(f.positions):
                out.add("first_mover", f"position{k}_win_share", e, WILSON)
            out.add("first_mover", "chi_square_statistic", f.chi_square.statistic, CHI2, f.n_won)
            out.add("first_mover", "chi_square_p", f.chi_square.p, CHI2, f.n_won)
    if a.seats is not None:
        for i, e in enumerate(a.seats.seats):
            out.add("seat_advantage", f"seat{i}_win_share", e, WILSON)
        chi = a.seats.chi_square
        out.add("seat_advantage", "chi_square_statistic", chi.statistic, CHI2, chi.n)
        out.add("seat_advantage", "chi_square_p", chi.p, CHI2, chi.n)
    if a.edge is not None:
        paired = "paired t interval"
        out.add("first_player_points", "first_player_points", a.edge.first, T)
        out.add("first_player_points", "other_seats_points", a.edge.others, T)
        out.add("first_player_points", "edge_points", a.edge.edge, paired)
        out.add("first_player_points", "edge_p", a.edge.p, "paired t test", a.edge.edge.n)
    if a.comeback is not None:
        curve = a.comeback
        for k, e, nv, g in zip(curve.ks, curve.rates, curve.never, curve.gap, strict=True):
            out.add("comeback", f"p_win_max_deficit_ge_{k}", e, WILSON)
            out.add("comeback", f"p_win_max_deficit_lt_{k}", nv, WILSON)
            out.add("comeback", f"comeback_gap_{k}", g, NEWCOMBE)
        out.add("comeback", "overall_win_rate", curve.overall, "1/players", None)
    if a.deficit is not None:
        t = a.deficit
        for d, j in zip(*np.nonzero(t.n), strict=True):
            e = Estimate(t.rate[d, j], t.low[d, j], t.high[d, j], int(t.n[d, j]))
            out.add("deficit_at_turn", f"p_win_deficit_{d}_turn_{t.turns[j]}", e, WILSON)
    _events(out, a)
    for r in a.strategies:
        out.add("strategy_strength", f"{r.label}: win_share", r.win, WILSON)
        out.add("strategy_strength", f"{r.label}: points_scored", r.points_scored, T)
        out.add("strategy_strength", f"{r.label}: points_left", r.points_left, T)
    if group and a.run.manifest.sweep_assignment:
        for axis, value in a.run.manifest.sweep_assignment.items():
            number = float(value) if isinstance(value, int | float) else math.nan
            out.add("sweep_point", f"{axis}={value}", number, "swept value", None)
    return out.rows


def tournament_records(found: Tournaments) -> list[dict[str, Any]]:
    """The tournament, pairwise, skill-spread and spread-difference tables as records."""
    rows: list[dict[str, Any]] = []
    for t in found.tables:
        out = _Sink(t.name, t.seed, " = ".join([t.name, *t.same_as]))
        for r in t.rows:
            out.add("tournament", f"{r.label}: win_share", r.win, CLUSTER)
            out.add("tournament", f"{r.label}: points_scored", r.points_scored, CLUSTER)
            out.add("tournament", f"{r.label}: seat_rounds", r.seat_rounds, COUNT, None)
        for p in t.pairs:
            metric = f"P({p.label} wins | {p.label} or {p.opponent} wins)"
            out.add("tournament_pairwise", metric, p.ahead, f"seat-balanced share, {CLUSTER}")
        rows += out.rows
    for s in found.spreads:
        out = _Sink(s.name, s.seed, " = ".join([s.name, *s.same_as]))
        out.add("skill_spread", f"{s.best} minus {s.worst}: win_share", s.spread, CLUSTER)
        how = "range of all shares under equal shares (max statistic, normal draws)"
        out.add("skill_spread", "spread_p", s.p, how, s.spread.n)
        rows += out.rows
    for d in found.differences:
        out = _Sink(f"{d.first} vs {d.second}", d.seed, "skill_vs_luck")
        how = "z test, " + ("paired by deal" if d.paired else "independent tournaments")
        out.add("skill_spread_difference", "spread_difference", d.difference, how)
        out.add("skill_spread_difference", "p", d.p, how, d.difference.n)
        out.add("skill_spread_difference", "p_holm", d.p_holm, how + ", Holm", d.difference.n)
        rows += out.rows
    return rows

"""Every answer of a run as tidy records: run, question, metric, estimate, low, high, n.

The machine-readable form behind ``uno-stats summary --format json|csv``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from uno_stats.analysis.estimates import Estimate
from uno_stats.analysis.questions import RunAnswers
from uno_stats.engine.schema import STATUS_NAMES


def _rec(
    run: str, question: str, metric: str, e: Estimate | float, n: int | None = None
) -> dict[str, Any]:
    if isinstance(e, Estimate):
        values = [e.value, e.low, e.high]
        n = e.n
    else:
        values = [float(e), math.nan, math.nan]
    clean = [v if math.isfinite(v) else None for v in values]
    return {
        "run": run,
        "question": question,
        "metric": metric,
        "estimate": clean[0],
        "low": clean[1],
        "high": clean[2],
        "n": n,
    }


def records(a: RunAnswers) -> list[dict[str, Any]]:
    """Every answer of one run as tidy records: run, question, metric, estimate, low, high, n."""
    name = a.run.name
    out = [
        _rec(name, "round_status", f"{s}_rate", e)
        for s, e in zip(STATUS_NAMES, a.status.shares, strict=True)
    ]
    length = a.length
    for key in ("mean", "p10", "median", "p90", "p99"):
        out.append(_rec(name, "round_length", f"{key}_turns", getattr(length, key)))
    out.append(_rec(name, "round_length", "sd_turns", length.sd, length.n))
    if a.match is not None:
        for key in ("mean", "median", "p90", "p99"):
            out.append(_rec(name, "match_length", f"{key}_rounds", getattr(a.match.length, key)))
        out += [
            _rec(name, "match_winner", f"side{i}_share", e) for i, e in enumerate(a.match.shares)
        ]
        out.append(
            _rec(name, "match_winner", "chi_square_p", a.match.chi_square.p, a.match.chi_square.n)
        )
    if a.seats is not None:
        out += [
            _rec(name, "seat_advantage", f"seat{i}_win_share", e)
            for i, e in enumerate(a.seats.seats)
        ]
        chi = a.seats.chi_square
        out.append(_rec(name, "seat_advantage", "chi_square_statistic", chi.statistic, chi.n))
        out.append(_rec(name, "seat_advantage", "chi_square_p", chi.p, chi.n))
    if a.edge is not None:
        out.append(_rec(name, "first_player_points", "first_player_points", a.edge.first))
        out.append(_rec(name, "first_player_points", "other_seats_points", a.edge.others))
        out.append(_rec(name, "first_player_points", "edge_points", a.edge.edge))
        out.append(_rec(name, "first_player_points", "edge_p", a.edge.p, a.edge.edge.n))
    if a.comeback is not None:
        out += [
            _rec(name, "comeback", f"p_win_max_deficit_ge_{k}", e)
            for k, e in zip(a.comeback.ks, a.comeback.rates, strict=True)
        ]
        out.append(_rec(name, "comeback", "overall_win_rate", a.comeback.overall))
    if a.deficit is not None:
        t = a.deficit
        for d, j in zip(*np.nonzero(t.n), strict=True):
            out.append(
                _rec(
                    name,
                    "deficit_at_turn",
                    f"p_win_deficit_{d}_turn_{t.turns[j]}",
                    Estimate(t.rate[d, j], t.low[d, j], t.high[d, j], int(t.n[d, j])),
                )
            )
    for r in a.strategies:
        out.append(_rec(name, "strategy_strength", f"{r.label}: win_share", r.win))
        out.append(_rec(name, "strategy_strength", f"{r.label}: points_scored", r.points_scored))
        out.append(_rec(name, "strategy_strength", f"{r.label}: points_left", r.points_left))
    return out

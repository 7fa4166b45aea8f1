"""Every question of one run answered from its summed part tallies (no row is read).

:func:`uno_stats.analysis.questions.answer_tallies` builds the same ``RunAnswers`` as the
row-reading questions of :mod:`uno_stats.analysis.questions`,
:mod:`~uno_stats.analysis.seats`, :mod:`~uno_stats.analysis.first_mover` and
:mod:`~uno_stats.analysis.round_events`, from the counts and exact sums those questions reduce
the rows to (:mod:`uno_stats.store.tallies`); each answer is finished by the function the
row-reading path ends with, so the figures are the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from uno_stats.analysis.estimates import require_rows
from uno_stats.analysis.seats import (
    ComebackCurve,
    DeficitTable,
    Moments,
    PointsEdge,
    SeatWinRates,
    StrategyRow,
    comeback_from,
    comeback_tails,
    deficit_table,
    seat_label,
    seat_rates,
    strategy_rows,
    wins_by_seat,
)
from uno_stats.analysis.seats import points_edge as _edge
from uno_stats.errors import ResultsError
from uno_stats.store.tally_sums import Tallies


def _by_value(found: tuple[np.ndarray, np.ndarray] | None, column: int = 0) -> np.ndarray:
    """A histogram's counts indexed by the (non-negative) value of key ``column``."""
    if found is None or found[0].shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    keys, counts = found
    values = keys[:, column]
    if values.min() < 0:
        raise ResultsError(f"a negative value ({int(values.min())}) where a count was expected")
    out = np.zeros(int(values.max()) + 1, dtype=np.int64)
    np.add.at(out, values, counts)
    return out


def start_counts(tallies: Tallies) -> tuple[np.ndarray, np.ndarray]:
    """The won rounds' joint histogram of (dealer, first player, winner[, direction])."""
    found = tallies.won("start")
    if found is None:
        raise ResultsError("results have no dealer, first_player or winner column")
    return found


def seat_win_rates(tallies: Tallies, players: int) -> SeatWinRates:
    """Win share of each seat over won rounds (:func:`uno_stats.analysis.seats.seat_win_rates`)."""
    keys, counts = start_counts(tallies)
    return seat_rates(wins_by_seat(keys[:, 2], counts, players, "winner"), players)


def _moments(tallies: Tallies, name: str) -> list[Any]:
    found = tallies.moments(name)
    if found is None:
        raise ResultsError("results have no points column")
    return found


def points_edge(tallies: Tallies, scoring: str) -> PointsEdge:
    """The first player's points edge (:func:`~uno_stats.analysis.seats.first_seat_points_edge`)."""
    variant = "partners" if scoring == "partners" else "points"
    first, others, d = (Moments(*m) for m in _moments(tallies, f"edge_{variant}"))
    assert tallies.players is not None
    return _edge(first, others, d, tallies.players - 1)


def comeback_curve(
    tallies: Tallies, players: int, ks: Sequence[int] = range(1, 11)
) -> ComebackCurve:
    """:func:`~uno_stats.analysis.seats.comeback_curve` from the max_deficit histograms."""
    if tallies.won("max_deficit") is None:
        raise ResultsError("results have no max_deficit column")
    every = _by_value(tallies.won("max_deficit"))
    won = _by_value(tallies.won("max_deficit_won"))
    ks = tuple(int(k) for k in ks)
    return comeback_from(comeback_tails(every, won, tallies.won_rounds, ks), ks, players)


def deficit(tallies: Tallies, players: int) -> DeficitTable | None:
    """The deficit table, or None without checkpoints (or with none reached in a won round)."""
    found = tallies.deficit()
    if found is None:
        return None
    turns, counts = found
    try:
        return deficit_table(np.array(turns), counts, players)
    except ResultsError:  # every checkpoint null: rounds shorter than the first checkpoint
        return None


def strategy_strength(
    tallies: Tallies, seats: Sequence[dict[str, Any]], scoring: str
) -> tuple[StrategyRow, ...]:
    """:func:`~uno_stats.analysis.seats.strategy_strength` from each scenario seat's counts."""
    if not seats:
        raise ResultsError("no seat strategies in the manifest")
    require_rows(tallies.won_rounds, "won rounds")
    variant = "partners" if scoring == "partners" else "points"
    sitters = _moments(tallies, "sitters")
    left, scored = _moments(tallies, "left"), _moments(tallies, f"scored_{variant}")
    players = len(sitters)
    labels = [seat_label(seats[i if len(seats) > 1 else 0]) for i in range(players)]
    order = list(dict.fromkeys(labels))
    rows = []
    for label in order:
        mine = [s for s in range(players) if labels[s] == label]
        counts = [sum(sitters[s][0] for s in mine), sum(sitters[s][1] for s in mine)]
        score = Moments(*(sum(scored[s][j] for s in mine) for j in range(3)))
        kept = Moments(*(sum(left[s][j] for s in mine) for j in range(3)))
        rows.append((counts, score, kept))
    return strategy_rows(labels, order, rows)

"""First mover: who wins by position relative to the player who moved first.

Position 0 moved first, position 1 is next in the direction of play at the start, and so
on. The opening card (a Skip or Draw Two moves the first turn on, a Reverse turns play
counterclockwise) and a rotating dealer (matches) move the first player off seat 0, so
this answers "does moving first help?", which seat numbers cannot.

The result columns carry the dealer and the first player, not the starting direction; it is
derived from them (RULES.md semantic 4). With offset = (first_player - dealer) mod players:
1 is an ordinary start and 2 a start after a Skip or Draw Two (clockwise), while an opening
Reverse starts at offset 0 (``dealer-starts``) or players - 1 (``dealer-right-starts``),
counterclockwise. Under ``opening_action: redraw`` play always starts clockwise. Only three
players with ``dealer-right-starts`` and ``apply`` are ambiguous (offset 2 is both a Skip and
a Reverse start): then positions past 0 are not reported unless the results carry a
``first_direction`` column (+1 clockwise, -1 counterclockwise), which is used when present.
With two players direction does not matter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from uno_stats.analysis.binomial import binom_test_two_sided
from uno_stats.analysis.estimates import (
    ChiSquare,
    Estimate,
    chi_square_equal,
    has_column,
    proportion,
    proportions,
    require_rows,
    won_rounds,
)
from uno_stats.store.tallies import DIRECTION_COLUMN  # not written by the engine yet


@dataclass(frozen=True)
class FirstMover:
    """Win share by position from the first player (Wilson), chi-square, first mover's edge.

    ``positions``/``wins``/``chi_square`` are None when the starting direction cannot be
    told apart (see the module doc, ``note`` says why). ``edge`` is position 0's share minus
    the fair share 1/players, in proportion units, with the Wilson interval shifted by the
    same constant; ``edge_p`` is the exact binomial test of a fair share. ``seat0_first``:
    share of won rounds in which seat 0 moved first.
    """

    players: int
    n_won: int
    fair: float
    first: Estimate
    first_wins: int
    edge: Estimate
    edge_p: float
    positions: tuple[Estimate, ...] | None
    wins: tuple[int, ...] | None
    chi_square: ChiSquare | None
    seat0_first: Estimate
    note: str | None = None


def _direction(
    keys: np.ndarray, players: int, rules: dict[str, Any]
) -> tuple[np.ndarray | None, str | None]:
    """The starting direction (+1 / -1) of each (dealer, first player, winner[, direction])
    key row, or None with the reason it cannot be told."""
    if keys.shape[1] > 3:
        return keys[:, 3], None
    if players <= 2 or rules.get("opening_action", "apply") == "redraw":
        return np.ones(keys.shape[0], dtype=np.int64), None
    dealer_right = rules.get("opening_reverse", "dealer-starts") == "dealer-right-starts"
    if players == 3 and dealer_right:
        return None, (
            "3 players with opening_reverse: dealer-right-starts: a Skip or Draw Two start "
            "and a Reverse start both put the first turn two seats after the dealer, so the "
            "starting direction is unknown; only the first mover's share is reported"
        )
    offset = (keys[:, 1] - keys[:, 0]) % players
    reverse_offset = players - 1 if dealer_right else 0
    return np.where(offset == reverse_offset, -1, 1).astype(np.int64), None


def first_mover(lf: pl.LazyFrame, players: int, rules: dict[str, Any] | None = None) -> FirstMover:
    """Win share by position relative to the first player over won rounds (see module doc).

    ``rules``: the run's resolved rules (``opening_action``, ``opening_reverse``).
    """
    names = ["dealer", "first_player", "winner"]
    if has_column(lf, DIRECTION_COLUMN):
        names.append(DIRECTION_COLUMN)
    joint = (
        won_rounds(lf)
        .select(pl.col(n).cast(pl.Int64) for n in names)
        .group_by(names)
        .agg(pl.len().alias("k"))
        .collect()
    )
    keys = np.stack([joint[n].to_numpy() for n in names], axis=1).astype(np.int64)
    return first_mover_counts(keys, joint["k"].to_numpy().astype(np.int64), players, rules)


def first_mover_counts(
    keys: np.ndarray, counts: np.ndarray, players: int, rules: dict[str, Any] | None = None
) -> FirstMover:
    """:func:`first_mover` from the won rounds' joint histogram: ``keys`` rows (dealer,
    first player, winner[, starting direction]) and their ``counts``."""
    direction, note = _direction(keys, players, rules or {})
    first, winner = keys[:, 1], keys[:, 2]
    n = int(counts.sum())
    require_rows(n, "won rounds")
    first_wins = int(counts[winner == first].sum())
    seat0 = int(counts[first == 0].sum())
    fair = 1 / players
    share = proportion(first_wins, n)
    edge = Estimate(share.value - fair, share.low - fair, share.high - fair, n)
    edge_p = binom_test_two_sided(first_wins, n, fair)
    positions = wins = chi = None
    if note is None and direction is not None:
        position = ((winner - first) * direction) % players
        tally = np.zeros(players, dtype=np.int64)
        np.add.at(tally, position, counts)
        positions = proportions(tally, n)
        wins = tuple(int(w) for w in tally)
        chi = chi_square_equal(tally)
    return FirstMover(
        players,
        n,
        fair,
        share,
        first_wins,
        edge,
        edge_p,
        positions,
        wins,
        chi,
        proportion(seat0, n),
        note,
    )

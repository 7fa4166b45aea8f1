"""The won rounds' tallies in one pass over the rows, compiled where numba is loaded.

A process that plays games (a pool worker, a one-worker run) has numba loaded already and
writes parts: there :func:`won_kernel` compiles (once, then from numba's cache) the loops
below, which count a part's deficit table and per-seat sums in about a fifth of the
instructions of the numpy code in :mod:`uno_stats.store.tallies`. A process without numba
(a summary counting an old part, the command writing a forked worker's parts) uses the
numpy code: both give the same counts (``tests/store/test_tallies.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from uno_stats.engine.schema import NOT_REACHED
from uno_stats.errors import ResultsError

if TYPE_CHECKING:
    import numpy as np

LEVELS = NOT_REACHED + 1
"""Bins per checkpoint turn in the deficit counts: deficits 0..254, and NOT_REACHED."""


def _deficit_loop(hands: Any, winner: Any, n: Any, wins: Any) -> None:  # pragma: no cover
    """Add each won round's seat-rounds and winner by (checkpoint, deficit) to ``n`` and
    ``wins`` (``turn index * 256 + deficit``); a round ends at its first unreached
    checkpoint (every later one is unreached too)."""
    rows, turns, players = hands.shape
    for r in range(rows):
        w = winner[r]
        for k in range(turns):
            if hands[r, k, 0] == NOT_REACHED:
                break
            low = int(hands[r, k, 0])  # ints: uncompiled, uint8 arithmetic would overflow
            for s in range(1, players):
                if hands[r, k, s] < low:
                    low = int(hands[r, k, s])
            base = k * LEVELS - low
            for s in range(players):
                n[base + int(hands[r, k, s])] += 1
            wins[base + int(hands[r, k, w])] += 1


def _max_deficit_loop(md: Any, winner: Any, every: Any, won: Any) -> None:  # pragma: no cover
    """Count every seat-round's max_deficit (``every``) and the winners' (``won``)."""
    rows, players = md.shape
    for r in range(rows):
        for s in range(players):
            every[md[r, s]] += 1
        won[md[r, winner[r]]] += 1


def _points_loop(
    points: Any,
    winner: Any,
    first: Any,
    sitter: Any,
    edge: Any,
    scored: Any,
    left: Any,
    seated: Any,
) -> None:  # pragma: no cover
    """Add, for each scoring (0: ``points``, 1: ``partners``), the points edge's sums
    (``edge[scoring, i]`` = n, sum, sum of squares of the first player's points, the others'
    total and ``(players - 1) * first - others``) and each scenario seat's points scored
    (``scored[scoring, seat]``); and each seat's points left (``left[seat]``) and seat-rounds
    and wins (``seated[seat]``), over every won round."""
    rows, players = points.shape
    k = players - 1
    for r in range(rows):  # ints throughout: uncompiled, uint16 arithmetic would wrap
        w = int(winner[r])
        total = 0
        side = 0
        for s in range(players):
            held = int(points[r, s])
            total += held
            if s % 2 != w % 2:
                side += held
            seat = sitter[r, s]
            left[seat, 0] += 1
            left[seat, 1] += held
            left[seat, 2] += held * held
            seated[seat, 0] += 1
            if s == w:
                seated[seat, 1] += 1
        winners_points = total - int(points[r, w])
        for v in range(2):
            mine = 0
            everyone = 0
            for s in range(players):
                if v == 1:
                    score = side if s % 2 == w % 2 else 0
                else:
                    score = winners_points if s == w else 0
                everyone += score
                if s == first[r]:
                    mine = score
                seat = sitter[r, s]
                scored[v, seat, 0] += 1
                scored[v, seat, 1] += score
                scored[v, seat, 2] += score * score
            rest = everyone - mine
            d = k * mine - rest
            for i, x in enumerate((mine, rest, d)):
                edge[v, i, 0] += 1
                edge[v, i, 1] += x
                edge[v, i, 2] += x * x


_COMPILED: dict[str, Any] = {}


def _check_seats(players: int, **columns: np.ndarray) -> None:
    """Refuse seat numbers outside 0..players-1 (the compiled loops index with them
    unchecked)."""
    for name, seats in columns.items():
        if seats.size and (int(seats.min()) < 0 or int(seats.max()) >= players):
            raise ResultsError(f"{name} holds a seat outside 0..{players - 1}")


def deficit_sums(hands: np.ndarray, winner: np.ndarray, n: np.ndarray, wins: np.ndarray) -> None:
    """Add the compiled :func:`_deficit_loop`'s counts of ``hands`` to ``n`` and ``wins``."""
    _check_seats(hands.shape[2], winner=winner)
    if n.size < hands.shape[1] * LEVELS or wins.size < n.size:
        raise ValueError("deficit counts too short for the checkpoints")
    won_kernel("deficit")(hands, winner, n, wins)


def won_kernel(name: str) -> Any:
    """The compiled loop ``name`` (``deficit`` or ``points``), or None where numba is not
    loaded (the numpy code then counts)."""
    if "numba" not in sys.modules:
        return None
    if name not in _COMPILED:  # with the engine's settings: its cache, loaded without
        # refreshing numba's registries (uno_stats.engine.jit)
        from uno_stats.engine.jit import engine_jit

        loops: dict[str, Callable[..., None]] = {
            "deficit": _deficit_loop,
            "points": _points_loop,
            "md": _max_deficit_loop,
        }
        loop = loops[name]
        _COMPILED[name] = engine_jit(loop)
    return _COMPILED[name]


def points_sums(
    points: np.ndarray, winner: np.ndarray, first: np.ndarray, sitter: np.ndarray
) -> dict[str, np.ndarray]:
    """The compiled :func:`_points_loop`'s sums (int64): ``edge`` ``(2, 3, 3)`` and
    ``scored`` ``(2, players, 3)`` (by scoring: ``points``, ``partners``), ``left``
    ``(players, 3)`` and ``seated`` ``(players, 2)``."""
    import numpy as np

    players = points.shape[1]
    _check_seats(players, winner=winner, first_player=first, seating=sitter)
    out = {
        "edge": np.zeros((2, 3, 3), dtype=np.int64),
        "scored": np.zeros((2, players, 3), dtype=np.int64),
        "left": np.zeros((players, 3), dtype=np.int64),
        "seated": np.zeros((players, 2), dtype=np.int64),
    }
    won_kernel("points")(points, winner, first, sitter, *out.values())
    return out


def max_deficit_counts(md: np.ndarray, winner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The compiled :func:`_max_deficit_loop`'s counts by value: every seat-round's, the
    winners'."""
    import numpy as np

    _check_seats(md.shape[1], winner=winner)
    top = int(md.max()) + 1 if md.size else 0
    every, won = np.zeros(top, dtype=np.int64), np.zeros(top, dtype=np.int64)
    won_kernel("md")(md, winner, every, won)
    return every, won

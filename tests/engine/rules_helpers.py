"""Small helpers shared by the scripted rule tests (not a test module)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from uno_stats.engine import events as E
from uno_stats.engine.cards import card_name

COLORS = ("red", "yellow", "green", "blue")


def same_cards(a: Sequence[str], b: Sequence[str]) -> bool:
    """Hands compare as multisets: removal reorders the engine's hand rows."""
    return Counter(a) == Counter(b)


def kinds(events: np.ndarray, kind: int) -> np.ndarray:
    """The event rows of one kind."""
    return events[events[:, 0] == kind]


def plays(events: np.ndarray) -> list[tuple[int, str, int]]:
    """(seat, card name, how) of every EV_PLAY, in order."""
    return [(int(r[1]), card_name(int(r[2])), int(r[3])) for r in kinds(events, E.EV_PLAY)]


def draws(events: np.ndarray, seat: int | None = None) -> list[tuple[int, str, int]]:
    """(seat, card name, reason) of every EV_DRAW (optionally of one seat)."""
    rows = kinds(events, E.EV_DRAW)
    out = [(int(r[1]), card_name(int(r[2])), int(r[3])) for r in rows]
    return [d for d in out if seat is None or d[0] == seat]


def filler(n: int, color: str = "yellow") -> list[str]:
    """``n`` number cards of one color (1..9 repeating): harmless pile padding."""
    return [f"{color} {1 + i % 9}" for i in range(n)]

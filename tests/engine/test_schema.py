"""Result columns: every count fits its column at the limits a scenario may set."""

from __future__ import annotations

import numpy as np

from uno_stats.engine.rules import RULES_BY_KEY
from uno_stats.engine.schema import COLUMNS_BY_NAME, ROUND_COUNTERS
from uno_stats.scenario.deck import MAX_DECK_CARDS

# Cards are conserved, so no hand can hold more than the deck; every other count can grow
# by one on each turn (a stack chain too: its cards come back through reshuffles).
BOUNDED_BY_DECK = {"largest_hand"}


def _max(name: str) -> int:
    return int(np.iinfo(np.dtype(COLUMNS_BY_NAME[name].dtype)).max)


def test_counts_of_turn_events_fit_the_longest_round_allowed() -> None:
    longest = RULES_BY_KEY["max_turns"].high
    assert longest == 1_000_000
    for name in ROUND_COUNTERS:
        if name not in BOUNDED_BY_DECK:
            assert _max(name) >= longest, name


def test_counts_bounded_by_the_deck_fit_the_largest_deck() -> None:
    for name in BOUNDED_BY_DECK:
        assert _max(name) >= MAX_DECK_CARDS, name
    for name in ("hand_sizes", "max_deficit"):
        assert _max(name) >= MAX_DECK_CARDS, name

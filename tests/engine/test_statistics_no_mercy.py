"""Statistical tests of the 168-card No Mercy deck (RULES.md S21) against probabilities
derived from its breakdown. Tolerances are 4 binomial standard errors of the derived
probability; they are never widened to make a test pass."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from uno_stats.engine import EngineConfig, simulate, trace_events
from uno_stats.engine import events as E
from uno_stats.engine.cards import CARD_COLOR, NO_MERCY_COUNTS, WILD, deck_cards
from uno_stats.engine.rules import preset_deck, preset_rules
from uno_stats.engine.strategy_table import default_seat

# Per color: two each of 0-9 (20 numbers), 3 Skips, 3 Reverses, 3 Draw Twos, 2 Draw Fours,
# 2 Skip Everyones, 3 Discard Alls (16 action cards): 36; and 24 wilds. 4 x 36 + 24 = 168.
DECK, NUMBERS, ACTIONS, WILDS, PER_COLOR = 168, 80, 64, 24, 36


def _config(players: int, seed: int, **overrides) -> EngineConfig:
    rules = {**preset_rules("no-mercy"), **overrides}
    seats = [default_seat()] * players
    return EngineConfig.build(players, rules, seats, 0, seed, preset_deck("no-mercy"))


def test_the_breakdown_adds_up_to_168_cards():
    cards = deck_cards(counts=NO_MERCY_COUNTS)
    assert len(cards) == DECK
    assert sum(c >= WILD for c in cards) == WILDS
    for color in range(4):
        assert sum(c < WILD and CARD_COLOR[c] == color for c in cards) == PER_COLOR


def _first_turn_win_probability() -> float:
    """One card each, two seats: P(seat 0 goes out on turn 1), from the deck.

    Seat 0 holds a uniform card c; the opening card t is uniform over the number cards left
    (redraw covers the colored action cards and the Roulettes, the wild draw cards go back,
    and which number card shows first is symmetric). Seat 0 goes out iff c fits t: a wild
    always (no challenge, no restriction), a number card matches 19 of the other 79 number
    cards by color plus 6 by number (two of each number per color), a colored action card 20
    of the 80 by color.
    """
    fits = WILDS * 1.0 + NUMBERS * 25 / 79 + ACTIONS * 20 / 80
    return fits / DECK


@pytest.mark.slow
def test_first_turn_win_with_one_card_each_matches_the_deck():
    n = 200_000
    cols = simulate(_config(2, 13, hand_size=1), 0, n)
    assert (cols["first_player"] == 0).all()  # redraw: the opening card never acts
    p = _first_turn_win_probability()
    observed = float(np.mean((cols["winner"] == 0) & (cols["turns"] == 1)))
    assert abs(observed - p) < 4 * np.sqrt(p * (1 - p) / n), (observed, p)


@pytest.mark.slow
def test_dealt_hands_follow_the_hypergeometric_law_at_every_seat():
    """Every seat's count of wilds and of red cards in its 7 dealt cards follows the
    hypergeometric law of 168 cards (24 wilds, 36 red): no seat is favoured."""
    n = 20_000
    config = _config(4, 17)
    wilds = np.zeros((n, 4), dtype=int)
    red = np.zeros((n, 4), dtype=int)
    for game in range(n):
        events = trace_events(config, game, max_events=64)  # the deal comes first
        deal = events[events[:, 0] == E.EV_DEAL]
        assert deal.shape[0] == 28
        np.add.at(wilds[game], deal[:, 1], deal[:, 2] >= WILD)
        np.add.at(red[game], deal[:, 1], CARD_COLOR[deal[:, 2]] == 0)
    p_none = stats.hypergeom(DECK, WILDS, 7).pmf(0)
    red_law = stats.hypergeom(DECK, PER_COLOR, 7)
    for seat in range(4):
        observed = float(np.mean(wilds[:, seat] == 0))
        assert abs(observed - p_none) < 4 * np.sqrt(p_none * (1 - p_none) / n), seat
        mean = float(np.mean(red[:, seat]))
        assert abs(mean - red_law.mean()) < 4 * red_law.std() / np.sqrt(n), seat

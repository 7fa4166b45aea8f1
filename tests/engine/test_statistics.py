"""Statistical tests with answers derived from the rules, and exact determinism checks.

Tolerances are 4 binomial standard errors computed from the derived probability; they
are never widened to make a test pass.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from uno_stats.engine import EngineConfig, simulate, trace_events
from uno_stats.engine import events as E
from uno_stats.engine.cards import CARD_COLOR, WILD_DRAW_FOUR
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.strategy_table import default_seat


def _config(preset, players, seed, **overrides):
    rules = {**preset_rules(preset), **overrides}
    return EngineConfig.build(players, rules, [default_seat()] * players, 0, seed)


@pytest.mark.slow
def test_seat_win_shares_detect_the_first_player_advantage():
    """Four identical `random` seats, mattel-2022, 200,000 single rounds.

    Seats are not exchangeable: seat 0 always moves first. Under mattel-2022 the opening
    card is redrawn until a number shows, so it never changes who starts or the direction:
    `first_player` is exactly 0 and the dealer exactly seat 3 in every round (derivable).
    The first-move advantage is real, so the chi-square test of equal shares must reject
    uniformity decisively, and seat 0 must have the largest share (with 200,000 rounds the
    advantage is many standard errors wide).
    """
    cols = simulate(_config("mattel-2022", 4, 11), 0, 200_000)
    assert (cols["first_player"] == 0).all() and (cols["dealer"] == 3).all()
    won = cols["status"] == 0
    counts = np.bincount(cols["winner"][won], minlength=4)
    chi2 = stats.chisquare(counts)
    assert chi2.pvalue < 1e-6
    shares = counts / won.sum()
    assert int(np.argmax(shares)) == 0
    se = np.sqrt(0.25 * 0.75 / won.sum())
    assert shares[0] - 0.25 > 4 * se


# mattel-2022 deck: 76 number cards (per color one 0 and two each of 1-9), 24 colored
# action cards, 12 wilds (4 Wild, 4 Wild Draw Four, 1 Shuffle Hands, 3 Customizable).
def _first_turn_win_probability() -> float:
    """One card each, two seats, mattel-2022: P(seat 0 goes out on turn 1), from the deck.

    Seat 0 holds a uniform card c; the opening card t is uniform over the number cards
    left (redraw covers actions and wilds, a Wild Draw Four goes back, and which number
    card shows first is symmetric). Seat 0 goes out iff c fits t: a wild always (a lone
    Wild Draw Four is legal under color-or-wild), a number card matches 18 of the other
    75 number cards by color plus 3 (a 0) or 6 (1-9) by number, an action card 19 of 76
    by color.
    """
    fits = 4 * 21 / 75 + 72 * 24 / 75 + 24 * 19 / 76 + 12 * 1.0
    return fits / 112


@pytest.mark.slow
def test_first_turn_win_with_one_card_each_matches_the_deck():
    n = 200_000
    cols = simulate(_config("mattel-2022", 2, 13, hand_size=1), 0, n)
    p = _first_turn_win_probability()
    observed = float(np.mean((cols["winner"] == 0) & (cols["turns"] == 1)))
    assert abs(observed - p) < 4 * np.sqrt(p * (1 - p) / n), (observed, p)


@pytest.mark.slow
def test_dealt_hands_follow_the_hypergeometric_law_at_every_seat():
    """Dealt hands, read from traces: every seat's count of Wild Draw Fours and of red cards
    follows the same hypergeometric law (108 cards, 7 dealt): no seat is favoured."""
    n = 20_000
    config = _config("classic-house", 4, 17)
    wd4 = np.zeros((n, 4), dtype=int)
    red = np.zeros((n, 4), dtype=int)
    for game in range(n):
        events = trace_events(config, game, max_events=64)  # the deal comes first
        deal = events[events[:, 0] == E.EV_DEAL]
        assert deal.shape[0] == 28
        np.add.at(wd4[game], deal[:, 1], deal[:, 2] == WILD_DRAW_FOUR)
        np.add.at(red[game], deal[:, 1], CARD_COLOR[deal[:, 2]] == 0)
    p_none = stats.hypergeom(108, 4, 7).pmf(0)
    red_law = stats.hypergeom(108, 25, 7)
    for seat in range(4):
        observed = float(np.mean(wd4[:, seat] == 0))
        assert abs(observed - p_none) < 4 * np.sqrt(p_none * (1 - p_none) / n), seat
        mean = float(np.mean(red[:, seat]))
        assert abs(mean - red_law.mean()) < 4 * red_law.std() / np.sqrt(n), seat


@pytest.mark.slow
def test_opening_action_share_matches_the_deck():
    """Under `apply`, the kept opening card is uniform over the 104 cards that are not
    Wild Draw Fours (an opening Wild Draw Four goes back and the deck is reshuffled; by
    exchangeability the first non-Wild-Draw-Four card of a random order is uniform over
    them, whatever the deal took). With 4 players and `dealer-starts`:
    first_player is 1 after an opening Skip or Draw Two (16/104), 3 (the dealer) after an
    opening Reverse (8/104), and 0 after a number or a Wild (76 + 4 = 80 / 104)."""
    n = 200_000
    cols = simulate(_config("classic-house", 4, 21), 0, n)
    first = cols["first_player"]
    expected = {0: 80 / 104, 1: 16 / 104, 3: 8 / 104, 2: 0.0}
    for seat, p in expected.items():
        observed = float(np.mean(first == seat))
        if p == 0.0:
            assert observed == 0.0
            continue
        se = np.sqrt(p * (1 - p) / n)
        assert abs(observed - p) < 4 * se, (seat, observed, p)
    # Skip/Draw Two/Reverse together: 24/104 action cards that move the start
    p = 24 / 104
    assert abs(np.mean(first != 0) - p) < 4 * np.sqrt(p * (1 - p) / n)


@pytest.mark.slow
def test_opening_reverse_under_dealer_right_starts():
    """`dealer-right-starts` with 4 players: an opening Reverse gives seat 2 the start, so
    P(first_player == 2) = 8/104 exactly."""
    n = 100_000
    cols = simulate(_config("draw-until-playable", 4, 31), 0, n)
    p = 8 / 104
    assert abs(np.mean(cols["first_player"] == 2) - p) < 4 * np.sqrt(p * (1 - p) / n)


def test_simulate_is_deterministic_and_chunk_independent():
    config = _config("mattel-2022", 4, 7)
    whole = simulate(config, 0, 5000)
    first = simulate(config, 0, 2000)
    second = simulate(config, 2000, 3000)
    again = simulate(config, 0, 5000)
    assert whole.keys() == again.keys()
    for name, column in whole.items():
        joined = np.concatenate([first[name], second[name]])
        assert column.tobytes() == joined.tobytes(), name
        assert column.tobytes() == again[name].tobytes(), name
        assert column.dtype == again[name].dtype


def test_match_simulation_is_deterministic_and_chunk_independent():
    rules = preset_rules("classic-house")
    config = EngineConfig.build(3, rules, [default_seat()] * 3, 100, 9)
    whole = simulate(config, 0, 30)
    first = simulate(config, 0, 10)
    second = simulate(config, 10, 20)
    for name in whole:
        joined = np.concatenate([first[name], second[name]])
        assert whole[name].tobytes() == joined.tobytes(), name


def test_different_seeds_differ():
    a = simulate(_config("mattel-2022", 4, 1), 0, 500)
    b = simulate(_config("mattel-2022", 4, 2), 0, 500)
    assert not np.array_equal(a["turns"], b["turns"])

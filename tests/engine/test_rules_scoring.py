"""Scoring modes and matches (RULES.md semantic 13, "Rounds and matches"), recomputed by hand
from the per-round ``points`` column of small simulated matches."""

from __future__ import annotations

import numpy as np
import pytest

from uno_stats.engine import EngineConfig, simulate
from uno_stats.engine.cards import CARD_POINTS, card_id
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.strategy_table import default_seat

TARGET = 50
MATCHES = 12


def _run(scoring, players, seed=5, target=TARGET, matches=MATCHES):
    rules = {**preset_rules("classic-house"), "scoring": scoring}
    config = EngineConfig.build(players, rules, [default_seat()] * players, target, seed)
    return simulate(config, 0, matches)


def _matches(cols):
    games = cols["game"]
    for g in np.unique(games):
        yield np.flatnonzero(games == g)


def test_card_points():
    assert CARD_POINTS[card_id("red 7")] == 7 and CARD_POINTS[card_id("blue 0")] == 0
    for name in ("red Skip", "green Reverse", "blue Draw Two"):
        assert CARD_POINTS[card_id(name)] == 20
    for name in ("Wild", "Wild Draw Four", "Wild Shuffle Hands", "Wild Customizable"):
        assert CARD_POINTS[card_id(name)] == 50


def _common_checks(cols, rows, players):
    valid = cols["match_winner__valid"][rows]
    assert valid[-1] and not valid[:-1].any()  # match columns only on the last round
    assert cols["match_rounds"][rows[-1]] == len(rows)
    assert list(cols["round"][rows]) == list(range(len(rows)))
    # the dealer of round r (void rounds excluded) is (r - 1) mod P; a void round redeals
    dealt = 0
    for r in rows:
        assert cols["dealer"][r] == (dealt - 1) % players
        if cols["status"][r] != 1:
            dealt += 1
    won = cols["status"][rows] == 0
    assert (cols["winner"][rows][won] >= 0).all()
    assert (cols["winner"][rows][~won] == -1).all()


@pytest.mark.parametrize("players", [2, 3])
def test_points_match(players):
    cols = _run("points", players)
    for rows in _matches(cols):
        _common_checks(cols, rows, players)
        totals = np.zeros(players, dtype=int)
        for i, r in enumerate(rows):
            if cols["status"][r] == 0:
                w = cols["winner"][r]
                totals[w] += int(cols["points"][r].sum()) - int(cols["points"][r][w])
            if i < len(rows) - 1:
                assert totals.max() < TARGET  # nobody had reached the target yet
        w = cols["match_winner"][rows[-1]]
        assert totals[w] >= TARGET and cols["winner"][rows[-1]] == w
        assert (np.delete(totals, w) < TARGET).all()


def test_low_score_match():
    players = 3
    cols = _run("low-score", players)
    for rows in _matches(cols):
        _common_checks(cols, rows, players)
        totals = np.zeros(players, dtype=int)
        for i, r in enumerate(rows):
            if cols["status"][r] == 0:
                totals += cols["points"][r].astype(int)
                assert cols["points"][r][cols["winner"][r]] == 0
            over = totals.max() >= TARGET and (totals == totals.min()).sum() == 1
            assert over == (i == len(rows) - 1)
        assert cols["match_winner"][rows[-1]] == int(np.argmin(totals))


def test_partners_match():
    players = 4
    cols = _run("partners", players)
    for rows in _matches(cols):
        _common_checks(cols, rows, players)
        teams = np.zeros(2, dtype=int)
        for i, r in enumerate(rows):
            if cols["status"][r] == 0:
                team = cols["winner"][r] % 2
                pts = cols["points"][r].astype(int)
                teams[team] += pts[1 - team] + pts[3 - team]
            if i < len(rows) - 1:
                assert teams.max() < TARGET
        w = cols["match_winner"][rows[-1]]
        assert w in (0, 1) and teams[w] >= TARGET and teams[1 - w] < TARGET


def test_single_rounds_have_the_last_seat_as_dealer_and_no_match_columns():
    rules = preset_rules("draw-until-playable")
    config = EngineConfig.build(4, rules, [default_seat()] * 4, 0, 1)
    cols = simulate(config, 0, 200)
    assert (cols["dealer"] == 3).all() and (cols["round"] == 0).all()
    assert not cols["match_winner__valid"].any()

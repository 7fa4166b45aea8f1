"""``reshuffle: false`` and ``exhausted_winner`` (RULES.md semantic 17): the round ends as
``exhausted`` the moment a draw finds the pile empty."""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import draws, filler, kinds, plays, same_cards

from uno_stats.engine import EngineConfig, simulate, trace_game
from uno_stats.engine import events as E
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.scripted import play_position
from uno_stats.engine.strategy_table import default_seat

NO_RESHUFFLE = {"reshuffle": False}
DISCARDS = filler(6, "green")  # under the top: a refill would find cards here


def test_a_turn_draw_on_an_empty_pile_ends_the_round():
    pos = play_position(
        [["blue 1", "blue 2"], ["green 3"], ["yellow 4", "yellow 5", "yellow 6"]],
        discard=DISCARDS,
        rules=NO_RESHUFFLE,
        turns=3,
    )
    assert pos.status == "exhausted" and pos.winner == 1  # fewest cards
    assert pos.turns == 1 and pos.counters["reshuffles"] == 0
    assert pos.counters["cards_drawn"] == 0
    assert kinds(pos.events, E.EV_REFILL).shape[0] == 0
    assert kinds(pos.events, E.EV_PASS).shape[0] == 0  # no pass is recorded
    exhausted = kinds(pos.events, E.EV_EXHAUSTED)
    assert [(int(r[1]), int(r[2])) for r in exhausted] == [(0, 1)]
    assert pos.discard_size == 1 + len(DISCARDS)  # nothing was shuffled back


def test_with_reshuffle_the_same_position_refills():
    pos = play_position(
        [["blue 1", "blue 2"], ["green 3"], ["yellow 4", "yellow 5", "yellow 6"]],
        discard=DISCARDS,
        turns=1,
    )
    assert pos.status != "exhausted" and pos.counters["reshuffles"] == 1


@pytest.mark.parametrize(("mode", "winner"), [("fewest-cards", 1), ("fewest-points", 0)])
def test_exhausted_winner_counts_cards_or_points(mode, winner):
    # seat 0: 2 cards, 3 points; seat 1: 1 card, 20 points; seat 2: 3 cards, 6 points
    pos = play_position(
        [["blue 1", "blue 2"], ["green Skip"], ["yellow 1", "yellow 2", "yellow 3"]],
        discard=DISCARDS,
        rules={**NO_RESHUFFLE, "exhausted_winner": mode},
    )
    assert pos.status == "exhausted" and pos.winner == winner


def test_a_tie_for_fewest_has_no_winner():
    pos = play_position(
        [["blue 1", "blue 2"], ["green 3"], ["yellow 4"]], discard=DISCARDS, rules=NO_RESHUFFLE
    )
    assert pos.status == "exhausted" and pos.winner == -1
    text = "\n".join(line for line in _describe(pos))
    assert "finds the draw pile empty (reshuffle: false): round over, a tie" in text


def _describe(pos):
    from uno_stats.engine.trace import describe

    return describe(pos.events, 3)


def test_a_penalty_is_drawn_as_far_as_the_pile_goes():
    pos = play_position(
        [["red Draw Two", "blue 1", "blue 2"], ["green 3", "green 4"], ["yellow 4"]],
        pile=["green 7"],
        discard=DISCARDS,
        rules=NO_RESHUFFLE,
        turns=3,
    )
    assert plays(pos.events) == [(0, "red Draw Two", E.PLAY_NORMAL)]
    assert draws(pos.events) == [(1, "green 7", E.DRAW_PENALTY)]
    assert same_cards(pos.hands[1], ["green 3", "green 4", "green 7"])
    assert pos.status == "exhausted" and pos.winner == 2
    assert kinds(pos.events, E.EV_LOSE_TURN).shape[0] == 0  # nothing else of the turn


def test_a_final_penalty_that_runs_out_leaves_the_round_won():
    pos = play_position(
        [["red Draw Two"], ["green 3", "green 4"], ["yellow 4"]],
        pile=["green 7"],
        discard=DISCARDS,
        rules=NO_RESHUFFLE,
    )
    assert pos.status == "won" and pos.winner == 0
    assert draws(pos.events) == [(1, "green 7", E.DRAW_FINAL)]


def test_no_voluntary_draw_from_an_empty_pile():
    pos = play_position(
        [["red 3", "blue 1"], ["green 3", "green 4"], ["yellow 4"]],
        discard=DISCARDS,
        rules=NO_RESHUFFLE,
        seats={"voluntary_draw": 1.0},
    )
    assert plays(pos.events) == [(0, "red 3", E.PLAY_NORMAL)]
    assert kinds(pos.events, E.EV_VOLUNTARY).shape[0] == 0
    assert pos.status != "exhausted"


def test_an_uno_penalty_that_runs_out_ends_the_round_before_the_effect():
    # seat 0 plays its next-to-last card, a Skip, forgets UNO and is caught: the penalty
    # draws the last card, the pile is empty, the round ends before the Skip acts
    pos = play_position(
        [["red Skip", "blue 1"], ["green 3", "green 4"], ["yellow 4", "yellow 5"]],
        pile=["green 7"],
        discard=DISCARDS,
        rules={**NO_RESHUFFLE, "uno_penalty": 2},
        seats=[{"forget_uno": 1.0}, {"catch_uno": 1.0}, {"catch_uno": 1.0}],
    )
    assert pos.status == "exhausted"
    assert same_cards(pos.hands[0], ["blue 1", "green 7"])
    assert kinds(pos.events, E.EV_LOSE_TURN).shape[0] == 0
    assert pos.winner == -1  # 2, 2, 2 cards: a tie


def _columns(rules, players=4, games=300, target=0):
    seats = [default_seat()] * players
    return simulate(EngineConfig.build(players, rules, seats, target, seed=7), 0, games)


@pytest.mark.parametrize("mode", ["fewest-cards", "fewest-points"])
def test_exhausted_rounds_in_simulation(mode):
    rules = {**preset_rules("classic-house"), "reshuffle": False, "exhausted_winner": mode}
    cols = _columns(rules, players=8)
    status = cols["status"]
    assert (cols["reshuffles"] == 0).all()
    exhausted = np.flatnonzero(status == 3)
    assert 0 < exhausted.size < status.size  # both endings happen at 8 players
    score = cols["hand_sizes"] if mode == "fewest-cards" else cols["points"]
    for row in exhausted:
        low = score[row].min()
        fewest = np.flatnonzero(score[row] == low)
        expected = int(fewest[0]) if fewest.size == 1 else -1
        assert cols["winner"][row] == expected
    # the default game never ends exhausted
    assert (_columns(preset_rules("classic-house"), games=100)["status"] != 3).all()


def test_a_points_match_scores_exhausted_rounds_with_a_winner():
    rules = {**preset_rules("classic-house"), "reshuffle": False}
    cols = _columns(rules, games=4, target=200)
    assert cols["match_winner__valid"].sum() == 4
    ends = np.flatnonzero(cols["match_winner__valid"])
    assert (cols["match_winner"][ends] >= 0).all()


def test_trace_names_the_exhausted_round():
    rules = {**preset_rules("classic-house"), "reshuffle": False}
    config = EngineConfig.build(8, rules, [default_seat()] * 8, seed=7)
    cols = simulate(config, 0, 40)
    game = int(np.flatnonzero(cols["status"] == 3)[0])
    lines = trace_game(config, game)
    assert any("finds the draw pile empty (reshuffle: false)" in line for line in lines)
    winner = int(simulate(config, game, 1)["winner"][0])
    if winner >= 0:
        assert any(line.endswith(f": exhausted, seat {winner} wins") for line in lines)
    else:
        assert any(line.endswith(": exhausted") for line in lines)

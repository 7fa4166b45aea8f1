"""The per-round columns ``largest_hand``, ``turn_draws`` and ``turn_draw_cards``: exact
values on scripted positions, and their relations on simulated rounds."""

from __future__ import annotations

import numpy as np
import pytest

from uno_stats.engine import EngineConfig, simulate, trace_events
from uno_stats.engine import events as E
from uno_stats.engine.chunk import MATCH_ROUND_CAP
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.scripted import deal_position, play_position
from uno_stats.engine.strategy_table import default_seat

HANDS = [["blue 1", "blue 2", "blue 3"], ["red 1", "red 2"]]


def _counts(pos) -> tuple[int, int, int]:
    c = pos.counters
    return c["largest_hand"], c["turn_draws"], c["turn_draw_cards"]


def test_one_unplayable_draw() -> None:
    pos = play_position(HANDS, pile=["green 9", "red 8"])
    assert _counts(pos) == (4, 1, 1)


def test_draw_until_playable_is_one_draw_of_three_cards() -> None:
    pos = play_position(
        HANDS, pile=["green 9", "yellow 1", "red 8", "blue 4"], rules={"draw": "until-playable"}
    )
    assert pos.top == "red 8"
    assert _counts(pos) == (6, 1, 3)  # held 6 cards before playing the red 8


def test_two_turn_draws_by_two_seats() -> None:
    pos = play_position(
        [["blue 1", "blue 2"], ["green 1", "green 2"]],
        pile=["yellow 3", "yellow 4", "red 6"],
        turns=2,
    )
    assert _counts(pos) == (3, 2, 2)


def test_penalty_draws_are_not_turn_draws() -> None:
    pos = play_position(
        [["blue 1", "blue 2", "blue 3"], ["red 1", "green 2"]],
        top="red Draw Two",
        pending=2,
        pile=["green 9", "yellow 1", "yellow 2"],
    )
    # seat 0 draws the 2 owed and loses its turn; seat 1 plays red 1 (turn 1)
    assert pos.counters["cards_drawn"] == 2 and pos.top == "red 1"
    assert _counts(pos) == (5, 0, 0)


def test_a_voluntary_draw_is_a_turn_draw() -> None:
    pos = play_position(
        [["red 1", "blue 2", "blue 3"], ["green 1", "green 2"]],
        pile=["green 9"],
        seats={"voluntary_draw": 1.0},
    )
    assert _counts(pos) == (4, 1, 1)


def test_a_pass_is_not_a_draw() -> None:
    pos = play_position(HANDS, pile=[])  # nothing to draw and no discards to refill from
    assert pos.counters["passes"] == 1
    assert _counts(pos) == (3, 0, 0)


def test_largest_hand_after_the_deal_is_the_hand_size() -> None:
    deck = [f"{c} {n}" for c in ("red", "blue") for n in range(1, 10)] * 2
    pos = deal_position(["yellow 5", *deck], 2, rules={"hand_size": 5})
    assert pos.counters["largest_hand"] == 5 and pos.counters["turn_draws"] == 0


@pytest.mark.parametrize("draw", ["one", "until-playable"])
def test_simulated_rounds_keep_the_columns_consistent(draw: str) -> None:
    rules = preset_rules("classic-house")
    rules.update(draw=draw, stack_draw_two=True, seven_zero=True)
    cols = simulate(EngineConfig.build(4, rules, [default_seat()] * 4, seed=3), 0, 400)
    turn_draws, cards = cols["turn_draws"].astype(int), cols["turn_draw_cards"].astype(int)
    assert cols["largest_hand"].dtype == np.uint16  # S19: a hand of several decks can pass 255
    assert (cards <= cols["cards_drawn"]).all()
    assert (turn_draws <= cards).all() and (turn_draws <= cols["turns"]).all()
    if draw == "one":
        assert (turn_draws == cards).all()
    else:
        assert (cards > turn_draws).any()
    largest = cols["largest_hand"]
    assert (largest >= 7).all() and (largest >= cols["hand_sizes"].max(axis=1)).all()
    assert (largest >= cols["max_deficit"].max(axis=1)).all()
    assert turn_draws.mean() > 1


def test_trace_events_covers_a_match_longer_than_4096_rounds() -> None:
    rules = preset_rules("mattel-2022")
    rules.update(hand_size=1, shuffle_hands_cards=0, custom_cards=0)
    config = EngineConfig.build(2, rules, [default_seat()] * 2, match_target=10**9)
    events = trace_events(config, 0)
    ends = events[events[:, 0] == E.EV_END]
    assert ends.shape[0] == MATCH_ROUND_CAP > 4096  # the match is cut at the cap, not before

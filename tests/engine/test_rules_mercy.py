"""Scripted positions for the mercy rule (RULES.md S22): knock-outs at the limit, where the
cards go, the round's end by the last seat standing, and every rule that walks the seats
passing by the seats knocked out."""

from __future__ import annotations

import pytest
from rules_helpers import draws, filler, kinds, plays, same_cards

from uno_stats.engine import events as E
from uno_stats.engine.scripted import play_position

NM = "no-mercy"
BASIC = {"strategy": "basic"}


def test_a_knock_out_in_the_middle_of_a_stack_leaves_the_rest_undrawn():
    # seat 1 holds 20 cards and owes 10 with nothing to answer: it is out at its 25th card
    hand = filler(20, "green")
    pos = play_position(
        [["green 1"], hand, ["blue 2", "yellow 9"]],
        current=1,
        top="Wild Draw Ten",
        color="blue",
        pending=10,
        pending_kind=10,
        pile=filler(12, "yellow"),
        preset=NM,
    )
    assert [d[0] for d in draws(pos.events)] == [1] * 5  # the other 5 are never drawn
    assert len(pos.pile) == 7 and pos.hands[1] == []
    assert pos.knocked_out == [0, 1, 0] and pos.counters["eliminated"] == 1
    row = kinds(pos.events, E.EV_KNOCKOUT)[0]
    assert (row[1], row[2], row[3]) == (1, 25, 1)
    # under the Wild Draw Ten (mercy_cards: discard-bottom)
    assert pos.discard_size == 1 + 25 + 1  # seat 2 played its blue 2 on top (turn 1)
    assert plays(pos.events) == [(2, "blue 2", E.PLAY_NORMAL)] and pos.status == "playing"
    assert pos.current == 0 and pos.pending == 0


def test_mercy_cards_draw_bottom_puts_the_hand_under_the_draw_pile():
    hand = filler(23, "green")
    pos = play_position(
        [["green 1"], hand, ["red 2"]],
        current=1,
        top="red Draw Two",
        pending=2,
        pile=["yellow 1", "yellow 2", "yellow 3"],
        preset=NM,
        rules={"mercy_cards": "draw-bottom"},
    )
    assert pos.knocked_out == [0, 1, 0] and pos.discard_size == 2  # seat 2's red 2 on top
    assert pos.pile[0] == "yellow 3" and len(pos.pile) == 1 + 25  # beneath the one left
    assert same_cards(pos.pile[1:], [*hand, "yellow 1", "yellow 2"])


def test_the_last_seat_standing_wins_the_round():
    pos = play_position(
        [["green 1"], filler(20, "green")],
        current=1,
        top="Wild Draw Six",
        color="red",
        pending=6,
        pending_kind=6,
        pile=filler(8, "yellow"),
        preset=NM,
    )
    assert pos.status == "won" and pos.winner == 0 and pos.hands[0] == ["green 1"]
    assert pos.counters["last_standing"] == 1 and pos.counters["eliminated"] == 1


def test_drawing_until_playable_stops_at_the_limit():
    # seat 0 holds 23 cards, none playable, and would draw 3 to reach a playable one
    hand = filler(23, "green")
    pos = play_position(
        [hand, ["blue 1"], ["blue 2"]],
        top="red 0",
        pile=["yellow 5", "yellow 6", "red 7", "red 8"],
        preset=NM,
    )
    assert [d[1] for d in draws(pos.events, 0)] == ["yellow 5", "yellow 6"]
    assert plays(pos.events) == [] and pos.knocked_out == [1, 0, 0]
    assert pos.current == 1 and pos.pile == ["red 7", "red 8"]


@pytest.mark.parametrize("limit", [12, 25, 40])
def test_the_limit_is_a_key(limit):
    hand = filler(limit - 3, "green")
    pos = play_position(
        [["green 1"], hand, ["red 2"]],
        current=1,
        top="red Draw Four",
        pending=4,
        pile=filler(8, "yellow"),
        preset=NM,
        rules={"mercy_limit": limit},
    )
    assert len(draws(pos.events, 1)) == 3 and pos.knocked_out == [0, 1, 0]


def test_mercy_limit_zero_knocks_nobody_out():
    pos = play_position(
        [["green 1"], filler(24, "green"), ["red 2"]],
        current=1,
        top="Wild Draw Ten",
        color="red",
        pending=10,
        pending_kind=10,
        pile=filler(12, "yellow"),
        preset=NM,
        rules={"mercy_limit": 0},
    )
    assert len(pos.hands[1]) == 34 and pos.knocked_out == [0, 0, 0]


def test_a_seven_swap_moves_a_large_hand_without_knocking_anyone_out():
    # a hand of 24 (one below the limit) plays its 7 and gives 23 cards to the seat it swaps
    # with: no hand can reach the limit by a swap (RULES.md S22), so nobody is out
    big = ["red 7", *filler(23, "green")]
    pos = play_position(
        [big, ["blue 1"], ["blue 2", "blue 3"]], preset=NM, seats=BASIC, pile=filler(6)
    )
    assert len(pos.hands[1]) == 23 and pos.hands[0] == ["blue 1"]
    assert pos.counters["seven_swaps"] == 1 and pos.knocked_out == [0, 0, 0]


def test_a_seven_never_swaps_with_a_seat_knocked_out():
    for seed in range(20):
        pos = play_position(
            [["red 7", "blue 1", "blue 2"], [], ["green 4", "green 5"], ["green 6"]],
            out=[1],
            preset=NM,
            seed=seed,
        )
        assert int(kinds(pos.events, E.EV_SWAP)[0][2]) in (2, 3)


def test_a_zero_passes_hands_from_seat_still_in_to_seat_still_in():
    hands = [["red 0", "blue 1"], ["green 4"], [], ["yellow 6", "yellow 7"]]
    pos = play_position(hands, out=[2], preset=NM)
    assert pos.hands == [["yellow 6", "yellow 7"], ["blue 1"], [], ["green 4"]]


def test_play_passes_by_a_seat_knocked_out():
    pos = play_position([["red Skip", "blue 1"], [], ["green 4"]], out=[1], preset=NM)
    assert pos.current == 0  # the Skip skips seat 2, the next seat still in
    pos = play_position([["red 3", "blue 1"], [], ["green 4"]], out=[1], preset=NM)
    assert pos.current == 2


def test_a_reverse_with_two_seats_left_acts_as_a_skip():
    pos = play_position([["red Reverse", "blue 1"], [], ["green 4"]], out=[1], preset=NM, rules={})
    assert pos.current == 0 and pos.direction == 1

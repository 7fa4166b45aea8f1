"""Scripted positions for the No Mercy cards (RULES.md S21) and stacking by value (S23):
each card's exact outcome, stacks across card kinds and each ``stack_draws`` and
``roulette_namer`` reading."""

from __future__ import annotations

import pytest
from rules_helpers import draws, filler, kinds, plays, same_cards

from uno_stats.engine import events as E
from uno_stats.engine.cards import COLOR_NAMES
from uno_stats.engine.scripted import play_position

NM = "no-mercy"
BASIC = {"strategy": "basic"}
# No Mercy without the mercy rule, so that hand sizes alone tell each card's effect
OFF = {"mercy_limit": 0}


# --------------------------------------------------------------------------- draw cards


@pytest.mark.parametrize(
    ("card", "owed"),
    [("red Draw Four", 4), ("Wild Draw Six", 6), ("Wild Draw Ten", 10), ("Draw Two", 2)],
)
def test_a_draw_card_makes_the_next_player_draw_and_lose_the_turn(card, owed):
    card = "red Draw Two" if card == "Draw Two" else card
    pos = play_position(
        [[card, "blue 1"], ["green 1"], ["yellow 2"]],
        pile=filler(12, "green"),
        preset=NM,
        rules=OFF,
        seats=BASIC,
        turns=2,
    )
    assert len(pos.hands[1]) == 1 + owed
    assert pos.turns == 2 and pos.current == 0  # seat 1 drew and lost its turn, seat 2 took
    assert kinds(pos.events, E.EV_TURN)[1][1] == 2  # turn 2
    assert kinds(pos.events, E.EV_PENALTY)[0][2] == owed
    assert pos.counters["stack_total"] == owed and pos.counters["longest_stack"] == 1


def test_a_wild_draw_names_a_color_and_a_colored_draw_four_keeps_its_own():
    pos = play_position(
        [["Wild Draw Six", "blue 1", "blue 2"], ["green 1"], ["yellow 2"]],
        pile=filler(8, "green"),
        preset=NM,
        rules=OFF,
        seats=BASIC,
    )
    assert pos.color == "blue"  # basic names the color it holds most of
    pos = play_position(
        [["red Draw Four", "blue 1"], ["green 1"], ["yellow 2"]],
        pile=filler(8, "green"),
        preset=NM,
        rules=OFF,
        seats=BASIC,
    )
    assert pos.color == "red" and pos.top == "red Draw Four"


def test_a_draw_four_matches_by_color_or_symbol_only():
    # on a green 5 a red Draw Four cannot be played; on a red Draw Four another one can
    pos = play_position(
        [["red Draw Four"], ["green 1"]], top="green 5", pile=["yellow 9"], preset=NM, rules=OFF
    )
    assert plays(pos.events) == [] and pos.hands[0] == ["red Draw Four", "yellow 9"]
    pos = play_position(
        [["blue Draw Four", "blue 1"], ["green 1"], ["green 2"]],
        top="red Draw Four",
        pile=filler(8),
        preset=NM,
        rules=OFF,
    )
    assert plays(pos.events) == [(0, "blue Draw Four", E.PLAY_NORMAL)]


def test_wild_reverse_draw_four_reverses_then_the_next_seat_draws_four():
    # three seats clockwise: seat 0 plays it, play turns counterclockwise, seat 2 owes 4,
    # draws them and loses its turn; seat 1, next counterclockwise, plays
    pos = play_position(
        [["Wild Reverse Draw Four", "blue 1"], ["blue 3"], ["yellow 2"]],
        pile=filler(8, "green"),
        preset=NM,
        rules=OFF,
        seats=BASIC,
        turns=2,
    )
    assert pos.direction == -1
    assert len(pos.hands[2]) == 5 and pos.hands[1] == []
    assert [d[0] for d in draws(pos.events)] == [2] * 4
    assert plays(pos.events)[1] == (1, "blue 3", E.PLAY_NORMAL)


def test_a_winning_wild_reverse_draw_four_reverses_before_the_final_penalty():
    pos = play_position(
        [["Wild Reverse Draw Four"], ["green 1"], ["yellow 2"]],
        pile=filler(8, "green"),
        preset=NM,
        rules=OFF,
    )
    assert pos.status == "won" and pos.winner == 0
    assert len(pos.hands[2]) == 5 and len(pos.hands[1]) == 1  # the seat before it draws


# --------------------------------------------------------------------------- Skip Everyone


def test_skip_everyone_gives_its_player_another_turn():
    pos = play_position(
        [["red Skip Everyone", "red 3", "blue 1"], ["green 1"], ["yellow 2"]],
        top="green Skip Everyone",
        preset=NM,
        rules=OFF,
        seats=BASIC,
        turns=2,
    )
    assert [p[0] for p in plays(pos.events)] == [0, 0]  # seat 0 twice, nobody in between
    assert kinds(pos.events, E.EV_SKIP_ALL).shape[0] == 1
    assert kinds(pos.events, E.EV_LOSE_TURN).shape[0] == 0
    assert pos.turns == 2 and pos.current == 1 and pos.hands[0] == ["blue 1"]


def test_skip_everyone_is_no_skip_for_a_deflect():
    # deflect (S18) answers a total with a Skip or Reverse of the active color only
    pos = play_position(
        [["green 1"], ["red Skip Everyone", "blue 4"], ["green 2"]],
        current=1,
        top="red Draw Two",
        pending=2,
        pile=filler(6, "green"),
        preset=NM,
        rules={**OFF, "deflect": True},
    )
    assert len(pos.hands[1]) == 4 and plays(pos.events) == []
    assert kinds(pos.events, E.EV_LOSE_TURN)[0][1] == 1  # it drew the total and lost its turn


# --------------------------------------------------------------------------- Discard All


def test_discard_all_discards_every_card_of_its_color_beneath_it():
    hand = ["red Discard All", "red 1", "red Skip", "blue 3", "Wild Draw Six"]
    pos = play_position([hand, ["green 1"]], preset=NM, rules=OFF, seats=BASIC)
    assert same_cards(pos.hands[0], ["blue 3", "Wild Draw Six"])
    assert pos.top == "red Discard All" and pos.color == "red"
    assert pos.discard_size == 1 + 3  # the red 5, the two red cards, the Discard All on top
    row = kinds(pos.events, E.EV_DISCARD_ALL)[0]
    assert (row[1], COLOR_NAMES[row[2]], row[3]) == (0, "red", 2)
    assert pos.current == 1  # the red Skip discarded with it has no effect


def test_basic_plays_the_discard_all_that_empties_its_hand_most():
    hand = ["red Discard All", "blue Discard All", "red 1", "blue 2", "blue 3", "blue 4"]
    pos = play_position([hand, ["green 1"]], top="red 5", preset=NM, rules=OFF, seats=BASIC)
    # on red 5 the blue Discard All matches nothing; on a Discard All both match: basic
    # plays the one discarding three cards
    pos = play_position(
        [hand, ["green 1"]], top="green Discard All", preset=NM, rules=OFF, seats=BASIC
    )
    assert plays(pos.events)[0][1] == "blue Discard All"
    assert same_cards(pos.hands[0], ["red Discard All", "red 1"])


def test_discard_all_that_empties_the_hand_wins():
    pos = play_position(
        [["red Discard All", "red 1"], ["green 1", "green 2"]], preset=NM, rules=OFF, seats=BASIC
    )
    assert pos.status == "won" and pos.winner == 0 and pos.hands[0] == []


def test_discard_all_leaving_one_card_is_judged_for_the_uno_call():
    pos = play_position(
        [["red Discard All", "red 1", "red 2", "blue 3"], ["green 1"]],
        preset=NM,
        rules=OFF,
        seats=[{"strategy": "basic", "forget_uno": 1.0}, {"catch_uno": 1.0}],
        pile=filler(4, "green"),
    )
    calls = kinds(pos.events, E.EV_UNO)
    assert calls.shape[0] == 1 and calls[0][2] == E.UNO_CAUGHT
    assert len(pos.hands[0]) == 1 + 2  # the blue 3 and the UNO penalty


def test_a_jumped_on_discard_all_discards_nothing():
    pos = play_position(
        [["red Discard All", "red 1", "blue 2"], ["red Discard All", "blue 4"]],
        preset=NM,
        rules={**OFF, "jump_in": True},
        seats=BASIC,
        turns=2,  # a jump-in is a turn
    )
    assert same_cards(pos.hands[0], ["red 1", "blue 2"])  # its effect lapsed (S8)
    assert same_cards(pos.hands[1], ["blue 4"])  # the jumper's Discard All acts
    assert kinds(pos.events, E.EV_DISCARD_ALL)[0][1] == 1


# --------------------------------------------------------------------------- Color Roulette


def test_roulette_victim_names_the_color_and_takes_every_card_turned():
    # seat 1 (basic) holds red, yellow and green: blue has the most cards it has not seen
    pos = play_position(
        [["Wild Color Roulette", "blue 1"], ["red 1", "yellow 1", "green 1"], ["green 2"]],
        pile=["red 3", "Wild Draw Ten", "yellow 2", "blue 9", "green 7"],
        preset=NM,
        rules=OFF,
        seats=BASIC,
    )
    row = kinds(pos.events, E.EV_ROULETTE)[0]
    assert (row[1], COLOR_NAMES[row[2]], row[3]) == (1, "blue", 1)
    assert same_cards(
        pos.hands[1],
        ["red 1", "yellow 1", "green 1", "red 3", "Wild Draw Ten", "yellow 2", "blue 9"],
    )
    assert pos.counters["roulette_draws"] == 4 and pos.pile == ["green 7"]
    assert pos.color == "blue" and pos.current == 2  # the victim lost its turn


def test_roulette_namer_player_names_as_for_any_wild():
    pos = play_position(
        [["Wild Color Roulette", "green 1", "green 4"], ["red 1"], ["yellow 2"]],
        pile=["red 3", "green 9", "blue 2"],
        preset=NM,
        rules={**OFF, "roulette_namer": "player"},
        seats=BASIC,
    )
    row = kinds(pos.events, E.EV_ROULETTE)[0]
    assert (row[1], COLOR_NAMES[row[2]], row[3]) == (1, "green", 0)
    assert same_cards(pos.hands[1], ["red 1", "red 3", "green 9"])


def test_a_roulette_that_empties_the_pile_reshuffles_the_discards():
    pos = play_position(
        [["Wild Color Roulette", "blue 1"], ["red 1", "yellow 1", "green 1"], ["green 2"]],
        pile=["red 3"],
        discard=["green 4", "blue 8", "yellow 6"],
        preset=NM,
        rules={**OFF, "roulette_namer": "player"},
        seats=BASIC,
    )
    assert pos.counters["reshuffles"] == 1
    drawn = [d[1] for d in draws(pos.events, 1)]
    assert drawn[0] == "red 3" and drawn[-1] == "blue 8" and "blue 8" in pos.hands[1]
    assert pos.top == "Wild Color Roulette"  # it stayed on top through the refill
    assert pos.counters["roulette_draws"] == len(drawn)


def test_a_roulette_with_no_card_of_its_color_left_stops_when_nothing_can_be_drawn():
    pos = play_position(
        [["Wild Color Roulette", "blue 1"], ["red 1"], ["green 2"]],
        pile=["red 3", "yellow 2"],
        preset=NM,
        rules={**OFF, "roulette_namer": "player"},
        seats=BASIC,
    )
    # the red 5 under the Roulette is shuffled back in and turned up too; then nothing is
    # left to turn up (S3) and the victim has its cards and loses its turn
    assert same_cards(pos.hands[1], ["red 1", "red 3", "yellow 2", "red 5"]) and pos.pile == []
    assert pos.counters["roulette_draws"] == 3 and pos.counters["reshuffles"] == 1
    assert pos.current == 2 and pos.discard_size == 1


def test_a_roulette_stacks_on_nothing():
    # not a draw card: a player owing a total cannot answer with it (S23)
    pos = play_position(
        [["green 1"], ["Wild Color Roulette", "blue 4"], ["green 2"]],
        current=1,
        top="Wild Draw Six",
        color="red",
        pending=6,
        pile=filler(8, "green"),
        preset=NM,
        rules=OFF,
    )
    assert len(pos.hands[1]) == 8 and plays(pos.events) == []


# --------------------------------------------------------------------------- stacking


def test_a_stack_across_card_kinds_grows_to_its_victim():
    # +2 owed by seat 1: a Wild Draw Six (>= 2), then a Wild Draw Ten (>= 6; seat 2's red
    # Draw Four is below 6), then seat 0 holds nothing that answers: it draws 18
    pos = play_position(
        [["green 1"], ["Wild Draw Six", "blue 1"], ["red Draw Four", "Wild Draw Ten", "blue 2"]],
        current=1,
        top="red Draw Two",
        pending=2,
        pile=filler(20, "green"),
        preset=NM,
        rules=OFF,
        seats=BASIC,
        turns=3,
    )
    assert plays(pos.events)[:2] == [
        (1, "Wild Draw Six", E.PLAY_STACK),
        (2, "Wild Draw Ten", E.PLAY_STACK),
    ]
    assert len(pos.hands[0]) == 1 + 18 and kinds(pos.events, E.EV_PENALTY)[0][2] == 18
    assert plays(pos.events)[2][0] == 1  # seat 0 lost its turn
    assert pos.counters["stack_total"] == 18 and pos.counters["longest_stack"] == 3


@pytest.mark.parametrize(
    ("mode", "answers"),
    [
        ("equal-or-higher", {"Wild Draw Six", "blue Draw Four"}),
        ("equal", {"blue Draw Four"}),
        ("any", {"Wild Draw Six", "blue Draw Four", "blue Draw Two"}),
        ("off", set()),
    ],
)
def test_stack_draws_readings_on_a_four(mode, answers):
    hand = ["blue Draw Two", "blue Draw Four", "Wild Draw Six", "green 9"]
    answered = set()
    for seed in range(30):
        pos = play_position(
            [["green 1"], hand, ["green 2"]],
            current=1,
            top="red Draw Four",
            pending=4,
            pile=filler(8, "green"),
            preset=NM,
            rules={**OFF, "stack_draws": mode},
            seed=seed,
        )
        answered |= {p[1] for p in plays(pos.events) if p[2] == E.PLAY_STACK}
        if not answers:
            assert len(pos.hands[1]) == 8
    assert answered == answers


def test_a_stacked_wild_reverse_draw_four_sends_the_total_back():
    # seat 0 put +2 on seat 1, which answers with a Wild Reverse Draw Four: play turns
    # round and seat 0, the sender, owes 6
    pos = play_position(
        [["green 1"], ["Wild Reverse Draw Four", "blue 4"], ["green 2"]],
        current=1,
        top="red Draw Two",
        pending=2,
        pile=filler(8, "green"),
        preset=NM,
        rules=OFF,
        seats=BASIC,
        turns=1,
    )
    assert pos.direction == -1 and pos.pending == 6 and pos.current == 0
    assert pos.color == "blue"  # the player who stacked a wild names the color


def test_stack_draws_on_the_classic_deck_lets_a_wild_draw_four_answer_a_draw_two():
    pos = play_position(
        [["green 1"], ["Wild Draw Four", "blue 4"], ["green 2"]],
        current=1,
        top="red Draw Two",
        pending=2,
        pile=filler(8, "green"),
        rules={"stack_draws": "equal-or-higher", "wd4_restriction": "none"},
        turns=1,
    )
    assert plays(pos.events) == [(1, "Wild Draw Four", E.PLAY_STACK)] and pos.pending == 6

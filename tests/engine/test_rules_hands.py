"""Scripted positions for hand-changing cards, out-of-turn play, UNO calls and mistakes
(RULES.md semantics 5 and 8-12 and the "Further fixed readings")."""

from __future__ import annotations

from collections import Counter

import pytest
from rules_helpers import draws, filler, kinds, plays, same_cards

from uno_stats.engine import events as E
from uno_stats.engine.cards import card_name
from uno_stats.engine.scripted import play_position

SEVEN_ZERO = {"seven_zero": True}

# --------------------------------------------------------------------------- 7-0


def test_seven_swaps_with_the_only_opponent():
    opp = ["green 1", "green 2", "green 3", "green 4"]
    pos = play_position([["red 7", "blue 1", "blue 2"], opp], rules=SEVEN_ZERO)
    assert same_cards(pos.hands[0], opp)
    assert same_cards(pos.hands[1], ["blue 1", "blue 2"])
    assert pos.counters["seven_swaps"] == 1 and pos.current == 1
    assert tuple(kinds(pos.events, E.EV_SWAP)[0][1:3]) == (0, 1)


def test_seven_basic_swaps_with_the_fewest_cards():
    hands = [["red 7", "blue 1", "blue 2"], ["green 1", "green 2", "green 3"], ["green 4"]]
    pos = play_position(hands, rules=SEVEN_ZERO, seats={"strategy": "basic"})
    assert same_cards(pos.hands[0], ["green 4"]) and same_cards(pos.hands[2], ["blue 1", "blue 2"])
    assert same_cards(pos.hands[1], hands[1])


def test_seven_without_seven_zero_swaps_nothing():
    pos = play_position([["red 7", "blue 1", "blue 2"], ["green 1", "green 2"]])
    assert same_cards(pos.hands[0], ["blue 1", "blue 2"]) and pos.counters["seven_swaps"] == 0


def test_seven_random_target_never_the_partner():
    hands = [["red 7", "blue 1", "blue 2"], ["green 1"], ["green 2", "green 3"], ["green 4"]]
    targets = set()
    for seed in range(40):
        pos = play_position(hands, rules={**SEVEN_ZERO, "scoring": "partners"}, seed=seed)
        targets.add(int(kinds(pos.events, E.EV_SWAP)[0][2]))
    assert targets == {1, 3}


@pytest.mark.parametrize("direction", [1, -1])
def test_zero_passes_every_hand_in_the_direction_of_play(direction):
    hands = [["red 0", "blue 1", "blue 2"], ["green 1", "green 2"], ["yellow 1"], ["green 9"]]
    pos = play_position(hands, rules=SEVEN_ZERO, direction=direction)
    after = [["blue 1", "blue 2"], *hands[1:]]
    for s in range(4):
        assert same_cards(pos.hands[(s + direction) % 4], after[s])
    assert pos.counters["zero_passes"] == 1 and pos.direction == direction


def test_going_out_on_a_seven_or_zero_moves_no_hands():
    for card in ("red 7", "red 0"):
        pos = play_position([[card], ["green 1", "green 2"]], rules=SEVEN_ZERO)
        assert pos.winner == 0 and pos.hand_sizes() == [0, 2]
        assert pos.counters["seven_swaps"] + pos.counters["zero_passes"] == 0


def test_uno_penalty_cards_move_with_a_following_seven():
    pos = play_position(
        [["red 7", "blue 1"], ["green 1", "green 2", "green 3"]],
        pile=["yellow 1", "yellow 2"],
        rules={**SEVEN_ZERO, "uno_penalty": 2},
        seats=[{"forget_uno": 1.0}, {"catch_uno": 1.0}],
    )
    assert same_cards(pos.hands[1], ["blue 1", "yellow 1", "yellow 2"])
    assert same_cards(pos.hands[0], ["green 1", "green 2", "green 3"])


# --------------------------------------------------------------------------- Shuffle Hands


def test_shuffle_hands_redistributes_from_the_players_left():
    hands = [
        ["green 1", "green 2", "green 3", "green 4"],
        ["Wild Shuffle Hands", "blue 1", "blue 2"],
        ["yellow 1", "yellow 2", "yellow 3", "yellow 4", "yellow 6"],
    ]
    pos = play_position(hands, current=1, rules={"shuffle_hands_cards": 1})
    assert pos.counters["hand_shuffles"] == 1
    assert pos.hand_sizes() == [4, 3, 4]  # 11 cards dealt from seat 2: 4, 4, 3
    everything = Counter(c for h in hands for c in h) - Counter(["Wild Shuffle Hands"])
    assert Counter(c for h in pos.hands for c in h) == everything
    dealt = kinds(pos.events, E.EV_HAND)
    assert [int(r[1]) for r in dealt[:4]] == [2, 0, 1, 2]
    assert pos.direction == 1 and pos.current == 2
    assert kinds(pos.events, E.EV_COLOR)[0][1] == 1  # the player names the color


def test_shuffle_hands_deals_clockwise_even_when_play_runs_counterclockwise():
    hands = [["green 1", "green 2"], ["Wild Shuffle Hands", "blue 1"], ["yellow 1", "yellow 2"]]
    pos = play_position(hands, current=1, direction=-1)
    dealt = kinds(pos.events, E.EV_HAND)
    assert [int(r[1]) for r in dealt[:3]] == [2, 0, 1]
    assert pos.hand_sizes() == [2, 1, 2]  # 5 cards from seat 2: 2, 2, 1
    assert pos.direction == -1 and pos.current == 0


def test_going_out_on_shuffle_hands_shuffles_nothing():
    pos = play_position([["Wild Shuffle Hands"], ["green 1", "green 2"]])
    assert pos.winner == 0 and pos.counters["hand_shuffles"] == 0 and pos.hand_sizes() == [0, 2]


# --------------------------------------------------------------------------- Customizable


def test_custom_card_extra_turn():
    pos = play_position(
        [["Wild Customizable", "blue 1", "blue 2"], ["green 1", "green 2"]],
        rules={"custom_cards": 1, "custom_card_rule": "extra-turn"},
        seats={"strategy": "basic"},
        turns=2,
    )
    assert [int(r[1]) for r in kinds(pos.events, E.EV_TURN)] == [0, 0]
    assert kinds(pos.events, E.EV_EXTRA_TURN).shape[0] == 1
    assert pos.color == "blue" and pos.turns == 2 and pos.hand_sizes()[0] == 1


def test_custom_card_plain_wild():
    pos = play_position(
        [["Wild Customizable", "blue 1", "blue 2"], ["green 1", "green 2"]],
        rules={"custom_cards": 1, "custom_card_rule": "wild"},
    )
    assert pos.current == 1 and pos.color in ("red", "yellow", "green", "blue")
    assert kinds(pos.events, E.EV_EXTRA_TURN).shape[0] == 0


def test_custom_extra_turn_not_taken_after_going_out():
    pos = play_position([["Wild Customizable"], ["green 1", "green 2"]], turns=3)
    assert pos.winner == 0 and pos.turns == 1


# --------------------------------------------------------------------------- jump-in

JUMP = {"jump_in": True}


def _four(h0, h1=("green 1", "green 2"), h2=("green 3", "green 4"), h3=("green 6", "green 8")):
    return [list(h0), list(h1), list(h2), list(h3)]


def test_jump_in_effect_lapses_and_play_goes_on_from_the_jumper():
    hands = _four(["red Skip", "blue 1", "blue 2"], h2=["red Skip", "green 3", "green 4"])
    pos = play_position(hands, rules=JUMP, turns=2)
    assert plays(pos.events) == [(0, "red Skip", E.PLAY_NORMAL), (2, "red Skip", E.PLAY_JUMP)]
    # seat 0's Skip lapses (seat 1 is not skipped); seat 2's Skip skips seat 3
    assert [int(r[1]) for r in kinds(pos.events, E.EV_LOSE_TURN)] == [3]
    assert pos.current == 0 and pos.turns == 2 and pos.counters["jump_ins"] == 1
    assert tuple(kinds(pos.events, E.EV_JUMP)[0][1:3]) == (2, 0)


@pytest.mark.parametrize(("direction", "jumper"), [(1, 1), (-1, 3)])
def test_jump_in_first_holder_in_the_direction_of_play(direction, jumper):
    hands = _four(
        ["red 3", "blue 1", "blue 2"],
        h1=["red 3", "green 1", "green 2"],
        h3=["red 3", "green 6", "green 8"],
    )
    pos = play_position(hands, rules=JUMP, direction=direction, turns=2)
    assert plays(pos.events)[1] == (jumper, "red 3", E.PLAY_JUMP)
    assert pos.current == (jumper + direction) % 4


def test_jump_in_on_a_jump_in():
    hands = _four(
        ["red 3", "blue 1", "blue 2"],
        h1=["red 3", "green 1", "green 2"],
        h2=["red 3", "green 3", "green 4"],
    )
    pos = play_position(hands, rules=JUMP, turns=3)
    assert [p[0] for p in plays(pos.events)] == [0, 1, 2]
    assert pos.counters["jump_ins"] == 2 and pos.turns == 3 and pos.current == 3


def test_no_jump_in_on_wilds():
    for card in ("Wild", "Wild Draw Four"):
        hands = _four([card, "blue 1", "blue 2"], h1=[card, "green 1", "green 2"])
        pos = play_position(hands, rules=JUMP, turns=2, seats={"strategy": "basic"})
        assert plays(pos.events)[0] == (0, card, E.PLAY_NORMAL)
        assert pos.counters["jump_ins"] == 0


def test_no_jump_in_on_a_card_that_empties_the_hand():
    hands = _four(["red 9"], h1=["red 9", "green 1"])
    pos = play_position(hands, rules=JUMP, turns=2)
    assert pos.winner == 0 and pos.counters["jump_ins"] == 0


def test_jump_in_off():
    hands = _four(["red Skip", "blue 1", "blue 2"], h2=["red Skip", "green 3", "green 4"])
    pos = play_position(hands, turns=1)
    assert pos.counters["jump_ins"] == 0 and pos.current == 2


@pytest.mark.parametrize("no_action_finish", [True, False])
def test_jump_in_barred_by_no_action_finish(no_action_finish):
    hands = [["red Skip", "blue 1", "blue 2"], ["green 3", "green 4"], ["red Skip"]]
    pos = play_position(
        hands,
        rules={**JUMP, "no_action_finish": no_action_finish},
        turns=1 + (not no_action_finish),
    )
    if no_action_finish:
        assert pos.counters["jump_ins"] == 0 and pos.current == 2
    else:
        assert pos.counters["jump_ins"] == 1 and pos.winner == 2


def test_jump_in_on_a_seven_lapses_its_swap():
    hands = [["red 7", "blue 1", "blue 2"], ["red 7", "green 1", "green 2"], ["yellow 1"]]
    pos = play_position(hands, rules={**JUMP, **SEVEN_ZERO}, turns=2, seats={"strategy": "basic"})
    # only the jumper (seat 1) swaps, with the fewest-cards opponent (seat 2)
    assert [tuple(r[1:3]) for r in kinds(pos.events, E.EV_SWAP)] == [(1, 2)]
    assert same_cards(pos.hands[0], ["blue 1", "blue 2"])
    assert same_cards(pos.hands[1], ["yellow 1"])
    assert same_cards(pos.hands[2], ["green 1", "green 2"])


def test_jump_in_on_a_stacking_draw_two():
    hands = _four(["red Draw Two", "green 1", "green 2"], h2=["red Draw Two", "green 3", "green 4"])
    pos = play_position(
        hands,
        top="blue Draw Two",
        pending=2,
        rules={**JUMP, "stack_draw_two": True},
        turns=2,
    )
    assert plays(pos.events) == [(0, "red Draw Two", E.PLAY_STACK), (2, "red Draw Two", 3)]
    # the jumped card's +2 lapses, the 2 carried stays, the jumper's +2 is added
    assert pos.pending == 4 and pos.current == 3


def test_jump_in_on_a_draw_two_moves_the_penalty():
    hands = _four(["red Draw Two", "blue 1", "blue 2"], h2=["red Draw Two", "green 3", "green 4"])
    pos = play_position(hands, rules=JUMP, pile=filler(6), turns=3)
    # seat 1 is not hit; seat 3 draws 2 and loses its turn; seat 0 plays turn 3
    assert pos.hand_sizes()[1] == 2 and pos.hand_sizes()[3] >= 4
    assert [d[0] for d in draws(pos.events) if d[2] == E.DRAW_PENALTY] == [3, 3]


# --------------------------------------------------------------------------- UNO calls


@pytest.mark.parametrize("penalty", [2, 4, 0])
def test_uno_penalty(penalty):
    pos = play_position(
        [["red 3", "blue 1"], ["green 1", "green 2"], ["green 3", "green 4"]],
        pile=filler(6),
        rules={"uno_penalty": penalty},
        seats=[{"forget_uno": 1.0}, {"catch_uno": 1.0}, {"catch_uno": 1.0}],
    )
    assert pos.hand_sizes()[0] == 1 + penalty
    assert pos.counters["uno_penalties"] == (1 if penalty else 0)
    assert pos.counters["cards_drawn"] == penalty
    if penalty:
        assert int(kinds(pos.events, E.EV_UNO)[0][2]) == 2
    else:
        assert kinds(pos.events, E.EV_UNO).shape[0] == 0


def test_uno_forgotten_but_not_caught():
    pos = play_position(
        [["red 3", "blue 1"], ["green 1", "green 2"], ["green 3", "green 4"]],
        pile=filler(6),
        seats=[{"forget_uno": 1.0}, {"catch_uno": 0.0}, {"catch_uno": 0.0}],
    )
    assert pos.hand_sizes()[0] == 1 and pos.counters["uno_penalties"] == 0
    assert int(kinds(pos.events, E.EV_UNO)[0][2]) == 1


def test_uno_called_no_penalty():
    pos = play_position(
        [["red 3", "blue 1"], ["green 1", "green 2"]], pile=filler(6), seats={"catch_uno": 1.0}
    )
    assert pos.hand_sizes()[0] == 1 and int(kinds(pos.events, E.EV_UNO)[0][2]) == 0


@pytest.mark.parametrize(
    ("partner_catch", "opp_catch", "caught"), [(1.0, 0.0, False), (0.0, 1.0, True)]
)
def test_uno_partners_partner_does_not_catch(partner_catch, opp_catch, caught):
    seats = [
        {"forget_uno": 1.0},
        {"catch_uno": opp_catch},
        {"catch_uno": partner_catch},
        {"catch_uno": opp_catch},
    ]
    pos = play_position(
        _four(["red 3", "blue 1"]), pile=filler(6), rules={"scoring": "partners"}, seats=seats
    )
    assert pos.counters["uno_penalties"] == int(caught)
    assert pos.hand_sizes()[0] == (3 if caught else 1)


def test_uno_no_call_needed_when_a_hand_shrinks_by_a_swap():
    pos = play_position(
        [["red 7", "blue 1", "blue 2"], ["green 1"]],
        pile=filler(6),
        rules=SEVEN_ZERO,
        seats=[{"forget_uno": 1.0}, {"forget_uno": 1.0, "catch_uno": 1.0}],
    )
    assert pos.hand_sizes() == [1, 2] and pos.counters["uno_penalties"] == 0


# --------------------------------------------------------------------------- mistakes


@pytest.mark.parametrize("penalty", [0, 1, 2])
def test_invalid_play_penalty(penalty):
    pos = play_position(
        [["red 3", "blue 1"], ["green 1", "green 2"]],
        pile=["green 8", "yellow 8", *filler(4)],
        rules={"invalid_play_penalty": penalty},
        seats=[{"mistake": 1.0}, {}],
    )
    mistakes = kinds(pos.events, E.EV_MISTAKE)
    assert mistakes.shape[0] == 1 and card_name(int(mistakes[0][2])) == "blue 1"
    assert pos.counters["mistakes"] == 1 and pos.counters["cards_drawn"] == penalty
    # the card is taken back; the turn then completes legally with red 3
    assert plays(pos.events) == [(0, "red 3", E.PLAY_NORMAL)]
    assert same_cards(pos.hands[0], ["blue 1", *["green 8", "yellow 8"][:penalty]])
    assert pos.turns == 1


def test_no_mistake_without_an_unplayable_card():
    pos = play_position(
        [["red 3", "red 4"], ["green 1", "green 2"]],
        pile=filler(4),
        rules={"invalid_play_penalty": 2},
        seats=[{"mistake": 1.0}, {}],
    )
    assert pos.counters["mistakes"] == 0 and pos.counters["cards_drawn"] == 0


def test_no_mistake_when_owing_a_penalty_that_is_stacked():
    pos = play_position(
        [["red Draw Two", "blue 1"], ["green 1", "green 2"], ["green 3", "green 4"]],
        top="blue Draw Two",
        pending=2,
        pile=filler(4),
        rules={"invalid_play_penalty": 2, "stack_draw_two": True},
        seats=[{"mistake": 1.0}, {}, {}],
    )
    assert pos.counters["mistakes"] == 0 and pos.pending == 4

"""Scripted positions for draw cards: the Wild Draw Four restriction and challenge,
stacking, the victim's lost turn and the final penalty (RULES.md, semantics 6 and 7)."""

from __future__ import annotations

import pytest
from rules_helpers import draws, filler, kinds, plays, same_cards

from uno_stats.engine import events as E
from uno_stats.engine.scripted import play_position

# --------------------------------------------------------------------------- wd4_restriction
# A voluntary draw (knob 1.0) brings a Wild Draw Four into a hand that still holds a
# playable card, so a blocking card can be present; the drawn Wild Draw Four is then
# played exactly when the restriction allows it (RULES.md semantic 2). Top red 5, red active.

LEGAL = {
    # hand besides the drawn WD4: (color, color-or-wild, color-or-number, none, no-other-play)
    ("red 3", "green 1"): (False, False, False, True, False),
    ("Wild", "green 1"): (True, False, True, True, False),
    ("Wild Shuffle Hands", "green 1"): (True, False, True, True, False),
    ("Wild Customizable", "green 1"): (True, False, True, True, False),
    ("blue 5", "green 1"): (True, True, False, True, False),
    ("Wild Draw Four", "green 1"): (True, True, True, True, True),  # another WD4 never blocks
    ("blue 6", "green 1"): (True, True, True, True, True),  # nothing else playable
}
MODES = ("color", "color-or-wild", "color-or-number", "none", "no-other-play")


@pytest.mark.parametrize("hand", list(LEGAL))
@pytest.mark.parametrize("mode_index", range(len(MODES)))
def test_wd4_restriction_on_a_drawn_card(hand, mode_index):
    pos = play_position(
        [list(hand), ["green 2", "green 3"]],
        pile=["Wild Draw Four", *filler(4)],
        rules={"wd4_restriction": MODES[mode_index], "wd4_challenge": False},
        seats={"voluntary_draw": 1.0},
    )
    legal = LEGAL[hand][mode_index]
    assert draws(pos.events, 0) == [(0, "Wild Draw Four", E.DRAW_TURN)]
    if legal:
        assert pos.top == "Wild Draw Four" and pos.pending == 4
        assert same_cards(pos.hands[0], hand)
    else:
        assert pos.top == "red 5" and pos.pending == 0
        assert same_cards(pos.hands[0], [*hand, "Wild Draw Four"])
    assert pos.current == 1 and pos.turns == 1


@pytest.mark.parametrize(
    ("top", "legal_by_mode"),
    [
        # color-or-number: a number card with the top card's number blocks, only when the
        # top card is a number; action symbols never block; no-other-play (S15): any
        # symbol match blocks (the Skip on a Skip, the 5 on a 5)
        ("red Skip", (True, True, True, True, False)),
        ("red 5", (True, True, False, True, False)),
        ("red 7", (True, True, True, True, True)),
    ],
)
def test_wd4_color_or_number_top_number_case(top, legal_by_mode):
    hand = ["blue 5", "blue Skip"]  # both playable on either top through number/symbol
    for mode, legal in zip(MODES, legal_by_mode, strict=True):
        pos = play_position(
            [hand, ["green 2", "green 3"]],
            top=top,
            pile=["Wild Draw Four"],
            rules={"wd4_restriction": mode, "wd4_challenge": False},
            seats={"voluntary_draw": 1.0},
        )
        assert (pos.top == "Wild Draw Four") == legal, mode


def test_wd4_no_other_play_after_a_wild_judges_the_announced_color_only():
    # top Wild, green announced: a blue 5 is not playable, a green card is
    for hand, legal in ((["blue 5", "blue Skip"], True), (["green 9", "blue 1"], False)):
        pos = play_position(
            [hand, ["red 2", "red 3"]],
            top="Wild",
            color="green",
            pile=["Wild Draw Four"],
            rules={"wd4_restriction": "no-other-play", "wd4_challenge": False},
            seats={"voluntary_draw": 1.0},
        )
        assert (pos.top == "Wild Draw Four") == legal, hand


@pytest.mark.parametrize(
    ("mode", "illegal"), [("color", 0), ("color-or-number", 0), ("no-other-play", 1)]
)
def test_wd4_no_other_play_challenge_judges_the_symbol_match(mode, illegal):
    # seat 0 holds a blue Skip on a red Skip (no red card): it draws a Wild Draw Four
    # voluntarily and bluffs it; only under no-other-play was the Skip a blocking play
    pos = play_position(
        [["blue Skip", "green 1"], ["Wild", "Wild", "Wild"], ["blue 1", "blue 2"]],
        top="red Skip",
        pile=["Wild Draw Four", "yellow 1", "yellow 2", "yellow 3", "yellow 4", *filler(6)],
        rules={"wd4_restriction": mode},
        seats=[{"voluntary_draw": 1.0, "bluff": 1.0}, {"challenge": "always"}, {}],
        turns=2,
    )
    assert plays(pos.events)[0] == (0, "Wild Draw Four", E.PLAY_DRAWN)
    assert pos.counters["challenges"] == 1
    assert pos.counters["challenges_won"] == illegal
    assert int(kinds(pos.events, E.EV_CHALLENGE)[0][3]) == illegal
    assert pos.hand_sizes()[0] == (6 if illegal else 2)


def test_wd4_forced_when_it_is_the_only_legal_card():
    pos = play_position(
        [["Wild Draw Four", "green 1", "green 2"], ["blue 1", "blue 2"], ["blue 3", "blue 4"]]
    )
    assert pos.top == "Wild Draw Four" and pos.pending == 4 and pos.current == 1
    assert pos.color in ("red", "yellow", "green", "blue")


# --------------------------------------------------------------------------- challenges

CHALLENGER = {"challenge": "always"}


def _bluffer(**extra):
    return {"voluntary_draw": 1.0, "bluff": 1.0, **extra}


def test_challenge_of_an_illegal_wd4_wins():
    # seat 0 holds red 3 (blocks), draws a WD4 voluntarily and bluffs it
    pos = play_position(
        [["red 3", "green 1"], ["Wild", "Wild", "Wild"], ["blue 1", "blue 2"]],
        pile=["Wild Draw Four", "yellow 1", "yellow 2", "yellow 3", "yellow 4", *filler(6)],
        seats=[_bluffer(), CHALLENGER, {}],
        turns=2,
    )
    assert plays(pos.events)[0] == (0, "Wild Draw Four", E.PLAY_DRAWN)
    assert pos.counters["challenges"] == 1 and pos.counters["challenges_won"] == 1
    # the accused draws 4; the challenger takes a normal turn (turn 2) on the new color
    assert same_cards(
        pos.hands[0], ["red 3", "green 1", "yellow 1", "yellow 2", "yellow 3", "yellow 4"]
    )
    assert plays(pos.events)[1] == (1, "Wild", E.PLAY_NORMAL)
    assert pos.hand_sizes()[1] == 2 and pos.turns == 2 and pos.current == 2
    assert pos.counters["cards_drawn"] == 5
    assert kinds(pos.events, E.EV_CHALLENGE)[0][3] == 1


@pytest.mark.parametrize("penalty", [6, 3, 0])
@pytest.mark.parametrize("victim_skips", [True, False])
def test_challenge_of_a_legal_wd4_loses(penalty, victim_skips):
    pos = play_position(
        [["Wild Draw Four", "green 1", "green 2"], ["blue 1", "blue 2"], ["Wild", "Wild"]],
        pile=filler(10),
        rules={"challenge_penalty": penalty, "stack_victim_skips": victim_skips},
        seats=[{}, CHALLENGER, {}],
        turns=2,
    )
    assert pos.counters["challenges"] == 1 and pos.counters["challenges_won"] == 0
    # the lost challenge costs challenge_penalty and the turn, whatever stack_victim_skips
    assert pos.hand_sizes()[1] == 2 + penalty
    assert pos.counters["cards_drawn"] == penalty
    assert [int(r[1]) for r in kinds(pos.events, E.EV_TURN)] == [0, 2]
    assert pos.hand_sizes()[0] == 2 and pos.pending == 0


def test_without_challenge_the_victim_draws_four_and_loses_the_turn():
    pos = play_position(
        [["Wild Draw Four", "green 1", "green 2"], ["blue 1", "blue 2"], ["Wild", "Wild"]],
        pile=filler(10),
        turns=2,
    )
    assert pos.hand_sizes()[1] == 6 and pos.counters["challenges"] == 0
    assert [int(r[1]) for r in kinds(pos.events, E.EV_TURN)] == [0, 2]


@pytest.mark.parametrize("challenge_rule", [True, False])
def test_bluff_makes_an_illegal_wd4_playable_only_with_challenges(challenge_rule):
    pos = play_position(
        [["red 3", "green 1"], ["blue 1", "blue 2"]],
        pile=["Wild Draw Four", *filler(4)],
        rules={"wd4_challenge": challenge_rule},
        seats=[_bluffer(), {}],
    )
    if challenge_rule:
        assert pos.top == "Wild Draw Four" and pos.pending == 4
    else:
        assert pos.top == "red 5" and "Wild Draw Four" in pos.hands[0]


def test_only_a_fresh_single_wd4_can_be_challenged():
    # a stacked total of 8 is not challengeable: the challenger just draws (no stack card)
    pos = play_position(
        [["blue 1", "blue 2"], ["green 1", "green 2"], ["Wild", "Wild"]],
        top="Wild Draw Four",
        color="green",
        pending=8,
        pending_kind=4,
        pending_cards=2,
        pile=filler(10),
        rules={"stack_draw_four": True},
        seats={"challenge": "always"},
    )
    assert pos.counters["challenges"] == 0 and pos.hand_sizes()[0] == 10


# --------------------------------------------------------------------------- stacking


def _owing(hand0, top, pending, kind, color=None, rules=None, turns=1, players=3):
    others = [["yellow 1", "yellow 2"], ["yellow 3", "yellow 4"], ["yellow 6", "yellow 8"]]
    return play_position(
        [hand0, *others[: players - 1]],
        top=top,
        color=color,
        pending=pending,
        pending_kind=kind,
        pile=filler(16, "green"),
        rules=rules,
        turns=turns,
    )


def test_stack_draw_two_passes_the_total_on():
    pos = _owing(
        ["red Draw Two", "green 1", "green 3"],
        "blue Draw Two",
        2,
        2,
        rules={"stack_draw_two": True},
    )
    assert plays(pos.events) == [(0, "red Draw Two", E.PLAY_STACK)]
    assert pos.pending == 4 and pos.pending_cards == 2 and pos.current == 1
    assert pos.counters["longest_stack"] == 2 and pos.counters["stack_total"] == 4
    assert pos.turns == 1 and pos.counters["cards_drawn"] == 0
    assert kinds(pos.events, E.EV_STACK)[0][2] == 4


def test_stacked_total_is_drawn_by_the_next_victim_who_loses_the_turn():
    pos = _owing(
        ["red Draw Two", "green 1", "green 3"],
        "blue Draw Two",
        2,
        2,
        rules={"stack_draw_two": True},
        turns=2,
    )
    assert pos.hand_sizes()[1] == 6
    assert [d[0] for d in draws(pos.events) if d[2] == E.DRAW_PENALTY] == [1] * 4
    assert [int(r[1]) for r in kinds(pos.events, E.EV_TURN)] == [0, 2]


def test_without_stacking_the_victim_draws_and_loses_the_turn():
    pos = _owing(["red Draw Two", "blue 1", "blue 3"], "blue Draw Two", 2, 2)
    assert pos.hand_sizes()[0] == 5 and "red Draw Two" in pos.hands[0]
    assert [d[0] for d in draws(pos.events) if d[2] == E.DRAW_PENALTY] == [0, 0]
    assert [int(r[1]) for r in kinds(pos.events, E.EV_TURN)] == [1]


def test_draw_two_on_draw_two_is_an_ordinary_match_on_a_normal_turn():
    pos = play_position(
        [["red Draw Two", "green 1", "green 3"], ["green 1", "green 2"], ["green 3", "green 4"]],
        top="blue Draw Two",
    )
    assert pos.top == "red Draw Two" and pos.pending == 2 and pos.pending_cards == 1


def test_stack_draw_four():
    rules = {"stack_draw_four": True}
    pos = _owing(["Wild Draw Four", "red 1", "red 2"], "Wild Draw Four", 4, 4, "green", rules)
    assert plays(pos.events) == [(0, "Wild Draw Four", E.PLAY_STACK)]
    assert pos.pending == 8 and pos.pending_cards == 2 and pos.current == 1
    # a stacking WD4 is still subject to wd4_restriction: green in hand blocks it
    pos = _owing(["Wild Draw Four", "green 1", "red 2"], "Wild Draw Four", 4, 4, "green", rules)
    # no stack: seat 0 draws the 4 and loses the turn; seat 1 then draws and plays
    assert [(d[0], d[2]) for d in draws(pos.events)][:4] == [(0, E.DRAW_PENALTY)] * 4
    assert plays(pos.events) == [(1, "green 5", E.PLAY_DRAWN)]
    assert pos.hand_sizes()[0] == 7
    # without the key: a WD4 does not answer a WD4
    pos = _owing(["Wild Draw Four", "red 1", "red 2"], "Wild Draw Four", 4, 4, "green")
    assert pos.hand_sizes()[0] == 7


def test_stack_draw_two_does_not_answer_a_wd4_without_cross():
    pos = _owing(
        ["blue Draw Two", "red 1"], "Wild Draw Four", 4, 4, "green", {"stack_draw_two": True}
    )
    assert pos.hand_sizes()[0] == 6


def test_stack_cross_both_ways():
    rules = {"stack_cross": True}
    # a Draw Two of any color answers whatever color was announced
    pos = _owing(["blue Draw Two", "red 1"], "Wild Draw Four", 4, 4, "green", rules)
    assert plays(pos.events) == [(0, "blue Draw Two", E.PLAY_STACK)]
    assert pos.pending == 6 and pos.pending_cards == 2
    pos = _owing(["Wild Draw Four", "blue 1"], "red Draw Two", 2, 2, None, rules)
    assert plays(pos.events) == [(0, "Wild Draw Four", E.PLAY_STACK)]
    assert pos.pending == 6
    # cross alone does not allow Draw Two on Draw Two
    pos = _owing(["blue Draw Two", "red 1"], "red Draw Two", 2, 2, None, rules)
    assert pos.hand_sizes()[0] == 4


def test_stack_victim_skips_false_draws_then_plays():
    pos = play_position(
        [["blue 1", "green 3"], ["yellow 1", "yellow 2"], ["yellow 3", "yellow 4"]],
        top="red Draw Two",
        pending=2,
        pile=["red 4", "yellow 9", *filler(4)],
        rules={"stack_victim_skips": False},
    )
    assert pos.counters["cards_drawn"] == 2
    assert plays(pos.events) == [(0, "red 4", E.PLAY_NORMAL)]
    assert same_cards(pos.hands[0], ["blue 1", "green 3", "yellow 9"])
    assert pos.turns == 1 and pos.current == 1


def test_stack_victim_skips_false_with_two_players():
    pos = play_position(
        [["red Draw Two", "blue 1", "blue 2"], ["red 1", "green 2"]],
        pile=["yellow 3", "yellow 4", *filler(4)],
        rules={"stack_victim_skips": False},
        turns=2,
    )
    assert [int(r[1]) for r in kinds(pos.events, E.EV_TURN)] == [0, 1]
    assert plays(pos.events)[1] == (1, "red 1", E.PLAY_NORMAL)


# --------------------------------------------------------------------------- final penalty


@pytest.mark.parametrize("final", [True, False])
@pytest.mark.parametrize(("card", "amount"), [("red Draw Two", 2), ("Wild Draw Four", 4)])
def test_final_penalty(final, card, amount):
    pos = play_position(
        [[card], ["blue 1", "blue 2"], ["blue 3", "blue 4"]],
        pile=filler(8),
        rules={"final_penalty": final},
        turns=5,
    )
    assert pos.status == "won" and pos.winner == 0 and pos.turns == 1
    drawn = amount if final else 0
    assert pos.hand_sizes() == [0, 2 + drawn, 2]
    assert pos.counters["cards_drawn"] == drawn
    assert pos.pending == 0
    assert [(d[0], d[2]) for d in draws(pos.events)] == [(1, E.DRAW_FINAL)] * drawn


def test_final_penalty_is_the_whole_stacked_total():
    pos = play_position(
        [["red Draw Two"], ["blue 1", "blue 2"], ["blue 3", "blue 4"]],
        top="green Draw Two",
        pending=2,
        pile=filler(8),
        rules={"stack_draw_two": True},
        turns=5,
    )
    assert pos.winner == 0 and pos.hand_sizes() == [0, 6, 2]
    assert pos.counters["cards_drawn"] == 4


def test_final_penalty_goes_to_the_next_seat_in_the_direction_of_play():
    pos = play_position(
        [["red Draw Two"], ["blue 1", "blue 2"], ["blue 3", "blue 4"]],
        direction=-1,
        pile=filler(8),
        turns=5,
    )
    assert pos.hand_sizes() == [0, 2, 4]

"""``multi_play`` and ``multi_play_actions`` (RULES.md semantic 19): several cards of one
symbol played as one move, the first legal alone, the last on top; one number card's
effect, one per action card.

The seats play ``basic`` (deterministic here: its card choice is unique and the rest of
its hand holds most of one of the colors it may end on) unless a test says otherwise.
"""

from __future__ import annotations

from rules_helpers import draws, filler, kinds, plays

from uno_stats.engine import events as E
from uno_stats.engine.scripted import play_position

SAME = {"multi_play": "same-number"}
IDENTICAL = {"multi_play": "same-number-color"}
ACTIONS = {"multi_play": "same-number", "multi_play_actions": True}
BASIC = {"strategy": "basic", "voluntary_draw": 0.0, "keep_drawn": 0.0, "forget_uno": 0.0}
OTHERS = [["yellow 1", "yellow 2", "yellow 4"] for _ in range(3)]


def _lost(events) -> list[int]:
    return [int(r[1]) for r in kinds(events, E.EV_LOSE_TURN) if int(r[2]) == 0]


def _multi(events) -> list[tuple[int, int]]:
    return [(int(r[1]), int(r[2])) for r in kinds(events, E.EV_MULTI)]


def test_same_number_plays_every_color_and_ends_on_the_color_held_most():
    pos = play_position(
        [["red 3", "blue 3", "green 3", "blue 9"], *OTHERS], pile=filler(6), rules=SAME, seats=BASIC
    )
    assert plays(pos.events)[0] == (0, "red 3", E.PLAY_NORMAL)  # the legal card first
    assert [p[2] for p in plays(pos.events)] == [E.PLAY_NORMAL, E.PLAY_MULTI, E.PLAY_MULTI]
    assert plays(pos.events)[-1] == (0, "blue 3", E.PLAY_MULTI)  # blue: the rest holds blue
    assert pos.top == "blue 3" and pos.color == "blue" and pos.hands[0] == ["blue 9"]
    assert pos.turns == 1 and pos.current == 1
    assert pos.counters["multi_plays"] == 1 and pos.counters["multi_cards"] == 3
    assert _multi(pos.events) == [(0, 3)]


def test_same_number_color_plays_only_identical_cards():
    hand = ["red 3", "red 3", "blue 3", "blue 9"]
    pos = play_position([hand, *OTHERS], pile=filler(6), rules=IDENTICAL, seats=BASIC)
    assert plays(pos.events) == [(0, "red 3", E.PLAY_NORMAL), (0, "red 3", E.PLAY_MULTI)]
    assert sorted(pos.hands[0]) == ["blue 3", "blue 9"] and pos.color == "red"


def test_the_first_card_must_be_legal_alone():
    # blue 3s do not match the red 5: nothing can start, so the seat draws
    hand = ["blue 3", "blue 3", "green 9"]
    pos = play_position([hand, *OTHERS], pile=filler(6), rules=SAME, seats=BASIC)
    assert plays(pos.events) == [] and draws(pos.events, 0) == [(0, "yellow 1", E.DRAW_TURN)]
    # a red 3 may start, and then the blue 3s join it
    pos = play_position([["red 3", *hand], *OTHERS], pile=filler(6), rules=SAME, seats=BASIC)
    assert [p[1] for p in plays(pos.events)] == ["red 3", "blue 3", "blue 3"]


def test_off_plays_one_card():
    hand = ["red 3", "blue 3", "green 3", "blue 9"]
    pos = play_position([hand, *OTHERS], pile=filler(6), seats=BASIC)
    assert plays(pos.events) == [(0, "red 3", E.PLAY_NORMAL)]
    assert pos.counters["multi_plays"] == 0 and kinds(pos.events, E.EV_MULTI).shape[0] == 0


def test_actions_need_their_key():
    hand = ["red Skip", "blue Skip", "blue 9"]
    pos = play_position([hand, *OTHERS], top="red 5", pile=filler(6), rules=SAME, seats=BASIC)
    assert plays(pos.events) == [(0, "red Skip", E.PLAY_NORMAL)] and _lost(pos.events) == [1]


def test_two_skips_skip_two_players():
    hand = ["red Skip", "blue Skip", "blue 9"]
    pos = play_position([hand, *OTHERS], pile=filler(6), rules=ACTIONS, seats=BASIC)
    assert len(plays(pos.events)) == 2
    assert _lost(pos.events) == [1, 2] and pos.current == 3


def test_two_skips_with_two_players_give_the_turn_to_the_opponent():
    # k + 1 places on: the opponent, then the player itself lose a turn, the opponent plays
    hand = ["red Skip", "blue Skip", "blue 9"]
    pos = play_position([hand, OTHERS[0]], pile=filler(6), rules=ACTIONS, seats=BASIC)
    assert _lost(pos.events) == [1, 0] and pos.current == 1
    three = ["red Skip", "blue Skip", "green Skip", "blue 9"]
    pos = play_position([three, OTHERS[0]], pile=filler(6), rules=ACTIONS, seats=BASIC)
    assert _lost(pos.events) == [1, 0, 1] and pos.current == 0


def test_two_reverses_turn_play_round_twice():
    hand = ["red Reverse", "blue Reverse", "blue 9"]
    pos = play_position([hand, *OTHERS], pile=filler(6), rules=ACTIONS, seats=BASIC)
    assert [int(r[2]) for r in kinds(pos.events, E.EV_REVERSE)] == [-1, 1]
    assert pos.direction == 1 and pos.current == 1
    three = ["red Reverse", "blue Reverse", "green Reverse", "blue 9"]
    pos = play_position([three, *OTHERS], pile=filler(6), rules=ACTIONS, seats=BASIC)
    assert pos.direction == -1 and pos.current == 3


def test_two_reverses_with_two_players_are_two_skips():
    hand = ["red Reverse", "blue Reverse", "blue 9"]
    pos = play_position([hand, OTHERS[0]], pile=filler(6), rules=ACTIONS, seats=BASIC)
    assert _lost(pos.events) == [1, 0] and pos.current == 1 and pos.direction == 1
    rules = {**ACTIONS, "two_player_rules": False}
    pos = play_position([hand, OTHERS[0]], pile=filler(6), rules=rules, seats=BASIC)
    assert _lost(pos.events) == [] and kinds(pos.events, E.EV_REVERSE).shape[0] == 2
    assert pos.current == 1


def test_two_draw_twos_without_stacking_draw_four_and_lose_the_turn():
    hand = ["red Draw Two", "blue Draw Two", "blue 9"]
    pos = play_position([hand, *OTHERS], pile=filler(8), rules=ACTIONS, seats=BASIC, turns=2)
    assert len(draws(pos.events, 1)) == 4 and pos.hand_sizes()[1] == 7
    assert [int(r[2]) for r in kinds(pos.events, E.EV_PENALTY)] == [4]
    assert [(int(r[1]), int(r[2])) for r in kinds(pos.events, E.EV_LOSE_TURN)] == [(1, 1)]
    assert [int(r[1]) for r in kinds(pos.events, E.EV_TURN)] == [0, 2] and pos.pending == 0
    assert pos.counters["longest_stack"] == 2 and pos.counters["stack_total"] == 4


def test_two_draw_twos_stacked_on_and_stacking_two_together():
    hand = ["red Draw Two", "blue Draw Two", "blue 9"]
    answer = ["green Draw Two", "yellow Draw Two", "yellow 1"]
    rules = {**ACTIONS, "stack_draw_two": True}
    pos = play_position(
        [hand, answer, *OTHERS[:2]], pile=filler(8), rules=rules, seats=BASIC, turns=2
    )
    assert [p[2] for p in plays(pos.events)[2:]] == [E.PLAY_STACK, E.PLAY_MULTI]
    assert pos.pending == 8 and pos.pending_cards == 4 and pos.current == 2
    assert pos.counters["longest_stack"] == 4 and pos.counters["stack_total"] == 8


def test_deflecting_with_two_skips_passes_the_total_two_seats_on():
    hand = ["red Skip", "blue Skip", "blue 9"]
    rules = {**ACTIONS, "deflect": True}
    pos = play_position(
        [hand, *OTHERS], top="red Draw Two", pending=2, pile=filler(8), rules=rules, seats=BASIC
    )
    assert [p[2] for p in plays(pos.events)] == [E.PLAY_DEFLECT, E.PLAY_MULTI]
    assert _lost(pos.events) == [1] and pos.current == 2 and pos.pending == 2
    assert [(int(r[1]), int(r[2])) for r in kinds(pos.events, E.EV_DEFLECT)] == [(2, 2)]


def test_deflecting_with_two_reverses_sends_the_total_on():
    hand = ["red Reverse", "blue Reverse", "blue 9"]
    rules = {**ACTIONS, "deflect": True}
    pos = play_position(
        [hand, *OTHERS], top="red Draw Two", pending=2, pile=filler(8), rules=rules, seats=BASIC
    )
    assert pos.direction == 1 and pos.current == 1 and pos.pending == 2
    one = ["red Reverse", "blue 9"]  # a single Reverse sends it back to the sender
    pos = play_position(
        [one, *OTHERS], top="red Draw Two", pending=2, pile=filler(8), rules=rules, seats=BASIC
    )
    assert pos.direction == -1 and pos.current == 3


def test_the_drawn_card_starts_the_multi_play():
    hand = ["blue 3", "blue 3", "green 9"]
    pos = play_position([hand, *OTHERS], pile=["red 9", *filler(6)], rules=SAME, seats=BASIC)
    assert plays(pos.events) == [(0, "red 9", E.PLAY_DRAWN), (0, "green 9", E.PLAY_MULTI)]
    assert sorted(pos.hands[0]) == ["blue 3", "blue 3"] and pos.turns == 1


def test_uno_is_judged_once_when_three_cards_become_one():
    hand = ["red 3", "blue 3", "blue 9"]
    forgets = {**BASIC, "forget_uno": 1.0, "catch_uno": 1.0}
    pos = play_position([hand, *OTHERS], pile=filler(8), rules=SAME, seats=forgets)
    assert [(int(r[1]), int(r[2])) for r in kinds(pos.events, E.EV_UNO)] == [(0, 2)]
    assert pos.hand_sizes()[0] == 3 and pos.counters["uno_penalties"] == 1
    pos = play_position([hand, *OTHERS], pile=filler(8), rules=SAME, seats=BASIC)
    assert [(int(r[1]), int(r[2])) for r in kinds(pos.events, E.EV_UNO)] == [(0, 0)]


def test_going_out_with_a_multi_play_wins_without_a_call():
    pos = play_position([["red 3", "blue 3"], *OTHERS], pile=filler(6), rules=SAME, seats=BASIC)
    assert pos.status == "won" and pos.winner == 0
    assert kinds(pos.events, E.EV_UNO).shape[0] == 0


def test_a_winning_multi_play_of_draw_twos_draws_its_whole_total():
    hand = ["red Draw Two", "blue Draw Two"]
    pos = play_position([hand, *OTHERS], pile=filler(8), rules=ACTIONS, seats=BASIC)
    assert pos.status == "won" and pos.winner == 0
    assert [d[2] for d in draws(pos.events, 1)] == [E.DRAW_FINAL] * 4


def test_no_action_finish_keeps_one_action_card_back_but_numbers_may_go_out():
    rules = {**ACTIONS, "no_action_finish": True}
    pos = play_position(
        [["red Skip", "blue Skip"], *OTHERS], pile=filler(6), rules=rules, seats=BASIC
    )
    assert plays(pos.events) == [(0, "red Skip", E.PLAY_NORMAL)] and pos.hands[0] == ["blue Skip"]
    pos = play_position([["red 3", "blue 3"], *OTHERS], pile=filler(6), rules=rules, seats=BASIC)
    assert pos.status == "won"


def test_nobody_jumps_in_on_a_multi_play():
    rules = {**SAME, "jump_in": True}
    jumper = ["blue 3", "yellow 1", "yellow 2"]
    hand = ["red 3", "blue 3", "blue 9"]
    pos = play_position(
        [hand, jumper, *OTHERS[:2]], pile=filler(6), rules=rules, seats=BASIC, turns=2
    )
    assert pos.counters["jump_ins"] == 0 and kinds(pos.events, E.EV_JUMP).shape[0] == 0
    assert [int(r[1]) for r in kinds(pos.events, E.EV_TURN)] == [0, 1]
    # the same seat may jump in on a single blue 3
    single = ["blue 3", "green 9"]
    pos = play_position(
        [single, jumper, *OTHERS[:2]],
        top="blue 5",
        pile=filler(6),
        rules=rules,
        seats=BASIC,
        turns=2,
    )
    assert pos.counters["jump_ins"] == 1


def test_sevens_played_together_swap_once():
    rules = {**SAME, "seven_zero": True}
    hand = ["red 7", "blue 7", "blue 9", "blue 1"]
    others = [["yellow 1"], ["yellow 1", "yellow 2"], ["yellow 1", "yellow 2", "yellow 4"]]
    pos = play_position([hand, *others], pile=filler(6), rules=rules, seats=BASIC)
    assert pos.counters["seven_swaps"] == 1 and kinds(pos.events, E.EV_SWAP).shape[0] == 1
    assert pos.hands[0] == ["yellow 1"] and sorted(pos.hands[1]) == ["blue 1", "blue 9"]
    zeros = ["red 0", "blue 0", "blue 9"]
    pos = play_position([zeros, *OTHERS], pile=filler(6), rules=rules, seats=BASIC)
    assert pos.counters["zero_passes"] == 1 and kinds(pos.events, E.EV_ROTATE).shape[0] == 1


def test_hoarder_keeps_its_cards():
    hand = ["red 3", "blue 3", "green 3", "blue 9"]
    pos = play_position([hand, *OTHERS], pile=filler(6), rules=SAME, seats={"strategy": "hoarder"})
    assert len(plays(pos.events)) == 1 and pos.counters["multi_plays"] == 0


def test_trace_text_of_a_multi_play():
    from uno_stats.engine.trace import describe

    pos = play_position(
        [["red 3", "blue 3", "green 3", "blue 9"], *OTHERS], pile=filler(6), rules=SAME, seats=BASIC
    )
    text = "\n".join(describe(pos.events, 4))
    assert "seat 0 plays 3 cards together (multi-play), blue 3 last, on top" in text
    assert "seat 0 plays red 3 (3 left)" in text and "seat 0 adds blue 3 (1 left)" in text

"""``deflect`` (RULES.md semantic 18): a Skip passes a pending draw total on, a Reverse
sends it back to its sender, in the active color; with the stacking keys."""

from __future__ import annotations

from rules_helpers import draws, filler, kinds, plays

from uno_stats.engine import events as E
from uno_stats.engine.scripted import play_position

DEFLECT = {"deflect": True}
SENDER = ["red Draw Two", "blue 1", "blue 2"]


def _deflects(events):
    return [(int(r[1]), int(r[2])) for r in kinds(events, E.EV_DEFLECT)]


def test_a_skip_passes_the_total_to_the_next_player():
    pos = play_position(
        [SENDER, ["red Skip", "green 1"], ["yellow 1", "yellow 2"]],
        pile=filler(6),
        rules=DEFLECT,
        turns=2,
    )
    assert plays(pos.events) == [
        (0, "red Draw Two", E.PLAY_NORMAL),
        (1, "red Skip", E.PLAY_DEFLECT),
    ]
    assert pos.pending == 2 and pos.current == 2 and pos.direction == 1
    assert _deflects(pos.events) == [(2, 2)]
    assert kinds(pos.events, E.EV_LOSE_TURN).shape[0] == 0  # nobody is skipped by it
    assert pos.counters["longest_stack"] == 1 and pos.counters["cards_drawn"] == 0


def test_the_new_owner_draws_and_loses_the_turn():
    pos = play_position(
        [SENDER, ["red Skip", "green 1"], ["yellow 1", "yellow 2"]],
        pile=["green 5", "green 6", *filler(6)],
        rules=DEFLECT,
        turns=3,
    )
    assert draws(pos.events, 2) == [(2, "green 5", E.DRAW_PENALTY), (2, "green 6", E.DRAW_PENALTY)]
    assert [int(r[1]) for r in kinds(pos.events, E.EV_TURN)] == [0, 1, 0]


def test_a_reverse_sends_the_total_back_to_its_sender():
    pos = play_position(
        [SENDER, ["red Reverse", "green 1"], ["yellow 1", "yellow 2"], ["yellow 3", "yellow 4"]],
        pile=filler(6),
        rules=DEFLECT,
        turns=2,
    )
    assert plays(pos.events)[1] == (1, "red Reverse", E.PLAY_DEFLECT)
    assert pos.direction == -1 and pos.current == 0 and pos.pending == 2
    assert _deflects(pos.events) == [(0, 2)]


def test_two_players_a_reverse_sends_it_back():
    pos = play_position(
        [SENDER, ["red Reverse", "green 1"]], pile=filler(6), rules=DEFLECT, turns=2
    )
    assert pos.current == 0 and pos.pending == 2
    assert kinds(pos.events, E.EV_LOSE_TURN).shape[0] == 0


def test_only_the_active_color_deflects_and_only_with_the_key():
    for hand, rules in ((["blue Skip", "green 1"], DEFLECT), (["red Skip", "green 1"], {})):
        pos = play_position(
            [SENDER, hand, ["yellow 1", "yellow 2"]], pile=filler(6), rules=rules, turns=2
        )
        assert plays(pos.events) == [(0, "red Draw Two", E.PLAY_NORMAL)]
        assert pos.hand_sizes()[1] == 4 and _deflects(pos.events) == []  # drew the 2


def test_a_deflected_wild_draw_four_cannot_be_challenged():
    # seat 0 (basic) names green, its commonest color; seat 1 deflects with a green Skip;
    # seat 2 would always challenge, but the Wild Draw Four is no longer the top card
    pos = play_position(
        [["Wild Draw Four", "green 1", "green 2"], ["green Skip", "red 1"], ["yellow 1", "red 2"]],
        pile=filler(8),
        rules=DEFLECT,
        seats=[{"strategy": "basic"}, {"challenge": "never"}, {"challenge": "always"}],
        turns=3,
    )
    assert plays(pos.events)[1] == (1, "green Skip", E.PLAY_DEFLECT)
    assert pos.counters["challenges"] == 0
    assert [d[0] for d in draws(pos.events)] == [2, 2, 2, 2]
    assert pos.hand_sizes()[2] == 6


def test_a_deflected_total_can_be_stacked_on():
    pos = play_position(
        [SENDER, ["red Skip", "green 1"], ["blue Draw Two", "yellow 2"]],
        pile=filler(8),
        rules={**DEFLECT, "stack_draw_two": True},
        turns=3,
    )
    assert plays(pos.events)[2] == (2, "blue Draw Two", E.PLAY_STACK)
    assert pos.pending == 4 and pos.current == 0
    assert pos.counters["longest_stack"] == 2 and pos.counters["stack_total"] == 4


def test_going_out_on_a_deflect_wins_and_the_total_lapses():
    pos = play_position(
        [SENDER, ["red Skip"], ["yellow 1", "yellow 2"]], pile=filler(6), rules=DEFLECT, turns=3
    )
    assert pos.status == "won" and pos.winner == 1
    assert pos.counters["cards_drawn"] == 0 and pos.pending == 0


def test_trace_text_of_a_deflect():
    from uno_stats.engine.trace import describe

    pos = play_position(
        [SENDER, ["red Skip", "green 1"], ["yellow 1", "yellow 2"]],
        pile=filler(6),
        rules=DEFLECT,
        turns=2,
    )
    text = "\n".join(describe(pos.events, 3))
    assert "seat 1 deflects the pending draw with red Skip" in text
    assert "the pending draw total (2) now falls to seat 2" in text

"""The shipped checker: clean games pass, and each kind of broken rule is reported.

Broken games are made by doctoring real traces (a row removed or changed) or by checking
a game against rules it was not played under.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from uno_stats.check.games import check_game, check_played_game
from uno_stats.check.legality import card_points, decode_rules
from uno_stats.check.replay import Violation
from uno_stats.engine import EngineConfig, simulate, trace_events
from uno_stats.engine import events as E
from uno_stats.engine.cards import CARD_IS_ACTION, WILD_DRAW_FOUR, WILD_SHUFFLE, card_id
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.scripted import deal_position
from uno_stats.engine.strategy_table import default_seat


def _config(players=4, preset="classic-house", seed=5, target=0, **rules):
    resolved = {**preset_rules(preset), **rules}
    return EngineConfig.build(players, resolved, [default_seat()] * players, target, seed)


def _messages(problems: list[Violation]) -> str:
    return "\n".join(str(p) for p in problems)


def _first(events: np.ndarray, kind: int, **where: int) -> int:
    columns = {"b": 3}
    for i, row in enumerate(events):
        if row[0] == kind and all(row[columns[k]] == v for k, v in where.items()):
            return i
    raise AssertionError(f"no event of kind {kind}")


@pytest.mark.parametrize("preset", ["mattel-2022", "draw-until-playable"])
def test_clean_games_pass(preset):
    config = _config(preset=preset)
    for game in range(5):
        assert check_played_game(config, game) == []


def test_a_points_match_passes_with_its_result_rows():
    config = _config(3, "classic-house", seed=8, target=200)
    assert check_played_game(config, 0) == []


def test_decode_rules_inverts_the_encoding():
    rules = {**preset_rules("mattel-2022"), "wd4_restriction": "none", "uno_penalty": 4}
    config = EngineConfig.build(4, rules, [default_seat()] * 4)
    assert decode_rules(config) == rules


def test_a_card_drawn_more_often_than_the_deck_holds_it_breaks_conservation():
    config = _config()
    events = trace_events(config, 0)
    i = _first(events, E.EV_DRAW)
    doubled = np.insert(events, i, np.repeat(events[i : i + 1], 4, axis=0), axis=0)
    problems = check_game(config, doubled)
    assert problems and i <= problems[0].event <= i + 4
    assert "seat" in problems[0].message and "is not there" in problems[0].message


def test_a_removed_draw_shows_in_the_hand_sizes():
    config = _config()
    events = trace_events(config, 0)
    i = _first(events, E.EV_DRAW)
    problems = check_game(config, np.delete(events, i, axis=0))
    seat = int(events[i, 1])
    assert problems and f"seat {seat} holds" in problems[0].message


def test_a_card_not_held_cannot_be_played():
    config = _config()
    events = trace_events(config, 0)
    i = _first(events, E.EV_PLAY)
    events[i, 2] = WILD_SHUFFLE  # not even in a classic deck
    problems = check_game(config, events)
    assert problems[0].event == i and "does not hold" in problems[0].message


def _with_penalty(config: EngineConfig, reason: int) -> tuple[np.ndarray, int]:
    for game in range(50):
        events = trace_events(config, game)
        rows = np.flatnonzero((events[:, 0] == E.EV_PENALTY) & (events[:, 3] == reason))
        if rows.size:
            return events, int(rows[0])
    raise AssertionError(f"no penalty of reason {reason} in 50 games")


@pytest.mark.parametrize(
    ("reason", "rules"),
    [
        (E.DRAW_PENALTY, {}),
        (E.DRAW_CHALLENGE, {}),
        (E.DRAW_MISTAKE, {"invalid_play_penalty": 2}),
        (E.DRAW_FINAL, {}),
    ],
)
def test_a_penalty_must_be_what_the_rules_say_and_be_drawn(reason, rules):
    seat = {**default_seat(), "challenge": "always", "bluff": 0.5, "mistake": 0.3}
    config = EngineConfig.build(4, {**preset_rules("classic-house"), **rules}, [seat] * 4)
    events, i = _with_penalty(config, reason)
    assert check_game(config, events) == []
    more = events.copy()
    more[i, 2] += 1  # owes one card more than the rules make it
    problems = check_game(config, more)
    assert problems[0].event == i and "the rules make it" in problems[0].message
    fewer = np.delete(events, i + 1, axis=0)  # one penalty card not drawn
    assert "and drew" in _messages(check_game(config, fewer))


def test_turns_follow_the_order_of_play():
    config = _config()
    events = trace_events(config, 0)
    skip = _first(events, E.EV_LOSE_TURN)  # a Skip, or a penalty that costs the turn
    problems = check_game(config, np.delete(events, skip, axis=0))
    assert problems and "was next" in problems[0].message
    turns = np.flatnonzero(events[:, 0] == E.EV_TURN)
    renumbered = events.copy()
    renumbered[turns[3], 2] += 1
    assert "is the round's turn 4" in _messages(check_game(config, renumbered))
    longer = events.copy()
    longer[-1, 3] += 1  # the END event's turn count
    assert "the replay counts" in _messages(check_game(config, longer))


def test_the_announced_color_must_be_the_one_in_play():
    config = _config()
    for game in range(20):
        events = trace_events(config, game)
        named = [i for i, r in enumerate(events) if r[0] == E.EV_COLOR]
        if named:
            break
    i = named[0]
    events[i, 2] = (events[i, 2] + 1) % 4
    problems = check_game(config, events)
    assert problems and problems[0].event > i and "the replay has" in problems[0].message


def _broken_somewhere(traced: EngineConfig, checked: EngineConfig, games=40) -> str:
    """Violations of games played under ``traced`` judged by the rules of ``checked``."""
    out = []
    for game in range(games):
        out += check_game(checked, trace_events(traced, game))
    return _messages(out)


def test_an_unrestricted_wild_draw_four_breaks_the_color_restriction():
    assert "not a legal play" in _broken_somewhere(
        _config(wd4_restriction="none"), _config(wd4_restriction="color")
    )


def test_a_jump_in_needs_the_rule():
    assert "jumped in without jump_in" in _broken_somewhere(
        _config(jump_in=True), _config(jump_in=False)
    )


def test_stacking_needs_its_key():
    assert "stacked card" in _broken_somewhere(
        _config(stack_draw_two=True), _config(stack_draw_two=False)
    )
    assert "stacked card" in _broken_somewhere(
        _config(stack_cross=True, stack_draw_two=True), _config(stack_draw_two=True)
    )


def test_after_drawing_only_the_drawn_card_may_be_played():
    config = _config(preset="draw-until-playable")  # drawn_card: must-play
    events = trace_events(config, 0)
    i = _first(events, E.EV_PLAY, b=E.PLAY_DRAWN)
    assert check_game(config, events) == []
    as_normal = events.copy()
    as_normal[i, 3] = E.PLAY_NORMAL
    problems = check_game(config, as_normal)
    assert problems[0].event == i and "then played card" in problems[0].message
    kept = np.delete(events, i, axis=0)  # the playable drawn card stays in the hand
    problems = check_game(config, kept)
    assert "must-play: seat" in problems[0].message
    may_play = replace(config, rules=_config(preset="classic-house").rules)
    assert "must-play" not in _messages(check_game(may_play, kept))


def test_no_action_finish_forbids_going_out_on_an_action_card():
    played = _config(no_action_finish=False)
    finishes = [
        game
        for game in range(60)
        if any(
            r[0] == E.EV_PLAY and r[4] == 0 and CARD_IS_ACTION[r[2]]
            for r in trace_events(played, game)
        )
    ]
    assert finishes
    problems = check_game(_config(no_action_finish=True), trace_events(played, finishes[0]))
    assert "not a legal play" in _messages(problems)


def test_a_round_must_end_as_its_rules_allow():
    config = _config()
    events = trace_events(config, 0)
    assert events[-1, 0] == E.EV_END and events[-1, 2] == 0  # won
    capped = events.copy()
    capped[-1, 2] = 2
    assert "capped after" in _messages(check_game(config, capped))
    void = events.copy()
    void[-1, 2] = 1
    assert "void round after" in _messages(check_game(config, void))
    assert "stops inside a round" in _messages(check_game(config, events[:-1]))
    assert check_game(config, events[:-1], complete=False) == []


def test_result_rows_must_match_the_replayed_hands():
    config = _config()
    events = trace_events(config, 2)
    columns = simulate(config, 2, 1)
    assert check_game(config, events, columns) == []
    columns["hand_sizes"] = columns["hand_sizes"].copy()
    columns["hand_sizes"][0, 1] += 1
    assert "result row 0" in _messages(check_game(config, events, columns))
    columns = simulate(config, 2, 1)
    columns["points"] = columns["points"].copy()
    columns["points"][0, 1] += 20
    assert "result row 0" in _messages(check_game(config, events, columns))


def test_card_points_follow_the_rules():
    assert [card_points(card_id(c)) for c in ("red 7", "blue 0", "green Skip")] == [7, 0, 20]
    assert card_points(card_id("Wild Customizable")) == 50


def test_a_wild_draw_four_opens_only_when_the_pile_holds_nothing_else():
    config = _config()
    events = trace_events(config, 0)
    up = _first(events, E.EV_TURN_UP, b=1)
    start = _first(events, E.EV_START)
    doctored = events.copy()
    doctored[up, 2] = WILD_DRAW_FOUR
    doctored[start, 5] = WILD_DRAW_FOUR
    assert "a wild draw card opens the round" in _messages(check_game(config, doctored))
    # the documented engine gap: a pile of nothing but Wild Draw Fours keeps one
    deck = ["blue 1", "blue 3", "blue 2", "blue 4", "Wild Draw Four", "Wild Draw Four"]
    pos = deal_position(deck, 2, rules={"hand_size": 2}, turns=None)
    assert int(pos.events[_first(pos.events, E.EV_START), 5]) == WILD_DRAW_FOUR
    short = replace(
        _config(2, hand_size=2), deck=np.array([card_id(c) for c in deck], dtype=np.int64)
    )
    assert check_game(short, pos.events) == []


def test_redraw_is_judged_on_the_pile_the_opening_card_left():
    """Under redraw, a Draw Two turned up as the pile's last card opens the round; its penalty
    then shuffles the covered cards back into the pile before the round starts, which is not
    'an action card opening with cards left to turn' (a case hypothesis found)."""
    hands = ["blue 1", "blue 3", "blue 2", "blue 4"]
    deck = [*hands, "blue Skip", "green Reverse", "yellow Skip", "red Draw Two"]
    rules = {"hand_size": 2, "opening_action": "redraw", "reshuffle": True}
    pos = deal_position(deck, 2, rules=rules, turns=None)
    start = _first(pos.events, E.EV_START)
    refill = _first(pos.events, E.EV_REFILL)
    assert refill < start  # the opening penalty drew from the covered cards
    assert [int(r[2]) for r in pos.events[:start] if r[0] == E.EV_TURN_UP] == [
        card_id(c) for c in deck[4:]
    ]
    short = replace(_config(2, **rules), deck=np.array([card_id(c) for c in deck], dtype=np.int64))
    assert check_game(short, pos.events) == []
    # a covered card with nothing left to turn up is still reported
    doctored = pos.events.copy()
    last_up = max(i for i in range(start) if pos.events[i, 0] == E.EV_TURN_UP)
    doctored[last_up, 3] = 0
    assert "covered with no card left to turn up" in _messages(check_game(short, doctored))


def test_an_opening_draw_four_that_fills_a_hand_knocks_it_out():
    """S22: the opening Draw Four is play (not the deal): a hand it brings to the mercy limit
    is out before the first turn, and the checker agrees (a case hypothesis found: 20 cards
    dealt, limit 21, a colored Draw Four turned up)."""
    rules = {
        **preset_rules("no-mercy"),
        "hand_size": 20,
        "mercy_limit": 21,
        "opening_action": "apply",
        "max_turns": 10,
        "reshuffle": False,
        "seven_zero": False,
        "draw": "one",
        "stack_draws": "off",
    }
    deck = {
        "decks": 1,
        "counts": {
            "zero": 2, "skip": 3, "reverse": 3, "draw_two": 3, "draw_four": 2,
            "skip_everyone": 2, "discard_all": 3, "wild": 0, "wild_draw_four": 0,
            "wild_reverse_draw_four": 8, "wild_draw_six": 4, "wild_draw_ten": 4,
            "wild_color_roulette": 8,
        },
    }  # fmt: skip
    config = EngineConfig.build(2, rules, [default_seat()] * 2, 0, 0, deck)
    events = trace_events(config, 0)
    kinds = [int(row[0]) for row in events]
    knock = kinds.index(E.EV_KNOCKOUT)
    assert E.EV_TURN not in kinds[:knock]  # before the first turn: the opening's penalty
    assert int(events[knock][3]) == 1  # the round's first knock-out
    assert check_played_game(config, 0) == []

"""Scripted positions for the deal, the opening card and the keys of "A turn" (RULES.md).

Each test writes a position where every choice is forced (or asserts only on what is
fixed), plays a few turns with the compiled engine and checks the exact outcome.
"""

from __future__ import annotations

import pytest
from rules_helpers import COLORS, draws, filler, kinds, plays, same_cards

from uno_stats.engine import EngineConfig
from uno_stats.engine import events as E
from uno_stats.engine.cards import build_deck, card_id, card_name
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.schema import STATUS_NAMES
from uno_stats.engine.scripted import deal_position, play_position
from uno_stats.engine.strategy_table import default_seat

# --------------------------------------------------------------------------- deck and deal


@pytest.mark.parametrize("shuffle_cards", [0, 1, 4])
@pytest.mark.parametrize("custom", [0, 2, 4])
def test_deck_size_and_special_wilds(shuffle_cards, custom):
    rules = {**preset_rules("classic-house"), "shuffle_hands_cards": shuffle_cards}
    rules["custom_cards"] = custom
    config = EngineConfig.build(4, rules, [default_seat()] * 4)
    deck = list(config.deck)
    assert len(deck) == 108 + shuffle_cards + custom
    assert deck.count(card_id("Wild Shuffle Hands")) == shuffle_cards
    assert deck.count(card_id("Wild Customizable")) == custom
    assert deck.count(card_id("Wild")) == 4
    assert deck.count(card_id("Wild Draw Four")) == 4
    assert deck.count(card_id("red 0")) == 1
    assert deck.count(card_id("blue 7")) == 2
    assert deck.count(card_id("green Draw Two")) == 2
    assert len(build_deck()) == 108


@pytest.mark.parametrize("hand_size", [1, 3, 7])
def test_hand_size_deals_one_at_a_time_from_the_dealers_left(hand_size):
    players = 3
    deck = [f"{c} {n}" for c in COLORS for n in range(1, 10)] * 2
    pos = deal_position(deck, players, rules={"hand_size": hand_size})
    dealt = deck[: players * hand_size]
    for seat in range(players):  # dealer is seat 2: seat 0 gets the first card
        assert same_cards(pos.hands[seat], dealt[seat::players])
    assert pos.top == deck[players * hand_size]
    assert pos.current == 0 and pos.first_player == 0 and pos.turns == 0
    assert pos.counters["cards_drawn"] == 0  # the deal is not a draw


def test_deal_starts_left_of_a_given_dealer():
    deck = [f"red {n}" for n in range(1, 10)] + filler(10)
    pos = deal_position(deck, 3, dealer=0, rules={"hand_size": 2})
    assert same_cards(pos.hands[1], [deck[0], deck[3]])
    assert same_cards(pos.hands[2], [deck[1], deck[4]])
    assert same_cards(pos.hands[0], [deck[2], deck[5]])
    assert pos.current == 1  # the dealer's left starts


# --------------------------------------------------------------------------- opening card

HANDS6 = ["blue 1", "blue 2", "blue 3", "blue 4", "blue 6", "blue 8"]  # 3 seats x 2 cards


def _open(opening, rest=(), players=3, turns=0, **kw):
    rules = {"hand_size": 2, **kw.pop("rules", {})}
    deck = HANDS6[: 2 * players] + list(opening) + list(rest or filler(12))
    return deal_position(deck, players, rules=rules, turns=turns, **kw)


def test_opening_skip_applies():
    pos = _open(["red Skip"])
    assert pos.current == 1 and pos.first_player == 1
    assert [tuple(r[:3]) for r in kinds(pos.events, E.EV_LOSE_TURN)] == [(E.EV_LOSE_TURN, 0, 0)]


def test_opening_draw_two_applies_and_is_counted():
    pos = _open(["red Draw Two"], rest=["green 7", "green 9", *filler(10)])
    assert pos.current == 1 and pos.first_player == 1
    assert same_cards(pos.hands[0], ["blue 1", "blue 4", "green 7", "green 9"])
    assert pos.counters["cards_drawn"] == 2
    assert pos.pending == 0  # an opening Draw Two cannot be stacked: nothing left pending


@pytest.mark.parametrize(
    ("reverse_rule", "starter"), [("dealer-starts", 2), ("dealer-right-starts", 1)]
)
def test_opening_reverse_applies(reverse_rule, starter):
    pos = _open(["red Reverse"], rules={"opening_reverse": reverse_rule})
    assert pos.direction == -1
    assert pos.current == starter and pos.first_player == starter


@pytest.mark.parametrize(
    ("reverse_rule", "starter"), [("dealer-starts", 0), ("dealer-right-starts", 2)]
)
def test_opening_reverse_is_relative_to_the_dealer(reverse_rule, starter):
    pos = _open(["red Reverse"], dealer=0, rules={"opening_reverse": reverse_rule})
    assert pos.direction == -1 and pos.current == starter


@pytest.mark.parametrize("wild", ["Wild", "Wild Shuffle Hands", "Wild Customizable"])
def test_opening_wild_first_player_names_the_color_and_plays(wild):
    # basic names its commonest color: seat 0 holds two blue cards
    pos = _open([wild], seats={"strategy": "basic"}, turns=1)
    assert pos.first_player == 0
    assert kinds(pos.events, E.EV_COLOR)[0][1] == 0
    # seat 0 then plays a blue card on it; a Shuffle Hands or Customizable is a plain Wild
    assert plays(pos.events)[0][0] == 0
    assert plays(pos.events)[0][1].startswith("blue")
    assert pos.counters["hand_shuffles"] == 0
    assert pos.current == 1
    assert kinds(pos.events, E.EV_EXTRA_TURN).shape[0] == 0


def test_opening_wild_random_color_is_one_of_four():
    for seed in range(5):
        pos = _open(["Wild"], seed=seed)
        assert pos.color in COLORS and pos.current == 0


def test_opening_seven_and_zero_do_nothing():
    for card in ("red 7", "red 0"):
        pos = _open([card], rules={"seven_zero": True}, seats={"strategy": "basic"})
        assert pos.current == 0 and pos.counters["seven_swaps"] == 0
        assert same_cards(pos.hands[0], ["blue 1", "blue 4"])


def test_opening_redraw_covers_action_cards_until_a_number():
    opening = ["red Skip", "Wild", "blue Draw Two", "yellow Reverse", "green 4"]
    pos = _open(opening, rules={"opening_action": "redraw"})
    assert pos.top == "green 4" and pos.color == "green"
    assert pos.discard_size == 5  # the covered cards stay in the discard pile
    assert pos.current == 0 and pos.direction == 1
    assert pos.counters["cards_drawn"] == 0
    turned = kinds(pos.events, E.EV_TURN_UP)
    assert [int(r[3]) for r in turned] == [0, 0, 0, 0, 1]


@pytest.mark.parametrize("mode", ["apply", "redraw"])
def test_opening_wild_draw_four_goes_back_and_the_deck_is_reshuffled(mode):
    rest = filler(12, "green")
    pos = _open(["Wild Draw Four"], rest=rest, rules={"opening_action": mode})
    assert pos.top != "Wild Draw Four"
    assert pos.top in rest
    assert "Wild Draw Four" in pos.pile
    assert pos.discard_size == 1
    assert len(pos.pile) + 1 == 1 + len(rest)  # all but the kept opening card
    turned = kinds(pos.events, E.EV_TURN_UP)
    assert int(turned[0][3]) == 2 and card_name(int(turned[0][2])) == "Wild Draw Four"
    assert pos.current == 0


@pytest.mark.parametrize("card", ["red Skip", "red Draw Two", "red Reverse"])
def test_opening_ignore_matches_but_does_nothing(card):
    # S14: seat 0 starts clockwise, draws nothing, loses nothing; the card is only matched
    pos = _open(
        [card], rest=["green 7", "green 9", *filler(10)], rules={"opening_action": "ignore"}
    )
    assert pos.current == 0 and pos.first_player == 0 and pos.direction == 1
    assert pos.top == card and pos.color == "red" and pos.discard_size == 1
    assert same_cards(pos.hands[0], ["blue 1", "blue 4"])
    assert pos.counters["cards_drawn"] == 0 and pos.pending == 0
    assert kinds(pos.events, E.EV_LOSE_TURN).shape[0] == 0
    assert kinds(pos.events, E.EV_REVERSE).shape[0] == 0
    ignored = kinds(pos.events, E.EV_IGNORED)
    assert ignored.shape[0] == 1 and card_name(int(ignored[0][2])) == card


def test_opening_ignore_first_player_plays_a_symbol_match():
    # seat 0 holds a blue Skip: it matches the ignored red Skip by symbol and is played
    deck = ["blue Skip", "blue 2", "blue 3", "blue 4", "blue 6", "blue 8", "red Skip"]
    pos = deal_position(
        [*deck, *filler(12)], 3, rules={"hand_size": 2, "opening_action": "ignore"}, turns=1
    )
    assert plays(pos.events) == [(0, "blue Skip", E.PLAY_NORMAL)]
    assert pos.current == 2  # seat 0's own Skip acts: seat 1 is skipped


def test_opening_ignore_still_names_a_wild_color_and_returns_a_wild_draw_four():
    pos = _open(["Wild"], seats={"strategy": "basic"}, rules={"opening_action": "ignore"})
    assert pos.first_player == 0 and pos.color == "blue"
    assert kinds(pos.events, E.EV_IGNORED).shape[0] == 0
    rest = filler(12, "green")
    pos = _open(["Wild Draw Four"], rest=rest, rules={"opening_action": "ignore"})
    assert pos.top in rest and "Wild Draw Four" in pos.pile and pos.current == 0


def test_opening_ignore_trace_text():
    from uno_stats.engine.trace import describe

    pos = _open(["red Draw Two"], rules={"opening_action": "ignore"})
    text = "\n".join(describe(pos.events, 3))
    assert "the opening red Draw Two has no effect (opening_action: ignore)" in text


# --------------------------------------------------------------------------- basic moves


def test_skip_with_three_players():
    pos = play_position([["red Skip", "blue 1", "blue 2"], ["red 1", "red 2"], ["red 3", "red 4"]])
    assert pos.current == 2 and pos.turns == 1
    assert kinds(pos.events, E.EV_LOSE_TURN)[0][1] == 1


def test_reverse_with_four_players():
    hands = [["red Reverse", "blue 1", "blue 2"], *[["red 1", "red 2"]] * 3]
    pos = play_position(hands)
    assert pos.direction == -1 and pos.current == 3
    pos = play_position(hands, direction=-1)
    assert pos.direction == 1 and pos.current == 1


@pytest.mark.parametrize(("two_player", "current", "direction"), [(True, 0, 1), (False, 1, -1)])
def test_two_player_reverse(two_player, current, direction):
    pos = play_position(
        [["red Reverse", "blue 1", "blue 2"], ["red 1", "red 2"]],
        rules={"two_player_rules": two_player},
    )
    assert pos.current == current and pos.direction == direction


def test_two_player_skip_and_draw_two_give_another_turn():
    pos = play_position([["red Skip", "blue 1", "blue 2"], ["red 1", "red 2"]])
    assert pos.current == 0
    pos = play_position(
        [["red Draw Two", "blue 1", "blue 2"], ["green 1", "green 2"]],
        pile=["yellow 3", "yellow 4", *filler(4)],
        turns=2,
    )
    assert same_cards(pos.hands[1], ["green 1", "green 2", "yellow 3", "yellow 4"])
    assert pos.turns == 2
    assert [int(r[1]) for r in kinds(pos.events, E.EV_TURN)] == [0, 0]  # seat 0 took turn 2
    assert pos.counters["cards_drawn"] == 3  # 2 penalty + seat 0's own draw on turn 2


# --------------------------------------------------------------------------- drawing


def test_draw_one_unplayable_card_ends_the_turn():
    pos = play_position(
        [["blue 1", "blue 2", "blue 3"], ["red 1", "red 2"]], pile=["green 9", "red 8"]
    )
    assert same_cards(pos.hands[0], ["blue 1", "blue 2", "blue 3", "green 9"])
    assert pos.current == 1 and pos.turns == 1 and pos.counters["cards_drawn"] == 1
    assert pos.top == "red 5"


@pytest.mark.parametrize("drawn_card", ["may-play", "must-play"])
def test_draw_one_playable_card_is_played(drawn_card):
    pos = play_position(
        [["blue 1", "blue 2", "blue 3"], ["red 1", "red 2"]],
        pile=["red 8", "green 9"],
        rules={"drawn_card": drawn_card},
    )
    assert pos.top == "red 8" and pos.hand_sizes() == [3, 2]
    assert plays(pos.events) == [(0, "red 8", E.PLAY_DRAWN)]
    assert pos.turns == 1 and pos.current == 1


def test_draw_until_playable_is_one_turn():
    pos = play_position(
        [["blue 1", "blue 2", "blue 3"], ["red 1", "red 2"]],
        pile=["green 9", "yellow 1", "red 8", "blue 4"],
        rules={"draw": "until-playable"},
    )
    assert pos.top == "red 8" and pos.turns == 1 and pos.counters["cards_drawn"] == 3
    assert same_cards(pos.hands[0], ["blue 1", "blue 2", "blue 3", "green 9", "yellow 1"])
    assert pos.pile == ["blue 4"]


def test_draw_until_playable_stops_short_when_nothing_is_left():
    pos = play_position(
        [["blue 1", "blue 2", "blue 3"], ["red 1", "red 2"]],
        pile=["green 9", "yellow 1"],
        rules={"draw": "until-playable"},
    )
    assert pos.counters["cards_drawn"] == 2 and pos.hand_sizes() == [5, 2]
    assert pos.current == 1 and pos.counters["passes"] == 0


def test_drawn_wild_draw_four_is_judged_against_the_rest_of_the_hand():
    # no red card besides: legal under `color`, played (the color is the random seat's)
    pos = play_position(
        [["blue 1", "blue 2"], ["green 1", "green 2"]], pile=["Wild Draw Four"], turns=1
    )
    assert pos.top == "Wild Draw Four" and pos.pending == 4


@pytest.mark.parametrize("voluntary_rule", [True, False])
def test_voluntary_draw(voluntary_rule):
    hands = [["red 1", "blue 2", "blue 3"], ["green 1", "green 2"]]
    pos = play_position(
        hands,
        pile=["green 9"],
        rules={"voluntary_draw": voluntary_rule},
        seats={"voluntary_draw": 1.0},
    )
    if voluntary_rule:
        # drew instead of playing red 1; an older card may never be played after drawing
        assert same_cards(pos.hands[0], [*hands[0], "green 9"])
        assert kinds(pos.events, E.EV_VOLUNTARY).shape[0] == 1
        assert pos.top == "red 5" and pos.counters["cards_drawn"] == 1
    else:
        assert pos.top == "red 1" and pos.counters["cards_drawn"] == 0
    assert pos.turns == 1 and pos.current == 1


def test_voluntary_draw_then_a_playable_drawn_card_is_played():
    pos = play_position(
        [["red 1", "blue 2", "blue 3"], ["green 1", "green 2"]],
        pile=["red 9"],
        seats={"voluntary_draw": 1.0},
    )
    assert pos.top == "red 9" and same_cards(pos.hands[0], ["red 1", "blue 2", "blue 3"])


def test_voluntary_draw_is_offered_only_when_a_card_can_be_drawn():
    pos = play_position(
        [["red 1", "blue 2", "blue 3"], ["green 1", "green 2"]], seats={"voluntary_draw": 1.0}
    )
    assert pos.top == "red 1" and kinds(pos.events, E.EV_VOLUNTARY).shape[0] == 0


def test_voluntary_draw_knob_zero_plays():
    pos = play_position([["red 1", "blue 2", "blue 3"], ["green 1", "green 2"]], pile=["green 9"])
    assert pos.top == "red 1"


# --------------------------------------------------------------------------- refill


def test_refill_shuffles_the_discards_but_the_top():
    pos = play_position(
        [["blue 1", "blue 2", "blue 3"], ["red 1", "red 2"]],
        discard=["green 9", "yellow 1"],
    )
    assert pos.counters["reshuffles"] == 1 and pos.counters["cards_drawn"] == 1
    assert pos.top == "red 5" and pos.discard_size == 1 and pos.color == "red"
    drawn = draws(pos.events)[0][1]
    assert drawn in ("green 9", "yellow 1")
    assert same_cards([*pos.pile, drawn], ["green 9", "yellow 1"])
    assert kinds(pos.events, E.EV_REFILL)[0][2] == 2


def test_refill_is_lazy_and_finishes_a_pending_penalty():
    pos = play_position(
        [["blue 1", "blue 2", "blue 3"], ["red 1", "red 2"], ["red 3", "red 4"]],
        top="red Draw Two",
        pending=2,
        pile=["blue 7"],
        discard=["green 9"],
    )
    assert pos.counters["cards_drawn"] == 2 and pos.counters["reshuffles"] == 1
    assert same_cards(pos.hands[0], ["blue 1", "blue 2", "blue 3", "blue 7", "green 9"])
    assert (pos.discard_size == 2 and plays(pos.events) == [(1, "red 2", 0)]) or plays(
        pos.events
    ) == [(1, "red 1", 0)]  # seat 0 lost the turn; seat 1 took turn 1


def test_penalty_draw_stops_short_when_nothing_is_left():
    pos = play_position(
        [["blue 1", "blue 2", "blue 3"], ["red 1", "red 2"], ["red 3", "red 4"]],
        top="red Draw Two",
        pending=4,
        pending_kind=2,
        pile=["blue 7"],
    )
    assert pos.counters["cards_drawn"] == 1 and pos.hand_sizes()[0] == 4
    assert pos.counters["reshuffles"] == 0 and pos.pending == 0


# --------------------------------------------------------------------------- deadlock, cap

STUCK = [["blue 1", "blue 2"], ["blue 3", "blue 4"], ["green 1", "green 2"]]


def test_deadlock_void_round_after_every_player_passes():
    pos = play_position(STUCK, turns=50)
    assert pos.status == "void" and pos.winner == -1
    assert pos.turns == 3 and pos.counters["passes"] == 3  # each pass is a turn
    assert kinds(pos.events, E.EV_PASS).shape[0] == 3


def test_deadlock_cap_plays_on_to_max_turns():
    pos = play_position(STUCK, turns=None, rules={"deadlock": "cap", "max_turns": 50})
    assert pos.status == "capped" and pos.winner == -1 and pos.turns == 50
    assert kinds(pos.events, E.EV_END).shape[0] == 1


def test_stopping_after_n_turns_is_not_a_cap():
    pos = play_position(STUCK, turns=20, rules={"deadlock": "cap", "max_turns": 50})
    assert pos.status == "playing" and pos.turns == 20 and pos.winner == -1
    assert kinds(pos.events, E.EV_END).shape[0] == 0
    # a stop beyond the cap: the cap ends the round
    pos = play_position(STUCK, turns=80, rules={"deadlock": "cap", "max_turns": 50})
    assert pos.status == "capped" and pos.turns == 50


def test_max_turns_caps_simulated_rounds_and_never_declares_a_winner():
    rules = {**preset_rules("classic-house"), "max_turns": 10, "hand_size": 15}
    config = EngineConfig.build(4, rules, [default_seat()] * 4, seed=3)
    cols = simulate_cols(config, 300)
    assert cols["turns"].max() <= 10
    capped = cols["status"] == 2
    assert capped.sum() > 250
    assert (cols["winner"][capped] == -1).all()


def simulate_cols(config, n):
    from uno_stats.engine import simulate

    return simulate(config, 0, n)


# --------------------------------------------------------------------------- no_action_finish


def test_no_action_finish_single_action_card_must_draw():
    pos = play_position(
        [["red Skip"], ["green 1", "green 2"]],
        pile=["blue 9"],
        rules={"no_action_finish": True},
    )
    assert same_cards(pos.hands[0], ["red Skip", "blue 9"]) and pos.status == "playing"
    for card in ("Wild", "Wild Draw Four", "red Draw Two"):
        pos = play_position(
            [[card], ["green 1", "green 2"]], pile=["blue 9"], rules={"no_action_finish": True}
        )
        assert pos.hand_sizes()[0] == 2 and pos.winner == -1


def test_no_action_finish_off_lets_an_action_card_win():
    pos = play_position([["red Skip"], ["green 1", "green 2"]], pile=["blue 9"])
    assert pos.status == "won" and pos.winner == 0


def test_no_action_finish_still_plays_action_cards_down_to_one():
    pos = play_position(
        [["red Skip", "red Reverse"], ["green 1", "green 2"], ["green 3", "green 4"]],
        rules={"no_action_finish": True},
    )
    assert pos.hand_sizes()[0] == 1 and pos.top in ("red Skip", "red Reverse")


def test_no_action_finish_a_number_card_may_still_win():
    pos = play_position([["red 3"], ["green 1", "green 2"]], rules={"no_action_finish": True})
    assert pos.winner == 0


def test_the_end_event_reports_the_round_result():
    pos = play_position([["red 3", "blue 9"], ["red 4"]], turns=None)
    assert pos.status == "won" and pos.winner == 1 and pos.turns == 2
    ends = kinds(pos.events, E.EV_END)
    assert ends.shape[0] == 1 and (pos.events[-1] == ends[0]).all()
    # (winner, status, turns): seat 0 plays red 3 (blue 9 does not fit), seat 1 goes out
    assert [int(x) for x in ends[0][1:4]] == [1, STATUS_NAMES.index("won"), 2]

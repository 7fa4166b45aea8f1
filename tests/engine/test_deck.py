"""Any deck (RULES.md S19): the cards built, the table sized to them, copies in play, and
the opening card and the deal checked against probabilities derived by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from uno_stats.check.games import check_played_game
from uno_stats.engine import EngineConfig, seed_key, simulate
from uno_stats.engine.cards import (
    CARD_SYMBOL,
    COLORED_KINDS,
    MAX_CARDS,
    MAX_DECK_CARDS,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE,
    build_deck,
)
from uno_stats.engine.rng import seed_stream
from uno_stats.engine.round import setup_round
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.scripted import deal_position, play_position
from uno_stats.engine.state import ST_DECK_N, ST_DISC_N, T_DECK, Table
from uno_stats.engine.strategy_table import default_seat


def _classic_order(shuffles: int, customs: int) -> list[int]:
    """The deck as every seed's games were dealt before S19 (written out independently)."""
    cards = []
    for color in range(4):
        base = color * 16  # the id layout of cards.py: color * 16 + symbol
        cards.append(base)
        for sym in range(1, 13):
            cards += [base + sym, base + sym]
    return (
        cards
        + [WILD] * 4
        + [WILD_DRAW_FOUR] * 4
        + [WILD_SHUFFLE] * shuffles
        + [WILD_CUSTOM] * customs
    )


def _config(players, deck, preset="classic-house", **rules):
    resolved = preset_rules(preset) | rules
    return EngineConfig.build(players, resolved, [default_seat()] * players, seed=3, deck=deck)


def test_classic_deck_keeps_its_order() -> None:
    for shuffles, customs in ((0, 0), (1, 3), (4, 4)):
        assert build_deck(shuffles, customs).tolist() == _classic_order(shuffles, customs)
        assert build_deck(shuffles, customs, {}, 1).tolist() == _classic_order(shuffles, customs)


def test_counts_are_per_color_and_per_deck() -> None:
    deck = build_deck(1, 0, {"seven": 5, "zero": 0, "wild_draw_four": 9, "skip": 0}, 2).tolist()
    assert len(deck) == 2 * (108 + 4 * (5 - 2) - 4 - 8 + 5 + 1)
    for color in range(4):
        assert deck.count(color * 16 + 7) == 2 * 5
        assert deck.count(color * 16) == 0
        assert deck.count(color * 16 + SKIP) == 0
        assert deck.count(color * 16 + 3) == 2 * 2  # not named: classic
    assert deck.count(WILD_DRAW_FOUR) == 18 and deck.count(WILD) == 8
    assert deck.count(WILD_SHUFFLE) == 2
    assert len(build_deck(4, 4, None, 3)) == MAX_DECK_CARDS


def test_table_is_as_wide_as_the_deck_and_holds_it() -> None:
    classic = _config(4, None)
    table = Table(4, classic.rules, classic.deck)
    assert table.tab.shape[1] == MAX_CARDS  # the classic table is unchanged
    big = _config(20, {"decks": 3}, shuffle_hands_cards=4, custom_cards=4, hand_size=17)
    table = Table(20, big.rules, big.deck)
    assert table.tab.shape[1] == MAX_DECK_CARDS
    # what a strategy sees as the deck's composition (the smart challenge) is the real deck
    assert int(table.st[ST_DECK_N]) == MAX_DECK_CARDS
    assert np.array_equal(table.tab[T_DECK, :MAX_DECK_CARDS], big.deck)


def test_deal_from_a_scripted_deck_of_three_decks() -> None:
    deck = [f"{color} {n}" for color in ("red", "yellow", "green", "blue") for n in range(10)]
    deck = (deck * 8)[:300]  # 300 cards: every card held eight times over
    position = deal_position(deck, 20, rules={"hand_size": 14})
    assert position.hand_sizes() == [14] * 20
    assert len(position.pile) == 300 - 20 * 14 - 1
    # dealt one at a time from the dealer's left: seat 0 gets cards 0, 20, 40, ...
    assert position.hands[0] == deck[0 : 20 * 14 : 20]
    assert position.top == deck[20 * 14]


def test_identical_copies_jump_in_one_after_another() -> None:
    # Two decks hold four red 7s: each jumps in on the one before, which one deck cannot do.
    hands = [["red 7", "blue 1"], ["red 7", "blue 2"], ["red 7", "blue 3"], ["red 7", "blue 4"]]
    position = play_position(
        hands, top="red 5", rules={"jump_in": True}, deck={"decks": 2}, turns=4
    )
    assert position.counters["jump_ins"] == 3
    assert [h for h in position.hands] == [["blue 1"], ["blue 2"], ["blue 3"], ["blue 4"]]
    assert position.discard_size == 5 and position.top == "red 7"


def test_two_identical_cards_in_one_hand_are_two_plays() -> None:
    position = play_position(
        [["red 7", "red 7"], ["green 3", "green 4"]],
        top="red 5",
        pile=["green 9", "green 8"],
        deck={"decks": 2},
        turns=None,
    )
    assert position.status == "won" and position.winner == 0
    assert position.hands[0] == [] and position.top == "red 7"


def test_cards_are_conserved_with_several_decks_and_twenty_players() -> None:
    for players, deck, rules in (
        (12, {"decks": 2}, {"stack_draw_two": True, "jump_in": True}),
        (20, {"decks": 3}, {"seven_zero": True, "shuffle_hands_cards": 2, "hand_size": 10}),
        (20, {"decks": 2, "counts": {"wild_draw_four": 16, "seven": 0}}, {"wd4_challenge": True}),
        (6, {"decks": 3, "counts": dict.fromkeys(COLORED_KINDS[:10], 0)}, {"reshuffle": False}),
    ):
        config = _config(players, deck, **rules)
        for game in range(3):
            problems = check_played_game(config, game)
            assert not problems, "\n".join(str(p) for p in problems[:5])


def test_hand_columns_are_wide_enough_for_three_decks() -> None:
    config = _config(20, {"decks": 3}, hand_size=16, max_turns=60)  # 320 of 324 cards dealt
    cols = simulate(config, 0, 5)
    assert cols["hand_sizes"].dtype == np.uint16 and cols["largest_hand"].dtype == np.uint16
    assert cols["max_deficit"].dtype == np.uint16
    assert (cols["hand_sizes"].astype(int).sum(axis=1) <= 3 * 108 - 1).all()
    assert (cols["largest_hand"] >= 16).all()


def _openings(config: EngineConfig, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The opening card and seat 1's dealt hand of games 0..n-1 (set up only, not played)."""
    table = Table(config.players, config.rules, config.deck)
    tops = np.empty(n, dtype=np.int64)
    wilds = np.empty(n, dtype=np.int64)
    key = np.uint64(seed_key(0))
    for game in range(n):
        seed_stream(table.rng, key, game)
        setup_round(table.tab, config.seats, table.rng, table.events, config.players - 1)
        tops[game] = table.disc[int(table.st[ST_DISC_N]) - 1]
        wilds[game] = int((table.hands[1, : table.hn[1]] == WILD).sum())
    return tops, wilds


def test_opening_card_and_deal_match_the_counts() -> None:
    """Derived by hand for two copies of a deck of 168 cards: 80 number cards (one of each
    number per color, and the zero), 16 Wilds and 16 Wild Draw Fours among them.

    ``opening_action: apply`` turns the top card; a Wild Draw Four goes back and the pile is
    reshuffled, so the opening card is uniform over the deck's other cards: P(number) =
    80 / (168 - 16). Seat 1's hand (untouched by the opening) is 7 cards drawn without
    replacement: its Wilds are hypergeometric, mean 7 x 16 / 168. Tolerances: 4.5 standard
    errors (a false alarm about once in 150,000 runs).
    """
    counts = {kind: 1 for kind in COLORED_KINDS[1:10]}  # one .. nine (the resolved numbers)
    counts |= {"skip": 3, "wild": 8, "wild_draw_four": 8}
    config = _config(4, {"decks": 2, "counts": counts}, opening_action="apply")
    assert len(config.deck) == 168
    n = 20_000
    tops, wilds = _openings(config, n)
    assert not (tops == WILD_DRAW_FOUR).any()
    numbers = CARD_SYMBOL[tops] < SKIP  # the wilds' symbols are above every number's
    p = 80 / 152
    assert abs(numbers.mean() - p) < 4.5 * math.sqrt(p * (1 - p) / n)
    size, total, k = 7, 168, 16
    mean = size * k / total
    var = size * (k / total) * (1 - k / total) * (total - size) / (total - 1)
    assert abs(wilds.mean() - mean) < 4.5 * math.sqrt(var / n)


def test_unknown_kinds_are_refused_by_the_engine() -> None:
    with pytest.raises(ValueError, match="unknown card kinds \\['numbers'\\]"):
        build_deck(0, 0, {"numbers": 1})


def test_a_table_the_deck_cannot_deal_is_refused_not_played() -> None:
    # A scenario refuses these with a line number; the engine's own guard keeps a notebook's
    # config from writing past the table's arrays.
    counts = dict.fromkeys(COLORED_KINDS[1:], 0) | {"wild": 0, "wild_draw_four": 16}
    small = _config(10, {"decks": 3, "counts": counts})  # 3 x (4 zeros + 16) = 60 cards
    with pytest.raises(ValueError, match="70 cards dealt, but the deck holds 60"):
        simulate(small, 0, 1)
    many = _config(21, {"decks": 3})
    with pytest.raises(ValueError, match="21 players: a table seats 1 to 20"):
        simulate(many, 0, 1)


def test_challenge_counts_are_wide_enough_for_many_wild_draw_fours() -> None:
    counts = dict.fromkeys(COLORED_KINDS[1:], 0) | {"wild": 0, "wild_draw_four": 16}
    seats = [default_seat() | {"challenge": "always"}] * 2
    config = EngineConfig.build(
        2,
        preset_rules("classic-house") | {"wd4_challenge": True},
        seats,
        seed=3,
        deck={"decks": 3, "counts": counts},
    )
    cols = simulate(config, 0, 50)
    assert cols["challenges"].dtype == np.uint32 and cols["challenges_won"].dtype == np.uint32
    # most plays are Wild Draw Fours, each challenged: a challenge follows a turn's play
    assert cols["challenges"].max() > 20
    assert (cols["challenges"] <= cols["turns"]).all()

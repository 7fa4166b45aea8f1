"""The scenario's ``deck`` section (RULES.md S19): resolution, errors, sweeps, hash and labels."""

from __future__ import annotations

import textwrap

import pytest

from uno_stats.engine import EngineConfig
from uno_stats.engine.cards import MAX_DECK_CARDS
from uno_stats.errors import ScenarioError
from uno_stats.limits import MAX_PLAYERS
from uno_stats.run.plan import config_hash
from uno_stats.scenario.deck import deck_label
from uno_stats.scenario.load import Scenario, parse_scenario, scenario_from_dict


def parse(text: str) -> Scenario:
    return parse_scenario(textwrap.dedent(text), "x.yaml")


def fails(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse(text)
    err = info.value
    assert err.file == "x.yaml" and "\n" not in str(err)
    return err


def test_engine_seats_match_the_scenario_limit() -> None:
    from uno_stats.engine.state import MAX_SEATS

    assert MAX_PLAYERS == MAX_SEATS == 20


def test_classic_deck_resolves_to_none_and_keeps_the_hash() -> None:
    plain = parse("name: x\n")
    for text in ("deck: {decks: 1}", "deck: {counts: {numbers: 2, zero: 1}}", "deck: {}"):
        spelled = parse(f"name: x\n{text}\n")
        assert spelled.deck is None
        assert "deck" not in spelled.to_dict()
        assert config_hash(spelled, 1000) == config_hash(plain, 1000)


def test_two_decks_and_counts_resolve() -> None:
    s = parse(
        """
        name: x
        players: 12
        deck:
          decks: 2
          counts: {wild_draw_four: 8, numbers: 1, skip: 2}
        """
    )
    counts = {kind: 1 for kind in ("one", "two", "three", "four", "five", "six", "seven")}
    counts |= {"eight": 1, "nine": 1, "wild_draw_four": 8}  # skip 2 is classic: dropped
    assert s.deck == {"decks": 2, "counts": counts}
    assert s.to_dict()["deck"] == s.deck
    assert scenario_from_dict(s.to_dict()).to_dict() == s.to_dict()  # reloadable as is
    assert config_hash(s, 1000) != config_hash(parse("name: x\nplayers: 12\n"), 1000)
    # per deck: 112 - 36 number cards + 4 more Wild Draw Fours = 80; two copies
    assert len(EngineConfig.from_scenario(s).deck) == 160
    assert deck_label(s.rules, s.deck) == (
        "2 x 80 = 160 cards (counts changed: numbers 1, wild_draw_four 8)"
    )


def test_special_wilds_are_per_deck() -> None:
    s = parse("name: x\ndeck: {decks: 2}\n")  # mattel-2022: 1 Shuffle Hands, 3 Customizable
    deck = EngineConfig.from_scenario(s).deck.tolist()
    assert len(deck) == 224
    assert deck.count(54) == 2 and deck.count(55) == 6
    assert deck_label(s.rules, s.deck) == "2 x 112 = 224 cards"
    assert deck_label(parse("name: x\n").rules, None) == "1 x 112 cards"


def test_three_decks_of_the_largest_deck_fit() -> None:
    text = "name: x\nplayers: 20\nrules: {shuffle_hands_cards: 4, custom_cards: 4, hand_size: 17}\n"
    s = parse(text + "deck: {decks: 3}\n")
    assert len(EngineConfig.from_scenario(s).deck) == MAX_DECK_CARDS == 348


@pytest.mark.parametrize(
    ("text", "line", "key", "message"),
    [
        ("deck: 2\n", 2, "deck", "2 is not allowed: a mapping such as {decks: 2}"),
        ("deck:\n  deks: 2\n", 3, "deck.deks", "unknown key (did you mean 'decks'?)"),
        ("deck:\n  size: 2\n", 3, "deck.size", "unknown key: allowed keys are decks, counts"),
        ("deck:\n  decks: 4\n", 3, "deck.decks", "4 is out of range: an integer from 1 to 3"),
        ("deck:\n  decks: 0\n", 3, "deck.decks", "0 is out of range: an integer from 1 to 3"),
        ("deck:\n  decks: two\n", 3, "deck.decks", "'two' is not allowed: an integer from 1"),
        ("deck:\n  counts: [1]\n", 3, "deck.counts", "a mapping such as {wild_draw_four: 8}"),
        (
            "deck:\n  counts:\n    wild_draw_fours: 8\n",
            4,
            "deck.counts.wild_draw_fours",
            "unknown key (did you mean 'wild_draw_four'?)",
        ),
        (
            "deck:\n  counts:\n    drawtwo: 1\n",
            4,
            "deck.counts.drawtwo",
            "did you mean 'draw_two'?",
        ),
        (
            "deck:\n  counts:\n    shuffle_hands_cards: 2\n",
            4,
            "deck.counts.shuffle_hands_cards",
            "set it with the rule key rules.shuffle_hands_cards",
        ),
        (
            "deck:\n  counts:\n    wild_customizable: 2\n",
            4,
            "deck.counts.wild_customizable",
            "set it with the rule key rules.custom_cards",
        ),
        (
            "deck:\n  counts:\n    numbers: 1\n    seven: 3\n",
            5,
            "deck.counts.seven",
            "numbers sets one .. nine at once: give numbers or seven, not both",
        ),
        (
            "deck:\n  counts:\n    skip: 9\n",
            4,
            "deck.counts.skip",
            "9 is out of range: an integer from 0 to 8 (cards of this kind per color",
        ),
        (
            "deck:\n  counts:\n    wild: 17\n",
            4,
            "deck.counts.wild",
            "17 is out of range: an integer from 0 to 16 (cards of this kind per deck",
        ),
        (
            "deck:\n  counts:\n    zero: 1.5\n",
            4,
            "deck.counts.zero",
            "1.5 is not allowed: an integer from 0 to 8",
        ),
        (
            "deck:\n  counts:\n    zero: true\n",
            4,
            "deck.counts.zero",
            "true is not allowed: an integer from 0 to 8",
        ),
        (
            "deck:\n  decks: 3\n  counts: {numbers: 3}\n",
            4,
            "deck.counts",
            "the deck holds 444 cards: at most 348",
        ),
        (
            "players: 11\ndeck:\n  counts: {numbers: 1}\n",
            2,
            "players",
            "11 players x rules.hand_size 7 = 77 cards dealt, but the deck holds 76",
        ),
        ("players: 21\ndeck: {decks: 3}\n", 2, "players", "21 is out of range: an integer"),
        ("decks: 2\n", 2, "decks", "not a top-level key: write it under deck: (decks)"),
    ],
)
def test_deck_errors(text: str, line: int, key: str, message: str) -> None:
    err = fails("name: x\n" + text)
    assert (err.line, err.key) == (line, key)
    assert message in err.detail


_NO_NUMBERS = "{zero: 0, numbers: 0, skip: 0, reverse: 0, draw_two: 0"


def test_a_deck_that_cannot_open_is_refused() -> None:
    only_wd4 = f"deck:\n  counts: {_NO_NUMBERS}, wild: 0}}\n"
    err = fails("name: x\nrules: {preset: classic-house}\n" + only_wd4)
    assert (err.line, err.key) == (4, "deck.counts")
    assert "only Wild Draw Fours" in err.detail and "no round could open" in err.detail
    nothing = f"deck:\n  counts: {_NO_NUMBERS}, wild: 0, wild_draw_four: 0}}\n"
    err = fails("name: x\nrules: {preset: classic-house}\n" + nothing)
    assert "the deck holds no cards" in err.detail
    # Wilds and Wild Draw Fours only: a Wild opens (S4), so apply and ignore may play it...
    wilds = f"deck:\n  counts: {_NO_NUMBERS}}}\n"
    small = parse("name: x\nrules: {preset: classic-house, hand_size: 1}\n" + wilds)
    assert len(EngineConfig.from_scenario(small).deck) == 8
    # ...but redraw covers every card until a number card shows: none ever would
    err = fails("name: x\nrules: {opening_action: redraw, hand_size: 1}\n" + wilds)
    assert (err.line, err.key) == (4, "deck.counts")
    assert "no number card" in err.detail and "opening_action redraw" in err.detail


def test_players_up_to_twenty_when_the_deck_holds_enough() -> None:
    assert parse("name: x\nplayers: 20\ndeck: {decks: 2}\n").players == 20
    err = fails("name: x\nplayers: 20\n")
    assert "140 cards dealt, but the deck holds 112" in err.detail


def test_decks_sweep_axis() -> None:
    s = parse(
        """
        name: x
        players: 12
        deck: {counts: {wild_draw_four: 6}}
        sweep:
          deck.decks: [1, 2]
        """
    )
    points = s.sweep_points()
    assert [p.label for p in points] == ["decks-1", "decks-2"]
    assert points[0].scenario.deck == {"decks": 1, "counts": {"wild_draw_four": 6}}
    assert points[1].scenario.deck == {"decks": 2, "counts": {"wild_draw_four": 6}}
    assert [len(EngineConfig.from_scenario(p.scenario).deck) for p in points] == [114, 228]
    assert (
        scenario_from_dict(s.to_dict()).sweep_points()[1].scenario.deck == points[1].scenario.deck
    )


def test_decks_sweep_errors_name_the_axis_and_point() -> None:
    err = fails("name: x\nsweep:\n  deck.decks: [1, 4]\n")
    assert (err.line, err.key) == (3, "sweep.deck.decks")
    assert "4 is out of range: an integer from 1 to 3" in err.detail
    err = fails("name: x\nplayers: 18\nsweep:\n  deck.decks: [1, 2]\n")
    assert err.key == "players" and "(sweep point decks-1)" in err.detail
    err = fails("name: x\nsweep:\n  deck.deck: [1, 2]\n")
    assert "unknown sweep axis (did you mean 'deck.decks'?)" in err.detail

"""The scenario's ``deck`` section (RULES.md S19, SCENARIO.md "The deck"): checked and resolved.

``deck: {decks: 2, counts: {wild_draw_four: 8}}`` plays two copies of one deck whose kinds
keep their classic counts but the ones named. A resolved section is a plain mapping in the
file's shape, ``{"decks": n}`` plus ``"counts"`` (only the kinds that differ from the
classic deck, ``numbers`` expanded); the classic deck resolves to None, so that a scenario
which spells out the default is the same scenario (same configuration hash) as one that
does not.
"""

from __future__ import annotations

from typing import Any

from uno_stats.engine.cards import (
    CLASSIC_COUNTS,
    COLORED_KINDS,
    DECK_KINDS,
    MAX_DECK_CARDS,
    MAX_DECKS,
    SKIP,
    WILD_DRAW_FOUR,
    card_symbol,
    deck_cards,
)
from uno_stats.engine.rules import deck_size
from uno_stats.scenario.checks import ErrorContext, check_keys, int_check, mapping

DECK_KEYS = ("decks", "counts")
NUMBERS = "numbers"
"""Shorthand kind: sets ``one`` .. ``nine`` at once (an error beside any of them)."""
NUMBER_KINDS = COLORED_KINDS[1:10]
COUNT_KINDS: tuple[str, ...] = (*DECK_KINDS[:1], NUMBERS, *DECK_KINDS[1:])
MAX_PER_COLOR = 8
"""Most cards of one colored kind per color in one deck (classic: 1 or 2)."""
MAX_WILDS = 16
"""Most Wilds, or Wild Draw Fours, in one deck (classic: 4)."""
# Reading: the most of each kind keeps every count column in range: at most 3 x (4 x 8 Draw
# Twos + 16 Wild Draw Fours) = 144 draw cards, so a stack (longest_stack, u8) stays below 256.
_RULE_KEY_KINDS = {
    "shuffle_hands_cards": "shuffle_hands_cards",
    "shuffle_hands": "shuffle_hands_cards",
    "wild_shuffle_hands": "shuffle_hands_cards",
    "custom_cards": "custom_cards",
    "custom": "custom_cards",
    "customizable": "custom_cards",
    "wild_customizable": "custom_cards",
}
"""Names of the special wilds: their count is a rule key, one source of truth.

Reading: besides the rule keys themselves, the names a user is likely to try for these two
cards get the same hint instead of a "did you mean"."""


def _top(kind: str) -> int:
    return MAX_PER_COLOR if kind in COLORED_KINDS or kind == NUMBERS else MAX_WILDS


def _allowed(kind: str) -> str:
    where = "per color" if kind in COLORED_KINDS or kind == NUMBERS else "per deck"
    return f"an integer from 0 to {_top(kind)} (cards of this kind {where}, in one deck)"


def _counts(raw: Any, ctx: ErrorContext) -> dict[str, int]:
    raw = mapping(raw, "deck.counts", ctx, "{wild_draw_four: 8}")
    hints = {
        name: f"not a card kind of deck.counts: set it with the rule key rules.{key}"
        f" (per deck, like every count here)"
        for name, key in _RULE_KEY_KINDS.items()
    }
    check_keys(raw, list(COUNT_KINDS), "deck.counts.", ctx, hints)
    # Reading: numbers is a shorthand, not a kind; with one of one .. nine beside it the
    # file would say two things about that kind, so it is an error rather than an override
    if NUMBERS in raw:
        given = [kind for kind in NUMBER_KINDS if kind in raw]
        if given:
            message = f"numbers sets one .. nine at once: give numbers or {given[0]}, not both"
            ctx.fail(f"deck.counts.{given[0]}", message)
    counts: dict[str, int] = {}
    for kind, value in raw.items():
        if kind not in COUNT_KINDS:
            continue  # reported by check_keys
        key = f"deck.counts.{kind}"
        if type(value) is not int:
            ctx.bad_value(key, value, _allowed(kind))
        if not 0 <= value <= _top(kind):
            ctx.fail(key, f"{value} is out of range: {_allowed(kind)}", ctx.values.get(key))
        for name in NUMBER_KINDS if kind == NUMBERS else (kind,):
            counts[name] = value
    # Reading: a count equal to the classic one is no change, so it is dropped (the hash of
    # a scenario does not depend on whether the classic counts are spelled out)
    classic = CLASSIC_COUNTS
    return {k: counts[k] for k in DECK_KINDS if counts.get(k, classic[k]) != classic[k]}


def check_deck(data: dict, ctx: ErrorContext) -> dict[str, Any] | None:
    """The resolved ``deck`` section of ``data``: None for the classic deck (S19)."""
    if "deck" not in data:
        return None
    raw = mapping(data["deck"], "deck", ctx, "{decks: 2}")
    check_keys(raw, list(DECK_KEYS), "deck.", ctx, {})
    decks = 1
    if "decks" in raw:
        decks = ctx.checked("deck.decks", int_check(1, MAX_DECKS), raw["decks"])
    counts = _counts(raw["counts"], ctx) if "counts" in raw else {}
    if decks == 1 and not counts:
        return None
    return {"decks": decks, "counts": counts} if counts else {"decks": decks}


def deck_label(rules: dict[str, Any], deck: dict[str, Any] | None) -> str:
    """The deck in words: ``1 x 112 cards``, ``2 x 112 = 224 cards``, with changed counts."""
    copies = int((deck or {}).get("decks", 1))
    total = deck_size(rules, deck)
    one = total // copies
    text = f"{copies} x {one} = {total} cards" if copies > 1 else f"1 x {one} cards"
    counts = (deck or {}).get("counts", {})
    if counts:
        shown = dict(counts)
        if len({shown.get(kind, -1) for kind in NUMBER_KINDS}) == 1 and NUMBER_KINDS[0] in shown:
            shown = {NUMBERS: shown[NUMBER_KINDS[0]], **shown}  # one .. nine alike: numbers N
            shown = {k: v for k, v in shown.items() if k not in NUMBER_KINDS}
        changed = ", ".join(f"{kind} {n}" for kind, n in shown.items())
        text += f" (counts changed: {changed})"
    return text


def check_deck_table(rules: dict[str, Any], deck: dict[str, Any] | None, ctx: ErrorContext) -> int:
    """Checks of the deck against the rules (S19); returns the deck's size in cards.

    The whole deck holds at most ``MAX_DECK_CARDS``, at least one card that can open a
    round (not only Wild Draw Fours, which always go back, S4) and, under
    ``opening_action: redraw``, a number card (only a number card ends the redraw).
    The classic deck (``deck`` None) passes every check.
    """
    # Reading (the issue asks to reject a deck that "loops forever"): the engine never loops,
    # but a deck of only Wild Draw Fours could never open a round, and under redraw a deck
    # without number cards would turn its whole pile; both are refused when the file loads
    counts = dict((deck or {}).get("counts", {}))
    key = "deck.counts" if counts else "deck"
    copies = int((deck or {}).get("decks", 1))
    shuffles, customs = int(rules["shuffle_hands_cards"]), int(rules["custom_cards"])
    cards = deck_cards(shuffles, customs, counts, copies)
    if len(cards) > MAX_DECK_CARDS:
        message = f"the deck holds {len(cards)} cards: at most {MAX_DECK_CARDS} (3 x 116)"
        ctx.fail(key, message)
    if not cards:
        ctx.fail(key, "the deck holds no cards: give some kind a count above 0")
    if all(card == WILD_DRAW_FOUR for card in cards):
        message = (
            "the deck holds only Wild Draw Fours: an opening Wild Draw Four always goes back "
            "into the deck (RULES.md S4), so no round could open: give another kind a count"
        )
        ctx.fail(key, message)
    numbers = any(card_symbol(card) < SKIP for card in cards)  # wild symbols are above SKIP
    if rules["opening_action"] == "redraw" and not numbers:
        message = (
            "the deck holds no number card, but rules.opening_action redraw covers the opening "
            "card until a number card shows: give a number kind a count, or use "
            "opening_action apply or ignore"
        )
        ctx.fail(key, message)
    return len(cards)

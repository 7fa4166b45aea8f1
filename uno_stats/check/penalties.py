"""Penalty bookkeeping for the checker: the pending draw total built by the draw cards
played, and the cards each penalty makes a seat draw (RULES.md S6, S7, S10, S11)."""

from __future__ import annotations

from typing import Any

from uno_stats.engine import events as E
from uno_stats.engine.cards import (
    CARD_SYMBOL,
    DRAW_FOUR,
    DRAW_TWO,
    WILD,
    WILD_DRAW_FOUR,
    WILD_DRAW_SIX,
    WILD_DRAW_TEN,
    WILD_REVERSE_DRAW_FOUR,
)

# RULES.md S6 and S21: what each wild draw card adds; colored draw cards by symbol below
_WILD_DRAWS = {WILD_DRAW_FOUR: 4, WILD_REVERSE_DRAW_FOUR: 4, WILD_DRAW_SIX: 6, WILD_DRAW_TEN: 10}
_COLORED_DRAWS = {DRAW_TWO: 2, DRAW_FOUR: 4}


def draw_value(card: int) -> int:
    """What a card adds to the pending draw total: 2 for a Draw Two, 4 for a (Wild) Draw Four
    or Wild Reverse Draw Four, 6 and 10 for the Wild Draw Six and Ten, 0 otherwise."""
    if card >= WILD:
        return _WILD_DRAWS.get(card, 0)
    return _COLORED_DRAWS.get(int(CARD_SYMBOL[card]), 0)


def stacks_on(rules: dict[str, Any], on: int, card: int) -> bool:
    """RULES.md S6 and S23: may ``card`` answer a chain whose top adds ``on``? By the classic
    keys (a Draw Two on +2, a Wild Draw Four on +4, across with stack_cross) or by
    ``stack_draws`` (by value, color ignored)."""
    value = draw_value(card)
    if on == 0 or value == 0:
        return False
    draw_two = card < WILD and CARD_SYMBOL[card] == DRAW_TWO
    classic = (draw_two and on == 2 and rules["stack_draw_two"]) or (
        card == WILD_DRAW_FOUR and on == 4 and rules["stack_draw_four"]
    )
    across = (draw_two and on == 4) or (card == WILD_DRAW_FOUR and on == 2)
    by_value = {"off": False, "equal-or-higher": value >= on, "equal": value == on, "any": True}
    return bool(classic or (across and rules["stack_cross"]) or by_value[rules["stack_draws"]])


class Penalties:
    """What is owed in one round; each method returns a broken rule's message, or None."""

    def __init__(self, rules: dict[str, Any]) -> None:
        self.rules = rules
        self.pending = 0  # draw total owed by the next seat, from the draw cards played
        self.pending_before = 0  # the total before the last play (a jump-in replaces it)
        self.owed: list[int] | None = None  # seat, cards, reason, drawn so far
        self.challenge_won = False

    def played(self, card: int, how: int) -> None:
        """A card was played: a draw card grows the total; a jumped-on card's effect lapses."""
        if how != E.PLAY_JUMP:
            self.pending_before = self.pending
        self.pending = self.pending_before + draw_value(card)

    def event(self, kind: int, seat: int, a: int, b: int, started: bool, top: int) -> str | None:
        """EV_PENALTY (``seat`` owes ``a`` cards for reason ``b``), EV_CHALLENGE or EV_UNO."""
        if kind == E.EV_CHALLENGE:
            self.challenge_won = bool(b)
            fresh = self.pending == 4 and top == WILD_DRAW_FOUR
            self.pending = self.pending_before = 0
            if not self.rules["wd4_challenge"] or not fresh:
                return f"seat {seat} challenged, but no single fresh Wild Draw Four is owed"
            return None
        if kind == E.EV_UNO:
            if a == E.UNO_CAUGHT:
                self.owed = [seat, int(self.rules["uno_penalty"]), E.DRAW_UNO, 0]
            return None
        expected = {
            # an opening Draw Two (S4) or Draw Four (S24) before the start
            E.DRAW_PENALTY: self.pending if started else draw_value(top),
            E.DRAW_FINAL: self.pending if self.rules["final_penalty"] else 0,
            E.DRAW_CHALLENGE: 4 if self.challenge_won else int(self.rules["challenge_penalty"]),
            E.DRAW_MISTAKE: int(self.rules["invalid_play_penalty"]),
        }.get(b, -1)
        if b in (E.DRAW_PENALTY, E.DRAW_FINAL):
            self.pending = self.pending_before = 0
        self.owed = [seat, a, b, 0]
        if a != expected:
            return f"seat {seat} owes {a} cards (reason {b}); the rules make it {expected}"
        return None

    def knocked_out(self, seat: int) -> None:
        """S22: ``seat`` is out: what it still owed lapses (it drew short, as allowed)."""
        if self.owed is not None and self.owed[0] == seat:
            self.owed = None

    def drew(self, seat: int, reason: int) -> str | None:
        """``seat`` drew a card for ``reason`` (a DRAW_* code; the Color Roulette's turned-up
        cards are judged by the replay)."""
        if reason in (E.DRAW_TURN, E.DRAW_ROULETTE):
            return None
        if self.owed is None or self.owed[0] != seat or self.owed[2] != reason:
            return f"seat {seat} drew a penalty card (reason {reason}) it did not owe"
        self.owed[3] += 1
        return None

    def settle(self, dry: bool) -> str | None:
        """The draws after a penalty are over: all of it, or fewer only when ``dry`` (nothing
        was left to draw)."""
        if self.owed is None:
            return None
        seat, cards, reason, drawn = self.owed
        self.owed = None
        if drawn > cards or (drawn < cards and not dry):
            return f"seat {seat} owed {cards} cards (reason {reason}) and drew {drawn}"
        return None

"""Replay a traced game in plain Python and check it against RULES.md, event by event.

:class:`Replay` keeps its own hands, draw pile and discard pile from the trace events alone
(``trace_events``) and checks, event by event: every card is conserved (each card drawn
was in the draw pile, each card played was in its player's hand), every play is legal
under the round's rules (match on the top card or announced color, stacking by its keys,
identical jump-in, the Wild Draw Four restriction, ``no_action_finish``, only the drawn
card after drawing and, under ``must-play``, that card if it fits), a pass only with nothing
playable and nothing to draw, turns in the order of play, every penalty as large as the
rules make it and drawn in full, every round ends won, void, capped or exhausted as its rules
allow, and it records each round's end (winner, status, turns, hand sizes and points) for
comparison with the engine's result rows. Whole games are checked with
:mod:`uno_stats.check.games`.

The checker lives outside ``engine/`` so that editing it never changes the engine hash.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from uno_stats.check.legality import card_points, decode_rules, matches, wd4_allowed
from uno_stats.check.mercy import NoMercyReplay
from uno_stats.check.multi import MultiPlays
from uno_stats.check.penalties import Penalties, draw_value, stacks_on
from uno_stats.engine import EngineConfig
from uno_stats.engine import events as E
from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_IS_ACTION,
    CARD_SYMBOL,
    REVERSE,
    SKIP,
    SKIP_EVERYONE,
    WILD,
    WILD_DRAW_FOUR,
    WILD_ROULETTE,
)
from uno_stats.engine.schema import (
    STATUS_CAPPED,
    STATUS_EXHAUSTED,
    STATUS_NAMES,
    STATUS_VOID,
    STATUS_WON,
)
from uno_stats.engine.strategy_table import (
    MOVE_SETS,
    S_BLUFF,
    S_KIND,
    S_SEARCH_MOVES,
    strategy_id,
)

_BASIC = strategy_id("basic")
_SEARCH = strategy_id("search")
# Events that may follow a multi-play within its turn (RULES.md S20, counted by MultiPlays).
_MULTI_EFFECTS = (
    E.EV_LOSE_TURN,
    E.EV_REVERSE,
    E.EV_SWAP,
    E.EV_ROTATE,
    E.EV_JUMP,
    E.EV_UNO,
    E.EV_EXHAUSTED,
)


@dataclass(frozen=True)
class Violation:
    """One broken rule: where in the trace (event row, round of the game) and what."""

    event: int
    round: int
    message: str

    def __str__(self) -> str:
        return f"event {self.event} (round {self.round}): {self.message}"


class Replay(NoMercyReplay):
    """A table rebuilt from trace events only; feed it rows with :meth:`event`.

    Broken rules are collected in :attr:`violations` (the replay goes on after one, so
    a later message may follow from an earlier one: read the first).
    """

    def __init__(self, config: EngineConfig, seating: list[int] | None = None) -> None:
        self.players = config.players
        self.rules = decode_rules(config)
        self.deck = Counter(int(c) for c in config.deck)
        # RULES.md S16: ``seating[s]`` is the scenario seat at position s (the game's
        # ``seating`` column); positions hold their own seats without it
        order = list(range(self.players)) if seating is None else [int(x) for x in seating]
        kinds = config.seats[order, S_KIND]
        bluffs = config.seats[order, S_BLUFF]
        searched = config.seats[order, S_SEARCH_MOVES] != MOVE_SETS.index("cards")
        # Reading of RULES.md "Bluff" and the strategies: a seat may play an illegal Wild
        # Draw Four only when challenges are on, and it is not `basic` (which never bluffs)
        # and either its bluff knob is above 0 or it is `search` weighing bluffs among its
        # moves (SCENARIO.md, "Strategies"); the checker then accepts it as legal.
        self.bluffers = [
            bool(self.rules["wd4_challenge"])
            and int(kinds[s]) != _BASIC
            and (bluffs[s] > 0 or (int(kinds[s]) == _SEARCH and bool(searched[s])))
            for s in range(self.players)
        ]
        self.violations: list[Violation] = []
        self.rounds = 0  # rounds ended so far
        # per round: winner, status, turns, hand sizes and hand points by seat
        self.ends: list[tuple[int, int, int, list[int], list[int]]] = []
        self.index = -1
        self._new_round()

    # ------------------------------------------------------------------ state

    def _new_round(self) -> None:
        self.hands: list[Counter[int]] = [Counter() for _ in range(self.players)]
        self.pile: Counter[int] = Counter(self.deck)
        self.discards: Counter[int] = Counter()
        self.pool: Counter[int] = Counter()  # collected by Shuffle Hands, not yet dealt out
        self.top = -1
        self.color = -1
        self.ended = False
        self.started = False
        self.passes = 0
        self.shuffle_next = -1
        self.penalties = Penalties(self.rules)
        self.drawn: tuple[int, int] | None = None  # seat and card of this turn's last draw
        self.direction = 1
        self.cursor = -1  # the seat whose turn (taken or lost) came last; -1 before the start
        self.turns = 0  # turns taken: EV_TURN and jump-ins
        self.ignored = False  # S14: the opening card's action was ignored
        # The draw pile as the opening card left it, before its effect (which may draw cards
        # and shuffle the covered ones back in)
        self.pile_at_opening: Counter[int] = Counter()
        self.exhausted = -2  # S17: the winner EV_EXHAUSTED named (-2: none yet)
        self.deflected = 0  # S18: the kind (2 or 4) of a draw total deflected onto the top
        self.multi = MultiPlays(self.rules, self.players)  # S20: the turn's multi-play
        self.out: list[int] = []  # S22: the seats knocked out, in order
        self.knock_due = -1  # S22: the seat whose hand reached the mercy limit: out next
        self.roulette: list[int] | None = None  # S21: victim, color, cards turned up
        self.player = -1  # the seat that played the last card (a roulette's player)

    def hand_sizes(self) -> list[int]:
        """Cards held by each seat, as replayed."""
        return [self.hands[s].total() for s in range(self.players)]

    def _fail(self, message: str) -> None:
        self.violations.append(Violation(self.index, self.rounds, message))

    def _take(self, where: Counter[int], card: int, what: str) -> None:
        if where[card] <= 0:
            self._fail(f"{what}: card {card} is not there")
        where[card] -= 1

    # ------------------------------------------------------------------ legality

    def may_finish(self, card: int, seat: int) -> bool:
        """``no_action_finish``: may ``card`` be ``seat``'s last card?"""
        return not (
            self.rules["no_action_finish"]
            and self.hands[seat].total() == 1
            and CARD_IS_ACTION[card]
        )

    def wd4_ok(self, seat: int) -> bool:
        """May ``seat`` play a Wild Draw Four now (by the restriction, or as a bluff)?"""
        return self.bluffers[seat] or wd4_allowed(
            list(self.hands[seat].elements()),
            self.color,
            self.top,
            self.rules["wd4_restriction"],
        )

    def legal_normal(self, seat: int, card: int) -> bool:
        """Is ``card`` a legal play for ``seat`` on a normal turn?"""
        if not self.may_finish(card, seat):
            return False
        if card == WILD_DRAW_FOUR:
            return self.wd4_ok(seat)
        return bool(matches(card, self.top, self.color))

    def legal_unbluffed(self, seat: int, card: int) -> bool:
        """Is ``card`` legal for ``seat`` without a bluff (drawn once per turn, so a seat
        that may bluff can still hold an unplayable Wild Draw Four)?"""
        if card != WILD_DRAW_FOUR:
            return self.legal_normal(seat, card)
        hand = list(self.hands[seat].elements())
        return self.may_finish(card, seat) and wd4_allowed(
            hand, self.color, self.top, self.rules["wd4_restriction"]
        )

    # ------------------------------------------------------------------ events

    def event(self, index: int, row: np.ndarray | tuple[int, ...]) -> None:
        """Apply one event row ``(kind, seat, a, b, c, d)`` and check it."""
        self.index = index
        kind, seat, a, b, c, d = (int(x) for x in row)
        if self.knock_due >= 0 and kind != E.EV_KNOCKOUT:
            self._fail(f"seat {self.knock_due} reached the mercy limit and was not knocked out")
            self.knock_due = -1
        if kind not in (E.EV_DRAW, E.EV_REFILL, E.EV_KNOCKOUT):
            self._close_roulette()
        if kind not in (E.EV_DRAW, E.EV_REFILL, E.EV_KNOCKOUT):  # S22: a knock-out ends a draw
            self.finish()
        if kind in (E.EV_TURN, E.EV_LOSE_TURN, E.EV_JUMP, E.EV_END):
            self._kept_drawn()
        if kind in (E.EV_TURN, E.EV_END, E.EV_CHALLENGE) or (
            kind == E.EV_PENALTY and b == E.DRAW_PENALTY
        ):
            self._fail_all(self.multi.close())
        elif kind in _MULTI_EFFECTS:
            self.multi.effect(kind, a)
        if kind == E.EV_DEAL:
            if self.ended:
                self._new_round()
            self._take(self.pile, a, "dealt from the draw pile")
            self.hands[seat][a] += 1
        elif kind == E.EV_TURN_UP:
            self._turn_up(a, b)
        elif kind == E.EV_START:
            self._start(seat, a, b, c, d)
        elif kind == E.EV_TURN:
            if b != self.top or c != self.color:
                self._fail(
                    f"turn {a} of seat {seat} on card {b}, color {c}; the replay has "
                    f"card {self.top}, color {self.color}"
                )
            self._turn_order(seat, "took a turn", d)
            self.turns += 1
            if a != self.turns:
                self._fail(f"turn {a} is the round's turn {self.turns}")
        elif kind in (E.EV_LOSE_TURN, E.EV_JUMP, E.EV_REVERSE, E.EV_EXTRA_TURN):
            self._order_event(kind, seat, a)
        elif kind == E.EV_DRAW:
            self.passes = 0
            self._take(self.pile, a, f"seat {seat} drew from the draw pile")
            self.hands[seat][a] += 1
            self._check(self.penalties.drew(seat, b))
            if b == E.DRAW_TURN:
                self.drawn = (seat, a)
            if b == E.DRAW_ROULETTE:
                self._roulette_card(seat, a)
            self._mercy(seat)
        elif kind in (E.EV_PENALTY, E.EV_CHALLENGE, E.EV_UNO):
            self._check(self.penalties.event(kind, seat, a, b, self.started, self.top))
        elif kind == E.EV_REFILL:
            self._refill(a)
        elif kind == E.EV_MULTI:  # S20
            self._fail_all(self.multi.announce(seat, a, b, c))
        elif kind == E.EV_PLAY:
            self.passes = 0
            self._fail_all(self.multi.played(seat, a, b, c))
            self._after_draw(seat, a, b)
            self._play(seat, a, b, c)
        elif kind == E.EV_COLOR:
            if not 0 <= a < 4:
                self._fail(f"seat {seat} named color {a}")
            self.color = a
        elif kind == E.EV_PASS:
            self.passes += 1
            self._pass(seat)
        elif kind == E.EV_MISTAKE:
            self._mistake(seat, a)
        elif kind in (E.EV_SWAP, E.EV_ROTATE, E.EV_SHUFFLE_HANDS, E.EV_HAND):
            self._move_hands(kind, seat, a)
        elif kind == E.EV_END:
            self._end(seat, a, b)
        elif kind == E.EV_IGNORED:  # S14
            if self.rules["opening_action"] != "ignore" or self.started or a != self.top:
                self._fail(f"opening card {a} ignored outside opening_action: ignore")
            self.ignored = True
        elif kind == E.EV_EXHAUSTED:  # S17
            if self.rules["reshuffle"] or self.pile.total() != 0:
                self._fail("the round ran out of cards with reshuffle on or cards in the pile")
            self.exhausted = a
        elif kind == E.EV_KNOCKOUT:  # S22
            self._knock_out(seat, a, b)
        elif kind == E.EV_SKIP_ALL:  # S21: the same seat plays again
            if self.top >= WILD or CARD_SYMBOL[self.top] != SKIP_EVERYONE:
                self._fail(f"seat {seat} skipped everyone without a Skip Everyone on top")
            self.cursor = (seat - self.direction) % self.players
        elif kind == E.EV_DISCARD_ALL:  # S21
            self._discard_all(seat, a, b)
        elif kind == E.EV_ROULETTE:  # S21
            self._open_roulette(seat, a, b)

    def _turn_up(self, card: int, kept: int) -> None:
        if kept == E.TURN_UP_RETURNED:  # a wild draw card went back into the reshuffled deck
            if not self._wild_draw(card):
                self._fail(f"card {card} went back into the deck; only a wild draw card does")
            return
        self._take(self.pile, card, "turned up from the draw pile")
        self.discards[card] += 1
        self.top = card
        self.pile_at_opening = +self.pile
        covered = kept == E.TURN_UP_COVERED
        if covered and not (self.rules["opening_action"] == "redraw" and CARD_IS_ACTION[card]):
            self._fail(f"opening card {card} covered: only action cards, under redraw")
        if covered and not self.pile_at_opening:
            self._fail(f"opening card {card} covered with no card left to turn up")

    def _start(self, first: int, dealer: int, direction: int, color: int, card: int) -> None:
        self.started = True
        self.color = color
        self.direction = direction
        self.cursor = (first - direction) % self.players
        if card != self.top:
            self._fail(f"the round opens on {card}, the last card turned up was {self.top}")
        # Both judged on the pile as it was when the card was turned up: an opening Draw Two
        # may since have drawn cards, shuffling the covered ones back into the pile.
        # Documented engine gap (round.py `_turn_up`): a Wild Draw Four opens only when
        # the draw pile holds nothing else.
        left = self.pile_at_opening
        if self._wild_draw(card) and any(not self._wild_draw(c) for c in left):
            self._fail("a wild draw card opens the round although the pile holds other cards")
        if self.rules["opening_action"] == "redraw" and CARD_IS_ACTION[card] and left:
            self._fail(f"redraw: the round opens on action card {card} with cards left to turn")
        if not 0 <= first < self.players or direction not in (-1, 1):
            self._fail(f"bad start: seat {first}, direction {direction}")
        if card < WILD and color != CARD_COLOR[card]:
            self._fail(f"the round opens on card {card} with color {color}")
        if self.rules["opening_action"] == "ignore":  # S14: dealer's left, clockwise
            acts = bool(CARD_IS_ACTION[card]) and card < WILD
            if first != (dealer + 1) % self.players or direction != 1 or self.ignored != acts:
                self._fail(f"ignore: the round on {card} starts at seat {first}, dir {direction}")

    def _refill(self, n: int) -> None:
        if not self.rules["reshuffle"]:
            self._fail("the discards were shuffled in under reshuffle: false")
        if self.pile.total() != 0:
            self._fail("the discards were shuffled in while the draw pile still held cards")
        if n != self.discards.total() - 1:
            self._fail(
                f"refill of {n} cards; {self.discards.total() - 1} discards lie under the top"
            )
        self.discards[self.top] -= 1
        self.pile += self.discards
        self.discards = Counter({self.top: 1})

    def _play(self, seat: int, card: int, how: int, size_after: int) -> None:
        if self.hands[seat][card] <= 0:
            self._fail(f"seat {seat} played card {card}, which it does not hold")
        elif how in (E.PLAY_NORMAL, E.PLAY_DRAWN):
            if not self.legal_normal(seat, card):
                self._fail(
                    f"seat {seat} played card {card} on top {self.top}, color {self.color}: "
                    "not a legal play"
                )
        elif how == E.PLAY_STACK:
            if not self._may_stack(card, seat):
                self._fail(f"seat {seat} stacked card {card} on {self.top}: not allowed")
            elif card == WILD_DRAW_FOUR and not self.wd4_ok(seat):
                self._fail(f"seat {seat} stacked a Wild Draw Four its restriction forbids")
        elif how == E.PLAY_DEFLECT:  # S18: a Skip or Reverse of the active color
            symbol = int(CARD_SYMBOL[card]) if card < WILD else -1
            if (
                not self.rules["deflect"]
                or self.penalties.pending == 0
                or symbol not in (SKIP, REVERSE)
                or CARD_COLOR[card] != self.color
                or not self.may_finish(card, seat)
            ):
                self._fail(f"seat {seat} deflected with card {card} on {self.top}: not allowed")
        elif how == E.PLAY_MULTI:
            pass  # S20: a further card of a multi-play, judged by MultiPlays
        elif how == E.PLAY_JUMP:
            if not self.rules["jump_in"]:
                self._fail(f"seat {seat} jumped in without jump_in")
            elif card != self.top or card >= WILD or not self.may_finish(card, seat):
                self._fail(f"seat {seat} jumped in with card {card} on {self.top}")
        else:
            self._fail(f"seat {seat} played card {card} in unknown way {how}")
        self.player = seat
        self._take(self.hands[seat], card, f"seat {seat} played from its hand")
        if self.hands[seat].total() != size_after:
            self._fail(
                f"seat {seat} holds {self.hands[seat].total()} cards after playing, "
                f"the trace says {size_after}"
            )
        if (
            card == WILD_ROULETTE
            and self.rules["roulette_namer"] == "victim"
            and how != E.PLAY_MULTI
            and self.hands[seat].total() > 0
        ):
            self.color = -1  # S21: the victim names it; until then no color is in play
        # S18: a deflect keeps the chain's kind for stacking although its card is on top
        if how == E.PLAY_DEFLECT:
            self.deflected = draw_value(self.top) or self.deflected
        elif how != E.PLAY_MULTI:  # S20: a deflecting multi-play keeps it too
            self.deflected = 0
        self.discards[card] += 1
        self.top = card
        if card < WILD:
            self.color = int(CARD_COLOR[card])
        self.penalties.played(card, how)

    # ------------------------------------------------------------------ turn order

    def _turn_order(self, seat: int, what: str, direction: int | None = None) -> None:
        """``seat`` takes or loses the next turn: it must be the next seat in play."""
        if self.cursor >= 0:
            expected = self.next_in(self.cursor)
            if seat != expected:
                self._fail(f"seat {seat} {what}; seat {expected} was next")
        if direction is not None and direction != self.direction:
            self._fail(f"direction {direction} in the trace, {self.direction} in the replay")
        self.cursor = seat

    def _order_event(self, kind: int, seat: int, a: int) -> None:
        if kind == E.EV_LOSE_TURN:
            if self.started:  # an opening Skip or Draw Two acts before the start
                self._turn_order(seat, "lost a turn")
        elif kind == E.EV_JUMP:  # a jump-in is a turn of the jumper; play goes on from it
            self.turns += 1
            self.cursor = seat
        elif kind == E.EV_REVERSE:
            self.direction = a
        else:  # EV_EXTRA_TURN: the same seat plays again
            self.cursor = (seat - self.direction) % self.players

    # ------------------------------------------------------------------ penalties

    def _fail_all(self, messages: list[str]) -> None:
        for message in messages:
            self._fail(message)

    def _check(self, message: str | None) -> None:
        if message is not None:
            self._fail(message)

    def finish(self) -> None:
        """Settle what the last penalty still owes (after the last event of a whole game)."""
        if self.penalties.owed is not None:
            dry = self.pile.total() == 0 and (
                self.discards.total() <= 1 or not self.rules["reshuffle"]  # S17
            )
            self._check(self.penalties.settle(dry))

    def _pass(self, seat: int) -> None:
        if self.pile.total() > 0 or self.discards.total() > 1:
            self._fail(f"seat {seat} passed although a card could be drawn")
        for card in +self.hands[seat]:
            if self.legal_unbluffed(seat, card):
                self._fail(f"seat {seat} passed holding playable card {card}")
                return

    def _after_draw(self, seat: int, card: int, how: int) -> None:
        """RULES.md `drawn_card`: after drawing on its turn a seat may play only the card
        it drew (as a drawn play), and a drawn card is a drawn play only after a draw."""
        drew = self.drawn is not None and self.drawn[0] == seat
        if drew and (how != E.PLAY_DRAWN or self.drawn != (seat, card)):
            self._fail(f"seat {seat} drew {self.drawn}, then played card {card} (way {how})")
        elif not drew and how == E.PLAY_DRAWN:
            self._fail(f"seat {seat} played card {card} as drawn without drawing it")
        self.drawn = None

    def _kept_drawn(self) -> None:
        """The turn ended without a play after drawing: under must-play, only when the
        drawn card does not fit."""
        if self.drawn is not None and self.rules["drawn_card"] == "must-play":
            seat, card = self.drawn
            if self.legal_unbluffed(seat, card):
                self._fail(f"must-play: seat {seat} kept the playable card {card} it drew")
        self.drawn = None

    def _may_stack(self, card: int, seat: int) -> bool:
        """RULES.md S6 and S23: may ``card`` answer the draw card on top (or the total a
        deflect left there)?"""
        on = draw_value(self.top) or self.deflected
        return self.may_finish(card, seat) and stacks_on(self.rules, on, card)

    def _mistake(self, seat: int, card: int) -> None:
        if self.hands[seat][card] <= 0:
            self._fail(f"seat {seat} tried card {card}, which it does not hold")
        # a Wild Draw Four a bluffing seat holds may be legal to it this turn: not judged
        elif not (card == WILD_DRAW_FOUR and self.bluffers[seat]) and self.legal_normal(seat, card):
            self._fail(f"seat {seat}'s mistake card {card} was playable")

    def _move_hands(self, kind: int, seat: int, a: int) -> None:
        if kind == E.EV_SWAP:
            if seat == a or a in self.out:
                self._fail(f"seat {seat} swapped hands with seat {a}")
            self.hands[seat], self.hands[a] = self.hands[a], self.hands[seat]
        elif kind == E.EV_ROTATE:  # S22: from seat still in to seat still in
            seats = self.seats_in()
            moved = [self.hands[s] for s in seats]
            for i, s in enumerate(seats):
                self.hands[s] = moved[(i - a) % len(seats)]
        elif kind == E.EV_SHUFFLE_HANDS:
            if sum(h.total() for h in self.hands) != a:
                self._fail(f"Shuffle Hands collected {a} cards; the hands held a different count")
            self.pool = Counter()
            for h in self.hands:
                self.pool += h
            self.hands = [Counter() for _ in range(self.players)]
            self.shuffle_next = self.next_in(seat, 1)
        else:  # EV_HAND: one card dealt out by Shuffle Hands
            if seat != self.shuffle_next:
                self._fail("Shuffle Hands deals one card at a time clockwise from the left")
            self.shuffle_next = self.next_in(seat, 1)
            self._take(self.pool, a, "dealt out by Shuffle Hands")
            self.hands[seat][a] += 1

    def fewest(self) -> int:
        """S17: the seat with the fewest cards (or card points), -1 on a tie for fewest."""
        seats = self.seats_in()  # S22: a seat knocked out takes no part
        if self.rules["exhausted_winner"] == "fewest-cards":
            scores = [self.hands[s].total() for s in seats]
        else:
            scores = [sum(card_points(c) * n for c, n in self.hands[s].items()) for s in seats]
        low = min(scores)
        return seats[scores.index(low)] if scores.count(low) == 1 else -1

    def _end(self, winner: int, status: int, turns: int) -> None:
        max_turns = int(self.rules["max_turns"])
        if status == STATUS_WON:  # an empty hand, or the last seat standing (S22)
            last = self.seats_in() == [winner]
            if not 0 <= winner < self.players or (self.hands[winner].total() != 0 and not last):
                self._fail(f"round won by seat {winner}, whose hand is not empty")
        elif status in (STATUS_VOID, STATUS_CAPPED):
            if winner != -1:
                self._fail(f"a {STATUS_NAMES[status]} round names winner {winner}")
        elif status == STATUS_EXHAUSTED:  # S17
            if self.rules["reshuffle"] or self.pile.total() != 0:
                self._fail("an exhausted round with reshuffle on or cards in the pile")
            if winner != self.fewest() or winner != self.exhausted:
                self._fail(f"exhausted round won by {winner}; the fewest is {self.fewest()}")
        else:
            self._fail(f"round ends with unknown status {status}")
        if status == STATUS_VOID and (
            self.rules["deadlock"] != "void-round" or self.passes < len(self.seats_in())
        ):
            self._fail(f"void round after {self.passes} passes in a row under {self.rules}")
        if status == STATUS_CAPPED and turns < max_turns:
            self._fail(f"capped after {turns} turns; max_turns is {max_turns}")
        if turns > max_turns:
            self._fail(f"{turns} turns played; max_turns is {max_turns}")
        if turns != self.turns:
            self._fail(f"the round ends after {turns} turns; the replay counts {self.turns}")
        if not self.started:
            self._fail("the round ended before it opened")
        points = [sum(card_points(c) * n for c, n in h.items()) for h in self.hands]
        self.ends.append((winner, status, turns, self.hand_sizes(), points))
        self.ended = True
        self.rounds += 1

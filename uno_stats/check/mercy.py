"""No Mercy bookkeeping for the checker (RULES.md S21, S22), from trace events only.

:class:`NoMercyReplay` is the part of :class:`uno_stats.check.replay.Replay` that judges
the No Mercy cards and the mercy rule: the seats still in and the turn order around the seats
knocked out, every knock-out exactly when a hand reaches ``mercy_limit`` (its cards under the
discard or draw pile as ``mercy_cards`` says), a Discard All's discards (every card of its
color the hand held), and a Color Roulette's turning up (its victim, who names the color,
and that it stops only when the color shows, the pile runs dry or the victim is out).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from uno_stats.check.multi import MultiPlays
from uno_stats.check.penalties import Penalties, draw_value
from uno_stats.engine.cards import CARD_COLOR, CARD_SYMBOL, DISCARD_ALL, WILD, WILD_ROULETTE


class NoMercyReplay:
    """The No Mercy checks of a replay; the replay's state is :class:`Replay`'s own."""

    players: int
    rules: dict[str, Any]
    hands: list[Counter[int]]
    pile: Counter[int]
    discards: Counter[int]
    penalties: Penalties
    multi: MultiPlays
    drawn: tuple[int, int] | None
    direction: int
    started: bool
    top: int
    color: int
    out: list[int]  # S22: the seats knocked out, in order
    knock_due: int  # S22: the seat whose hand reached the mercy limit: out next
    roulette: list[int] | None  # S21: victim, color, cards turned up, color shown
    player: int  # the seat that played the last card (a roulette's player)

    def _fail(self, message: str) -> None:
        raise NotImplementedError

    def seats_in(self) -> list[int]:
        """The seats not knocked out (S22)."""
        return [s for s in range(self.players) if s not in self.out]

    def next_in(self, seat: int, direction: int | None = None) -> int:
        """The seat after ``seat`` in the direction of play, passing by seats knocked out."""
        step = self.direction if direction is None else direction
        q = (seat + step) % self.players
        while q in self.out and q != seat:
            q = (q + step) % self.players
        return q

    @staticmethod
    def _wild_draw(card: int) -> bool:
        """A wild that makes the next player draw: it never opens a round (S4, S21)."""
        return card >= WILD and draw_value(card) > 0

    def _mercy(self, seat: int) -> None:
        """S22: a hand that reaches the mercy limit during play is out at once; the opening
        Draw Two or Draw Four (before the first turn, after the deal) counts as play."""
        limit = int(self.rules["mercy_limit"])
        reached = self.hands[seat].total() >= limit and seat not in self.out
        in_play = self.started or self.top >= 0  # the opening card is turned up: not the deal
        if limit > 0 and in_play and reached and not self.ended_by_play():
            self.knock_due = seat

    def ended_by_play(self) -> bool:
        """Whether the round is already won by a play (a final penalty draws after it)."""
        return any(h.total() == 0 for s, h in enumerate(self.hands) if s not in self.out)

    def _knock_out(self, seat: int, held: int, order: int) -> None:
        limit = int(self.rules["mercy_limit"])
        if seat != self.knock_due or limit == 0:
            self._fail(f"seat {seat} knocked out without reaching the mercy limit {limit}")
        self.knock_due = -1
        if held != self.hands[seat].total():
            self._fail(f"seat {seat} knocked out holding {self.hands[seat].total()}, not {held}")
        self.out.append(seat)
        self.multi.players = self.players - len(self.out)  # two seats left: two players
        if order != len(self.out):
            self._fail(f"seat {seat} is the {len(self.out)}. out, the trace says {order}")
        cards = self.hands[seat]
        self.hands[seat] = Counter()
        if self.rules["mercy_cards"] == "draw-bottom":
            self.pile += cards
        else:
            self.discards += cards
        self.penalties.knocked_out(seat)
        if self.drawn is not None and self.drawn[0] == seat:
            self.drawn = None  # its turn is over: nothing is played

    def _discard_all(self, seat: int, color: int, count: int) -> None:
        top = self.top
        if top >= WILD or CARD_SYMBOL[top] != DISCARD_ALL or CARD_COLOR[top] != color:
            self._fail(f"seat {seat} discarded all its color {color} without a Discard All")
        held = Counter(
            {c: n for c, n in self.hands[seat].items() if c < WILD and CARD_COLOR[c] == color}
        )
        if held.total() != count:
            self._fail(
                f"seat {seat} discarded {count} cards of color {color}; it held {held.total()}"
            )
        self.hands[seat] -= held
        self.discards += held

    def _open_roulette(self, victim: int, color: int, namer: int) -> None:
        player = self.player
        if self.top != WILD_ROULETTE:
            self._fail(f"seat {victim} turns up cards without a Color Roulette on top")
        if victim != self.next_in(player):
            self._fail(f"seat {victim} turns up cards for seat {player}'s Color Roulette")
        who = victim if self.rules["roulette_namer"] == "victim" else player
        if namer != who or color != self.color or not 0 <= color < 4:
            self._fail(f"Color Roulette: seat {namer} named color {color}; seat {who} names it")
        self.roulette = [victim, color, 0, 0]  # victim, color, cards turned, color shown

    def _roulette_card(self, seat: int, card: int) -> None:
        if self.roulette is None or self.roulette[0] != seat or self.roulette[3]:
            self._fail(f"seat {seat} turned up card {card} for no Color Roulette")
            return
        self.roulette[2] += 1
        if card < WILD and CARD_COLOR[card] == self.roulette[1]:
            self.roulette[3] = 1

    def _close_roulette(self) -> None:
        """The Color Roulette's turning up is over: the color showed, or nothing was left to
        turn up, or its victim was knocked out (S22)."""
        if self.roulette is None:
            return
        victim, _, _, shown = self.roulette
        self.roulette = None
        dry = self.pile.total() == 0 and (self.discards.total() <= 1 or not self.rules["reshuffle"])
        if not (shown or dry or victim in self.out):
            self._fail(f"seat {victim} stopped turning up cards before its color showed")

"""Multi-play bookkeeping for the checker (RULES.md S20), from trace events only.

A multi-play is announced by ``EV_MULTI`` (seat, cards, first card, last card) and
followed by its cards' ``EV_PLAY`` rows: the first with the way a single card would be
played (its legality is judged by :class:`uno_stats.check.replay.Replay` as for a single
card), the others ``PLAY_MULTI``. :class:`MultiPlays` checks that the cards share one
symbol that may be played together and the colour condition, and, when the next turn
begins, that the effects were one per action card (k Skips: k seats lose their turn; k
Reverses: k reversals, or k Skips with two players; deflecting Skips pass the total k - 1
seats further), a single 7 swap or 0 pass, no jump-in, the UNO call judged once on a move
that leaves one card, and no going out on action cards under ``no_action_finish``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from uno_stats.engine import events as E
from uno_stats.engine.cards import CARD_SYMBOL, DRAW_TWO, REVERSE, SKIP, WILD


class MultiPlays:
    """The multi-play of the current turn, if any; each method returns broken rules."""

    def __init__(self, rules: dict[str, Any], players: int) -> None:
        self.rules = rules
        self.players = players  # seats still in the round: the replay lowers it (S22)
        self.open_move: dict[str, Any] | None = None

    def _joinable(self, card: int) -> bool:
        if card >= WILD:
            return False
        symbol = int(CARD_SYMBOL[card])
        if symbol < 10:
            return True
        return bool(self.rules["multi_play_actions"]) and symbol in (SKIP, REVERSE, DRAW_TWO)

    def announce(self, seat: int, count: int, first: int, last: int) -> list[str]:
        """``EV_MULTI``: ``seat`` plays ``count`` cards, ``first`` first and ``last`` on top."""
        problems = self.close()
        if self.rules["multi_play"] == "off":
            problems.append(f"seat {seat} multi-played under multi_play: off")
        if count < 2:
            problems.append(f"seat {seat} multi-played {count} card(s)")
        self.open_move = {
            "seat": seat,
            "count": count,
            "first": first,
            "last": last,
            "cards": [],
            "how": -1,
            "size": -1,
            "effects": Counter(),
        }
        return problems

    def played(self, seat: int, card: int, how: int, size_after: int) -> list[str]:
        """An ``EV_PLAY`` row: a card of the open multi-play, or a single card."""
        move = self.open_move
        if move is None or len(move["cards"]) >= move["count"]:
            if how == E.PLAY_MULTI:
                return [f"seat {seat} added card {card} outside a multi-play"]
            return self.close()
        cards: list[int] = move["cards"]
        problems = []
        if seat != move["seat"]:
            problems.append(f"seat {seat} played a card of seat {move['seat']}'s multi-play")
        if not cards:
            move["how"] = how
            if how in (E.PLAY_MULTI, E.PLAY_JUMP) or card != move["first"]:
                problems.append(f"multi-play of seat {seat} opens with card {card}, way {how}")
        elif how != E.PLAY_MULTI:
            problems.append(f"card {card} of seat {seat}'s multi-play played in way {how}")
        cards.append(card)
        move["size"] = size_after
        first = cards[0]
        if not self._joinable(card) or CARD_SYMBOL[card] != CARD_SYMBOL[first]:
            problems.append(f"seat {seat} played cards {cards} together: not one joinable symbol")
        if self.rules["multi_play"] == "same-number-color" and card != first:
            problems.append(f"seat {seat} played cards {cards} together under same-number-color")
        if len(cards) == move["count"] and card != move["last"]:
            problems.append(f"seat {seat}'s multi-play ends on {card}, announced {move['last']}")
        return problems

    def effect(self, kind: int, a: int) -> None:
        """An event that may follow a play: counted while a multi-play is open."""
        if self.open_move is not None:
            if kind == E.EV_LOSE_TURN and a != E.LOST_TO_SKIP:
                return  # a penalty's lost turn belongs to the next activation
            self.open_move["effects"][kind] += 1

    def close(self) -> list[str]:
        """The multi-play's turn is over: check its effects."""
        move, self.open_move = self.open_move, None
        if move is None:
            return []
        seat, k, cards, effects = move["seat"], move["count"], move["cards"], move["effects"]
        problems = []
        if len(cards) != k:
            problems.append(f"seat {seat} announced {k} cards together and played {len(cards)}")
        if not cards:
            return problems
        symbol = int(CARD_SYMBOL[cards[0]]) if cards[0] < WILD else -1
        lost, reversed_ = effects[E.EV_LOSE_TURN], effects[E.EV_REVERSE]
        uno = effects[E.EV_UNO]
        expected_uno = 1 if move["size"] == 1 and self.rules["uno_penalty"] != 0 else 0
        if uno != expected_uno:
            problems.append(
                f"seat {seat}'s multi-play left {move['size']} card(s), {uno} UNO calls"
            )
        if effects[E.EV_JUMP]:
            problems.append(f"someone jumped in on seat {seat}'s multi-play")
        if move["size"] == 0:
            if symbol >= 10 and self.rules["no_action_finish"]:
                problems.append(f"seat {seat} went out on action cards under no_action_finish")
            return problems
        if effects[E.EV_EXHAUSTED]:
            return problems  # S17: the UNO penalty ran the pile out, nothing else happened
        two_skip = self.players == 2 and self.rules["two_player_rules"]
        if move["how"] == E.PLAY_DEFLECT:
            want = (k - 1, 0) if symbol == SKIP else (0, k)
        elif symbol == SKIP or (symbol == REVERSE and two_skip):
            want = (k, 0)
        elif symbol == REVERSE:
            want = (0, k)
        else:
            want = (0, 0)
        if (lost, reversed_) != want:
            problems.append(
                f"seat {seat}'s {k} cards of symbol {symbol}: {lost} lost turns and "
                f"{reversed_} reversals, the rules make it {want}"
            )
        moved = effects[E.EV_SWAP] + effects[E.EV_ROTATE]
        hand_moves = 1 if self.rules["seven_zero"] and symbol in (7, 0) else 0
        if moved != hand_moves:
            problems.append(f"seat {seat}'s multi-play of {symbol}s moved hands {moved} times")
        return problems

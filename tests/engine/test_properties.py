"""Property tests: random rule combinations and knobs, every traced game replayed in Python.

The replay keeps its own hands, pile and discard counts from the events alone and checks
conservation of cards, that every played card was held, that every play was legal (match
on the top card or announced color, stack, identical jump-in, Wild Draw Four restriction)
and that every round ends properly. The result columns of ``simulate`` are checked too.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uno_stats.engine import EngineConfig, simulate, trace_events
from uno_stats.engine import events as E
from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_IS_ACTION,
    CARD_POINTS,
    CARD_SYMBOL,
    WILD,
    WILD_DRAW_FOUR,
)
from uno_stats.engine.chunk import MATCH_ROUND_CAP
from uno_stats.engine.rules import RULES, deck_size
from uno_stats.engine.strategy_table import CHALLENGE_CHOICES, STRATEGIES

PROB = st.sampled_from([0.0, 0.0, 0.1, 0.5, 1.0])


def _rule_value(spec):
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "enum":
        return st.sampled_from(spec.choices)
    if spec.key == "max_turns":
        return st.sampled_from([10, 60, 400, 1500])
    return st.integers(spec.low, spec.high)


@st.composite
def scenarios(draw):
    rules = {spec.key: draw(_rule_value(spec)) for spec in RULES}
    players = 4 if rules["scoring"] == "partners" else draw(st.integers(2, 10))
    size = deck_size(rules)
    max_hand = min(20, (size - 1) // players)
    if players * rules["hand_size"] >= size:
        rules["hand_size"] = draw(st.integers(1, max_hand))
    seat = st.fixed_dictionaries(
        {
            "strategy": st.sampled_from([s.name for s in STRATEGIES]),
            "forget_uno": PROB,
            "catch_uno": PROB,
            "challenge": st.sampled_from(CHALLENGE_CHOICES),
            "bluff": PROB,
            "voluntary_draw": PROB,
            "mistake": PROB,
            "keep_drawn": PROB,
        }
    )
    seats = draw(st.lists(seat, min_size=players, max_size=players))
    match = rules["scoring"] != "none" and draw(st.booleans())
    target = draw(st.sampled_from([20, 60])) if match else 0
    if match:  # capped rounds score nothing: a tiny cap would make the match endless;
        # no_action_finish with many seats caps most rounds, so matches go without it
        rules["max_turns"] = 1500
        rules["no_action_finish"] = False
    return players, rules, seats, target, draw(st.integers(0, 2**32))


def _wd4_allowed(hand, color, top, mode):
    """RULES.md "Who blocks a Wild Draw Four", written independently of the engine."""
    if mode == "none":
        return True
    top_number = CARD_SYMBOL[top] if top < WILD and CARD_SYMBOL[top] < 10 else -1
    for c in hand:
        if c == WILD_DRAW_FOUR:
            continue
        if c < WILD:
            if CARD_COLOR[c] == color:
                return False
            if mode == "color-or-number" and CARD_SYMBOL[c] == top_number:
                return False
            if mode == "no-other-play" and CARD_SYMBOL[c] == CARD_SYMBOL[top]:
                return False  # S15: any other playable card blocks
        elif mode in ("color-or-wild", "no-other-play"):
            return False
    return True


def _matches(card, top, color):
    return card >= WILD or CARD_COLOR[card] == color or CARD_SYMBOL[card] == CARD_SYMBOL[top]


class Replay:
    """A table rebuilt from events only."""

    def __init__(self, players, rules, seats, deck_n):
        self.players, self.rules, self.seats, self.deck_n = players, rules, seats, deck_n
        self.rounds = 0
        self.new_round()

    def new_round(self):
        self.hands = [Counter() for _ in range(self.players)]
        self.pile_n = self.deck_n
        self.disc_n = 0
        self.top = -1
        self.color = -1
        self.pending = 0
        self.ended = False
        self.started = False
        self.ignored = False  # the opening card's action was ignored (S14)
        self.exhausted_winner = -2  # set by EV_EXHAUSTED (S17)
        self.pool = Counter()  # cards collected by Shuffle Hands, not yet dealt out

    def total(self):
        held = sum(sum(h.values()) for h in self.hands) + sum(self.pool.values())
        return held + self.pile_n + self.disc_n

    def may_bluff(self, seat):
        return (
            self.rules["wd4_challenge"]
            and self.seats[seat]["bluff"] > 0
            and self.seats[seat]["strategy"] != "basic"
        )

    def may_finish(self, card, seat):
        return not (
            self.rules["no_action_finish"]
            and sum(self.hands[seat].values()) == 1
            and CARD_IS_ACTION[card]
        )

    def event(self, row):
        kind, seat, a, b, c, d = (int(x) for x in row)
        if kind == E.EV_DEAL:
            if self.ended:
                self.new_round()
            self.hands[seat][a] += 1
            self.pile_n -= 1
        elif kind == E.EV_TURN_UP:
            if b == 2:  # a Wild Draw Four went back into the deck
                assert a == WILD_DRAW_FOUR
            else:
                self.pile_n -= 1
                self.disc_n += 1
                self.top = a
                if b == 0:
                    assert self.rules["opening_action"] == "redraw" and CARD_IS_ACTION[a]
        elif kind == E.EV_START:
            self.started = True
            self.color = c
            assert self.top == d
            assert d != WILD_DRAW_FOUR or self.pile_only_wd4_gap()
            if self.rules["opening_action"] == "redraw":
                assert not CARD_IS_ACTION[d] or self.pile_n == 0
            if self.rules["opening_action"] == "ignore":  # S14: dealer's left, clockwise
                assert seat == (a + 1) % self.players and b == 1
                assert self.ignored == (CARD_IS_ACTION[d] and d < WILD)
        elif kind == E.EV_IGNORED:
            assert self.rules["opening_action"] == "ignore" and not self.started
            assert a == self.top and CARD_IS_ACTION[a]
            self.ignored = True
        elif kind == E.EV_DRAW:
            assert self.pile_n > 0, "drew from an empty pile"
            self.pile_n -= 1
            self.hands[seat][a] += 1
        elif kind == E.EV_REFILL:
            assert self.rules["reshuffle"], "a refill without reshuffle (S17)"
            assert self.pile_n == 0 and a == self.disc_n - 1
            self.pile_n, self.disc_n = a, 1
        elif kind == E.EV_PLAY:
            self.play(seat, a, b, c)
        elif kind == E.EV_COLOR:
            assert 0 <= a < 4
            self.color = a
        elif kind == E.EV_MISTAKE:
            assert self.hands[seat][a] > 0
            if not (a == WILD_DRAW_FOUR and self.may_bluff(seat)):  # bluff draw not traced
                assert not self.legal_normal(seat, a), (
                    "a mistake card was playable",
                    seat,
                    a,
                    self.top,
                    self.color,
                )
        elif kind == E.EV_SWAP:
            assert seat != a
            self.hands[seat], self.hands[a] = self.hands[a], self.hands[seat]
        elif kind == E.EV_ROTATE:
            self.hands = [self.hands[(s - a) % self.players] for s in range(self.players)]
        elif kind == E.EV_SHUFFLE_HANDS:
            assert sum(sum(h.values()) for h in self.hands) == a
            self.pool = Counter()
            for h in self.hands:
                self.pool += h
            self.hands = [Counter() for _ in range(self.players)]
            self.shuffle_next = (seat + 1) % self.players
        elif kind == E.EV_HAND:
            assert seat == self.shuffle_next, "Shuffle Hands deals clockwise from the left"
            self.shuffle_next = (seat + 1) % self.players
            assert self.pool[a] > 0
            self.pool[a] -= 1
            self.hands[seat][a] += 1
        elif kind == E.EV_EXHAUSTED:  # S17: the seat that found the pile empty, the winner
            assert not self.rules["reshuffle"] and self.pile_n == 0
            self.exhausted_winner = a
        elif kind == E.EV_END:  # winner, status, turns
            assert a in (0, 1, 2, 3)
            if a == 0:
                assert seat >= 0 and sum(self.hands[seat].values()) == 0
            elif a == 3:
                assert not self.rules["reshuffle"] and self.pile_n == 0
                assert seat == self.fewest() == self.exhausted_winner
            else:
                assert seat == -1
            if a == 2:
                assert b >= self.rules["max_turns"]
            assert b <= self.rules["max_turns"]
            self.ended = True
            self.rounds += 1
        assert self.total() == self.deck_n, f"cards not conserved after event {row}"

    def fewest(self):
        """S17: the seat with the fewest cards (or card points), -1 on a tie for fewest."""
        if self.rules["exhausted_winner"] == "fewest-cards":
            scores = [sum(h.values()) for h in self.hands]
        else:
            scores = [sum(CARD_POINTS[c] * k for c, k in h.items()) for h in self.hands]
        low = min(scores)
        return scores.index(low) if scores.count(low) == 1 else -1

    def pile_only_wd4_gap(self):
        return True  # documented engine gap: a pile of nothing but Wild Draw Fours

    def legal_normal(self, seat, card):
        if not self.may_finish(card, seat):
            return False
        if card == WILD_DRAW_FOUR:
            rest = self.hands[seat].elements()
            return self.may_bluff(seat) or _wd4_allowed(
                list(rest), self.color, self.top, self.rules["wd4_restriction"]
            )
        return _matches(card, self.top, self.color)

    def play(self, seat, card, how, size_after):
        assert self.hands[seat][card] > 0, "played a card not in hand"
        if how in (E.PLAY_NORMAL, E.PLAY_DRAWN):
            assert self.legal_normal(seat, card), (seat, card, self.top, self.color)
        elif how == E.PLAY_STACK:
            assert card == WILD_DRAW_FOUR or (card < WILD and CARD_SYMBOL[card] == 12)
            assert self.may_finish(card, seat)
            if card == WILD_DRAW_FOUR:
                assert self.may_bluff(seat) or _wd4_allowed(
                    list(self.hands[seat].elements()),
                    self.color,
                    self.top,
                    self.rules["wd4_restriction"],
                )
        elif how == E.PLAY_DEFLECT:  # S18: a Skip or Reverse of the active color
            assert self.rules["deflect"] and card < WILD and CARD_SYMBOL[card] in (10, 11)
            assert CARD_COLOR[card] == self.color and self.may_finish(card, seat)
        else:
            assert how == E.PLAY_JUMP and self.rules["jump_in"]
            assert card == self.top and card < WILD and self.may_finish(card, seat)
        self.hands[seat][card] -= 1
        assert sum(self.hands[seat].values()) == size_after
        self.disc_n += 1
        self.top = card
        if card < WILD:
            self.color = CARD_COLOR[card]


def _config(players, rules, seats, target, seed):
    return EngineConfig.build(players, rules, seats, target, seed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_replayed_games_obey_the_rules(scenario):
    players, rules, seats, target, seed = scenario
    config = _config(players, rules, seats, target, seed)
    deck_n = deck_size(rules)
    limit = 60_000  # a long match is replayed as far as this many events
    for game in range(1 if target else 3):
        events = trace_events(config, game, max_events=limit)
        order = simulate(config, game, 1)["seating"][0]  # S16: position -> scenario seat
        replay = Replay(players, rules, [seats[int(i)] for i in order], deck_n)
        for row in events:
            replay.event(row)
        if events.shape[0] < limit:
            assert events[-1][0] == E.EV_END
            assert replay.ended and replay.rounds >= 1
            if target == 0:
                assert replay.rounds == 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_simulated_columns_are_consistent(scenario):
    players, rules, seats, target, seed = scenario
    config = _config(players, rules, seats, target, seed)
    n = 3 if target else 20
    cols = simulate(config, 0, n)
    status = cols["status"]
    winner = cols["winner"]
    assert set(np.unique(status)) <= {0, 1, 2, 3}
    assert (winner[status == 0] >= 0).all() and (winner[(status == 1) | (status == 2)] == -1).all()
    if rules["reshuffle"]:
        assert (status != 3).all()
    else:
        assert (cols["reshuffles"] == 0).all()
    assert (cols["turns"] <= rules["max_turns"]).all()
    assert ((status != 2) | (cols["turns"] >= rules["max_turns"])).all()
    hs = cols["hand_sizes"].astype(int)
    assert (hs.sum(axis=1) <= deck_size(rules) - 1).all()
    score = cols["hand_sizes"] if rules["exhausted_winner"] == "fewest-cards" else cols["points"]
    for row in np.flatnonzero(status == 3):  # S17: the unique fewest, else no winner
        fewest = np.flatnonzero(score[row] == score[row].min())
        assert winner[row] == (fewest[0] if fewest.size == 1 else -1)
    won = np.flatnonzero(status == 0)
    assert (hs[won, winner[won]] == 0).all()
    assert (cols["points"][won, winner[won]] == 0).all()
    assert (cols["first_player"] < players).all() and (cols["dealer"] < players).all()
    seating = cols["seating"].astype(int)
    assert (np.sort(seating, axis=1) == np.arange(players)).all()  # a permutation (S16)
    if rules["seating"] == "fixed":
        assert (seating == np.arange(players)).all()
    assert (cols["max_deficit"].astype(int) <= deck_size(rules)).all()
    if target == 0:
        assert len(status) == n and (cols["dealer"] == players - 1).all()
    else:
        assert cols["match_winner__valid"].sum() == n
        last = np.flatnonzero(cols["match_winner__valid"])
        # A match is decided, or abandoned (-1) only at the round cap (e.g. every round capped).
        decided = cols["match_winner"][last] >= 0
        assert (decided | (cols["match_rounds"][last] == MATCH_ROUND_CAP)).all()

"""Property tests: random rule combinations and knobs, every traced game replayed in Python.

The replay is the shipped checker :mod:`uno_stats.check.replay` (cards conserved, every
play legal, every round ended properly, hand sizes as reported). The result columns of
``simulate`` are checked too.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uno_stats.check.games import check_played_game
from uno_stats.engine import EngineConfig, simulate, trace_events
from uno_stats.engine import events as E
from uno_stats.engine.cards import (
    CARD_DRAW,
    CLASSIC_COUNTS,
    DECK_KINDS,
    MAX_DECK_CARDS,
    NO_MERCY_COUNTS,
    SKIP,
    WILD,
    WILD_KINDS,
    build_deck,
    card_symbol,
    changed_counts,
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
    if spec.key == "mercy_limit":  # S22: off, or limits a round reaches (above hand_size)
        return st.sampled_from([0, 0, 21, 25, 40])
    return st.integers(spec.low, spec.high)


def _opens(rules, deck) -> bool:
    """The deck passes the scenario checks of RULES.md S19 (size, an opening card)."""
    counts, copies = deck.get("counts", {}), deck["decks"]
    cards = build_deck(rules["shuffle_hands_cards"], rules["custom_cards"], counts, copies)
    numbers = any(card_symbol(c) < SKIP for c in cards.tolist())
    wild_draws = all(c >= WILD and CARD_DRAW[c] > 0 for c in cards.tolist())
    if not 0 < len(cards) <= MAX_DECK_CARDS or wild_draws:
        return False
    return numbers or rules["opening_action"] != "redraw"


@st.composite
def decks(draw, rules):
    """Half the time the classic deck; else 1-3 copies with some kinds' counts changed."""
    if draw(st.booleans()):
        return None
    # a quarter of the time the No Mercy deck (S21), its kinds changed too
    base = changed_counts(NO_MERCY_COUNTS) if draw(st.integers(0, 3)) == 0 else {}
    kinds = draw(st.lists(st.sampled_from(DECK_KINDS), max_size=6, unique=True))
    counts = {**base, **{k: draw(st.integers(0, 16 if k in WILD_KINDS else 8)) for k in kinds}}
    counts = {k: v for k, v in counts.items() if v != CLASSIC_COUNTS[k]}
    deck = {"decks": draw(st.integers(1, 3)), "counts": counts}
    while not _opens(rules, deck) and deck["counts"]:  # drop kinds until the deck opens
        deck["counts"].pop(next(iter(deck["counts"])))
    return deck if _opens(rules, deck) else None


@st.composite
def scenarios(draw):
    rules = {spec.key: draw(_rule_value(spec)) for spec in RULES}
    deck = draw(decks(rules))
    if deck_size(rules, deck) < 5:  # no room for 4 hands and an opening card
        deck = None
    size = deck_size(rules, deck)
    most = min(20, size - 1)  # S19: up to 20 players when the deck deals them a card each
    seated = st.one_of(st.integers(2, min(10, most)), st.integers(2, most))
    players = 4 if rules["scoring"] == "partners" else draw(seated)
    if rules["scoring"] in ("partners", "low-score"):  # S22: mercy plays no such match
        rules["mercy_limit"] = 0
    max_hand = min(20, (size - 1) // players)
    if players * rules["hand_size"] >= size:
        rules["hand_size"] = draw(st.integers(1, max_hand))
    if rules["mercy_limit"] <= rules["hand_size"]:  # S22: the limit is above the deal
        rules["mercy_limit"] = 0
    seat = st.fixed_dictionaries(
        {
            # search plays out rollouts at every decision: test_search.py runs it through
            # these same scenarios with a small budget
            "strategy": st.sampled_from([s.name for s in STRATEGIES if s.name != "search"]),
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
        # no_action_finish with many seats caps most rounds, so matches go without it.
        # Bounded work: knobs that never let a round end (e.g. always drawing) cap every
        # round, and such a match runs to MATCH_ROUND_CAP (5,000) rounds of max_turns each;
        # 400 (one of the generated caps) keeps that worst case near 2 M turns.
        rules["max_turns"] = 400
        rules["no_action_finish"] = False
    return players, rules, seats, target, draw(st.integers(0, 2**32)), deck


def _config(players, rules, seats, target, seed, deck):
    return EngineConfig.build(players, rules, seats, target, seed, deck)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_replayed_games_obey_the_rules(scenario):
    players, rules, seats, target, seed, deck = scenario
    config = _config(players, rules, seats, target, seed, deck)
    limit = 60_000  # a long match is replayed as far as this many events
    for game in range(1 if target else 3):
        problems = check_played_game(config, game, max_events=limit)
        assert not problems, "\n".join(str(p) for p in problems[:5])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_simulated_columns_are_consistent(scenario):
    players, rules, seats, target, seed, deck = scenario
    config = _config(players, rules, seats, target, seed, deck)
    size = len(config.deck)
    assert size == deck_size(rules, deck)
    n = 1 if target else 20  # one match, as the replay test above (bounded work)
    cols = simulate(config, 0, n)
    status = cols["status"]
    winner = cols["winner"]
    assert set(np.unique(status)) <= {0, 1, 2, 3}
    assert (winner[status == 0] >= 0).all() and (winner[(status == 1) | (status == 2)] == -1).all()
    if rules["reshuffle"]:
        assert (status != 3).all()
    else:
        assert (cols["reshuffles"] == 0).all()
    score = cols["hand_sizes"] if rules["exhausted_winner"] == "fewest-cards" else cols["points"]
    out = cols["knocked_out"].astype(int)  # S22: 0, or the seat's place in the knock-outs
    for row in np.flatnonzero(status == 3):  # S17: the unique fewest, else no winner
        seats_in = np.flatnonzero(out[row] == 0)
        low = score[row][seats_in].min()
        fewest = seats_in[score[row][seats_in] == low]
        assert winner[row] == (fewest[0] if fewest.size == 1 else -1)
    assert (cols["turns"] <= rules["max_turns"]).all()
    assert ((status != 2) | (cols["turns"] >= rules["max_turns"])).all()
    hs = cols["hand_sizes"].astype(int)
    assert (hs.sum(axis=1) <= size - 1).all()
    # S22: every round won is won by an empty hand or by the last seat standing
    last = cols["last_standing"].astype(bool)
    won = np.flatnonzero((status == 0) & ~last)
    assert (hs[won, winner[won]] == 0).all()
    assert (cols["points"][won, winner[won]] == 0).all()
    standing = np.flatnonzero(last)
    assert (status[standing] == 0).all() and (out[standing, winner[standing]] == 0).all()
    assert (cols["eliminated"][standing] == players - 1).all()
    assert ((out > 0).sum(axis=1) == cols["eliminated"]).all()  # one place per knock-out
    for row in np.flatnonzero(cols["eliminated"]):  # places 1..k, each once; hands handed in
        k = int(cols["eliminated"][row])
        assert sorted(out[row][out[row] > 0]) == list(range(1, k + 1))
        assert (hs[row][out[row] > 0] == 0).all()
    if rules["mercy_limit"] == 0:
        assert (out == 0).all() and not last.any()
    assert (cols["first_player"] < players).all() and (cols["dealer"] < players).all()
    seating = cols["seating"].astype(int)
    assert (np.sort(seating, axis=1) == np.arange(players)).all()  # a permutation (S16)
    if rules["seating"] == "fixed":
        assert (seating == np.arange(players)).all()
    assert (cols["max_deficit"].astype(int) <= size).all()
    assert (cols["largest_hand"].astype(int) <= size - 1).all()
    if rules["multi_play"] == "off":  # S20: nothing is played together
        assert (cols["multi_plays"] == 0).all() and (cols["multi_cards"] == 0).all()
    if target == 0:
        assert len(status) == n and (cols["dealer"] == players - 1).all()
    else:
        assert cols["match_winner__valid"].sum() == n
        last = np.flatnonzero(cols["match_winner__valid"])
        # A match is decided, or abandoned (-1) only at the round cap (e.g. every round capped).
        decided = cols["match_winner"][last] >= 0
        assert (decided | (cols["match_rounds"][last] == MATCH_ROUND_CAP)).all()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.sampled_from(["same-number", "same-number-color"]), st.booleans())
def test_multi_plays_obey_the_rules_and_are_counted(scenario, mode, actions):
    """RULES.md S20: with multi_play on, every multi-play the replay meets is legal (first
    card, common symbol and color, per-card effects, UNO, turn order), cards are conserved,
    and the columns count the EV_MULTI events of the trace."""
    players, rules, seats, _target, seed, deck = scenario
    rules = {**rules, "multi_play": mode, "multi_play_actions": actions}
    config = _config(players, rules, seats, 0, seed, deck)
    cols = simulate(config, 0, 3)
    for game in range(3):
        events = trace_events(config, game, max_events=60_000)
        if events.shape[0] >= 60_000:
            continue
        problems = check_played_game(config, game)
        assert not problems, "\n".join(str(p) for p in problems[:5])
        multi = events[events[:, 0] == E.EV_MULTI]
        assert cols["multi_plays"][game] == multi.shape[0]
        assert cols["multi_cards"][game] == multi[:, 2].sum()
    assert (cols["multi_cards"] >= 2 * cols["multi_plays"]).all()

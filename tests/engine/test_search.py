"""The ``search`` strategy (issue 26): legal, deterministic, blind to hidden cards, stronger.

Its look-ahead (:mod:`uno_stats.engine.search`) deals the cards its seat cannot see afresh
for each rollout, from public facts only; the information test below swaps the hidden cards
for another assignment consistent with the public record and requires the same scores, and
a control shows the scores do depend on the dealt cards (so a peeking search would fail).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import scenarios

from uno_stats.check.games import check_played_game
from uno_stats.engine import EngineConfig, _new_table, simulate, trace_game
from uno_stats.engine.cards import MAX_CARDS, N_CARD_TYPES, WILD, build_deck, card_id
from uno_stats.engine.piles import playable
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.search import deal_hidden, search_scores
from uno_stats.engine.state import (
    EVENT_FIELDS,
    RNG_SEARCH,
    ST_COLOR,
    ST_CUR,
    ST_DIR,
    ST_DISC_N,
    ST_PILE_N,
    ST_STATUS,
    ST_WINNER,
    T_HANDS,
    T_MEMORY,
    T_PILE,
    T_RULES,
    table_rows,
)
from uno_stats.engine.strategies import (
    COLOR_BASE,
    LACKS_BASE,
    SCORE_BASE,
    SEEN_HANDS_MOVED,
    SEEN_NO_PLAY,
    SEEN_PLAY,
    SEEN_ROUND_START,
    no_play_value,
    observe,
)
from uno_stats.engine.strategy_table import ROLLOUT_POLICIES, S_KIND, default_seat, strategy_id

PLAYERS = 4


def _seat(strategy: str = "search", **knobs) -> dict:
    return {**default_seat(), "strategy": strategy, **knobs}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.data())
def test_search_plays_only_legal_moves_under_any_rules(scenario, data) -> None:
    players, rules, seats, target, seed, deck = scenario
    rules["max_turns"] = min(rules["max_turns"], 400)  # bounded work: rollouts play it out
    for s in data.draw(st.sets(st.integers(0, players - 1), min_size=1, max_size=3)):
        seats[s] = {
            **seats[s],
            "strategy": "search",
            "rollouts": data.draw(st.sampled_from([1, 2])),
            "rollout_policy": data.draw(st.sampled_from(ROLLOUT_POLICIES)),
            "max_candidates": data.draw(st.sampled_from([2, 3])),
        }
    config = EngineConfig.build(players, rules, seats, target, seed, deck)
    before = config.seats.copy()
    problems = check_played_game(config, 0, max_events=60_000)
    assert not problems, "\n".join(str(p) for p in problems[:5])
    assert np.array_equal(config.seats, before)  # the rollout policy switch is undone


def test_search_is_deterministic_for_any_split_of_the_games() -> None:
    rules = preset_rules("mattel-2001")
    seats = [_seat(rollouts=2), _seat("basic"), _seat(rollouts=2, rollout_policy="random")]
    config = EngineConfig.build(3, rules, seats, seed=7)
    whole = simulate(config, 0, 30)
    parts = [simulate(config, 0, 11), simulate(config, 11, 19)]
    for name, column in whole.items():
        joined = np.concatenate([p[name] for p in parts])
        assert np.array_equal(column, joined), name


def _position(seed: int):
    """A random mid-round table at mattel-2001: seat 0 (search) to act, the rest basic."""
    seats = [_seat(rollouts=4)] + [_seat("basic")] * (PLAYERS - 1)
    config = EngineConfig.build(PLAYERS, preset_rules("mattel-2001"), seats, seed=seed)
    table = _new_table(config)
    gen = np.random.default_rng(seed)
    deck = gen.permutation(build_deck().astype(np.int64))
    at = 0
    for s, size in enumerate(gen.integers(2, 9, size=PLAYERS)):
        table.hands[s, :size] = deck[at : at + size]
        table.hn[s] = size
        at += size
    discards = int(gen.integers(1, 30))
    table.disc[:discards] = deck[at : at + discards]
    at += discards
    rest = deck[at:]
    table.pile[: len(rest)] = rest
    table.st[ST_PILE_N] = len(rest)
    table.st[ST_DISC_N] = discards
    table.st[ST_COLOR] = int(gen.integers(0, 4))
    table.st[ST_DIR] = 1 if gen.random() < 0.5 else -1
    table.st[ST_CUR] = 0
    table.st[ST_STATUS] = -1
    table.st[ST_WINNER] = -1
    return config, table, gen


def _reassign_hidden(table, gen) -> None:
    """Deal the opponents' hands and the pile anew from their own cards (sizes kept)."""
    sizes = [int(table.hn[s]) for s in range(1, PLAYERS)]
    pile_n = int(table.st[ST_PILE_N])
    pool = np.concatenate([table.hands[s, : table.hn[s]] for s in range(1, PLAYERS)])
    pool = gen.permutation(np.concatenate([pool, table.pile[:pile_n]]))
    at = 0
    for s, size in enumerate(sizes, start=1):
        table.hands[s, :size] = pool[at : at + size]
        at += size
    table.pile[:pile_n] = pool[at:]


def _scores(config, table, stream: int) -> tuple[int, ...]:
    seats = config.seats.copy()
    rng = table.rng
    rng[:] = 0
    rng[RNG_SEARCH] = stream
    ev = np.zeros((1, EVENT_FIELDS), dtype=np.int64)
    search_scores(table.tab, 0, seats, rng, ev)
    assert np.array_equal(seats, config.seats)
    return tuple(table.tab[T_MEMORY, SCORE_BASE : COLOR_BASE + N_CARD_TYPES - WILD].tolist())


def test_search_decides_from_the_public_record_only() -> None:
    """Other hidden cards, same public record and own hand: the same scores, every table;
    another sampling stream: other scores on many tables (the scores see the dealt cards)."""
    searched = sensitive = 0
    for seed in range(60):
        config, table, gen = _position(seed)
        before = _scores(config, table, 12345)
        hidden = np.concatenate([table.hands[1:PLAYERS].ravel(), table.pile])
        _reassign_hidden(table, gen)
        assert not np.array_equal(
            hidden, np.concatenate([table.hands[1:PLAYERS].ravel(), table.pile])
        )
        assert _scores(config, table, 12345) == before
        searched += max(before) >= 0
        sensitive += _scores(config, table, 999) != before
    assert searched > 30  # most tables had a choice to search
    assert sensitive > 10  # a search that read the real deal would fail the first assert


def test_the_hidden_cards_dealt_are_exactly_the_unseen_ones() -> None:
    for seed in range(20):
        _config, table, _gen = _position(seed)
        rows = table_rows(PLAYERS)
        sim = table.tab[rows : 2 * rows]
        sim[:, :] = table.tab[:rows]
        hidden = sorted(
            np.concatenate(
                [table.hands[s, : table.hn[s]] for s in range(1, PLAYERS)]
                + [table.pile[: table.st[ST_PILE_N]]]
            ).tolist()
        )
        srng = np.array([seed], dtype=np.uint64)
        counts = np.zeros(table.tab.shape[1], dtype=np.int64)
        pool = np.zeros(table.tab.shape[1], dtype=np.int64)
        deal_hidden(sim, 0, counts, pool, srng)
        hands = sim[T_HANDS:]
        dealt = sorted(
            np.concatenate(
                [hands[s, : table.hn[s]] for s in range(1, PLAYERS)]
                + [sim[T_PILE, : table.st[ST_PILE_N]]]
            ).tolist()
        )
        assert dealt == hidden
        assert np.array_equal(hands[0, : table.hn[0]], table.hands[0, : table.hn[0]])


def _search_share(opponent: str, games: int, seed: int, **knobs) -> float:
    """search's share of the rounds won heads-up against ``opponent`` at mattel-2001, both
    seatings on the same deals (seat advantage cancels)."""
    rules = preset_rules("mattel-2001")
    wins = rounds = 0
    for first in (True, False):
        seats = [_seat(**knobs), _seat(opponent)]
        if not first:
            seats.reverse()
        cols = simulate(EngineConfig.build(2, rules, seats, seed=seed), 0, games)
        seat = 0 if first else 1
        wins += int((cols["winner"] == seat).sum())
        rounds += int((cols["winner"] >= 0).sum())
    return wins / rounds


@pytest.mark.slow
def test_one_random_rollout_is_no_weaker_than_random_and_more_rollouts_are_stronger() -> None:
    """Paired on the same deals. Measured: one random rollout per move already wins about
    57% against random (a played-out round is informative), 16 basic ones clearly more."""
    weak = _search_share("random", 3000, 11, rollouts=1, rollout_policy="random")
    strong = _search_share("random", 3000, 11, rollouts=16)
    assert weak > 0.5 - 0.03  # 6000 rounds: a standard error is about 0.0065
    assert strong > 0.6 and strong > weak + 0.03


def test_search_seats_keep_their_strategy_id() -> None:
    assert strategy_id("search") == len(ROLLOUT_POLICIES)
    config = EngineConfig.build(2, preset_rules("mattel-2001"), [_seat(), _seat("basic")], seed=1)
    simulate(config, 0, 5)
    assert config.seats[0, S_KIND] == strategy_id("search")


# --- inference from turns without a play, and the trace ----------------------------------------


def test_search_remembers_a_turn_without_a_play_until_hands_move() -> None:
    """A seat seen drawing for lack of a play on (Red 5, red) with 6 cards: 6 of its cards are
    known not to fit; each card it plays since may have been one of them; moved hands (7-0)
    and a new deal forget it."""
    row = np.zeros(MAX_CARDS, dtype=np.int64)
    top = card_id("Red 5")
    observe(row, PLAYERS, SEEN_NO_PLAY, 2, no_play_value(0, top, 6))
    assert row[2] & 1 == 1  # color-denier's bit for red is set alike
    known = row[LACKS_BASE + 2]
    assert (known & 127) - 1 == top and known >> 7 & 7 == 0 and known >> 10 & 255 == 6
    assert known >> 18 == 6
    observe(row, PLAYERS, SEEN_PLAY, 2, card_id("Blue 7"))
    observe(row, PLAYERS, SEEN_PLAY, 1, card_id("Blue 8"))  # another seat's play: no change
    assert row[LACKS_BASE + 2] >> 18 == 5
    observe(row, PLAYERS, SEEN_HANDS_MOVED, 0, 0)
    assert row[LACKS_BASE + 2] == 0
    observe(row, PLAYERS, SEEN_NO_PLAY, 3, no_play_value(1, top, 4))
    observe(row, PLAYERS, SEEN_ROUND_START, -1, 0)
    assert not row[LACKS_BASE : LACKS_BASE + PLAYERS].any()


def test_a_seat_seen_unable_to_play_is_dealt_none_of_the_cards_it_could_have_played() -> None:
    """deal_hidden gives seat 1 (seen unable to play on the top card with its present hand,
    one card played since) at least hand size - 1 cards that would not fit that top card; the
    cards dealt stay exactly the unseen ones; seats without an inference are dealt freely."""
    fitting_share = []
    for seed in range(40):
        _config, table, _gen = _position(seed)
        top = int(table.disc[table.st[ST_DISC_N] - 1])
        color = int(table.st[ST_COLOR])
        size = int(table.hn[1])
        rules = table.tab[T_RULES]
        memory = table.tab[T_MEMORY]
        observe(memory, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(color, top, size + 1))
        observe(memory, PLAYERS, SEEN_PLAY, 1, top)
        rows = table_rows(PLAYERS)
        sim = table.tab[rows : 2 * rows]
        sim[:, :] = table.tab[:rows]
        unseen = sorted(
            np.concatenate(
                [table.hands[s, : table.hn[s]] for s in range(1, PLAYERS)]
                + [table.pile[: table.st[ST_PILE_N]]]
            ).tolist()
        )
        counts = np.zeros(table.tab.shape[1], dtype=np.int64)
        pool = np.zeros(table.tab.shape[1], dtype=np.int64)
        deal_hidden(sim, 0, counts, pool, np.array([seed], dtype=np.uint64))
        hands = sim[T_HANDS:]
        dealt = np.concatenate(
            [hands[s, : table.hn[s]] for s in range(1, PLAYERS)]
            + [sim[T_PILE, : table.st[ST_PILE_N]]]
        )
        assert sorted(dealt.tolist()) == unseen
        fits = [playable(int(c), size + 1, top, color, True, rules) for c in hands[1, :size]]
        assert not any(fits), (seed, hands[1, :size])
        fitting_share += [
            playable(int(c), size + 1, top, color, True, rules)
            for s in (2, 3)
            for c in hands[s, : table.hn[s]]
        ]
    assert 0.15 < np.mean(fitting_share) < 0.6  # the other seats: cards that fit, as dealt


def test_trace_shows_each_move_search_weighed_and_it_plays_the_best() -> None:
    """uno-stats trace: after a search seat's turn line, one line per move weighed (a wild
    once per color) with rollouts won of rollouts; the card played scores highest (a
    colored card 4 x its wins, a wild its wins summed over the colors)."""
    seats = [_seat(rollouts=6), _seat("random")]
    config = EngineConfig.build(2, preset_rules("mattel-2001"), seats, seed=3)
    weighed = re.compile(r"^  seat 0 weighs (.+?)(?: naming (\w+))?: won (\d) of 6 rollouts")
    decisions = 0
    for game in range(6):
        lines = trace_game(config, game)
        for i, line in enumerate(lines):
            if not (line.startswith("turn ") and "seat 0 to play" in line):
                continue
            moves = []
            j = i + 1
            while weighed.match(lines[j]):
                moves.append(weighed.match(lines[j]).groups())
                j += 1
            if not moves:
                continue
            decisions += 1
            score: dict[str, int] = {}
            for card, named, wins in moves:
                score[card] = score.get(card, 0) + int(wins) * (1 if named else 4)
            played = re.match(r"^  seat 0 plays (.+?) \(", lines[j])
            assert played is not None, lines[j]
            assert score[played.group(1)] == max(score.values()), lines[i : j + 1]
    assert decisions > 20

"""The worlds search deals (:mod:`uno_stats.engine.search_world`): exactly the unseen cards,
and the inferences from the public record: a seat seen unable to play holds no card it could
have played then; the seat whose Wild Draw Four is pending, when its play was legal, holds
no card that blocks it."""

from __future__ import annotations

import numpy as np
from test_search import PLAYERS, _pending_wd4, _position

from uno_stats.engine.cards import MAX_CARDS, card_id
from uno_stats.engine.legal import blocks_wd4, wd4_top_key
from uno_stats.engine.piles import playable
from uno_stats.engine.rules import R_WD4_RESTRICTION
from uno_stats.engine.search_world import deal, deal_hidden, judge_wd4, unseen_pool
from uno_stats.engine.state import (
    ST_COLOR,
    ST_DISC_N,
    ST_PILE_N,
    ST_WD4_LEGAL,
    ST_WD4_PLAYER,
    ST_WD4_PREV_COLOR,
    ST_WD4_PREV_TOP,
    T_HANDS,
    T_MEMORY,
    T_PILE,
    T_RULES,
    table_rows,
)
from uno_stats.engine.strategies import (
    LACKS_BASE,
    SEEN_HANDS_MOVED,
    SEEN_NO_PLAY,
    SEEN_PLAY,
    SEEN_ROUND_START,
    no_play_value,
    observe,
)


def _sim(table):
    rows = table_rows(PLAYERS)
    sim = table.tab[rows : 2 * rows]
    sim[:, :] = table.tab[:rows]
    return sim


def _unseen(table) -> list[int]:
    return sorted(
        np.concatenate(
            [table.hands[s, : table.hn[s]] for s in range(1, PLAYERS)]
            + [table.pile[: table.st[ST_PILE_N]]]
        ).tolist()
    )


def _dealt(table, sim) -> list[int]:
    hands = sim[T_HANDS:]
    return sorted(
        np.concatenate(
            [hands[s, : table.hn[s]] for s in range(1, PLAYERS)]
            + [sim[T_PILE, : table.st[ST_PILE_N]]]
        ).tolist()
    )


def test_the_hidden_cards_dealt_are_exactly_the_unseen_ones() -> None:
    for seed in range(20):
        _config, table, _gen = _position(seed)
        sim = _sim(table)
        counts = np.zeros(table.tab.shape[1], dtype=np.int64)
        pool = np.zeros(table.tab.shape[1], dtype=np.int64)
        deal_hidden(sim, 0, counts, pool, np.array([seed], dtype=np.uint64))
        assert _dealt(table, sim) == _unseen(table)
        assert unseen_pool(table.tab, 0, counts, pool) == len(_unseen(table))
        assert pool[: len(_unseen(table))].tolist() == _unseen(table)  # card-id order
        assert np.array_equal(sim[T_HANDS, : table.hn[0]], table.hands[0, : table.hn[0]])


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
    """deal gives seat 1 (seen unable to play on the top card with its present hand, one
    card played since) at least hand size - 1 cards that would not have fitted; the cards
    dealt stay exactly the unseen ones; seats without an inference are dealt freely."""
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
        sim = _sim(table)
        counts = np.zeros(table.tab.shape[1], dtype=np.int64)
        pool = np.zeros(table.tab.shape[1], dtype=np.int64)
        deal_hidden(sim, 0, counts, pool, np.array([seed], dtype=np.uint64))
        assert _dealt(table, sim) == _unseen(table)
        hands = sim[T_HANDS:]
        fits = [playable(int(c), size + 1, top, color, True, rules) for c in hands[1, :size]]
        assert not any(fits), (seed, hands[1, :size])
        fitting_share += [
            playable(int(c), size + 1, top, color, True, rules)
            for s in (2, 3)
            for c in hands[s, : table.hn[s]]
        ]
    assert 0.15 < np.mean(fitting_share) < 0.6  # the other seats: cards that fit, as dealt


def test_a_legal_wild_draw_four_deals_its_player_no_blocking_card() -> None:
    """With ``legal_wd4`` the seat whose Wild Draw Four is pending is dealt a hand without a
    card of the color in play before it (mattel-2001: ``color``), and judge_wd4 then finds
    the play legal; without it the hand is dealt freely and often holds one."""
    blocked = []
    for seed in range(30):
        _config, table, gen = _position(seed)
        _pending_wd4(table, gen)
        accused = int(table.st[ST_WD4_PLAYER])
        rules = table.tab[T_RULES]
        key = wd4_top_key(int(table.st[ST_WD4_PREV_TOP]), int(rules[R_WD4_RESTRICTION]))
        for legal in (True, False):
            sim = _sim(table)
            counts = np.zeros(table.tab.shape[1], dtype=np.int64)
            pool = np.zeros(table.tab.shape[1], dtype=np.int64)
            m = unseen_pool(sim, 0, counts, pool)
            deal(sim, 0, pool, m, counts, legal, np.array([seed], dtype=np.uint64))
            assert _dealt(table, sim) == _unseen(table)
            hand = sim[T_HANDS + accused, : table.hn[accused]]
            blocks = [
                blocks_wd4(
                    int(c), int(table.st[ST_WD4_PREV_COLOR]), key, int(rules[R_WD4_RESTRICTION])
                )
                for c in hand
            ]
            judge_wd4(sim)
            assert sim[0, ST_WD4_LEGAL] == (0 if any(blocks) else 1)
            if legal:
                assert not any(blocks), (seed, hand)
            else:
                blocked.append(any(blocks))
    assert np.mean(blocked) > 0.5

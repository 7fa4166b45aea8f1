"""The worlds search deals (:mod:`uno_stats.engine.search_world`): exactly the unseen cards,
and the inferences from the public record: a seat seen unable to play holds no card it could
have played then; the seat whose Wild Draw Four is pending, when its play was legal, holds
no card that blocks it."""

from __future__ import annotations

import numpy as np
import pytest
from test_search import PLAYERS, _pending_wd4, _position

from uno_stats.engine.cards import MAX_CARDS, card_id
from uno_stats.engine.legal import blocks_wd4, wd4_top_key
from uno_stats.engine.memory_row import (
    LACKS_BASE,
    SEEN_DREW,
    SEEN_HANDS_MOVED,
    SEEN_NO_PLAY,
    SEEN_PLAY,
    SEEN_ROUND_START,
    no_play_value,
    observe,
    observe_in_rollout,
)
from uno_stats.engine.piles import playable
from uno_stats.engine.rules import R_WD4_RESTRICTION
from uno_stats.engine.scripted import play_position
from uno_stats.engine.search_lacks import (
    LACK_BITS,
    LACK_COUNT,
    LACK_DRAWN,
    LACK_MASK,
    LACKS_KEPT,
    drew_value,
)
from uno_stats.engine.search_world import (
    copy_position,
    deal,
    deal_hidden,
    judge_wd4,
    unseen_pool,
)
from uno_stats.engine.state import (
    ST_COLOR,
    ST_DISC_N,
    ST_OBSERVED,
    ST_PILE_N,
    ST_WD4_LEGAL,
    ST_WD4_PLAYER,
    ST_WD4_PREV_COLOR,
    ST_WD4_PREV_TOP,
    T_HANDS,
    T_MEMORY,
    T_PILE,
    T_RULES,
    T_ST,
    table_rows,
)
from uno_stats.engine.strategy_table import IN_ROLLOUT


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


def _records(row, seat: int) -> list[tuple[int, int, int, int]]:
    """Seat ``seat``'s no-play records, latest first: (top card, color, held one card then,
    cards surely from that hand)."""
    lacks = int(row[LACKS_BASE + seat])
    out = []
    for j in range(LACKS_KEPT):
        record = lacks >> (j * LACK_BITS) & LACK_MASK
        if record:
            out.append(
                ((record & 127) - 1, record >> 7 & 7, record >> 10 & 1, record >> LACK_COUNT)
            )
    return out


def test_search_remembers_a_turn_without_a_play_until_hands_move() -> None:
    """A seat seen drawing for lack of a play on (Red 5, red) with 6 cards: 6 of its cards are
    known not to fit; each card it plays since may have been one of them; moved hands (7-0)
    and a new deal forget it."""
    row = np.zeros(MAX_CARDS, dtype=np.int64)
    top = card_id("Red 5")
    observe(row, PLAYERS, SEEN_NO_PLAY, 2, no_play_value(0, top, 6))
    assert row[2] & 1 == 1  # color-denier's bit for red is set alike
    assert _records(row, 2) == [(top, 0, 0, 6)]
    observe(row, PLAYERS, SEEN_PLAY, 2, card_id("Blue 7"))
    observe(row, PLAYERS, SEEN_PLAY, 1, card_id("Blue 8"))  # another seat's play: no change
    assert _records(row, 2) == [(top, 0, 0, 5)]
    observe(row, PLAYERS, SEEN_HANDS_MOVED, 0, 0)
    assert row[LACKS_BASE + 2] == 0
    observe(row, PLAYERS, SEEN_NO_PLAY, 3, no_play_value(1, top, 4))
    observe(row, PLAYERS, SEEN_ROUND_START, -1, 0)
    assert not row[LACKS_BASE : LACKS_BASE + PLAYERS].any()


def test_search_keeps_the_last_turns_without_a_play_each_bound_lowered_by_every_play() -> None:
    """Seat 1 unable to play on Red 5 (4 cards), then, one card played and two drawn, on
    Blue 8 (5 cards), then on Green 2 (5 cards): the records stay, the latest first, each
    bound lowered by every card played that would not have fitted on it; the oldest goes
    when more than LACKS_KEPT are seen, and a record whose bound reaches 0 is dropped; a
    one-card hand is marked."""
    assert LACKS_KEPT >= 2
    row = np.zeros(MAX_CARDS, dtype=np.int64)
    red5, blue8, green2 = card_id("Red 5"), card_id("Blue 8"), card_id("Green 2")
    observe(row, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(0, red5, 4))
    observe(row, PLAYERS, SEEN_PLAY, 1, card_id("Blue 7"))
    observe(row, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(3, blue8, 5))
    assert _records(row, 1) == [(blue8, 3, 0, 5), (red5, 0, 0, 3)]
    observe(row, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(2, green2, 5))
    expected = [(green2, 2, 0, 5), (blue8, 3, 0, 5), (red5, 0, 0, 3)][:LACKS_KEPT]
    assert _records(row, 1) == expected
    for _ in range(3):
        observe(row, PLAYERS, SEEN_PLAY, 1, card_id("Yellow 7"))  # fits on none of them
    assert _records(row, 1) == [(g, c, a, n - 3) for g, c, a, n in expected if n > 3]
    observe(row, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(1, red5, 1))
    assert _records(row, 1)[0] == (red5, 1, 1, 1)
    for _ in range(LACKS_KEPT):
        observe(row, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(0, blue8, 3))
    assert _records(row, 1) == [(blue8, 0, 0, 3)] * LACKS_KEPT
    assert not row[LACKS_BASE + 2]  # no other seat's entry was touched


def test_a_card_that_fits_on_a_no_play_record_was_not_in_that_hand() -> None:
    """Seat 1 unable to play on Blue 8 (blue) with 5 cards, on Red 5 (red) with 3 before:
    a red 9 it plays since fits on Red 5 (it came later) and lowers only the Blue 8 record;
    a blue 3 lowers only Red 5's; any wild neither (a hand holding one could play it); a
    yellow 7 both. Held one card then: an action card that fits may have been kept (the
    ``no_action_finish`` reading) and lowers it."""
    row = np.zeros(MAX_CARDS, dtype=np.int64)
    red5, blue8 = card_id("Red 5"), card_id("Blue 8")
    observe(row, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(0, red5, 3))
    observe(row, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(3, blue8, 5))
    plays = [("Red 9", 4, 3), ("Blue 3", 4, 2), ("Wild", 4, 2), ("Wild Draw Four", 4, 2)]
    for card, newer, older in [*plays, ("Yellow 7", 3, 1)]:
        observe(row, PLAYERS, SEEN_PLAY, 1, card_id(card))
        assert _records(row, 1) == [(blue8, 3, 0, newer), (red5, 0, 0, older)], card
    observe(row, PLAYERS, SEEN_NO_PLAY, 2, no_play_value(0, red5, 1))
    observe(row, PLAYERS, SEEN_PLAY, 2, card_id("Red Skip"))
    assert _records(row, 2) == []
    observe(row, PLAYERS, SEEN_NO_PLAY, 2, no_play_value(0, red5, 1))
    observe(row, PLAYERS, SEEN_PLAY, 2, card_id("Red 9"))
    assert _records(row, 2) == [(red5, 0, 1, 1)]


@pytest.mark.parametrize(
    ("drawn", "plays", "may_keep", "bound"),
    [
        (1, False, False, 5),  # draw: one, may-play, keep_drawn 0: it did not fit
        (1, False, True, 4),  # it may be a playable card kept
        (1, True, False, 4),  # played at once: the 4 older cards stay counted
        (3, True, True, 6),  # until-playable: 2 that did not fit, the third played
        (3, False, False, 7),  # until-playable, the pile ran out: none fitted
        (3, False, True, 6),  # until-playable, may-play: the third may be kept
    ],
)
def test_the_cards_drawn_for_lack_of_a_play_that_did_not_fit_join_the_latest_record(
    drawn: int, plays: bool, may_keep: bool, bound: int
) -> None:
    """Seat 1 unable to play on Blue 8 with 4 cards (on Red 5 with 3 before, one card played
    since) draws ``drawn`` cards: the ones that surely did not fit join the latest record
    (``bound``, after the drawn card's play if any); the older record loses nothing to a
    drawn card played at once; color-denier's memory ignores the draw."""
    row = np.zeros(MAX_CARDS, dtype=np.int64)
    red5, blue8 = card_id("Red 5"), card_id("Blue 8")
    observe(row, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(0, red5, 3))
    observe(row, PLAYERS, SEEN_PLAY, 1, card_id("Green 7"))
    observe(row, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(3, blue8, 4))
    before = row[:LACKS_BASE].copy()
    observe(row, PLAYERS, SEEN_DREW, 1, drew_value(drawn, plays, may_keep))
    assert np.array_equal(row[:LACKS_BASE], before)
    assert bool(row[LACKS_BASE + 1] & LACK_DRAWN) == plays
    if plays:
        observe(row, PLAYERS, SEEN_PLAY, 1, card_id("Blue 9"))
    assert _records(row, 1) == [(blue8, 3, 0, bound), (red5, 0, 0, 2)][:LACKS_KEPT]
    assert not row[LACKS_BASE + 1] & LACK_DRAWN


def test_cards_surely_from_an_older_no_play_hand_fit_on_none_of_its_tops() -> None:
    """Seat 1 (h cards now) seen unable to play on (top a, color a) with h cards, then after
    a draw unable on (top b, color b) with h + 1, then one card played: h - 1 of its cards are
    surely from the first hand and h from the second, so every world deals it h - 1 cards
    that fit on neither record and one more that does not fit on b (the nested records
    first in its row); the rest of its hand and the other seats are dealt freely."""
    nested = fits_older = 0
    for seed in range(40):
        _config, table, _gen = _position(seed)
        h = int(table.hn[1])
        n = int(table.st[ST_DISC_N])
        top_a, color_a = int(table.disc[n - 1]), int(table.st[ST_COLOR])
        top_b = next((int(c) for c in table.disc[:n] if c < 64 and c // 16 != color_a), top_a)
        color_b = top_b // 16 if top_b < 64 else (color_a + 1) % 4
        rules = table.tab[T_RULES]
        memory = table.tab[T_MEMORY]
        observe(memory, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(color_a, top_a, h))
        observe(memory, PLAYERS, SEEN_NO_PLAY, 1, no_play_value(color_b, top_b, h + 1))
        observe(memory, PLAYERS, SEEN_PLAY, 1, card_id("Wild"))
        sim = _sim(table)
        counts = np.zeros(table.tab.shape[1], dtype=np.int64)
        pool = np.zeros(table.tab.shape[1], dtype=np.int64)
        deal_hidden(sim, 0, counts, pool, np.array([seed], dtype=np.uint64))
        assert _dealt(table, sim) == _unseen(table)
        assert counts[1] == h  # h cards dealt under an inference, the first h - 1 under both
        hand = [int(c) for c in sim[T_HANDS + 1, :h]]
        for i, c in enumerate(hand):
            assert not playable(c, h + 1, top_b, color_b, True, rules), (seed, i, hand)
            if i < h - 1:
                assert not playable(c, h, top_a, color_a, True, rules), (seed, i, hand)
                nested += 1
        fits_older += sum(
            playable(int(c), h, top_a, color_a, True, rules)
            for s in (2, 3)
            for c in sim[T_HANDS + s, : table.hn[s]]
        )
    assert nested > 100  # many cards were dealt under both records
    assert fits_older > 20  # cards dealt freely often fit on the older top


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


@pytest.mark.parametrize(
    ("pile", "rules", "keep", "bound"),
    [
        (["blue 9"], {}, 0.0, 4),  # draws one, may-play, keep_drawn 0: the blue 9 joins
        (["blue 9"], {}, 0.5, 3),  # it may keep a playable drawn card: not counted
        (["red 9"], {}, 0.0, 3),  # the drawn red 9 is played at once: the 3 stay counted
        (["red 9"], {}, 1.0, 3),  # the red 9 kept: it may be playable, not counted
        (["blue 9", "green 8", "red 9"], {"draw": "until-playable"}, 0.0, 5),
        (["blue 9", "green 8"], {"draw": "until-playable"}, 0.0, 5),  # nothing more to draw
    ],
)
def test_a_turn_without_a_play_records_the_drawn_cards_that_did_not_fit(
    pile: list[str], rules: dict, keep: float, bound: int
) -> None:
    """A random seat holding nothing that fits on red 5 draws for its turn: search's record
    of that turn counts its 3 cards and the drawn ones that surely did not fit (as the
    engine announces them: SEEN_DREW), a drawn card played at once lowering nothing."""
    pos = play_position(
        [["blue 1", "blue 2", "green 3"], ["red 1", "red 2"]],
        top="red 5",
        pile=pile,
        preset="mattel-2001",
        rules=rules,
        seats=[{"strategy": "random", "keep_drawn": keep}, {"strategy": "search"}],
    )
    assert pos.memory is not None
    assert _records(pos.memory, 0) == [(card_id("red 5"), 0, 0, bound)]


def test_a_rollout_keeps_only_the_memory_its_choices_read() -> None:
    """A rollout's copy is marked IN_ROLLOUT (the round's table never is); there an event
    reaches color-denier's memory and leaves search's no-play records and plays alone."""
    _config, table, _gen = _position(0)
    assert table.st[ST_OBSERVED] != 0 and not table.st[ST_OBSERVED] & IN_ROLLOUT
    sim = _sim(table)
    copy_position(table.tab, sim, 0)
    assert sim[T_ST, ST_OBSERVED] & IN_ROLLOUT
    row = np.zeros(MAX_CARDS, dtype=np.int64)
    observe_in_rollout(row, PLAYERS, SEEN_NO_PLAY, 2, no_play_value(0, card_id("Red 5"), 6))
    observe_in_rollout(row, PLAYERS, SEEN_PLAY, 1, card_id("Blue 8"))
    assert row[2] == 1 and not row[PLAYERS:].any()

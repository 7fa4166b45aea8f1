"""The worlds ``search`` imagines: a copy of the round with the cards its seat cannot see
dealt afresh, from public facts and its own hand only (SCENARIO.md, "Strategies", ``search``).

The unseen cards are the deck minus the seat's own hand minus the discard pile, listed in
card-id order (:func:`unseen_pool`, once per decision). For each rollout they are shuffled
with search's own random stream and dealt to the other hands, each keeping its size, and to
the draw pile (:func:`deal`); a seat seen unable to play (its last LACKS_KEPT such turns:
search_lacks) is dealt none of the cards it could have played then, for as many of its
cards as are surely still from that hand, the cards surely from an older such hand fitting
on none of the later ones either. Nothing here reads another seat's cards, the pile's order
or whether a Wild Draw Four was legal: :func:`judge_wd4` judges it again on the dealt hand.
"""

from __future__ import annotations

from uno_stats.engine.cards import N_CARD_TYPES
from uno_stats.engine.jit import engine_jit
from uno_stats.engine.legal import blocks_wd4, wd4_top_key
from uno_stats.engine.memory_row import FORCE_CARD, FORCE_SLOTS, LACKS_BASE
from uno_stats.engine.piles import playable, wd4_allowed
from uno_stats.engine.rng import shuffle
from uno_stats.engine.rules import R_WD4_RESTRICTION
from uno_stats.engine.search_lacks import (
    LACK_ALONE,
    LACK_BITS,
    LACK_COUNT,
    LACK_MASK,
    LACKS_KEPT,
    lacks_span,
)
from uno_stats.engine.state import (
    NEXT_SEATS,
    ST_DISC_N,
    ST_OBSERVED,
    ST_PILE_N,
    ST_PLAYERS,
    ST_TRACE,
    ST_WD4_LEGAL,
    ST_WD4_PLAYER,
    ST_WD4_PREV_COLOR,
    ST_WD4_PREV_TOP,
    T_DECK,
    T_DISC,
    T_HANDS,
    T_HN,
    T_MEMORY,
    T_PILE,
    T_RULES,
    T_SEATING,
    T_ST,
    deck_of,
)
from uno_stats.engine.strategy_table import IN_ROLLOUT, RECORDS_PLAYS

MEMORY_USED = FORCE_CARD + FORCE_SLOTS  # the memory row's entries a rollout needs


@engine_jit
def copy_fixed(tab, sim):
    """Copy what no rollout changes (the rules, the deck, the seating) into ``sim``, once
    per decision."""
    players = tab[T_ST, ST_PLAYERS]
    for c in range(tab.shape[1]):
        sim[T_RULES, c] = tab[T_RULES, c]
        sim[T_DECK, c] = tab[T_DECK, c]
    for s in range(players):
        sim[T_SEATING, s] = tab[T_SEATING, s]


@engine_jit
def copy_position(tab, sim, p):
    """Copy the round's public state and seat ``p``'s own hand into ``sim`` (the other hands
    and the draw pile are dealt by :func:`deal`; scratch rows are left as they are)."""
    st = tab[T_ST]
    players = st[ST_PLAYERS]
    for i in range(NEXT_SEATS + 2 * players):  # the named slots and the order of play
        sim[T_ST, i] = st[i]
    sim[T_ST, ST_TRACE] = 0
    sim[T_ST, ST_OBSERVED] &= ~RECORDS_PLAYS  # a rollout's plays are never judged
    sim[T_ST, ST_OBSERVED] |= IN_ROLLOUT if st[ST_OBSERVED] != 0 else 0
    for s in range(players + 1):
        sim[T_HN, s] = tab[T_HN, s]
    for i in range(st[ST_DISC_N]):
        sim[T_DISC, i] = tab[T_DISC, i]
    for i in range(MEMORY_USED):
        sim[T_MEMORY, i] = tab[T_MEMORY, i]
    for i in range(tab[T_HN, p]):
        sim[T_HANDS + p, i] = tab[T_HANDS + p, i]


@engine_jit
def unseen_pool(tab, p, counts, pool):
    """List in ``pool`` (card-id order) the cards seat ``p`` cannot see: the deck minus its
    hand minus the discards; returns how many."""
    st = tab[T_ST]
    deck = deck_of(tab)
    for c in range(N_CARD_TYPES):
        counts[c] = 0
    for i in range(deck.shape[0]):
        counts[deck[i]] += 1
    for i in range(tab[T_HN, p]):
        counts[tab[T_HANDS + p, i]] -= 1
    for i in range(st[ST_DISC_N]):
        counts[tab[T_DISC, i]] -= 1
    m = 0
    for c in range(N_CARD_TYPES):
        for _ in range(counts[c]):
            pool[m] = c
            m += 1
    return m


@engine_jit
def _excluded(card, lacks, i, wd4_color, wd4_key, rules):
    """Whether ``card`` cannot be a seat's ``i``-th inferred card (from 0): playable on the
    top card and color of one of its no-play records (``lacks``) that bounds more than ``i``
    of its cards, or (``wd4_color`` >= 0) blocking the Wild Draw Four it played legally.

    The records are nested: the cards surely from an older no-play hand are among those of
    every later one (each later turn without a play saw the whole hand), so its first
    ``i`` cards are kept from the top cards of every record bounding more than ``i``."""
    for j in range(LACKS_KEPT):
        record = lacks >> (j * LACK_BITS) & LACK_MASK
        if record != 0 and record >> LACK_COUNT > i:
            alone = 1 if record & LACK_ALONE else 2  # its hand size then, as playable reads it
            if playable(card, alone, (record & 127) - 1, record >> 7 & 7, True, rules):
                return True
    return wd4_color >= 0 and blocks_wd4(card, wd4_color, wd4_key, rules[R_WD4_RESTRICTION])


@engine_jit
def _pick(pool, k, m, lacks, i, wd4_color, wd4_key, rules):
    """Move the first card of ``pool[k:m]`` that is not :func:`_excluded` to position ``k``;
    False when there is none."""
    j = k
    while j < m and _excluded(pool[j], lacks, i, wd4_color, wd4_key, rules):
        j += 1
    if j == m:
        return False
    tmp = pool[k]
    pool[k] = pool[j]
    pool[j] = tmp
    return True


@engine_jit
def deal(sim, p, pool, m, kept, legal_wd4, srng):
    """Shuffle the ``m`` unseen cards in ``pool`` (in place) and deal them in ``sim``. First
    the inferred cards: to each seat seen unable to play, as many cards as are surely from
    its last no-play hand, each of which would not have fitted on any of its no-play records
    that bound more of its cards than were dealt it so far (the cards surely from an older
    hand first: they fit on none); with ``legal_wd4``, to the seat whose Wild Draw Four is
    pending, a whole hand without a card that blocks it. Then the rest of every other hand
    (sizes kept) and the draw pile, in a fresh random order."""
    st = sim[T_ST]
    hands = sim[T_HANDS:]
    hn = sim[T_HN]
    pile = sim[T_PILE]
    memory = sim[T_MEMORY]
    rules = sim[T_RULES]
    accused = st[ST_WD4_PLAYER] if legal_wd4 else -1
    wd4_color = st[ST_WD4_PREV_COLOR]
    wd4_key = wd4_top_key(st[ST_WD4_PREV_TOP], rules[R_WD4_RESTRICTION])
    shuffle(pool, m, srng)
    k = 0
    for q in range(st[ST_PLAYERS]):
        kept[q] = 0
        if q == p:
            continue
        lacks = memory[LACKS_BASE + q]
        need = hn[q] if q == accused else min(lacks_span(lacks), hn[q])
        while kept[q] < need:  # the most inferred cards first, then the rest
            if not _pick(
                pool, k, m, lacks, kept[q], wd4_color if q == accused else -1, wd4_key, rules
            ):
                break  # no such card left: the rest of the hand is dealt freely
            k += 1
            kept[q] += 1
    if k > 0:  # the rest in a fresh random order (the scan moved the cards it passed over)
        shuffle(pool[k:], m - k, srng)
    front = 0
    for q in range(st[ST_PLAYERS]):
        if q != p:
            for i in range(hn[q]):
                if i < kept[q]:
                    hands[q, i] = pool[front]
                    front += 1
                else:
                    hands[q, i] = pool[k]
                    k += 1
    for i in range(st[ST_PILE_N]):
        pile[i] = pool[k]
        k += 1


@engine_jit
def deal_hidden(sim, p, counts, pool, srng):
    """Deal the cards seat ``p`` cannot see afresh in the position ``sim`` (its own hand,
    the discards and the public state already there): :func:`unseen_pool`, then :func:`deal`."""
    m = unseen_pool(sim, p, counts, pool)
    deal(sim, p, pool, m, counts, False, srng)


@engine_jit
def judge_wd4(sim):
    """Judge the last Wild Draw Four again on its player's hand as dealt in ``sim``: legal
    when that hand holds no card that blocks it (the hand now is the hand it was played
    from, less the card: the challenge comes right after the play)."""
    st = sim[T_ST]
    accused = st[ST_WD4_PLAYER]
    rules = sim[T_RULES]
    legal = wd4_allowed(
        sim[T_HANDS:], sim[T_HN], accused, st[ST_WD4_PREV_COLOR], st[ST_WD4_PREV_TOP], rules
    )
    st[ST_WD4_LEGAL] = 1 if legal else 0

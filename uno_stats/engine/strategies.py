"""Named strategies as compiled decision functions of what their player may see.

Every function here reads only the deciding seat's own hand, the discard pile,
hand sizes, direction and the active color, never another hand. The engine asks
at each choice point; the strategy id comes from ``seats[p, S_KIND]`` (see
:mod:`uno_stats.engine.strategy_table`).
"""

from __future__ import annotations

import numpy as np

from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_POINTS,
    CARD_SYMBOL,
    N_COLORS,
    WILD,
    WILD_DRAW_FOUR,
)
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.rng import below
from uno_stats.engine.rules import (
    R_WD4_RESTRICTION,
    WD4_COLOR_OR_NUMBER,
    WD4_COLOR_OR_WILD,
    WD4_NONE,
)
from uno_stats.engine.state import (
    ST_COLOR,
    ST_DIR,
    ST_DISC_N,
    ST_PARTNERS,
    ST_PLAYERS,
    ST_WD4_PREV_COLOR,
    ST_WD4_PREV_TOP,
    T_LACKS,
    views,
)
from uno_stats.engine.strategy_table import (
    CHALLENGE_ALWAYS,
    CHALLENGE_SMART,
    S_CHALLENGE,
    S_KIND,
)

RANDOM, BASIC, AGGRESSIVE, HOARDER, COLOR_DENIER = 0, 1, 2, 3, 4


@engine_jit
def is_opponent(st, p, q):
    """Whether seat ``q`` is an opponent of seat ``p`` (a partner is not, under partners)."""
    if q == p:
        return False
    return not (st[ST_PARTNERS] != 0 and (q - p) % 2 == 0)


@engine_jit
def _uniform_among(cand, n, rng):
    return cand[below(rng, n)]


@engine_jit
def _best_by_rank(hands, p, cand, n, rank, rng):
    """The candidate with the highest ``rank[i]`` (ties uniform)."""
    best = -1
    ties = 0
    pick = cand[0]
    for k in range(n):
        r = rank[k]
        if r > best:
            best = r
            ties = 1
            pick = cand[k]
        elif r == best:
            ties += 1
            if below(rng, ties) == 0:  # reservoir choice among equals
                pick = cand[k]
    return pick


@engine_jit
def _basic_rank(card, color):
    """basic: same color first, then a number/symbol match, then Wilds, Wild Draw Four last."""
    if card < WILD:
        return 3 if CARD_COLOR[card] == color else 2
    return 0 if card == WILD_DRAW_FOUR else 1


@engine_jit
def _hoarder_rank(card):
    """hoarder: numbers first (the highest first), then Skip/Reverse/Draw Two, Wild, Wild Draw Four."""
    if card < WILD:
        symbol = CARD_SYMBOL[card]
        return 100 + symbol if symbol < 10 else 50
    return 0 if card == WILD_DRAW_FOUR else 10


@engine_inline
def choose_card_for(kind, tab, p, n, rng):
    """The hand index seat ``p`` (playing strategy ``kind``) plays among ``cand[:n]``."""
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    if kind == RANDOM or n == 1:
        return _uniform_among(cand, n, rng)
    color = st[ST_COLOR]
    if kind == BASIC:
        for k in range(n):
            rank[k] = _basic_rank(hands[p, cand[k]], color)
        return _best_by_rank(hands, p, cand, n, rank, rng)
    if kind == HOARDER:
        for k in range(n):
            rank[k] = _hoarder_rank(hands[p, cand[k]])
        return _best_by_rank(hands, p, cand, n, rank, rng)
    players = st[ST_PLAYERS]
    nxt = (p + st[ST_DIR]) % players
    if kind == COLOR_DENIER:  # a card of a color the next player was seen to lack comes first
        lacks = tab[T_LACKS, nxt]
        for k in range(n):
            card = hands[p, cand[k]]
            denies = card < WILD and (lacks >> CARD_COLOR[card]) & 1 == 1
            rank[k] = _basic_rank(card, color) + (10 if denies else 0)
        return _best_by_rank(hands, p, cand, n, rank, rng)
    # AGGRESSIVE: attack a next player low on cards, otherwise shed the most points.
    attack = hn[nxt] <= 2
    for k in range(n):
        card = hands[p, cand[k]]
        r = CARD_POINTS[card]
        if attack and CARD_SYMBOL[card] >= 10 and card != WILD:
            r += 100
        rank[k] = r
    return _best_by_rank(hands, p, cand, n, rank, rng)


@engine_jit
def choose_color(kind, hands, hn, p, rng, next_lacks):
    """The color seat ``p`` names for a wild: random names one uniformly, others their commonest;
    color-denier picks among the colors the next player was seen to lack (``next_lacks`` bits)."""
    if kind == RANDOM:
        return below(rng, N_COLORS)
    allowed = next_lacks if (kind == COLOR_DENIER and next_lacks != 0) else (1 << N_COLORS) - 1
    best_color = 0
    best = -1
    ties = 0
    for color in range(N_COLORS):  # the commonest allowed color in hand, ties uniform
        if (allowed >> color) & 1 == 0:
            continue
        count = 0
        for i in range(hn[p]):
            c = hands[p, i]
            if c < WILD and CARD_COLOR[c] == color:
                count += 1
        if count > best:
            best = count
            ties = 1
            best_color = color
        elif count == best:
            ties += 1
            if below(rng, ties) == 0:
                best_color = color
    return best_color


@engine_jit
def choose_swap_target(kind, st, hn, p, rng):
    """The opponent seat ``p`` swaps hands with on a 7."""
    players = st[ST_PLAYERS]
    if kind == RANDOM:
        count = 0
        for q in range(players):
            if is_opponent(st, p, q):
                count += 1
        k = below(rng, count)
        for q in range(players):
            if is_opponent(st, p, q):
                if k == 0:
                    return q
                k -= 1
        return p
    best = -1
    fewest = 1 << 30
    ties = 0
    for q in range(players):
        if not is_opponent(st, p, q):
            continue
        if hn[q] < fewest:
            fewest = hn[q]
            best = q
            ties = 1
        elif hn[q] == fewest:
            ties += 1
            if below(rng, ties) == 0:
                best = q
    return best


@engine_jit
def smart_bluff_estimate(tab, p, accused):
    """P(the accused held a card blocking its Wild Draw Four), from what seat ``p`` has seen.

    The unseen cards are the deck minus ``p``'s hand and the discard pile; the accused's
    hand (its size after the play) is taken as a uniform sample of them, so the chance
    that it holds at least one blocking card is ``1 - C(U - K, h) / C(U, h)``.
    """
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    restriction = rules[R_WD4_RESTRICTION]
    if restriction == WD4_NONE:
        return 0.0
    prev_color = st[ST_WD4_PREV_COLOR]
    prev_top = st[ST_WD4_PREV_TOP]
    top_number = CARD_SYMBOL[prev_top] if (prev_top < WILD and CARD_SYMBOL[prev_top] < 10) else -1
    unseen = deck.shape[0]
    blocking = 0
    for i in range(deck.shape[0]):
        if _blocks(deck[i], prev_color, top_number, restriction):
            blocking += 1
    for i in range(hn[p]):
        unseen -= 1
        if _blocks(hands[p, i], prev_color, top_number, restriction):
            blocking -= 1
    for i in range(st[ST_DISC_N]):
        unseen -= 1
        if _blocks(disc[i], prev_color, top_number, restriction):
            blocking -= 1
    h = hn[accused]
    if unseen <= 0 or h <= 0 or blocking <= 0:
        return 0.0
    p_none = 1.0
    for i in range(h):
        p_none *= max(unseen - blocking - i, 0) / (unseen - i)
    return 1.0 - p_none


@engine_jit
def _blocks(card, color, top_number, restriction):
    if card == WILD_DRAW_FOUR:
        return False
    if card < WILD:
        return CARD_COLOR[card] == color or (
            restriction == WD4_COLOR_OR_NUMBER and CARD_SYMBOL[card] == top_number
        )
    return restriction == WD4_COLOR_OR_WILD


@engine_jit
def wants_challenge(seats, tab, p, accused):
    """Whether seat ``p`` challenges the Wild Draw Four just played on it (its ``challenge`` knob)."""
    mode = np.int64(seats[p, S_CHALLENGE])
    if mode == CHALLENGE_ALWAYS:
        return True
    if mode == CHALLENGE_SMART:
        return smart_bluff_estimate(tab, p, accused) > 0.5
    return False


@engine_jit
def strategy_of(seats, p):
    """The strategy id of seat ``p``."""
    return np.int64(seats[p, S_KIND])

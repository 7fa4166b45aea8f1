"""Named strategies as compiled decision functions of what their player may see.

The boundary: a decision function receives the deciding seat's own hand (exactly its
cards: a slice of its row), public facts (hand sizes of every seat, the active color, the
discard pile, the deck's composition, the seat after it, the encoded rules), its own
knobs (its row of the per-seat strategy array) and the memory row of public events,
never the table or another seat's cards. Strategies that keep a memory remember only
public events, which every seat sees alike, so one row serves them all
(:mod:`uno_stats.engine.memory_row`, updated once per event the engine announces). This
module imports no engine state: the engine asks, at each choice point, the function of the
seat's strategy id.
"""

from __future__ import annotations

import numpy as np

from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_DRAW,
    CARD_POINTS,
    CARD_SYMBOL,
    DISCARD_ALL,
    DRAW_FOUR,
    N_COLORS,
    SYMBOLS_PER_COLOR,
    WILD,
)
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.legal import blocks_wd4, is_opponent, wd4_top_key
from uno_stats.engine.memory_row import (
    FORCE_CARD,
    FORCE_CHALLENGE,
    FORCE_COLOR,
    FORCE_DECLINE,
    FORCE_DRAW,
    FORCE_TARGET,
)
from uno_stats.engine.rng import NO_CANDIDATE, below, chance, pick_best, tie_pick
from uno_stats.engine.rules import WD4_NONE
from uno_stats.engine.strategy_table import (
    CHALLENGE_ALWAYS,
    CHALLENGE_SMART,
    S_BLUFF,
    S_CHALLENGE,
    S_KEEP_DRAWN,
    S_KIND,
    S_VOLUNTARY_DRAW,
    strategy_id,
)

if N_COLORS != 4:  # choose_color and multi_moves.extend_move score the colors as a 4-tuple
    raise ImportError("the strategies score four colors")

RANDOM = strategy_id("random")
BASIC = strategy_id("basic")
AGGRESSIVE = strategy_id("aggressive")
HOARDER = strategy_id("hoarder")
COLOR_DENIER = strategy_id("color-denier")
SEARCH = strategy_id("search")


@engine_jit
def strategy_of(seats, p):
    """The strategy id of seat ``p``."""
    return np.int64(seats[p, S_KIND])


@engine_jit
def searches(kind):
    """Whether strategy ``kind`` scores its cards by search before its turn (search.py)."""
    return kind == SEARCH


@engine_jit
def _best_by_rank(cand, n, rank, rng):
    """The candidate with the highest ``rank[k]``, ties uniform: one draw, and only on a tie."""
    return cand[max(0, pick_best(rank, n, rng))]


@engine_jit
def _basic_rank(card, color):
    """basic: same color first, then a number/symbol match, then Wilds, Wild Draw Four last;
    the No Mercy draw cards of 4 or more (S21) last too: kept to answer a stack."""
    if card < WILD:
        if card & (SYMBOLS_PER_COLOR - 1) == DRAW_FOUR:  # its symbol (cards: color * 16 + it)
            return 0
        return 3 if CARD_COLOR[card] == color else 2
    return 0 if CARD_DRAW[card] >= 4 else 1


@engine_inline
def _basic_shed_rank(card, color, hand):
    """basic's rank of ``card`` in ``hand``: :func:`_basic_rank`, and a Discard All that would
    discard other cards of its color ranks above every other card, the one that empties the
    hand most first (S21). A classic card costs one test more than :func:`_basic_rank`."""
    if card < WILD and card & (SYMBOLS_PER_COLOR - 1) >= DRAW_FOUR:  # a No Mercy colored kind
        return _no_mercy_basic_rank(card, color, hand)
    return _basic_rank(card, color)


@engine_jit
def _no_mercy_basic_rank(card, color, hand):
    """:func:`_basic_shed_rank` of a No Mercy colored card (S21), out of line."""
    rank = _basic_rank(card, color)
    if CARD_SYMBOL[card] != DISCARD_ALL:
        return rank
    color = CARD_COLOR[card]
    shed = -1  # the Discard All itself is of its color
    for i in range(hand.shape[0]):
        if hand[i] < WILD and CARD_COLOR[hand[i]] == color:
            shed += 1
    return 3 + shed if shed > 0 else rank


@engine_jit
def _hoarder_rank(card):
    """hoarder: numbers first (the highest first), then the colored action cards, the wilds,
    and a wild draw card (Wild Draw Four, or a No Mercy one) last."""
    if card < WILD:
        symbol = CARD_SYMBOL[card]
        return 100 + symbol if symbol < 10 else 50
    return 0 if CARD_DRAW[card] > 0 else 10


@engine_inline
def choose_card(kind, hand, n, cand, rank, color, sizes, nxt, memory, rng):
    """The hand index to play among the candidates ``cand[:n]`` (indices into ``hand``).

    ``color``: the active color; ``sizes``: every seat's hand size; ``nxt``: the seat
    after the decider; ``memory``: the memory row of public events; ``rank``: scratch.
    """
    if kind == RANDOM or n == 1:
        return cand[below(rng, n)]
    if kind == BASIC:
        for k in range(n):
            rank[k] = _basic_shed_rank(hand[cand[k]], color, hand)
        return _best_by_rank(cand, n, rank, rng)
    if kind == HOARDER:
        for k in range(n):
            rank[k] = _hoarder_rank(hand[cand[k]])
        return _best_by_rank(cand, n, rank, rng)
    if kind == COLOR_DENIER:  # a card of a color the next player was seen to lack comes first
        lacks = memory[nxt]
        for k in range(n):
            card = hand[cand[k]]
            denies = card < WILD and (lacks >> CARD_COLOR[card]) & 1 == 1
            rank[k] = _basic_rank(card, color) + (10 if denies else 0)
        return _best_by_rank(cand, n, rank, rng)
    if kind == SEARCH:  # the card search.py chose just before, else basic's preference
        forced = _forced_index(hand, cand, n, memory)
        if forced >= 0:
            return forced
        for k in range(n):
            rank[k] = _basic_shed_rank(hand[cand[k]], color, hand)
        return _best_by_rank(cand, n, rank, rng)
    # AGGRESSIVE: attack a next player low on cards, otherwise shed the most points.
    attack = sizes[nxt] <= 2
    for k in range(n):
        card = hand[cand[k]]
        r = CARD_POINTS[card]
        if attack and CARD_SYMBOL[card] >= 10 and card != WILD:
            r += 100
        rank[k] = r
    return _best_by_rank(cand, n, rank, rng)


@engine_jit
def take_forced(memory, slot):
    """search's choice in ``slot`` (a ``FORCE_*`` slot), 0 for none; the slot is emptied."""
    value = memory[slot]
    memory[slot] = 0
    return value


@engine_jit
def _forced_index(hand, cand, n, memory):
    """The candidate (a hand index among ``cand[:n]``) holding the card search chose, or -1."""
    card = take_forced(memory, FORCE_CARD) - 1
    for k in range(n):
        if hand[cand[k]] == card:
            return cand[k]
    return -1


@engine_jit
def choose_color(kind, hand, nxt, memory, rng):
    """The color the decider names for a wild: random names one uniformly, others their
    commonest; color-denier picks among the colors seat ``nxt`` was seen to lack; search the
    color its search chose for the card, when it chose one (else its commonest)."""
    if kind == RANDOM:
        return below(rng, N_COLORS)
    if kind == SEARCH:
        named = take_forced(memory, FORCE_COLOR) - 1
        if named >= 0:
            return named
    lacks = memory[nxt] if kind == COLOR_DENIER else 0
    allowed = lacks if lacks != 0 else (1 << N_COLORS) - 1
    packed = colors_held(hand)
    # the commonest allowed color in hand, ties uniform (one score per color: N_COLORS is 4)
    scores = (
        _color_score(packed, allowed, 0),
        _color_score(packed, allowed, 1),
        _color_score(packed, allowed, 2),
        _color_score(packed, allowed, 3),
    )
    return max(0, pick_best(scores, N_COLORS, rng))


@engine_inline
def colors_held(hand):
    """How many cards of each color ``hand`` holds, 16 bits per color (wilds not counted)."""
    packed = 0
    for i in range(hand.shape[0]):
        c = hand[i]
        if c < WILD:
            packed += 1 << (16 * CARD_COLOR[c])
    return packed


@engine_inline
def _color_score(packed, allowed, color):
    """choose_color's score of ``color``: the cards of it in hand (``packed``: 16 bits per
    color), or NO_CANDIDATE when ``allowed`` (a bit per color) leaves it out."""
    if (allowed >> color) & 1 == 0:
        return NO_CANDIDATE
    return (packed >> (16 * color)) & 0xFFFF


@engine_jit
def _target(partners, out, p, q):
    """Whether seat ``q`` may be swapped with: an opponent of ``p`` still in (S22)."""
    return is_opponent(partners, p, q) and (out >> q) & 1 == 0


@engine_jit
def choose_swap_target(kind, p, players, partners, out, sizes, memory, rng):
    """The opponent seat ``p`` swaps hands with on a 7 (``sizes``: every seat's hand size;
    ``out``: the seats knocked out, a bit each, never a target); search the seat its search
    chose with the 7, else the fewest cards as basic."""
    if kind == SEARCH:
        forced = take_forced(memory, FORCE_TARGET) - 1
        if forced >= 0 and _target(partners, out, p, forced):
            return forced
    if kind == RANDOM:
        count = 0
        for q in range(players):
            if _target(partners, out, p, q):
                count += 1
        k = below(rng, count)
        for q in range(players):
            if _target(partners, out, p, q):
                if k == 0:
                    return q
                k -= 1
        return p
    fewest = 1 << 30
    ties = 0
    for q in range(players):
        if _target(partners, out, p, q):  # the fewest cards, ties uniform
            if sizes[q] < fewest:
                fewest = sizes[q]
                ties = 1
            elif sizes[q] == fewest:
                ties += 1
    pick = tie_pick(ties, rng)
    for q in range(players):
        if _target(partners, out, p, q) and sizes[q] == fewest:
            if pick == 0:
                return q
            pick -= 1
    return -1


@engine_jit
def choose_roulette_color(kind, hand, discards, deck, rng):
    """The color the victim of a Color Roulette names (S21): ``random`` uniformly; the other
    strategies the color with the most cards it has not seen (the deck less its own hand and
    the discard pile: the color likeliest to show soonest), ties uniform (search too: it
    does not search this choice)."""
    if kind == RANDOM:
        return below(rng, N_COLORS)
    packed = 0  # 16 bits per color: unseen cards of that color
    for i in range(deck.shape[0]):
        if deck[i] < WILD:
            packed += 1 << (16 * CARD_COLOR[deck[i]])
    for i in range(hand.shape[0]):
        if hand[i] < WILD:
            packed -= 1 << (16 * CARD_COLOR[hand[i]])
    for i in range(discards.shape[0]):
        if discards[i] < WILD:
            packed -= 1 << (16 * CARD_COLOR[discards[i]])
    every = (1 << N_COLORS) - 1
    scores = (
        _color_score(packed, every, 0),
        _color_score(packed, every, 1),
        _color_score(packed, every, 2),
        _color_score(packed, every, 3),
    )
    return max(0, pick_best(scores, N_COLORS, rng))


@engine_jit
def choose_stack(kind, hand, cand, n, memory, rng):
    """The card to answer a pending draw with, among ``cand[:n]`` (stacking cards and, with
    ``deflect``, Skips and Reverses of the active color): every shipped strategy answers
    whenever it can, uniformly among those cards (S18); search the card its search chose
    (see :func:`declines_stack`), else uniformly as the others."""
    if kind == SEARCH:
        forced = _forced_index(hand, cand, n, memory)
        if forced >= 0:
            return forced
    return cand[below(rng, n)]


@engine_jit
def declines_stack(kind, memory):
    """Whether the decider, able to stack or deflect a pending draw, draws it instead: only
    search, when its search found drawing better (S6: a player *may* stack)."""
    return kind == SEARCH and take_forced(memory, FORCE_DECLINE) != 0


@engine_jit
def bluffs(kind, knobs, challenges, rng):
    """Whether the decider treats illegal Wild Draw Fours as playable this activation: only
    when challenges are on, with probability ``bluff``; ``basic`` never bluffs."""
    if not challenges or kind == BASIC:
        return False
    return chance(rng, knobs[S_BLUFF])


@engine_jit
def draws_instead(kind, knobs, memory, rng):
    """Whether the decider, holding a playable card, draws instead (its ``voluntary_draw``;
    search: when its search chose to, drawing nothing from ``rng``)."""
    if kind == SEARCH:
        return take_forced(memory, FORCE_DRAW) != 0
    return chance(rng, knobs[S_VOLUNTARY_DRAW])


@engine_jit
def keeps_drawn(kind, knobs, rng):
    """Whether the decider keeps a playable drawn card the rules let it keep (``keep_drawn``)."""
    return chance(rng, knobs[S_KEEP_DRAWN])


@engine_jit
def smart_bluff_estimate(hand, accused_size, discards, deck, restriction, prev_color, prev_top):
    """P(the accused held a card blocking its Wild Draw Four), from what the decider has seen.

    The unseen cards are the deck minus the decider's ``hand`` and the discard pile; the
    accused's hand (``accused_size`` cards after the play) is taken as a uniform sample of
    them, so the chance that it holds at least one blocking card is ``1 - C(U - K, h) / C(U, h)``.
    """
    if restriction == WD4_NONE:
        return 0.0
    number = wd4_top_key(prev_top, restriction)
    unseen = deck.shape[0]
    blocking = 0
    for i in range(deck.shape[0]):
        if blocks_wd4(deck[i], prev_color, number, restriction):
            blocking += 1
    for i in range(hand.shape[0]):
        unseen -= 1
        if blocks_wd4(hand[i], prev_color, number, restriction):
            blocking -= 1
    for i in range(discards.shape[0]):
        unseen -= 1
        if blocks_wd4(discards[i], prev_color, number, restriction):
            blocking -= 1
    h = accused_size
    if unseen <= 0 or h <= 0 or blocking <= 0:
        return 0.0
    p_none = 1.0
    for i in range(h):
        p_none *= max(unseen - blocking - i, 0) / (unseen - i)
    return 1.0 - p_none


@engine_jit
def wants_challenge(
    knobs, memory, hand, accused_size, discards, deck, restriction, prev_color, prev_top
):
    """Whether the decider challenges the Wild Draw Four just played on it (its ``challenge``
    knob; ``smart``: when :func:`smart_bluff_estimate` says a bluff is more likely than not;
    search: what its search chose, when it chose)."""
    if np.int64(knobs[S_KIND]) == SEARCH:
        forced = take_forced(memory, FORCE_CHALLENGE)
        if forced != 0:
            return forced == 1
    mode = np.int64(knobs[S_CHALLENGE])
    if mode == CHALLENGE_ALWAYS:
        return True
    if mode == CHALLENGE_SMART:
        estimate = smart_bluff_estimate(
            hand, accused_size, discards, deck, restriction, prev_color, prev_top
        )
        return estimate > 0.5
    return False

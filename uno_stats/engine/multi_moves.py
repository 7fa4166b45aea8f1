"""Multi-play moves (RULES.md S20) and how each strategy chooses one, from its seat view.

A move is the multiset of cards played together and the card left on top: ``x[id]``
copies of each card id, a first card whose id is in the legal-first mask and a last card
``t``. Legal when ``x`` holds one symbol that may be played together, meets the colour
condition, and the cards can be ordered with a legal first card and ``t`` last. A single
card is the move ``x = {f: 1}``, ``t = f``; identical cards are one move.

Like :mod:`uno_stats.engine.strategies` this module sees only the deciding seat's own hand,
public facts and the memory row of public events, and imports no engine state. Counts live in a
scratch row the caller passes (``counts``: by card id; ``out``: the chosen ``x`` by card id), so
nothing is allocated. A chosen move is returned as ``first * 64 + last``.
"""

from __future__ import annotations

from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_SYMBOL,
    DRAW_TWO,
    N_CARD_TYPES,
    N_COLORS,
    REVERSE,
    SKIP,
    SYMBOLS_PER_COLOR,
    WILD,
)
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.rng import NO_CANDIDATE, below, pick_best
from uno_stats.engine.rules import (
    MULTI_SAME_CARD,
    R_MULTI_PLAY,
    R_MULTI_PLAY_ACTIONS,
    R_NO_ACTION_FINISH,
)
from uno_stats.engine.strategies import COLOR_DENIER, HOARDER, RANDOM

MOVE_SHIFT = 128  # a move is returned as first * MOVE_SHIFT + last (card ids are below 128)


@engine_jit
def joinable(card, actions):
    """Whether ``card`` may be played together with others of its symbol: a number card, or
    with ``multi_play_actions`` a Skip, Reverse or Draw Two; never a wild."""
    if card >= WILD:
        return False
    symbol = CARD_SYMBOL[card]
    if symbol < 10:
        return True
    return actions != 0 and symbol in (SKIP, REVERSE, DRAW_TWO)


@engine_jit
def _count_ids(hand, counts):
    for i in range(N_CARD_TYPES):
        counts[i] = 0
    for i in range(hand.shape[0]):
        counts[hand[i]] += 1


@engine_jit
def _group(symbol, color, mode, counts):
    """The colors (a 4-bit mask) of the group of ``symbol``: every held color under
    ``same-number``, only ``color`` under ``same-number-color``."""
    gm = 0
    for j in range(N_COLORS):
        if counts[j * SYMBOLS_PER_COLOR + symbol] > 0 and (mode != MULTI_SAME_CARD or j == color):
            gm |= 1 << j
    return gm


@engine_jit
def _full_forbidden(symbol, gm, counts, size, no_action_finish):
    """``no_action_finish``: a multi-play of action cards may not empty the hand, so the move
    of the whole group is out when the group is the whole hand."""
    if no_action_finish == 0 or symbol < 10:
        return False
    total = 0
    for j in range(N_COLORS):
        if (gm >> j) & 1:
            total += counts[j * SYMBOLS_PER_COLOR + symbol]
    return total == size


@engine_jit
def _good(symbol, gm, counts, x, t, legal):
    """Whether ``x`` (by color, of ``symbol``) with last color ``t`` is a legal multi-play:
    two or more cards, and some legal first card besides the last one."""
    total = 0
    ok = False
    for j in range(N_COLORS):
        if (gm >> j) & 1 == 0:
            continue
        total += x[j]
        card = j * SYMBOLS_PER_COLOR + symbol
        if (legal >> card) & 1 and x[j] >= 1 + (1 if j == t else 0):
            ok = True
    return total >= 2 and ok


@engine_jit
def _moves_ending(symbol, gm, counts, legal, forbid_full, t):
    """How many multi-plays (two cards or more) of the group ``symbol``/``gm`` end on color
    ``t``, in closed form: the count vectors holding ``t`` and two cards or more, less those
    without a legal first card besides the last (and less the whole group when
    ``forbid_full``)."""
    if (gm >> t) & 1 == 0:
        return 0
    ct = counts[t * SYMBOLS_PER_COLOR + symbol]
    others = 1  # vectors over the other colors
    others_illegal = 1  # ... where every legal color is zero
    for j in range(N_COLORS):
        if (gm >> j) & 1 == 0 or j == t:
            continue
        c = counts[j * SYMBOLS_PER_COLOR + symbol]
        others *= c + 1
        if (legal >> (j * SYMBOLS_PER_COLOR + symbol)) & 1 == 0:
            others_illegal *= c + 1
    with_t = ct * others - 1  # x_t >= 1 and two cards or more
    if (legal >> (t * SYMBOLS_PER_COLOR + symbol)) & 1:
        bad = others_illegal - 1  # x_t == 1 and no other legal card
    else:
        bad = ct * others_illegal - 1
    good = with_t - bad
    if forbid_full and _full_is_good(symbol, gm, counts, t, legal):
        good -= 1
    return good


@engine_jit
def _full_is_good(symbol, gm, counts, t, legal):
    """Whether the whole group, ending on color ``t``, is a legal multi-play."""
    if counts[t * SYMBOLS_PER_COLOR + symbol] == 0:
        return False
    total = 0
    ok = False
    for j in range(N_COLORS):
        if (gm >> j) & 1:
            card = j * SYMBOLS_PER_COLOR + symbol
            total += counts[card]
            if (legal >> card) & 1 and counts[card] >= 1 + (1 if j == t else 0):
                ok = True
    return total >= 2 and ok


@engine_jit
def _unrank(symbol, gm, counts, t, legal, forbid_full, r, out):
    """Write into ``out`` (by card id) the ``r``-th legal vector with last color ``t``, in
    mixed-radix order over the group's colors; returns the first card's id."""
    c0 = counts[symbol] if gm & 1 else 0
    c1 = counts[SYMBOLS_PER_COLOR + symbol] if (gm >> 1) & 1 else 0
    c2 = counts[2 * SYMBOLS_PER_COLOR + symbol] if (gm >> 2) & 1 else 0
    c3 = counts[3 * SYMBOLS_PER_COLOR + symbol] if (gm >> 3) & 1 else 0
    for x0 in range(c0 + 1):
        for x1 in range(c1 + 1):
            for x2 in range(c2 + 1):
                for x3 in range(c3 + 1):
                    x = (x0, x1, x2, x3)
                    if x[t] == 0 or not _good(symbol, gm, counts, x, t, legal):
                        continue
                    if forbid_full and x0 == c0 and x1 == c1 and x2 == c2 and x3 == c3:
                        continue
                    if r > 0:
                        r -= 1
                        continue
                    first = -1
                    for j in range(N_COLORS):
                        card = j * SYMBOLS_PER_COLOR + symbol
                        out[card] = x[j]
                        if first < 0 and (legal >> card) & 1 and x[j] >= 1 + (1 if j == t else 0):
                            first = card
                    return first
    return -1


@engine_jit
def is_legal(card, legal, legal_wild):
    """Whether ``card`` is in the legal set: colored cards as bits of ``legal``, wilds as
    bits ``card - WILD`` of ``legal_wild`` (card ids 64 and up do not fit one int64)."""
    if card < WILD:
        return (legal >> card) & 1 != 0
    return (legal_wild >> (card - WILD)) & 1 != 0


@engine_jit
def _singles(counts, legal, legal_wild):
    n = 0
    for card in range(N_CARD_TYPES):
        if counts[card] > 0 and is_legal(card, legal, legal_wild):
            n += 1
    return n


@engine_jit
def _walk(counts, legal, mode, actions, forbid_actions, size, r, out):
    """With ``r < 0``: the number of multi-plays of the hand ``counts``. Otherwise write the
    ``r``-th of them into ``out`` and return it as ``first * MOVE_SHIFT + last``."""
    total = 0
    groups = N_COLORS if mode == MULTI_SAME_CARD else 1
    for symbol in range(SYMBOLS_PER_COLOR):
        if not joinable(symbol, actions):
            continue
        for color in range(groups):
            gm = _group(symbol, color, mode, counts)
            if gm == 0:
                continue
            full = _full_forbidden(symbol, gm, counts, size, forbid_actions)
            for t in range(N_COLORS):
                k = _moves_ending(symbol, gm, counts, legal, full, t)
                if r >= 0 and r < k:
                    first = _unrank(symbol, gm, counts, t, legal, full, r, out)
                    return first * MOVE_SHIFT + t * SYMBOLS_PER_COLOR + symbol
                if r >= 0:
                    r -= k
                total += k
    return total


@engine_jit
def count_moves(hand, legal, legal_wild, counts, mode, actions, forbid_actions):
    """How many moves (single cards and multi-plays) the hand allows with the legal first
    cards ``legal`` (a mask of colored card ids) and ``legal_wild`` (of wilds, bit
    ``card - WILD``)."""
    _count_ids(hand, counts)
    size = hand.shape[0]
    return _singles(counts, legal, legal_wild) + _walk(
        counts, legal, mode, actions, forbid_actions, size, -1, counts
    )


@engine_jit
def random_move(hand, legal, legal_wild, counts, out, mode, actions, forbid_actions, rng):
    """``random``: a move uniform among every legal move, single cards and multi-plays alike
    (identical cards are one move). Writes the cards into ``out``; returns the move."""
    for card in range(N_CARD_TYPES):
        out[card] = 0
    total = count_moves(hand, legal, legal_wild, counts, mode, actions, forbid_actions)
    r = below(rng, total)
    for card in range(N_CARD_TYPES):
        if counts[card] > 0 and is_legal(card, legal, legal_wild):
            if r == 0:
                out[card] = 1
                return card * MOVE_SHIFT + card
            r -= 1
    return _walk(counts, legal, mode, actions, forbid_actions, hand.shape[0], r, out)


@engine_jit
def extend_move(kind, hand, first, counts, out, mode, actions, forbid_actions, lacks, rng):
    """The other strategies: the card ``first`` their own logic chose, played with every
    other card of its symbol the colour condition allows (``hoarder``: alone, it keeps its
    cards). Under ``no_action_finish`` one card is kept back rather than going out on action
    cards. The last card is of the color the rest of the hand holds most of
    (``color-denier``: a color the next player was seen to lack, ``lacks``, first)."""
    _count_ids(hand, counts)
    for card in range(N_CARD_TYPES):
        out[card] = 0
    out[first] = 1
    single = first * MOVE_SHIFT + first
    if kind == HOARDER or not joinable(first, actions):  # Reading: hoarder keeps its cards
        return single
    symbol = CARD_SYMBOL[first]
    gm = _group(symbol, CARD_COLOR[first], mode, counts)
    total = 0
    for j in range(N_COLORS):
        if (gm >> j) & 1:
            card = j * SYMBOLS_PER_COLOR + symbol
            out[card] = counts[card]
            total += counts[card]
    if total == hand.shape[0] and forbid_actions != 0 and symbol >= 10:
        # Reading: rather than break no_action_finish, keep one action card back.
        drop = first
        for j in range(N_COLORS):  # keep one back: the last card not needed first
            card = j * SYMBOLS_PER_COLOR + symbol
            if out[card] > (1 if card == first else 0):
                drop = card
        out[drop] -= 1
        total -= 1
    if total < 2:
        out[first] = 1
        return single
    held = 0  # 16 bits per color: cards of that color the rest of the hand holds
    for card in range(WILD):
        held += (counts[card] - out[card]) << (16 * CARD_COLOR[card])
    scores = (  # one score per color the move may end on (N_COLORS is 4)
        _last_color_score(out, first, symbol, held, lacks, 0),
        _last_color_score(out, first, symbol, held, lacks, 1),
        _last_color_score(out, first, symbol, held, lacks, 2),
        _last_color_score(out, first, symbol, held, lacks, 3),
    )
    j = pick_best(scores, N_COLORS, rng)
    if j < 0:
        return single
    return first * MOVE_SHIFT + j * SYMBOLS_PER_COLOR + symbol


@engine_inline
def _last_color_score(out, first, symbol, held, lacks, j):
    """extend_move's score of ending on color ``j``: the cards of it the rest of the hand holds
    (``held``: 16 bits per color), color-denier's ``lacks`` first; NO_CANDIDATE when the move
    has no card of that color to end on (``first`` itself must stay first)."""
    card = j * SYMBOLS_PER_COLOR + symbol
    if out[card] < 1 + (1 if card == first else 0):
        return NO_CANDIDATE
    return ((held >> (16 * j)) & 0xFFFF) + (1 << 20 if (lacks >> j) & 1 else 0)


@engine_jit
def choose_move(kind, hand, legal, legal_wild, first, counts, out, rules, memory, nxt, rng):
    """The move of a seat of strategy ``kind``: :func:`random_move` among the moves whose
    first card is in ``legal`` / ``legal_wild`` for ``random``, else :func:`extend_move` of the card
    ``first`` its single-card logic chose (``memory``: the memory row of public events;
    ``nxt``: the seat after it)."""
    mode = rules[R_MULTI_PLAY]
    actions = rules[R_MULTI_PLAY_ACTIONS]
    forbid_actions = rules[R_NO_ACTION_FINISH]
    lacks = memory[nxt] if kind == COLOR_DENIER else 0
    if kind == RANDOM:
        return random_move(hand, legal, legal_wild, counts, out, mode, actions, forbid_actions, rng)
    return extend_move(kind, hand, first, counts, out, mode, actions, forbid_actions, lacks, rng)


@engine_jit
def picks_first(kind):
    """Whether strategy ``kind`` builds its move on the single card its own logic picks
    (every strategy but ``random``, which draws among whole moves)."""
    return kind != RANDOM

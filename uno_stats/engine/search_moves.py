"""The moves ``search`` weighs at a decision, how each is written for the turn code, and
basic's preference among them (search's prior).

A move is one int64: what (a card id, or drawing, challenging, drawing a pending total),
1 + the color to name, 1 + the seat to swap hands with on a 7, and whether a Wild Draw Four
is a bluff. :func:`force` writes the chosen move into the memory row's ``FORCE_*`` slots,
which the choice functions of :mod:`uno_stats.engine.strategies` read.
"""

from __future__ import annotations

from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_SYMBOL,
    N_CARD_TYPES,
    N_COLORS,
    WILD,
    WILD_DRAW_FOUR,
    WILD_ROULETTE,
)
from uno_stats.engine.events import SEARCH_CHALLENGE, SEARCH_DECLINE, SEARCH_DRAW
from uno_stats.engine.jit import engine_jit
from uno_stats.engine.memory_row import (
    FORCE_CARD,
    FORCE_CHALLENGE,
    FORCE_COLOR,
    FORCE_DECLINE,
    FORCE_DRAW,
    FORCE_SLOTS,
    FORCE_TARGET,
)
from uno_stats.engine.piles import can_draw, collect_playable, find_card
from uno_stats.engine.rules import (
    R_RESHUFFLE,
    R_ROULETTE_NAMER,
    R_SEVEN_ZERO,
    R_VOLUNTARY_DRAW,
    R_WD4_CHALLENGE,
    ROULETTE_VICTIM,
)
from uno_stats.engine.state import (
    ST_COLOR,
    ST_DISC_N,
    ST_NO_MERCY_CARDS,
    ST_OUT,
    ST_PARTNERS,
    ST_PEND_CARDS,
    ST_PEND_KIND,
    ST_PENDING,
    ST_PILE_N,
    ST_PLAYERS,
    T_CAND,
    T_DISC,
    T_HANDS,
    T_HN,
    T_RULES,
    T_ST,
)
from uno_stats.engine.strategies import _basic_shed_rank, _target
from uno_stats.engine.turn import _collect_stackers

# A move, one int64: what (a card id, or one of the three moves below), 1 + the color to
# name (bits 7-9, 0: none), 1 + the seat to swap with on a 7 (bits 10-14), a bluff (bit 15).
MOVE_DRAW = SEARCH_DRAW  # draw instead of playing (or rather than bluff, with nothing legal)
MOVE_CHALLENGE = SEARCH_CHALLENGE  # challenge the Wild Draw Four just played on it
MOVE_DECLINE = SEARCH_DECLINE  # draw the pending total: neither challenge nor answer
WHAT_MASK = 127
COLOR_SHIFT = 7
TARGET_SHIFT = 10
BLUFF_BIT = 1 << 15
if N_CARD_TYPES > MOVE_DRAW or max(MOVE_DRAW, MOVE_CHALLENGE, MOVE_DECLINE) > WHAT_MASK:
    raise ImportError("search's moves do not fit their bits")
# An EV_SEARCH event's detail: 1 + the color | 1 + the target << 3 | a bluff << 8 | basic's
# own move << 9 (trace.py reads it).
BASIC_CHOICE_BIT = 1 << 9


@engine_jit
def traced_detail(move):
    """The detail of ``move`` in its EV_SEARCH event (without the basic's-move bit)."""
    detail = (move >> COLOR_SHIFT & 7) | (move >> TARGET_SHIFT & 31) << 3
    return detail | (1 << 8 if move & BLUFF_BIT else 0)


@engine_jit
def challengeable(tab):
    """Whether the pending draw is a fresh Wild Draw Four its victim may challenge (S7)."""
    st = tab[T_ST]
    return (
        tab[T_RULES, R_WD4_CHALLENGE] != 0
        and st[ST_PEND_KIND] == 4
        and st[ST_PEND_CARDS] == 1
        and st[ST_PENDING] == 4
        and tab[T_DISC, st[ST_DISC_N] - 1] == WILD_DRAW_FOUR
    )


@engine_jit
def force(memory, move, challenge_open):
    """Write ``move`` into the memory row's ``FORCE_*`` slots (every other slot emptied);
    with ``challenge_open`` any move but a challenge also says: do not challenge."""
    for k in range(FORCE_SLOTS):
        memory[FORCE_CARD + k] = 0
    what = move & WHAT_MASK
    if what < N_CARD_TYPES:
        memory[FORCE_CARD] = what + 1
        memory[FORCE_COLOR] = move >> COLOR_SHIFT & 7
        memory[FORCE_TARGET] = move >> TARGET_SHIFT & 31
    elif what == MOVE_DRAW:
        memory[FORCE_DRAW] = 1
    elif what == MOVE_DECLINE:
        memory[FORCE_DECLINE] = 1
    if what == MOVE_CHALLENGE:
        memory[FORCE_CHALLENGE] = 1
    elif challenge_open:
        memory[FORCE_CHALLENGE] = 2


@engine_jit
def _add_card(tab, p, card, flags, moves, k):
    """Append the moves of playing ``card``: a wild once per color (a Color Roulette whose
    victim names the color once, S21), a 7 under seven_zero once per opponent still in (S5:
    a last card names nothing and swaps nothing, it goes out); returns the new count (the
    row's width caps it)."""
    st = tab[T_ST]
    limit = moves.shape[0]
    if tab[T_HN, p] == 1:
        if k < limit:
            moves[k] = card | flags
            k += 1
    elif card >= WILD and (
        card != WILD_ROULETTE or tab[T_RULES, R_ROULETTE_NAMER] != ROULETTE_VICTIM
    ):
        for color in range(N_COLORS):
            if k < limit:
                moves[k] = card | (color + 1) << COLOR_SHIFT | flags
                k += 1
    elif tab[T_RULES, R_SEVEN_ZERO] != 0 and CARD_SYMBOL[card] == 7:
        for q in range(st[ST_PLAYERS]):
            if _target(st[ST_PARTNERS], st[ST_OUT], p, q) and k < limit:
                moves[k] = card | (q + 1) << TARGET_SHIFT | flags
                k += 1
    elif k < limit:
        moves[k] = card | flags
        k += 1
    return k


@engine_jit
def _add_distinct(tab, p, n, limit, moves, k):
    """Append the moves of the first ``limit`` distinct cards among the candidates
    ``tab[T_CAND][:n]`` (hand indices of seat ``p``), in hand order; returns the new count,
    the cards tried, and the wilds tried (bit card - WILD)."""
    hands = tab[T_HANDS:]
    cand = tab[T_CAND]
    seen = 0  # the colored cards tried, a bit each (card ids below WILD = 64)
    seen_wilds = 0
    tried = 0
    for i in range(n):
        card = hands[p, cand[i]]
        fresh = (seen >> card) & 1 == 0 if card < WILD else (seen_wilds >> (card - WILD)) & 1 == 0
        if fresh and tried < limit:
            if card < WILD:
                seen |= 1 << card
            else:
                seen_wilds |= 1 << (card - WILD)
            tried += 1
            k = _add_card(tab, p, card, 0, moves, k)
    return k, tried, seen_wilds


@engine_jit
def turn_moves(tab, p, limit, every, draws, moves):
    """Seat ``p``'s moves on a normal turn into ``moves``; returns how many: its distinct
    legal cards (the first ``limit`` in hand order, a wild once per color, a 7 under 7-0
    once per opponent); with ``every`` a Wild Draw Four played as a bluff (challenges on,
    the card held but not legal; drawing instead, when nothing else is legal); with
    ``draws`` drawing instead of playing (``voluntary_draw``)."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    rules = tab[T_RULES]
    cand = tab[T_CAND]  # normal_turn collects the candidates afresh after the search
    top = tab[T_DISC, st[ST_DISC_N] - 1]
    classic = st[ST_NO_MERCY_CARDS] == 0
    n = collect_playable(hands, hn, p, top, st[ST_COLOR], False, rules, cand, classic)
    k, tried, seen_wilds = _add_distinct(tab, p, n, limit, moves, 0)
    bluff = (
        every
        and rules[R_WD4_CHALLENGE] != 0
        and (seen_wilds >> (WILD_DRAW_FOUR - WILD)) & 1 == 0
        and find_card(hands, hn, p, WILD_DRAW_FOUR) >= 0
        and hn[p] > 1  # a bluff that goes out is not a bluff: may_finish_on decides it
    )
    if bluff and tried < limit:
        k = _add_card(tab, p, WILD_DRAW_FOUR, BLUFF_BIT, moves, k)
    voluntary = (
        n > 0
        and rules[R_VOLUNTARY_DRAW] != 0
        and can_draw(st)
        and (rules[R_RESHUFFLE] != 0 or st[ST_PILE_N] > 0)  # S17
    )
    if ((draws and voluntary) or (every and n == 0 and k > 0)) and k < moves.shape[0]:
        moves[k] = MOVE_DRAW
        k += 1
    return k


@engine_jit
def penalty_moves(tab, p, limit, every, moves):
    """Seat ``p``'s moves when it owes a pending draw: challenge (when it may), each card
    that answers it (a Wild Draw Four once per color), draw the total (``every``: all but
    the answers need ``search_moves: all``); returns how many."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    cand = tab[T_CAND]
    top = tab[T_DISC, st[ST_DISC_N] - 1]
    n = _collect_stackers(st, hands, tab[T_HN], p, top, tab[T_RULES], cand)
    k = 0
    challenge = every and challengeable(tab)
    if challenge:
        moves[k] = MOVE_CHALLENGE
        k += 1
    k = _add_distinct(tab, p, n, limit, moves, k)[0]
    if every and (n > 0 or challenge) and k < moves.shape[0]:
        moves[k] = MOVE_DECLINE
        k += 1
    return k


@engine_jit
def _held(hands, hn, p, color):
    """How many cards of ``color`` seat ``p`` holds."""
    count = 0
    for i in range(hn[p]):
        card = hands[p, i]
        if card < WILD and CARD_COLOR[card] == color:
            count += 1
    return count


@engine_jit
def prior_rank(tab, p, move, penalty):
    """Basic's preference among moves (higher first; equal ranks: basic is indifferent):
    a legal card by basic's rank (an answer to a pending draw all alike), a wild naming a
    color the hand holds most of, a 7 swapping with an opponent holding the fewest cards;
    then a bluff, drawing a pending total, challenging, and drawing instead of playing."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    what = move & WHAT_MASK
    if what == MOVE_DRAW:
        return 0
    if what == MOVE_CHALLENGE:
        return 1
    if what == MOVE_DECLINE:
        return 2
    if move & BLUFF_BIT:
        rank = 8
    elif penalty:
        rank = 40
    else:
        rank = 16 + 8 * _basic_shed_rank(what, st[ST_COLOR], hands[p, : hn[p]])
    color = (move >> COLOR_SHIFT & 7) - 1
    if color >= 0:
        most = 0
        for c in range(N_COLORS):
            most = max(most, _held(hands, hn, p, c))
        rank += 4 if _held(hands, hn, p, color) == most else 0
    else:
        rank += 4
    target = (move >> TARGET_SHIFT & 31) - 1
    if target >= 0:
        fewest = 1 << 30
        for q in range(st[ST_PLAYERS]):
            if _target(st[ST_PARTNERS], st[ST_OUT], p, q):
                fewest = min(fewest, hn[q])
        rank += 2 if hn[target] == fewest else 0
    else:
        rank += 2
    return rank

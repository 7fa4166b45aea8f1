"""Card movements and legality: drawing with lazy refill, hands, matching, Wild Draw Four."""

from __future__ import annotations

from uno_stats.engine.cards import (
    ACTION_MASK,
    CARD_COLOR,
    CARD_IS_ACTION,
    CARD_POINTS,
    CARD_SYMBOL,
    CLASSIC_ACTION_MASK,
    CLASSIC_BIT,
    CLASSIC_COLOR_MASK,
    CLASSIC_COLORED_MASK,
    CLASSIC_OTHER_WILDS_MASK,
    CLASSIC_WD4_BIT,
    CLASSIC_WILDS_MASK,
    COLOR_MASK,
    OTHER_WILDS_MASK,
    SYMBOL_MASK,
    WILD,
    WILD_DRAW_FOUR,
)
from uno_stats.engine.events import EV_DRAW, EV_EXHAUSTED, EV_REFILL, emit
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.legal import blocks_wd4, wd4_top_key
from uno_stats.engine.mercy import is_out, mercy_check
from uno_stats.engine.rng import shuffle
from uno_stats.engine.rules import (
    EXHAUSTED_FEWEST_POINTS,
    R_EXHAUSTED_WINNER,
    R_MERCY_LIMIT,
    R_NO_ACTION_FINISH,
    R_RESHUFFLE,
    R_WD4_RESTRICTION,
    WD4_COLOR_OR_NUMBER,
    WD4_COLOR_OR_WILD,
    WD4_NO_OTHER_PLAY,
    WD4_NONE,
)
from uno_stats.engine.schema import STATUS_EXHAUSTED
from uno_stats.engine.state import (
    ST_CARDS_DRAWN,
    ST_DISC_N,
    ST_LARGEST_HAND,
    ST_PASSES,
    ST_PILE_N,
    ST_PLAYERS,
    ST_RESHUFFLES,
    ST_STATUS,
    ST_WINNER,
    T_DISC,
    T_HANDS,
    T_HN,
    T_PILE,
    T_RULES,
    T_ST,
)


@engine_jit
def can_draw(st):
    """True when a card can be drawn now (the pile, or discards to refill it from)."""
    return st[ST_PILE_N] > 0 or st[ST_DISC_N] > 1


@engine_jit
def refill(tab, rng, ev):
    """Shuffle every discard but the top into the empty draw pile (RULES.md, Refill)."""
    st, pile, disc = tab[T_ST], tab[T_PILE], tab[T_DISC]
    n = st[ST_DISC_N] - 1
    if n <= 0:
        return
    for i in range(n):
        pile[i] = disc[i]
    disc[0] = disc[n]
    st[ST_DISC_N] = 1
    shuffle(pile, n, rng)
    st[ST_PILE_N] = n
    st[ST_RESHUFFLES] += 1
    emit(st, ev, EV_REFILL, -1, n, 0, 0, 0)


@engine_jit
def exhaust(tab, p, ev):
    """S17 (``reshuffle: false``): seat ``p`` found the draw pile empty; a round still in
    play ends as ``exhausted``, won by the seat with the fewest cards (or card points),
    by nobody on a tie for fewest."""
    st, hands, hn = tab[T_ST], tab[T_HANDS:], tab[T_HN]
    if st[ST_STATUS] >= 0:
        return  # a final penalty after going out: the round stays won
    by_points = tab[T_RULES, R_EXHAUSTED_WINNER] == EXHAUSTED_FEWEST_POINTS
    best = -1
    low = 0
    first = True
    for s in range(st[ST_PLAYERS]):
        if is_out(st, s):  # S22: a seat knocked out takes no part
            continue
        score = hn[s]
        if by_points:
            score = 0
            for i in range(hn[s]):
                score += CARD_POINTS[hands[s, i]]
        if first or score < low:
            first = False
            low = score
            best = s
        elif score == low:
            best = -1  # a tie for fewest so far
    st[ST_STATUS] = STATUS_EXHAUSTED
    st[ST_WINNER] = best
    emit(st, ev, EV_EXHAUSTED, p, best, 0, 0, 0)


@engine_inline
def draw_card(tab, p, rng, ev, reason):
    """Seat ``p`` draws one card into its hand; returns it, or -1 when none can be drawn.

    S22: a hand that reaches ``mercy_limit`` cards while the round is in play is knocked
    out at once (callers stop drawing for a seat that is out)."""
    st, hands, hn, pile = tab[T_ST], tab[T_HANDS:], tab[T_HN], tab[T_PILE]
    if st[ST_PILE_N] == 0:
        if tab[T_RULES, R_RESHUFFLE] == 0:  # S17: no reshuffle, the round is over
            exhaust(tab, p, ev)
            return -1
        refill(tab, rng, ev)
        if st[ST_PILE_N] == 0:
            return -1
    st[ST_PILE_N] -= 1
    card = pile[st[ST_PILE_N]]
    hands[p, hn[p]] = card
    hn[p] += 1
    if hn[p] > st[ST_LARGEST_HAND]:
        st[ST_LARGEST_HAND] = hn[p]
    st[ST_CARDS_DRAWN] += 1
    st[ST_PASSES] = 0
    emit(st, ev, EV_DRAW, p, card, reason, 0, 0)
    if tab[T_RULES, R_MERCY_LIMIT] > 0:  # S22, out of line: one test per card without it
        mercy_check(tab, p, ev)
    return card


@engine_jit
def draw_cards(tab, p, n, rng, ev, reason):
    """Seat ``p`` draws up to ``n`` cards (stopping short when none are left); returns the count."""
    st = tab[T_ST]
    got = 0
    for _ in range(n):
        if draw_card(tab, p, rng, ev, reason) < 0:
            break
        got += 1
        if is_out(st, p):  # S22: the rest of the draw lapses
            break
    return got


@engine_jit
def take_from_hand(hands, hn, p, idx):
    """Remove and return the card at ``idx`` of seat ``p``'s hand (the last card fills the gap)."""
    card = hands[p, idx]
    last = hn[p] - 1
    hands[p, idx] = hands[p, last]
    hn[p] = last
    return card


@engine_jit
def find_card(hands, hn, p, card):
    """Index of ``card`` in seat ``p``'s hand, or -1."""
    for i in range(hn[p]):
        if hands[p, i] == card:
            return i
    return -1


@engine_jit
def matches(card, top, color):
    """Color, number or symbol match on the top discard; every wild matches."""
    if card >= WILD:
        return True
    return CARD_COLOR[card] == color or CARD_SYMBOL[card] == CARD_SYMBOL[top]


@engine_jit
def may_finish_on(card, hand_size, rules):
    """False when ``no_action_finish`` forbids ``card`` as its player's last."""
    return not (hand_size == 1 and rules[R_NO_ACTION_FINISH] != 0 and CARD_IS_ACTION[card] != 0)


@engine_jit
def wd4_allowed(hands, hn, p, color, top, rules):
    """Whether seat ``p``'s hand (without its Wild Draw Fours) permits a Wild Draw Four.

    Nothing blocks under ``none``; otherwise any card :func:`legal.blocks_wd4` names does.
    """
    restriction = rules[R_WD4_RESTRICTION]
    if restriction == WD4_NONE:
        return True
    number = wd4_top_key(top, restriction)
    for i in range(hn[p]):
        if blocks_wd4(hands[p, i], color, number, restriction):
            return False
    return True


@engine_jit
def playable(card, hand_size, top, color, wd4_ok, rules):
    """Whether ``card`` may be played on a normal turn (``wd4_ok`` already includes a bluff)."""
    if not may_finish_on(card, hand_size, rules):
        return False
    if card == WILD_DRAW_FOUR:
        return wd4_ok
    return matches(card, top, color)


@engine_jit
def wd4_blockers(color, top, restriction):
    """The colored cards (a :data:`cards.COLOR_MASK`-style mask) whose holding makes a Wild
    Draw Four illegal under ``restriction``: the mask form of :func:`legal.blocks_wd4`."""
    blockers = COLOR_MASK[color]
    if restriction in (WD4_COLOR_OR_NUMBER, WD4_NO_OTHER_PLAY):
        key = wd4_top_key(top, restriction)
        if key >= 0:
            blockers |= SYMBOL_MASK[key]
    return blockers


@engine_jit
def wild_wd4_blockers(restriction):
    """The wilds (bits ``card - WILD``) whose holding makes a Wild Draw Four illegal: every
    wild but another Wild Draw Four under ``color-or-wild`` and ``no-other-play``."""
    if restriction in (WD4_COLOR_OR_WILD, WD4_NO_OTHER_PLAY):
        return OTHER_WILDS_MASK
    return 0


@engine_jit
def _unblocked(hands, hn, p, color, top, restriction):
    """Whether seat ``p`` holds none of the cards that block a Wild Draw Four: the mask form
    of :func:`wd4_allowed`, the hand's colored cards and wilds as masks of their own."""
    held = 0
    held_wild = 0
    for i in range(hn[p]):
        card = hands[p, i]
        if card < WILD:
            held |= 1 << card
        else:
            held_wild |= 1 << (card - WILD)
    blockers = wd4_blockers(color, top, restriction)
    return held & blockers == 0 and held_wild & wild_wd4_blockers(restriction) == 0


@engine_jit
def _drop_wd4(hands, p, cand, n):
    """The candidates ``cand[:n]`` without the Wild Draw Fours, in order; returns how many."""
    kept = 0
    for k in range(n):
        cand[kept] = cand[k]
        kept += 1 if hands[p, cand[k]] != WILD_DRAW_FOUR else 0
    return kept


@engine_inline
def collect_playable(hands, hn, p, top, color, bluff, rules, cand, classic):
    """Fill ``cand`` with the hand indices of every playable card; returns how many.

    The same test as :func:`playable`, as a mask of the playable cards built once per turn,
    so the one scan of the hand (this runs every turn) has no branch. ``classic``: the deck
    holds no No Mercy card (``state.ST_NO_MERCY_CARDS``), so every card has a bit of one
    int64 (``cards.CLASSIC_BIT``); otherwise colored cards and wilds are tested apart. A
    Wild Draw Four is playable when ``bluff`` is set or the hand holds none of its blockers;
    when it is not, its entries are dropped after the scan.
    """
    if classic:
        return _collect_classic(hands, hn, p, top, color, bluff, rules, cand)
    return _collect_any(hands, hn, p, top, color, bluff, rules, cand)


@engine_inline
def _collect_classic(hands, hn, p, top, color, bluff, rules, cand):
    """:func:`collect_playable` for a deck of classic cards: one word, one shift a card."""
    size = hn[p]
    legal = CLASSIC_COLOR_MASK[color] | SYMBOL_MASK[CARD_SYMBOL[top]] | CLASSIC_WILDS_MASK
    if size == 1 and rules[R_NO_ACTION_FINISH] != 0:
        legal &= ~CLASSIC_ACTION_MASK
    held = 0
    n = 0
    for i in range(size):  # a Wild Draw Four counts as playable until judged below
        bit = CLASSIC_BIT[hands[p, i]]
        held |= 1 << bit
        cand[n] = i
        n += (legal >> bit) & 1
    if held & legal & CLASSIC_WD4_BIT != 0:
        restriction = rules[R_WD4_RESTRICTION]
        if not (
            bluff
            or restriction == WD4_NONE
            or held & classic_wd4_blockers(color, top, restriction) == 0
        ):
            n = _drop_wd4(hands, p, cand, n)
    return n


@engine_jit
def classic_wd4_blockers(color, top, restriction):
    """:func:`wd4_blockers` and :func:`wild_wd4_blockers` as one mask of classic bits."""
    blockers = wd4_blockers(color, top, restriction) & CLASSIC_COLORED_MASK
    if wild_wd4_blockers(restriction) != 0:
        blockers |= CLASSIC_OTHER_WILDS_MASK
    return blockers


@engine_inline
def _collect_any(hands, hn, p, top, color, bluff, rules, cand):
    """:func:`collect_playable` for any deck: the colored cards' ids fill one int64, the
    wilds (ids 64 and up) are playable but under ``no_action_finish``."""
    size = hn[p]
    legal = COLOR_MASK[color] | SYMBOL_MASK[CARD_SYMBOL[top]]
    wilds = 1  # every wild is playable (a Wild Draw Four until judged below)
    if size == 1 and rules[R_NO_ACTION_FINISH] != 0:
        legal &= ~ACTION_MASK
        wilds = 0
    wd4 = False  # a Wild Draw Four is held
    n = 0
    for i in range(size):
        card = hands[p, i]
        cand[n] = i
        n += wilds if card >= WILD else (legal >> card) & 1  # ids 64 and up: the wilds
        wd4 |= card == WILD_DRAW_FOUR
    if wd4 and wilds != 0:
        restriction = rules[R_WD4_RESTRICTION]
        if not (
            bluff or restriction == WD4_NONE or _unblocked(hands, hn, p, color, top, restriction)
        ):
            n = _drop_wd4(hands, p, cand, n)
    return n

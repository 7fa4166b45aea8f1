"""Playing a card: removing it from the hand, the UNO call, going out, jump-ins (S8) and the
card's effect, with the public events strategies observe.

Every function works on the preallocated arrays of :class:`uno_stats.engine.state.Table`
and allocates nothing.
"""

from __future__ import annotations

from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_SYMBOL,
    DRAW_TWO,
    REVERSE,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE,
)
from uno_stats.engine.events import (
    DRAW_FINAL,
    DRAW_UNO,
    EV_COLOR,
    EV_DEFLECT,
    EV_EXTRA_TURN,
    EV_JUMP,
    EV_LOSE_TURN,
    EV_PENALTY,
    EV_PLAY,
    EV_REVERSE,
    EV_STACK,
    EV_UNO,
    LOST_TO_SKIP,
    PLAY_DEFLECT,
    PLAY_JUMP,
    UNO_CALLED,
    UNO_CAUGHT,
    UNO_FORGOT,
    emit,
)
from uno_stats.engine.hands import measure, rotate_hands, shuffle_hands, swap_hands
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.legal import is_opponent
from uno_stats.engine.piles import (
    draw_cards,
    find_card,
    may_finish_on,
    take_from_hand,
    wd4_allowed,
)
from uno_stats.engine.rng import chance
from uno_stats.engine.rules import (
    CUSTOM_EXTRA_TURN,
    R_CUSTOM_CARD_RULE,
    R_FINAL_PENALTY,
    R_JUMP_IN,
    R_MAX_TURNS,
    R_SEVEN_ZERO,
    R_TWO_PLAYER_RULES,
    R_UNO_PENALTY,
)
from uno_stats.engine.schema import STATUS_WON
from uno_stats.engine.state import (
    ST_COLOR,
    ST_CUR,
    ST_DIR,
    ST_DISC_N,
    ST_HAND_SHUFFLES,
    ST_JUMP_INS,
    ST_LONGEST_STACK,
    ST_OBSERVED,
    ST_PARTNERS,
    ST_PASSES,
    ST_PEND_CARDS,
    ST_PEND_KIND,
    ST_PENDING,
    ST_PLAYERS,
    ST_SEVEN_SWAPS,
    ST_STACK_TOTAL,
    ST_STATUS,
    ST_TURNS,
    ST_UNO_PENALTIES,
    ST_WD4_LEGAL,
    ST_WD4_PLAYER,
    ST_WD4_PREV_COLOR,
    ST_WD4_PREV_TOP,
    ST_WINNER,
    ST_ZERO_PASSES,
    T_DISC,
    T_HANDS,
    T_HN,
    T_MEMORY,
    T_RULES,
    T_ST,
)
from uno_stats.engine.strategies import (
    SEEN_HANDS_MOVED,
    SEEN_PLAY,
    choose_color,
    choose_swap_target,
    observe,
    strategy_of,
)
from uno_stats.engine.strategy_table import S_CATCH_UNO, S_FORGET_UNO


@engine_jit
def next_seat(st, p):
    """The seat after ``p`` in the direction of play (a wrap, not a division: every turn)."""
    q = p + st[ST_DIR]
    if q >= st[ST_PLAYERS]:
        return q - st[ST_PLAYERS]
    if q < 0:
        return q + st[ST_PLAYERS]
    return q


@engine_inline
def announce(tab, what, seat, value):
    """Show every seat's strategy a public event (``strategies.SEEN_*``); a no-op unless
    some seat's strategy keeps a memory (then the shared memory row is updated once)."""
    st = tab[T_ST]
    if st[ST_OBSERVED] != 0:
        observe(tab[T_MEMORY], st[ST_PLAYERS], what, seat, value)


@engine_jit
def draw_value(card):
    """2 for a Draw Two, 4 for a Wild Draw Four, 0 otherwise."""
    if card == WILD_DRAW_FOUR:
        return 4
    if card < WILD and CARD_SYMBOL[card] == DRAW_TWO:
        return 2
    return 0


@engine_inline
def uno_call(tab, p, seats, rng, ev):
    """S10: the call on the next-to-last card; a caught miss draws ``uno_penalty`` at once."""
    st = tab[T_ST]
    rules = tab[T_RULES]
    penalty = rules[R_UNO_PENALTY]
    if penalty == 0:
        return
    if not chance(rng, seats[p, S_FORGET_UNO]):
        emit(st, ev, EV_UNO, p, UNO_CALLED, 0, 0, 0)
        return
    caught = False
    for q in range(st[ST_PLAYERS]):
        if is_opponent(st[ST_PARTNERS], p, q) and chance(rng, seats[q, S_CATCH_UNO]):
            caught = True
            break
    if caught:
        emit(st, ev, EV_UNO, p, UNO_CAUGHT, 0, 0, 0)
        st[ST_UNO_PENALTIES] += 1
        draw_cards(tab, p, penalty, rng, ev, DRAW_UNO)
    else:
        emit(st, ev, EV_UNO, p, UNO_FORGOT, 0, 0, 0)


@engine_jit
def _find_jumper(st, hands, hn, p, card, rules):
    """S8: the first other seat in the direction of play holding ``card`` and allowed to play it."""
    players = st[ST_PLAYERS]
    for k in range(1, players):
        q = (p + st[ST_DIR] * k) % players
        if may_finish_on(card, hn[q], rules) and find_card(hands, hn, q, card) >= 0:
            return q
    return -1


@engine_jit
def add_penalty(st, card):
    """Grow the pending draw total by ``card``'s value and keep the stack records."""
    st[ST_PENDING] += draw_value(card)
    st[ST_PEND_CARDS] += 1
    st[ST_PEND_KIND] = draw_value(card)
    if st[ST_PEND_CARDS] > st[ST_LONGEST_STACK]:
        st[ST_LONGEST_STACK] = st[ST_PEND_CARDS]
    if st[ST_PENDING] > st[ST_STACK_TOTAL]:
        st[ST_STACK_TOTAL] = st[ST_PENDING]


@engine_jit
def clear_penalty(st):
    st[ST_PENDING] = 0
    st[ST_PEND_CARDS] = 0
    st[ST_PEND_KIND] = 0


@engine_jit
def go_out(tab, p, card, rng, ev):
    """S5: emptying the hand ends the round; only the final penalty is still drawn."""
    st = tab[T_ST]
    rules = tab[T_RULES]
    st[ST_STATUS] = STATUS_WON
    st[ST_WINNER] = p
    if rules[R_FINAL_PENALTY] != 0 and draw_value(card) > 0:
        add_penalty(st, card)
        victim = next_seat(st, p)
        emit(st, ev, EV_PENALTY, victim, st[ST_PENDING], DRAW_FINAL, 0, 0)
        draw_cards(tab, victim, st[ST_PENDING], rng, ev, DRAW_FINAL)
    clear_penalty(st)


@engine_inline
def apply_effect(tab, p, card, seats, rng, ev):
    """The effect of the card ``p`` just played (not jumped on), setting the next active seat."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    rules = tab[T_RULES]
    players = st[ST_PLAYERS]
    sym = CARD_SYMBOL[card]
    nxt = next_seat(st, p)
    if draw_value(card) > 0:
        add_penalty(st, card)
        if st[ST_PEND_CARDS] > 1:
            emit(st, ev, EV_STACK, p, st[ST_PENDING], 0, 0, 0)
        st[ST_CUR] = nxt
    elif card < WILD and sym == SKIP:
        emit(st, ev, EV_LOSE_TURN, nxt, LOST_TO_SKIP, 0, 0, 0)
        st[ST_CUR] = next_seat(st, nxt)
    elif card < WILD and sym == REVERSE:
        if players == 2 and rules[R_TWO_PLAYER_RULES] != 0:
            emit(st, ev, EV_LOSE_TURN, nxt, LOST_TO_SKIP, 0, 0, 0)  # a Reverse acts as a Skip
            st[ST_CUR] = p
        else:
            st[ST_DIR] = -st[ST_DIR]
            emit(st, ev, EV_REVERSE, p, st[ST_DIR], 0, 0, 0)
            st[ST_CUR] = next_seat(st, p)
    elif card == WILD_SHUFFLE:
        shuffle_hands(st, hands, hn, p, rng, ev)  # S12
        announce(tab, SEEN_HANDS_MOVED, p, 0)
        st[ST_HAND_SHUFFLES] += 1
        st[ST_CUR] = nxt
    elif card == WILD_CUSTOM and rules[R_CUSTOM_CARD_RULE] == CUSTOM_EXTRA_TURN:
        emit(st, ev, EV_EXTRA_TURN, p, 0, 0, 0, 0)
        st[ST_CUR] = p
    elif card < WILD and rules[R_SEVEN_ZERO] != 0 and sym == 7:
        kind = strategy_of(seats, p)
        memory = tab[T_MEMORY]
        q = choose_swap_target(kind, p, players, st[ST_PARTNERS], hn, memory, rng)  # S9
        swap_hands(st, hands, hn, p, q, ev)
        announce(tab, SEEN_HANDS_MOVED, p, 0)
        st[ST_SEVEN_SWAPS] += 1
        st[ST_CUR] = nxt
    elif card < WILD and rules[R_SEVEN_ZERO] != 0 and sym == 0:
        rotate_hands(st, hands, hn, p, ev)  # S9
        announce(tab, SEEN_HANDS_MOVED, p, 0)
        st[ST_ZERO_PASSES] += 1
        st[ST_CUR] = nxt
    else:
        st[ST_CUR] = nxt


@engine_jit
def _deflect(tab, p, card, ev):
    """S18: a Skip passes the pending total on to the next player; a Reverse turns play
    round and sends it back to its sender. The total, its cards and kind are unchanged."""
    st = tab[T_ST]
    if CARD_SYMBOL[card] == REVERSE:
        st[ST_DIR] = -st[ST_DIR]
        emit(st, ev, EV_REVERSE, p, st[ST_DIR], 0, 0, 0)
    st[ST_CUR] = next_seat(st, p)
    emit(st, ev, EV_DEFLECT, st[ST_CUR], st[ST_PENDING], 0, 0, 0)


@engine_inline
def play_card(tab, p, idx, how, seats, rng, ev):
    """Seat ``p`` plays the card at ``idx``; resolves UNO, going out, jump-ins and the effect."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    disc = tab[T_DISC]
    rules = tab[T_RULES]
    while True:
        top = disc[st[ST_DISC_N] - 1]
        color_before = st[ST_COLOR]
        card = take_from_hand(hands, hn, p, idx)
        announce(tab, SEEN_PLAY, p, card)
        if card == WILD_DRAW_FOUR:  # judged now, for a later challenge (S7)
            st[ST_WD4_PLAYER] = p
            st[ST_WD4_LEGAL] = 1 if wd4_allowed(hands, hn, p, color_before, top, rules) else 0
            st[ST_WD4_PREV_COLOR] = color_before
            st[ST_WD4_PREV_TOP] = top
        disc[st[ST_DISC_N]] = card
        st[ST_DISC_N] += 1
        st[ST_PASSES] = 0
        emit(st, ev, EV_PLAY, p, card, how, hn[p], 0)
        if card >= WILD:
            if hn[p] > 0:
                kind = strategy_of(seats, p)
                memory = tab[T_MEMORY]
                st[ST_COLOR] = choose_color(kind, hands[p, : hn[p]], next_seat(st, p), memory, rng)
                emit(st, ev, EV_COLOR, p, st[ST_COLOR], 0, 0, 0)
        else:
            st[ST_COLOR] = CARD_COLOR[card]
        if hn[p] == 1:
            uno_call(tab, p, seats, rng, ev)
            if st[ST_STATUS] >= 0:  # S17: the UNO penalty ran the pile out
                return
        if hn[p] == 0:
            go_out(tab, p, card, rng, ev)
            return
        if how == PLAY_DEFLECT:  # S18: nobody jumps in on a deflect
            _deflect(tab, p, card, ev)
            return
        if rules[R_JUMP_IN] != 0 and card < WILD and st[ST_TURNS] < rules[R_MAX_TURNS]:
            jumper = _find_jumper(st, hands, hn, p, card, rules)
            if jumper >= 0:  # S8: the jumped card's effect lapses
                measure(tab)
                st[ST_TURNS] += 1
                st[ST_JUMP_INS] += 1
                emit(st, ev, EV_JUMP, jumper, p, card, 0, 0)
                idx = find_card(hands, hn, jumper, card)
                p = jumper
                how = PLAY_JUMP
                continue
        apply_effect(tab, p, card, seats, rng, ev)
        return

"""Playing a card: removing it from the hand, the UNO call, going out, jump-ins (S8) and the
card's effect, with the public events strategies observe.

Every function works on the preallocated arrays of :class:`uno_stats.engine.state.Table`
and allocates nothing.
"""

from __future__ import annotations

from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_DRAW,
    CARD_SYMBOL,
    DISCARD_ALL,
    REVERSE,
    SKIP,
    SKIP_EVERYONE,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_REVERSE_DRAW_FOUR,
    WILD_ROULETTE,
    WILD_SHUFFLE,
)
from uno_stats.engine.events import (
    DRAW_FINAL,
    DRAW_ROULETTE,
    DRAW_UNO,
    EV_COLOR,
    EV_DEFLECT,
    EV_DISCARD_ALL,
    EV_EXTRA_TURN,
    EV_JUMP,
    EV_LOSE_TURN,
    EV_PENALTY,
    EV_PLAY,
    EV_REVERSE,
    EV_ROULETTE,
    EV_SKIP_ALL,
    EV_STACK,
    EV_UNO,
    LOST_TO_PENALTY,
    LOST_TO_SKIP,
    PLAY_DEFLECT,
    PLAY_JUMP,
    PLAY_NORMAL,
    UNO_CALLED,
    UNO_CAUGHT,
    UNO_FORGOT,
    emit,
)
from uno_stats.engine.hands import measure, rotate_hands, shuffle_hands, swap_hands
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.legal import is_opponent
from uno_stats.engine.memory_row import (
    SEEN_HANDS_MOVED,
    SEEN_PLAY,
    observe,
    observe_in_rollout,
    record_play,
)
from uno_stats.engine.mercy import is_out
from uno_stats.engine.piles import (
    draw_card,
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
    R_ROULETTE_NAMER,
    R_SEVEN_ZERO,
    R_TWO_PLAYER_RULES,
    R_UNO_PENALTY,
    ROULETTE_VICTIM,
)
from uno_stats.engine.schema import STATUS_WON
from uno_stats.engine.state import (
    NEXT_SEATS,
    ST_COLOR,
    ST_CUR,
    ST_DIR,
    ST_DISC_N,
    ST_HAND_SHUFFLES,
    ST_JUMP_INS,
    ST_LEFT,
    ST_LONGEST_STACK,
    ST_OBSERVED,
    ST_OUT,
    ST_PARTNERS,
    ST_PASSES,
    ST_PEND_CARDS,
    ST_PEND_KIND,
    ST_PENDING,
    ST_PLAYERS,
    ST_ROULETTE_DRAWS,
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
    deck_of,
)
from uno_stats.engine.strategies import (
    choose_color,
    choose_roulette_color,
    choose_swap_target,
    strategy_of,
)
from uno_stats.engine.strategy_table import IN_ROLLOUT, RECORDS_PLAYS, S_CATCH_UNO, S_FORGET_UNO


@engine_jit
def next_seat(st, p):
    """The seat after ``p`` in the direction of play, passing by the seats knocked out
    (S22): one read of the order of play (``state.NEXT_SEATS``, kept by
    ``state.link_seats``), no branch, so LLVM inlines it at every call."""
    return st[NEXT_SEATS + 2 * p + (1 if st[ST_DIR] < 0 else 0)]


@engine_inline
def announce(tab, what, seat, value):
    """Show every seat's strategy a public event (``memory_row.SEEN_*``); a no-op unless
    some seat's strategy keeps a memory (then the shared memory row is updated once; in a
    search's rollout only the part its strategies read there)."""
    st = tab[T_ST]
    if st[ST_OBSERVED] & IN_ROLLOUT:
        observe_in_rollout(tab[T_MEMORY], st[ST_PLAYERS], what, seat, value)
    elif st[ST_OBSERVED] != 0:
        observe(tab[T_MEMORY], st[ST_PLAYERS], what, seat, value)


@engine_jit
def draw_value(card):
    """What ``card`` adds to a pending draw total: 2 for a Draw Two, 4 for a Wild Draw Four
    or a No Mercy Draw Four or Wild Reverse Draw Four, 6 and 10 for the Wild Draw Six and
    Ten (S21); 0 for any other card."""
    return CARD_DRAW[card]


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
        if (
            is_opponent(st[ST_PARTNERS], p, q)
            and (st[ST_OUT] >> q) & 1 == 0  # S22: a seat knocked out catches nobody
            and chance(rng, seats[q, S_CATCH_UNO])
        ):
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
        if card == WILD_REVERSE_DRAW_FOUR:  # S21: it reverses, then the next seat draws
            st[ST_DIR] = -st[ST_DIR]
            emit(st, ev, EV_REVERSE, p, st[ST_DIR], 0, 0, 0)
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
        if card == WILD_REVERSE_DRAW_FOUR:  # S21: it reverses, then the next seat owes 4
            st[ST_DIR] = -st[ST_DIR]
            emit(st, ev, EV_REVERSE, p, st[ST_DIR], 0, 0, 0)
            nxt = next_seat(st, p)
        add_penalty(st, card)
        if st[ST_PEND_CARDS] > 1:
            emit(st, ev, EV_STACK, p, st[ST_PENDING], 0, 0, 0)
        st[ST_CUR] = nxt
    elif card < WILD and sym == SKIP:
        emit(st, ev, EV_LOSE_TURN, nxt, LOST_TO_SKIP, 0, 0, 0)
        st[ST_CUR] = next_seat(st, nxt)
    elif card < WILD and sym == REVERSE:
        # two players (S22: two seats left) with two_player_rules: a Reverse acts as a Skip
        if st[ST_LEFT] == 2 and rules[R_TWO_PLAYER_RULES] != 0:
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
        partners, out, memory = st[ST_PARTNERS], st[ST_OUT], tab[T_MEMORY]
        q = choose_swap_target(kind, p, players, partners, out, hn, memory, rng)  # S9
        swap_hands(st, hands, hn, p, q, ev)
        announce(tab, SEEN_HANDS_MOVED, p, 0)
        st[ST_SEVEN_SWAPS] += 1
        st[ST_CUR] = nxt
    elif card < WILD and rules[R_SEVEN_ZERO] != 0 and sym == 0:
        rotate_hands(st, hands, hn, p, ev)  # S9
        announce(tab, SEEN_HANDS_MOVED, p, 0)
        st[ST_ZERO_PASSES] += 1
        st[ST_CUR] = nxt
    elif sym < SKIP_EVERYONE or (card >= WILD and card != WILD_ROULETTE):
        st[ST_CUR] = nxt  # a number, or a wild without an effect of its own
    else:  # S21: Skip Everyone, Discard All, Wild Color Roulette (one call, out of line)
        no_mercy_effect(tab, p, card, seats, rng, ev)


@engine_jit
def no_mercy_effect(tab, p, card, seats, rng, ev):
    """S21: the effect of a Skip Everyone (every other seat is skipped: its player plays
    again), a Discard All or a Wild Color Roulette."""
    st = tab[T_ST]
    sym = CARD_SYMBOL[card]
    if sym == SKIP_EVERYONE:
        emit(st, ev, EV_SKIP_ALL, p, 0, 0, 0, 0)
        st[ST_CUR] = p
    elif sym == DISCARD_ALL:
        discard_all(tab, p, card, seats, rng, ev)
    else:
        roulette(tab, p, seats, rng, ev)


@engine_jit
def discard_all(tab, p, card, seats, rng, ev):
    """S21: the Discard All's player also discards every card of its color, beneath it (the
    Discard All stays on top); a hand it empties goes out (S5), one left of two or more is
    judged for the UNO call (S10, as a multi-play's, S20.5)."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    disc = tab[T_DISC]
    color = CARD_COLOR[card]
    top = st[ST_DISC_N] - 1  # the Discard All: the discarded cards go where it lies
    before = hn[p]
    i = 0
    while i < hn[p]:
        c = hands[p, i]
        if c < WILD and CARD_COLOR[c] == color:
            take_from_hand(hands, hn, p, i)  # the last card fills the gap: look at i again
            announce(tab, SEEN_PLAY, p, c)
            disc[top] = c
            top += 1
        else:
            i += 1
    disc[top] = card
    st[ST_DISC_N] = top + 1
    emit(st, ev, EV_DISCARD_ALL, p, color, before - hn[p], 0, 0)
    if hn[p] == 0:
        go_out(tab, p, card, rng, ev)
        return
    if hn[p] == 1 and before > 1:
        uno_call(tab, p, seats, rng, ev)
        if st[ST_STATUS] >= 0:  # S17: the UNO penalty ran the pile out
            return
    st[ST_CUR] = next_seat(st, p)


@engine_jit
def roulette(tab, p, seats, rng, ev):
    """S21: a Wild Color Roulette: the next seat names a color (``roulette_namer: victim``;
    with ``player`` the color its player named), turns up cards from the draw pile into its
    hand until one of that color shows, and loses its turn (S22: a hand reaching the mercy
    limit is out at once; a pile run dry stops the turning up, S3)."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    disc = tab[T_DISC]
    victim = next_seat(st, p)
    namer = p
    if tab[T_RULES, R_ROULETTE_NAMER] == ROULETTE_VICTIM:
        namer = victim
        kind = strategy_of(seats, victim)
        st[ST_COLOR] = choose_roulette_color(
            kind, hands[victim, : hn[victim]], disc[: st[ST_DISC_N]], deck_of(tab), rng
        )
        emit(st, ev, EV_COLOR, victim, st[ST_COLOR], 0, 0, 0)
    color = st[ST_COLOR]
    emit(st, ev, EV_ROULETTE, victim, color, namer, 0, 0)
    while True:
        c = draw_card(tab, victim, rng, ev, DRAW_ROULETTE)
        if c < 0:  # nothing left to turn up (or S17: the round is over)
            break
        st[ST_ROULETTE_DRAWS] += 1
        if st[ST_STATUS] >= 0 or is_out(st, victim) or (c < WILD and CARD_COLOR[c] == color):
            break
    if st[ST_STATUS] >= 0:
        return
    if not is_out(st, victim):
        emit(st, ev, EV_LOSE_TURN, victim, LOST_TO_PENALTY, 0, 0, 0)
    st[ST_CUR] = next_seat(st, victim)


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
            # S21: the victim of a Color Roulette names its color, unless roulette_namer: player
            if hn[p] > 0 and (card != WILD_ROULETTE or rules[R_ROULETTE_NAMER] != ROULETTE_VICTIM):
                kind = strategy_of(seats, p)
                memory = tab[T_MEMORY]
                st[ST_COLOR] = choose_color(kind, hands[p, : hn[p]], next_seat(st, p), memory, rng)
                emit(st, ev, EV_COLOR, p, st[ST_COLOR], 0, 0, 0)
        else:
            st[ST_COLOR] = CARD_COLOR[card]
        if st[ST_OBSERVED] & RECORDS_PLAYS:
            memory = tab[T_MEMORY]
            record_play(memory, p, card, top, color_before, st[ST_COLOR], hn[p], how == PLAY_NORMAL)
        if hn[p] == 1:
            uno_call(tab, p, seats, rng, ev)
            if st[ST_STATUS] >= 0:  # S17: the UNO penalty ran the pile out
                return
            if is_out(st, p):  # S22: knocked out by the UNO penalty: the card's effect lapses
                st[ST_CUR] = next_seat(st, p)
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

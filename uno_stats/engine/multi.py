"""Multi-play (RULES.md S20): several cards of one symbol played as one move.

The rules side: the legal first cards, the seat's choice (asked of
:mod:`uno_stats.engine.multi_moves`), and playing the move: every card leaves the hand in
order, the last one lies on top, the UNO call is judged once, and the effect is one number
card's, or one per action card. A move of a single card is played by
:func:`uno_stats.engine.play.play_card` exactly as with ``multi_play: off``. Called only
when ``multi_play`` is on, so the rules loop pays one rule check per turn without it.
"""

from __future__ import annotations

from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_SYMBOL,
    MAX_CARDS,
    N_CARD_TYPES,
    REVERSE,
    SKIP,
    WILD,
)
from uno_stats.engine.events import (
    EV_DEFLECT,
    EV_LOSE_TURN,
    EV_MULTI,
    EV_PLAY,
    EV_REVERSE,
    LOST_TO_SKIP,
    PLAY_DEFLECT,
    PLAY_DRAWN,
    PLAY_MULTI,
    PLAY_NORMAL,
    PLAY_STACK,
    emit,
)
from uno_stats.engine.jit import engine_jit
from uno_stats.engine.memory_row import SEEN_PLAY
from uno_stats.engine.multi_moves import MOVE_SHIFT, choose_move, picks_first
from uno_stats.engine.piles import find_card, take_from_hand
from uno_stats.engine.play import (
    add_penalty,
    announce,
    apply_effect,
    draw_value,
    go_out,
    next_seat,
    play_card,
    uno_call,
)
from uno_stats.engine.rules import (
    R_FINAL_PENALTY,
    R_TWO_PLAYER_RULES,
)
from uno_stats.engine.state import (
    ST_COLOR,
    ST_CUR,
    ST_DIR,
    ST_DISC_N,
    ST_LEFT,
    ST_MULTI_CARDS,
    ST_MULTI_PLAYS,
    ST_PASSES,
    ST_PENDING,
    ST_STATUS,
    T_CAND,
    T_DISC,
    T_HANDS,
    T_HN,
    T_MEMORY,
    T_RANK,
    T_RULES,
    T_ST,
)
from uno_stats.engine.strategies import choose_card, choose_stack, strategy_of

MOVE_OUT = 80  # the chosen move's cards, by card id, lie in the rank row from here
if MOVE_OUT < N_CARD_TYPES or MOVE_OUT + N_CARD_TYPES > MAX_CARDS:
    raise ImportError("a move's counts and cards do not fit the rank row side by side")


@engine_jit
def _legal_mask(hands, p, cand, n, wilds):
    """The legal first cards among the candidates ``cand[:n]``: a mask of the colored card
    ids (``wilds`` False) or of the wilds, bit ``card - WILD`` (``wilds`` True)."""
    mask = 0
    for k in range(n):
        card = hands[p, cand[k]]
        if card < WILD and not wilds:
            mask |= 1 << card
        elif card >= WILD and wilds:
            mask |= 1 << (card - WILD)
    return mask


@engine_jit
def _seat_at(st, p, k):
    """The seat ``k`` places after ``p`` in the direction of play (wrapping round, passing
    by the seats knocked out, S22)."""
    q = p
    for _ in range(k):
        q = next_seat(st, q)
    return q


@engine_jit
def _choose(tab, p, kind, first, legal, legal_wild, rng):
    """The seat's move (cards written to the rank row from ``MOVE_OUT``)."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    rank = tab[T_RANK]
    rules = tab[T_RULES]
    return choose_move(
        kind,
        hands[p, : hn[p]],
        legal,
        legal_wild,
        first,
        rank[:N_CARD_TYPES],
        rank[MOVE_OUT : MOVE_OUT + N_CARD_TYPES],
        rules,
        tab[T_MEMORY],
        next_seat(st, p),
        rng,
    )


@engine_jit
def multi_normal(tab, p, kind, n, seats, rng, ev):
    """A normal turn's play under ``multi_play``: a move whose first card is one of the
    playable candidates ``cand[:n]``."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    cand = tab[T_CAND]
    rank = tab[T_RANK]
    first = -1
    if picks_first(kind):
        hand = hands[p, : hn[p]]
        nxt = next_seat(st, p)
        memory = tab[T_MEMORY]
        first = hand[choose_card(kind, hand, n, cand, rank, st[ST_COLOR], hn, nxt, memory, rng)]
    legal, legal_wild = _legal_mask(hands, p, cand, n, False), _legal_mask(hands, p, cand, n, True)
    move = _choose(tab, p, kind, first, legal, legal_wild, rng)
    play_move(tab, p, move, PLAY_NORMAL, seats, rng, ev)


@engine_jit
def multi_drawn(tab, p, idx, kind, seats, rng, ev):
    """The playable drawn card at ``idx`` played, alone or as the first card of a
    multi-play (S20: only the drawn card may start it)."""
    hands = tab[T_HANDS:]
    card = hands[p, idx]
    # Reading: after drawing, only the drawn card may start a multi-play (S20.2).
    if card < WILD:
        move = _choose(tab, p, kind, card, 1 << card, 0, rng)
    else:
        move = _choose(tab, p, kind, card, 0, 1 << (card - WILD), rng)
    play_move(tab, p, move, PLAY_DRAWN, seats, rng, ev)


@engine_jit
def multi_answer(tab, p, n, seats, rng, ev):
    """An answer to a pending draw total (S6 stacking, S18 deflect) under ``multi_play``:
    a move whose first card is one of the answering cards ``cand[:n]``."""
    hands = tab[T_HANDS:]
    cand = tab[T_CAND]
    kind = strategy_of(seats, p)
    first = -1
    if picks_first(kind):
        memory = tab[T_MEMORY]
        first = hands[p, choose_stack(kind, hands[p, : tab[T_HN, p]], cand, n, memory, rng)]
    legal, legal_wild = _legal_mask(hands, p, cand, n, False), _legal_mask(hands, p, cand, n, True)
    move = _choose(tab, p, kind, first, legal, legal_wild, rng)
    how = PLAY_STACK if draw_value(move // MOVE_SHIFT) > 0 else PLAY_DEFLECT
    play_move(tab, p, move, how, seats, rng, ev)


@engine_jit
def _place(tab, p, card, how, seats, ev):
    """One card of the move leaves the hand and goes on the discard pile."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    disc = tab[T_DISC]
    take_from_hand(hands, hn, p, find_card(hands, hn, p, card))
    announce(tab, SEEN_PLAY, p, card)
    disc[st[ST_DISC_N]] = card
    st[ST_DISC_N] += 1
    emit(st, ev, EV_PLAY, p, card, how, hn[p], 0)


@engine_jit
def _add_others(st, last, k):
    """The totals of a move's Draw Twos but the last, whose own play adds its total (S20:
    k Draw Twos give 2k, k cards in the chain); nothing for other symbols."""
    if draw_value(last) > 0:
        for _ in range(k - 1):
            add_penalty(st, last)


@engine_jit
def _reverse(tab, p, k, ev):
    """k Reverses: the direction turns round k times."""
    st = tab[T_ST]
    for _ in range(k):
        st[ST_DIR] = -st[ST_DIR]
        emit(st, ev, EV_REVERSE, p, st[ST_DIR], 0, 0, 0)


@engine_jit
def _skip(tab, p, k, ev):
    """k Skips: the next k seats lose their turn (wrapping round the table, the player
    itself too when k reaches the table's size); play passes k + 1 places on."""
    # Reading: with two players 2 Skips give the turn to the opponent, 3 back to the player.
    st = tab[T_ST]
    for i in range(1, k + 1):
        emit(st, ev, EV_LOSE_TURN, _seat_at(st, p, i), LOST_TO_SKIP, 0, 0, 0)
    st[ST_CUR] = _seat_at(st, p, k + 1)


@engine_jit
def _effect(tab, p, k, last, how, seats, rng, ev):
    """The effect of k cards of ``last``'s symbol: one number card's, or one per action card."""
    st = tab[T_ST]
    rules = tab[T_RULES]
    left = st[ST_LEFT]  # two players: two seats still in (S22)
    symbol = CARD_SYMBOL[last]
    # Reading: deflecting per card (S20.4): each further Skip passes the total one seat on
    # (the seats passed over lose their turn); each Reverse turns play round once more.
    if how == PLAY_DEFLECT:
        if symbol == SKIP:
            for i in range(1, k):
                emit(st, ev, EV_LOSE_TURN, _seat_at(st, p, i), LOST_TO_SKIP, 0, 0, 0)
            st[ST_CUR] = _seat_at(st, p, k)
        else:  # each Reverse turns play round; the total goes to the next seat then
            _reverse(tab, p, k, ev)
            st[ST_CUR] = next_seat(st, p)
        emit(st, ev, EV_DEFLECT, st[ST_CUR], st[ST_PENDING], 0, 0, 0)
    elif symbol == SKIP or (symbol == REVERSE and left == 2 and rules[R_TWO_PLAYER_RULES] != 0):
        _skip(tab, p, k, ev)  # with two players each Reverse acts as a Skip
    elif symbol == REVERSE:
        _reverse(tab, p, k, ev)
        st[ST_CUR] = next_seat(st, p)
    else:  # a number acts once (S9 7-0 included); Draw Twos add 2 each, then stack as one
        _add_others(st, last, k)
        apply_effect(tab, p, last, seats, rng, ev)


@engine_jit
def play_move(tab, p, move, how, seats, rng, ev):
    """Seat ``p`` plays ``move`` (first card ``how``, the others ``PLAY_MULTI``, the last
    card on top); resolves the UNO call, going out and the effect. No one jumps in."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    rank = tab[T_RANK]
    rules = tab[T_RULES]
    first = move // MOVE_SHIFT
    last = move % MOVE_SHIFT
    cards = rank[MOVE_OUT : MOVE_OUT + N_CARD_TYPES]
    k = 0
    for c in range(N_CARD_TYPES):
        k += cards[c]
    if k == 1:  # a single card: played exactly as without multi_play
        play_card(tab, p, find_card(hands, hn, p, first), how, seats, rng, ev)
        return
    st[ST_MULTI_PLAYS] += 1
    st[ST_MULTI_CARDS] += k
    emit(st, ev, EV_MULTI, p, k, first, last, 0)
    cards[first] -= 1
    cards[last] -= 1
    _place(tab, p, first, how, seats, ev)
    for c in range(WILD):
        while cards[c] > 0:
            cards[c] -= 1
            _place(tab, p, c, PLAY_MULTI, seats, ev)
    _place(tab, p, last, PLAY_MULTI, seats, ev)
    st[ST_PASSES] = 0
    st[ST_COLOR] = CARD_COLOR[last]
    # Reading: the UNO call is judged once, when the whole move leaves one card (S20.5).
    if hn[p] == 1:
        uno_call(tab, p, seats, rng, ev)
        if st[ST_STATUS] >= 0:  # S17: the UNO penalty ran the pile out
            return
    if hn[p] == 0:  # S5: going out; a winning move of Draw Twos is drawn in full
        if rules[R_FINAL_PENALTY] != 0:
            _add_others(st, last, k)
        go_out(tab, p, last, rng, ev)
        return
    # Reading: nobody jumps in on a multi-play (S20.5): straight to its effect.
    _effect(tab, p, k, last, how, seats, rng, ev)

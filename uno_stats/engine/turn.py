"""One activation of a seat: owing a penalty (challenge, stack or draw) or a normal turn.

The numbered semantics of RULES.md are marked where they are implemented (``S6`` is
"Precise semantics" item 6). Every function works on the preallocated arrays of
:class:`uno_stats.engine.state.Table` and allocates nothing.
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
    DRAW_CHALLENGE,
    DRAW_FINAL,
    DRAW_MISTAKE,
    DRAW_PENALTY,
    DRAW_TURN,
    DRAW_UNO,
    EV_CHALLENGE,
    EV_COLOR,
    EV_EXTRA_TURN,
    EV_JUMP,
    EV_LOSE_TURN,
    EV_MISTAKE,
    EV_PASS,
    EV_PENALTY,
    EV_PLAY,
    EV_REVERSE,
    EV_STACK,
    EV_TURN,
    EV_UNO,
    EV_VOLUNTARY,
    PLAY_DRAWN,
    PLAY_JUMP,
    PLAY_NORMAL,
    PLAY_STACK,
    emit,
)
from uno_stats.engine.hands import measure, rotate_hands, shuffle_hands, swap_hands
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.piles import (
    can_draw,
    collect_playable,
    draw_card,
    draw_cards,
    find_card,
    may_finish_on,
    playable,
    take_from_hand,
    wd4_allowed,
)
from uno_stats.engine.rng import below, chance
from uno_stats.engine.rules import (
    CUSTOM_EXTRA_TURN,
    DEADLOCK_VOID,
    DRAW_ONE,
    R_CHALLENGE_PENALTY,
    R_CUSTOM_CARD_RULE,
    R_DEADLOCK,
    R_DRAW,
    R_FINAL_PENALTY,
    R_INVALID_PLAY_PENALTY,
    R_JUMP_IN,
    R_MAX_TURNS,
    R_SEVEN_ZERO,
    R_STACK_CROSS,
    R_STACK_DRAW_FOUR,
    R_STACK_DRAW_TWO,
    R_STACK_VICTIM_SKIPS,
    R_TWO_PLAYER_RULES,
    R_UNO_PENALTY,
    R_VOLUNTARY_DRAW,
    R_WD4_CHALLENGE,
)
from uno_stats.engine.schema import STATUS_VOID, STATUS_WON
from uno_stats.engine.state import (
    ST_BLUFF,
    ST_CHALLENGES,
    ST_CHALLENGES_WON,
    ST_COLOR,
    ST_CUR,
    ST_DIR,
    ST_DISC_N,
    ST_HAND_SHUFFLES,
    ST_JUMP_INS,
    ST_LONGEST_STACK,
    ST_MISTAKES,
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
    T_LACKS,
    views,
)
from uno_stats.engine.strategies import (
    choose_card_for,
    choose_color,
    choose_swap_target,
    is_opponent,
    strategy_of,
    wants_challenge,
)
from uno_stats.engine.strategy_table import S_CATCH_UNO, S_FORGET_UNO, S_MISTAKE, S_VOLUNTARY_DRAW

# What an activation owing a penalty leaves for the seat.
CONTINUE_TURN, TURN_LOST, TURN_PLAYED = 0, 1, 2


@engine_jit
def next_seat(st, p):
    """The seat after ``p`` in the direction of play."""
    return (p + st[ST_DIR]) % st[ST_PLAYERS]


@engine_jit
def _draw_value(card):
    """2 for a Draw Two, 4 for a Wild Draw Four, 0 otherwise."""
    if card == WILD_DRAW_FOUR:
        return 4
    if card < WILD and CARD_SYMBOL[card] == DRAW_TWO:
        return 2
    return 0


@engine_inline
def _uno_call(tab, p, seats, rng, ev):
    """S10: the call on the next-to-last card; a caught miss draws ``uno_penalty`` at once."""
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    penalty = rules[R_UNO_PENALTY]
    if penalty == 0:
        return
    if not chance(rng, seats[p, S_FORGET_UNO]):
        emit(st, ev, EV_UNO, p, 0, 0, 0, 0)
        return
    caught = False
    for q in range(st[ST_PLAYERS]):
        if is_opponent(st, p, q) and chance(rng, seats[q, S_CATCH_UNO]):
            caught = True
            break
    if caught:
        emit(st, ev, EV_UNO, p, 2, 0, 0, 0)
        st[ST_UNO_PENALTIES] += 1
        draw_cards(tab, p, penalty, rng, ev, DRAW_UNO)
    else:
        emit(st, ev, EV_UNO, p, 1, 0, 0, 0)


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
def _add_penalty(st, card):
    """Grow the pending draw total by ``card``'s value and keep the stack records."""
    st[ST_PENDING] += _draw_value(card)
    st[ST_PEND_CARDS] += 1
    st[ST_PEND_KIND] = _draw_value(card)
    if st[ST_PEND_CARDS] > st[ST_LONGEST_STACK]:
        st[ST_LONGEST_STACK] = st[ST_PEND_CARDS]
    if st[ST_PENDING] > st[ST_STACK_TOTAL]:
        st[ST_STACK_TOTAL] = st[ST_PENDING]


@engine_jit
def _clear_penalty(st):
    st[ST_PENDING] = 0
    st[ST_PEND_CARDS] = 0
    st[ST_PEND_KIND] = 0


@engine_jit
def _go_out(tab, p, card, rng, ev):
    """S5: emptying the hand ends the round; only the final penalty is still drawn."""
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    st[ST_STATUS] = STATUS_WON
    st[ST_WINNER] = p
    if rules[R_FINAL_PENALTY] != 0 and _draw_value(card) > 0:
        _add_penalty(st, card)
        victim = next_seat(st, p)
        emit(st, ev, EV_PENALTY, victim, st[ST_PENDING], DRAW_FINAL, 0, 0)
        draw_cards(tab, victim, st[ST_PENDING], rng, ev, DRAW_FINAL)
    _clear_penalty(st)


@engine_inline
def _apply_effect(tab, p, card, seats, rng, ev):
    """The effect of the card ``p`` just played (not jumped on), setting the next active seat."""
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    players = st[ST_PLAYERS]
    sym = CARD_SYMBOL[card]
    nxt = next_seat(st, p)
    if _draw_value(card) > 0:
        _add_penalty(st, card)
        if st[ST_PEND_CARDS] > 1:
            emit(st, ev, EV_STACK, p, st[ST_PENDING], 0, 0, 0)
        st[ST_CUR] = nxt
    elif card < WILD and sym == SKIP:
        emit(st, ev, EV_LOSE_TURN, nxt, 0, 0, 0, 0)
        st[ST_CUR] = next_seat(st, nxt)
    elif card < WILD and sym == REVERSE:
        if players == 2 and rules[R_TWO_PLAYER_RULES] != 0:
            emit(st, ev, EV_LOSE_TURN, nxt, 0, 0, 0, 0)  # a Reverse acts as a Skip
            st[ST_CUR] = p
        else:
            st[ST_DIR] = -st[ST_DIR]
            emit(st, ev, EV_REVERSE, p, st[ST_DIR], 0, 0, 0)
            st[ST_CUR] = next_seat(st, p)
    elif card == WILD_SHUFFLE:
        shuffle_hands(st, hands, hn, p, rng, ev)  # S12
        tab[T_LACKS, :] = 0  # hands moved: what was known is lost
        st[ST_HAND_SHUFFLES] += 1
        st[ST_CUR] = nxt
    elif card == WILD_CUSTOM and rules[R_CUSTOM_CARD_RULE] == CUSTOM_EXTRA_TURN:
        emit(st, ev, EV_EXTRA_TURN, p, 0, 0, 0, 0)
        st[ST_CUR] = p
    elif card < WILD and rules[R_SEVEN_ZERO] != 0 and sym == 7:
        q = choose_swap_target(strategy_of(seats, p), st, hn, p, rng)  # S9
        swap_hands(st, hands, hn, p, q, ev)
        tab[T_LACKS, :] = 0  # hands moved: what was known is lost
        st[ST_SEVEN_SWAPS] += 1
        st[ST_CUR] = nxt
    elif card < WILD and rules[R_SEVEN_ZERO] != 0 and sym == 0:
        rotate_hands(st, hands, hn, p, ev)  # S9
        tab[T_LACKS, :] = 0  # hands moved: what was known is lost
        st[ST_ZERO_PASSES] += 1
        st[ST_CUR] = nxt
    else:
        st[ST_CUR] = nxt


@engine_inline
def play_card(tab, p, idx, how, seats, rng, ev):
    """Seat ``p`` plays the card at ``idx``; resolves UNO, going out, jump-ins and the effect."""
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    while True:
        top = disc[st[ST_DISC_N] - 1]
        color_before = st[ST_COLOR]
        card = take_from_hand(hands, hn, p, idx)
        if card < WILD:  # it holds that color after all
            tab[T_LACKS, p] &= ~(1 << CARD_COLOR[card])
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
                next_lacks = tab[T_LACKS, next_seat(st, p)]
                st[ST_COLOR] = choose_color(strategy_of(seats, p), hands, hn, p, rng, next_lacks)
                emit(st, ev, EV_COLOR, p, st[ST_COLOR], 0, 0, 0)
        else:
            st[ST_COLOR] = CARD_COLOR[card]
        if hn[p] == 1:
            _uno_call(tab, p, seats, rng, ev)
        if hn[p] == 0:
            _go_out(tab, p, card, rng, ev)
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
        _apply_effect(tab, p, card, seats, rng, ev)
        return


@engine_inline
def _collect_stackers(st, hands, hn, p, top, rules, cand):
    """S6: hand indices of the cards that may answer the pending draw total."""
    kind = st[ST_PEND_KIND]
    two_ok = (kind == 2 and rules[R_STACK_DRAW_TWO] != 0) or (
        kind == 4 and rules[R_STACK_CROSS] != 0
    )
    four_ok = (kind == 4 and rules[R_STACK_DRAW_FOUR] != 0) or (
        kind == 2 and rules[R_STACK_CROSS] != 0
    )
    if not (two_ok or four_ok):
        return 0
    if four_ok and st[ST_BLUFF] == 0:
        four_ok = wd4_allowed(hands, hn, p, st[ST_COLOR], top, rules)
    n = 0
    size = hn[p]
    for i in range(size):
        card = hands[p, i]
        if not may_finish_on(card, size, rules):
            continue
        if (card == WILD_DRAW_FOUR and four_ok) or (two_ok and _draw_value(card) == 2):
            cand[n] = i
            n += 1
    return n


@engine_inline
def resolve_penalty(tab, p, seats, rng, ev):
    """Seat ``p`` owes the pending total: challenge (S7), stack (S6) or draw it."""
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    if (
        rules[R_WD4_CHALLENGE] != 0
        and st[ST_PEND_KIND] == 4
        and st[ST_PEND_CARDS] == 1
        and st[ST_PENDING] == 4
    ):
        accused = st[ST_WD4_PLAYER]
        if wants_challenge(seats, tab, p, accused):
            illegal = st[ST_WD4_LEGAL] == 0
            st[ST_CHALLENGES] += 1
            emit(st, ev, EV_CHALLENGE, p, accused, 1 if illegal else 0, 0, 0)
            _clear_penalty(st)
            if illegal:
                st[ST_CHALLENGES_WON] += 1
                emit(st, ev, EV_PENALTY, accused, 4, DRAW_CHALLENGE, 0, 0)
                draw_cards(tab, accused, 4, rng, ev, DRAW_CHALLENGE)
                return CONTINUE_TURN
            penalty = rules[R_CHALLENGE_PENALTY]
            emit(st, ev, EV_PENALTY, p, penalty, DRAW_CHALLENGE, 0, 0)
            draw_cards(tab, p, penalty, rng, ev, DRAW_CHALLENGE)
            emit(st, ev, EV_LOSE_TURN, p, 2, 0, 0, 0)
            st[ST_CUR] = next_seat(st, p)
            return TURN_LOST
    top = disc[st[ST_DISC_N] - 1]
    n = _collect_stackers(st, hands, hn, p, top, rules, cand)
    if n > 0:
        st[ST_TURNS] += 1
        emit(st, ev, EV_TURN, p, st[ST_TURNS], top, st[ST_COLOR], st[ST_DIR])
        idx = cand[below(rng, n)]
        play_card(tab, p, idx, PLAY_STACK, seats, rng, ev)
        if st[ST_STATUS] < 0:
            measure(tab)
        return TURN_PLAYED
    total = st[ST_PENDING]
    _clear_penalty(st)
    emit(st, ev, EV_PENALTY, p, total, DRAW_PENALTY, 0, 0)
    draw_cards(tab, p, total, rng, ev, DRAW_PENALTY)
    if rules[R_STACK_VICTIM_SKIPS] != 0:
        emit(st, ev, EV_LOSE_TURN, p, 1, 0, 0, 0)
        st[ST_CUR] = next_seat(st, p)
        return TURN_LOST
    return CONTINUE_TURN


@engine_inline
def _try_mistake(tab, p, top, color, wd4_ok, seats, rng, ev):
    """S11: with probability ``mistake`` try an unplayable card, take it back, draw the penalty."""
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    if not chance(rng, seats[p, S_MISTAKE]):
        return
    size = hn[p]
    wrong = 0
    for i in range(size):
        if not playable(hands[p, i], size, top, color, wd4_ok, rules):
            wrong += 1
    if wrong == 0:
        return
    k = below(rng, wrong)
    for i in range(size):
        if not playable(hands[p, i], size, top, color, wd4_ok, rules):
            if k == 0:
                emit(st, ev, EV_MISTAKE, p, hands[p, i], 0, 0, 0)
                break
            k -= 1
    st[ST_MISTAKES] += 1
    penalty = rules[R_INVALID_PLAY_PENALTY]
    if penalty > 0:
        emit(st, ev, EV_PENALTY, p, penalty, DRAW_MISTAKE, 0, 0)
        draw_cards(tab, p, penalty, rng, ev, DRAW_MISTAKE)


@engine_inline
def _draw_for_turn(tab, p, top, color, rng, ev):
    """S2: draw one, or until a card fits; returns the playable drawn card's index, -1, or -2
    when nothing at all could be drawn (a pass)."""
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    drew = False
    while True:
        card = draw_card(tab, p, rng, ev, DRAW_TURN)
        if card < 0:
            return -1 if drew else -2
        drew = True
        wd4_ok = False
        if card == WILD_DRAW_FOUR:
            wd4_ok = st[ST_BLUFF] != 0 or wd4_allowed(hands, hn, p, color, top, rules)
        if playable(card, hn[p], top, color, wd4_ok, rules):
            return hn[p] - 1
        if rules[R_DRAW] == DRAW_ONE:
            return -1


@engine_inline
def normal_turn(tab, p, seats, rng, ev):
    """A normal turn of seat ``p``: play a legal card, or draw (and maybe play the drawn card)."""
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    st[ST_TURNS] += 1
    top = disc[st[ST_DISC_N] - 1]
    color = st[ST_COLOR]
    emit(st, ev, EV_TURN, p, st[ST_TURNS], top, color, st[ST_DIR])
    bluff = st[ST_BLUFF] != 0
    if seats[p, S_MISTAKE] > 0.0:
        wd4_ok = bluff or wd4_allowed(hands, hn, p, color, top, rules)
        _try_mistake(tab, p, top, color, wd4_ok, seats, rng, ev)
    n = collect_playable(hands, hn, p, top, color, bluff, rules, cand)
    voluntary = (
        n > 0
        and rules[R_VOLUNTARY_DRAW] != 0
        and seats[p, S_VOLUNTARY_DRAW] > 0.0
        and can_draw(st)
        and chance(rng, seats[p, S_VOLUNTARY_DRAW])
    )
    if n > 0 and not voluntary:
        idx = choose_card_for(strategy_of(seats, p), tab, p, n, rng)
        play_card(tab, p, idx, PLAY_NORMAL, seats, rng, ev)
    else:
        if voluntary:
            emit(st, ev, EV_VOLUNTARY, p, 0, 0, 0, 0)
        if n == 0:  # seen drawing with nothing to play: it lacks the active color
            tab[T_LACKS, p] |= 1 << color
        idx = _draw_for_turn(tab, p, top, color, rng, ev)
        if idx >= 0:  # every strategy plays a legal drawn card (SCENARIO.md), so may/must agree
            play_card(tab, p, idx, PLAY_DRAWN, seats, rng, ev)
        else:
            if idx == -2:  # "Passing": nothing playable and nothing to draw
                st[ST_PASSES] += 1
                emit(st, ev, EV_PASS, p, 0, 0, 0, 0)
                if rules[R_DEADLOCK] == DEADLOCK_VOID and st[ST_PASSES] >= st[ST_PLAYERS]:
                    st[ST_STATUS] = STATUS_VOID
                    return
            st[ST_CUR] = next_seat(st, p)
    if st[ST_STATUS] < 0:
        measure(tab)

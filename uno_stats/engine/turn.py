"""One activation of a seat: owing a penalty (challenge, stack or draw) or a normal turn.

The numbered semantics of RULES.md are marked where they are implemented (``S6`` is
"Precise semantics" item 6). Every function works on the preallocated arrays of
:class:`uno_stats.engine.state.Table` and allocates nothing.
"""

from __future__ import annotations

from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_SYMBOL,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from uno_stats.engine.events import (
    DRAW_CHALLENGE,
    DRAW_MISTAKE,
    DRAW_PENALTY,
    DRAW_TURN,
    EV_CHALLENGE,
    EV_KEEP,
    EV_LOSE_TURN,
    EV_MISTAKE,
    EV_PASS,
    EV_PENALTY,
    EV_TURN,
    EV_VOLUNTARY,
    LOST_TO_CHALLENGE,
    LOST_TO_PENALTY,
    PLAY_DEFLECT,
    PLAY_DRAWN,
    PLAY_NORMAL,
    PLAY_STACK,
    emit,
)
from uno_stats.engine.hands import measure
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.memory_row import SEEN_DREW, SEEN_NO_PLAY, no_play_value
from uno_stats.engine.mercy import is_out
from uno_stats.engine.multi import multi_answer, multi_drawn, multi_normal
from uno_stats.engine.piles import (
    can_draw,
    collect_playable,
    draw_card,
    draw_cards,
    may_finish_on,
    playable,
    wd4_allowed,
)
from uno_stats.engine.play import announce, clear_penalty, draw_value, next_seat, play_card
from uno_stats.engine.rng import below, chance
from uno_stats.engine.rules import (
    DEADLOCK_VOID,
    DRAW_ONE,
    DRAWN_MAY_PLAY,
    R_CHALLENGE_PENALTY,
    R_DEADLOCK,
    R_DEFLECT,
    R_DRAW,
    R_DRAWN_CARD,
    R_INVALID_PLAY_PENALTY,
    R_MULTI_PLAY,
    R_RESHUFFLE,
    R_STACK_CROSS,
    R_STACK_DRAW_FOUR,
    R_STACK_DRAW_TWO,
    R_STACK_DRAWS,
    R_STACK_VICTIM_SKIPS,
    R_VOLUNTARY_DRAW,
    R_WD4_CHALLENGE,
    R_WD4_RESTRICTION,
    STACK_EQUAL,
    STACK_EQUAL_OR_HIGHER,
    STACK_OFF,
)
from uno_stats.engine.schema import STATUS_VOID
from uno_stats.engine.search_lacks import drew_value
from uno_stats.engine.state import (
    ST_BLUFF,
    ST_CHALLENGES,
    ST_CHALLENGES_WON,
    ST_COLOR,
    ST_CUR,
    ST_DIR,
    ST_DISC_N,
    ST_LEFT,
    ST_MISTAKES,
    ST_NO_MERCY_CARDS,
    ST_PASSES,
    ST_PEND_CARDS,
    ST_PEND_KIND,
    ST_PENDING,
    ST_PILE_N,
    ST_STATUS,
    ST_TURN_DRAW_CARDS,
    ST_TURN_DRAWS,
    ST_TURNS,
    ST_WD4_LEGAL,
    ST_WD4_PLAYER,
    ST_WD4_PREV_COLOR,
    ST_WD4_PREV_TOP,
    T_CAND,
    T_DISC,
    T_HANDS,
    T_HN,
    T_MEMORY,
    T_RANK,
    T_RULES,
    T_ST,
    deck_of,
)
from uno_stats.engine.strategies import (
    choose_card,
    choose_stack,
    declines_stack,
    draws_instead,
    keeps_drawn,
    strategy_of,
    wants_challenge,
)
from uno_stats.engine.strategy_table import S_KEEP_DRAWN, S_MISTAKE

# What an activation owing a penalty leaves for the seat.
CONTINUE_TURN, TURN_LOST, TURN_PLAYED = 0, 1, 2


@engine_jit
def _stacks_by_value(card, kind, mode):
    """S23 (``stack_draws``): whether a draw card may answer a chain whose top card adds
    ``kind``: of equal or higher value, of equal value, or any draw card, color ignored."""
    value = draw_value(card)
    if value == 0 or mode == STACK_OFF:
        return False
    if mode == STACK_EQUAL_OR_HIGHER:
        return value >= kind
    if mode == STACK_EQUAL:
        return value == kind
    return True  # STACK_ANY


@engine_inline
def _collect_stackers(st, hands, hn, p, top, rules, cand):
    """S6: hand indices of the cards that may answer the pending draw total (with S23's
    ``stack_draws`` beside the classic keys: a card either allows may answer)."""
    kind = st[ST_PEND_KIND]
    mode = rules[R_STACK_DRAWS]
    two_ok = (kind == 2 and rules[R_STACK_DRAW_TWO] != 0) or (
        kind == 4 and rules[R_STACK_CROSS] != 0
    )
    four_ok = (kind == 4 and rules[R_STACK_DRAW_FOUR] != 0) or (
        kind == 2 and rules[R_STACK_CROSS] != 0
    )
    deflect = rules[R_DEFLECT] != 0  # S18: a Skip or Reverse of the active color
    if not (two_ok or four_ok or deflect or mode != STACK_OFF):
        return 0
    wd4_ok = st[ST_BLUFF] != 0 or wd4_allowed(hands, hn, p, st[ST_COLOR], top, rules)
    four_ok = four_ok and wd4_ok
    n = 0
    size = hn[p]
    for i in range(size):
        card = hands[p, i]
        if not may_finish_on(card, size, rules):
            continue
        stacks = (card == WILD_DRAW_FOUR and four_ok) or (two_ok and draw_value(card) == 2)
        if not stacks and _stacks_by_value(card, kind, mode):  # S23
            stacks = card != WILD_DRAW_FOUR or wd4_ok
        if stacks or (deflect and _deflects(card, st[ST_COLOR])):
            cand[n] = i
            n += 1
    return n


@engine_inline
def _deflects(card, color):
    """S18: whether ``card`` is a Skip or Reverse of the active ``color``."""
    if card >= WILD or CARD_COLOR[card] != color:
        return False
    return CARD_SYMBOL[card] == SKIP or CARD_SYMBOL[card] == REVERSE


@engine_inline
def resolve_penalty(tab, p, seats, rng, ev):
    """Seat ``p`` owes the pending total: challenge (S7), stack (S6) or draw it."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    disc = tab[T_DISC]
    cand = tab[T_CAND]
    rules = tab[T_RULES]
    deck = deck_of(tab)
    if (
        rules[R_WD4_CHALLENGE] != 0
        and st[ST_PEND_KIND] == 4
        and st[ST_PEND_CARDS] == 1
        and st[ST_PENDING] == 4
        and disc[st[ST_DISC_N] - 1] == WILD_DRAW_FOUR  # S18: not once deflected
    ):
        accused = st[ST_WD4_PLAYER]
        challenges = wants_challenge(
            seats[p],
            tab[T_MEMORY],
            hands[p, : hn[p]],
            hn[accused],
            disc[: st[ST_DISC_N]],
            deck,
            rules[R_WD4_RESTRICTION],
            st[ST_WD4_PREV_COLOR],
            st[ST_WD4_PREV_TOP],
        )
        if challenges:
            illegal = st[ST_WD4_LEGAL] == 0
            st[ST_CHALLENGES] += 1
            emit(st, ev, EV_CHALLENGE, p, accused, 1 if illegal else 0, 0, 0)
            clear_penalty(st)
            if illegal:
                st[ST_CHALLENGES_WON] += 1
                emit(st, ev, EV_PENALTY, accused, 4, DRAW_CHALLENGE, 0, 0)
                draw_cards(tab, accused, 4, rng, ev, DRAW_CHALLENGE)
                if st[ST_STATUS] >= 0:  # S17: the pile ran out, the round is over
                    return TURN_LOST
                return CONTINUE_TURN
            penalty = rules[R_CHALLENGE_PENALTY]
            emit(st, ev, EV_PENALTY, p, penalty, DRAW_CHALLENGE, 0, 0)
            draw_cards(tab, p, penalty, rng, ev, DRAW_CHALLENGE)
            if st[ST_STATUS] >= 0:  # S17
                return TURN_LOST
            if not is_out(st, p):  # S22: a seat knocked out has no turn to lose
                emit(st, ev, EV_LOSE_TURN, p, LOST_TO_CHALLENGE, 0, 0, 0)
            st[ST_CUR] = next_seat(st, p)
            return TURN_LOST
    top = disc[st[ST_DISC_N] - 1]
    n = _collect_stackers(st, hands, hn, p, top, rules, cand)
    if n > 0 and not declines_stack(strategy_of(seats, p), tab[T_MEMORY]):
        st[ST_TURNS] += 1
        emit(st, ev, EV_TURN, p, st[ST_TURNS], top, st[ST_COLOR], st[ST_DIR])
        if rules[R_MULTI_PLAY] != 0:  # S20: the answer may be several cards
            multi_answer(tab, p, n, seats, rng, ev)
        else:
            kind = strategy_of(seats, p)
            idx = choose_stack(kind, hands[p, : hn[p]], cand, n, tab[T_MEMORY], rng)
            how = PLAY_STACK if draw_value(hands[p, idx]) > 0 else PLAY_DEFLECT
            play_card(tab, p, idx, how, seats, rng, ev)
        if st[ST_STATUS] < 0:
            measure(tab)
        return TURN_PLAYED
    total = st[ST_PENDING]
    clear_penalty(st)
    emit(st, ev, EV_PENALTY, p, total, DRAW_PENALTY, 0, 0)
    draw_cards(tab, p, total, rng, ev, DRAW_PENALTY)
    if st[ST_STATUS] >= 0:  # S17: the pile ran out, the round is over
        return TURN_LOST
    if is_out(st, p):  # S22: knocked out while drawing: the rest of the total lapses
        st[ST_CUR] = next_seat(st, p)
        return TURN_LOST
    if rules[R_STACK_VICTIM_SKIPS] != 0:
        emit(st, ev, EV_LOSE_TURN, p, LOST_TO_PENALTY, 0, 0, 0)
        st[ST_CUR] = next_seat(st, p)
        return TURN_LOST
    return CONTINUE_TURN


@engine_inline
def _try_mistake(tab, p, top, color, wd4_ok, seats, rng, ev):
    """S11: with probability ``mistake`` try an unplayable card, take it back, draw the penalty."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    rules = tab[T_RULES]
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
    when nothing at all could be drawn (a pass).

    Counts the turn draw (``turn_draws``: one per turn on which at least one card was drawn,
    however many ``draw: until-playable`` takes) and its cards (``turn_draw_cards``).
    """
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    rules = tab[T_RULES]
    drew = False
    while True:
        card = draw_card(tab, p, rng, ev, DRAW_TURN)
        if card < 0:
            return -1 if drew else -2
        if not drew:
            st[ST_TURN_DRAWS] += 1
        st[ST_TURN_DRAW_CARDS] += 1
        drew = True
        if is_out(st, p):  # S22: knocked out at once, nothing more is drawn or played
            return -1
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
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    disc = tab[T_DISC]
    cand = tab[T_CAND]
    rank = tab[T_RANK]
    rules = tab[T_RULES]
    st[ST_TURNS] += 1
    top = disc[st[ST_DISC_N] - 1]
    color = st[ST_COLOR]
    emit(st, ev, EV_TURN, p, st[ST_TURNS], top, color, st[ST_DIR])
    bluff = st[ST_BLUFF] != 0
    if seats[p, S_MISTAKE] > 0.0:
        wd4_ok = bluff or wd4_allowed(hands, hn, p, color, top, rules)
        _try_mistake(tab, p, top, color, wd4_ok, seats, rng, ev)
        if st[ST_STATUS] >= 0:  # S17: the penalty ran the pile out
            return
        if is_out(st, p):  # S22: knocked out by the penalty
            st[ST_CUR] = next_seat(st, p)
            return
    kind = strategy_of(seats, p)
    classic = st[ST_NO_MERCY_CARDS] == 0
    n = collect_playable(hands, hn, p, top, color, bluff, rules, cand, classic)
    voluntary = (
        n > 0
        and rules[R_VOLUNTARY_DRAW] != 0
        and can_draw(st)
        and (rules[R_RESHUFFLE] != 0 or st[ST_PILE_N] > 0)  # S17
        and draws_instead(kind, seats[p], tab[T_MEMORY], rng)
    )
    if n > 0 and not voluntary and rules[R_MULTI_PLAY] != 0:
        multi_normal(tab, p, kind, n, seats, rng, ev)  # S20: maybe several cards
    elif n > 0 and not voluntary:
        nxt = next_seat(st, p)
        hand = hands[p, : hn[p]]
        idx = choose_card(kind, hand, n, cand, rank, color, hn, nxt, tab[T_MEMORY], rng)
        play_card(tab, p, idx, PLAY_NORMAL, seats, rng, ev)
    else:
        if voluntary:
            emit(st, ev, EV_VOLUNTARY, p, 0, 0, 0, 0)
        else:  # seen not playing, and not by choice: it lacks the active color
            announce(tab, SEEN_NO_PLAY, p, no_play_value(color, top, hn[p]))
        drawn_before = st[ST_TURN_DRAW_CARDS]
        idx = _draw_for_turn(tab, p, top, color, rng, ev)
        if st[ST_STATUS] >= 0:  # S17 (the pile ran out) or S22 (one seat left): round over
            return
        # A playable drawn card is played unless the rules let the player keep it and it
        # does (its keep_drawn knob); either way no older card may be played after drawing.
        may_keep = rules[R_DRAWN_CARD] == DRAWN_MAY_PLAY
        plays_drawn = idx >= 0 and not (may_keep and keeps_drawn(kind, seats[p], rng))
        # What its draw showed (search_lacks.drew_value). Reading: the scenario is public, so
        # whether the seat may keep a playable drawn card (its declared keep_drawn) is too.
        if not voluntary:
            drawn = st[ST_TURN_DRAW_CARDS] - drawn_before
            may_keep = may_keep and seats[p, S_KEEP_DRAWN] > 0.0
            announce(tab, SEEN_DREW, p, drew_value(drawn, plays_drawn, may_keep))
        if plays_drawn:
            if rules[R_MULTI_PLAY] != 0:  # S20: the drawn card may start a multi-play
                multi_drawn(tab, p, idx, kind, seats, rng, ev)
            else:
                play_card(tab, p, idx, PLAY_DRAWN, seats, rng, ev)
        else:
            if idx >= 0:
                emit(st, ev, EV_KEEP, p, hands[p, idx], 0, 0, 0)
            elif idx == -2:  # "Passing": nothing playable and nothing to draw
                st[ST_PASSES] += 1
                emit(st, ev, EV_PASS, p, 0, 0, 0, 0)
                if rules[R_DEADLOCK] == DEADLOCK_VOID and st[ST_PASSES] >= st[ST_LEFT]:
                    st[ST_STATUS] = STATUS_VOID
                    return
            st[ST_CUR] = next_seat(st, p)
    if st[ST_STATUS] < 0:
        measure(tab)

"""A whole round: shuffle, deal, the opening card (S4) and the turn loop to won, void or capped."""

from __future__ import annotations

from uno_stats.engine.cards import (
    CARD_COLOR,
    CARD_DRAW,
    CARD_IS_ACTION,
    CARD_SYMBOL,
    DRAW_FOUR,
    DRAW_TWO,
    REVERSE,
    SKIP,
    SKIP_EVERYONE,
    WILD,
)
from uno_stats.engine.events import (
    DRAW_PENALTY,
    EV_COLOR,
    EV_DEAL,
    EV_END,
    EV_IGNORED,
    EV_LOSE_TURN,
    EV_PENALTY,
    EV_START,
    EV_TURN_UP,
    LOST_TO_PENALTY,
    LOST_TO_SKIP,
    TURN_UP_COVERED,
    TURN_UP_KEPT,
    TURN_UP_RETURNED,
    emit,
)
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.memory_row import SEEN_ROUND_START
from uno_stats.engine.piles import draw_cards
from uno_stats.engine.play import announce
from uno_stats.engine.rng import shuffle
from uno_stats.engine.rules import (
    OPENING_IGNORE,
    OPENING_REDRAW,
    R_HAND_SIZE,
    R_MAX_TURNS,
    R_OPENING_ACTION,
    R_OPENING_REVERSE,
    R_WD4_CHALLENGE,
    REVERSE_DEALER,
)
from uno_stats.engine.schema import STATUS_CAPPED
from uno_stats.engine.search import search_penalty, search_turn
from uno_stats.engine.state import (
    ST_BLUFF,
    ST_CHECKPOINTS,
    ST_COLOR,
    ST_CUR,
    ST_DEALER,
    ST_DIR,
    ST_DISC_N,
    ST_FIRST,
    ST_LARGEST_HAND,
    ST_LEFT,
    ST_OUT,
    ST_PASSES,
    ST_PEND_CARDS,
    ST_PEND_KIND,
    ST_PENDING,
    ST_PILE_N,
    ST_PLAYERS,
    ST_STATUS,
    ST_TURNS,
    ST_WINNER,
    T_DEFICIT,
    T_DISC,
    T_HANDS,
    T_HN,
    T_MEMORY,
    T_OUT,
    T_PILE,
    T_RULES,
    T_ST,
    deck_of,
    link_seats,
)
from uno_stats.engine.strategies import bluffs, choose_color, searches, strategy_of
from uno_stats.engine.turn import CONTINUE_TURN, normal_turn, resolve_penalty


@engine_jit
def reset_round(st, hn, max_deficit, out, dealer):
    """Clear the round's state and counters before a deal."""
    if st[ST_OUT] != 0:  # S22: the seats knocked out last round come back
        st[ST_OUT] = 0
        for s in range(st[ST_PLAYERS]):
            out[s] = 0
        link_seats(st)
    st[ST_LEFT] = st[ST_PLAYERS]
    st[ST_STATUS] = -1
    st[ST_WINNER] = -1
    st[ST_DIR] = 1
    st[ST_DEALER] = dealer
    st[ST_PENDING] = 0
    st[ST_PEND_CARDS] = 0
    st[ST_PEND_KIND] = 0
    st[ST_PASSES] = 0
    for i in range(ST_TURNS, ST_CHECKPOINTS + 1):
        st[i] = 0
    for s in range(st[ST_PLAYERS] + 1):  # the seats and the scratch row (the rest stay 0)
        hn[s] = 0
        max_deficit[s] = 0


@engine_inline
def _wild_draw(card):
    """A wild that makes the next player draw: the Wild Draw Four, or a No Mercy Wild Reverse
    Draw Four, Draw Six or Draw Ten (S21), which open a round no more than it does (S4)."""
    return card >= WILD and CARD_DRAW[card] > 0


@engine_jit
def _only_draw_fours_left(st, pile):
    for i in range(st[ST_PILE_N]):
        if not _wild_draw(pile[i]):
            return False
    return True


@engine_jit
def _turn_up(tab, rng, ev):
    """S4: turn the opening card; a Wild Draw Four goes back and the deck is reshuffled;
    under ``redraw`` action cards and wilds are covered until a number card shows.

    Gap (RULES.md is silent): when the pile runs out of cards to turn, the last card turned
    stays and acts as under ``apply``; a pile of nothing but Wild Draw Fours keeps one as a Wild.
    """
    st = tab[T_ST]
    pile = tab[T_PILE]
    disc = tab[T_DISC]
    rules = tab[T_RULES]
    while True:
        st[ST_PILE_N] -= 1
        card = pile[st[ST_PILE_N]]
        if _wild_draw(card) and not _only_draw_fours_left(st, pile):
            pile[st[ST_PILE_N]] = card
            st[ST_PILE_N] += 1
            shuffle(pile, st[ST_PILE_N], rng)
            emit(st, ev, EV_TURN_UP, -1, card, TURN_UP_RETURNED, 0, 0)
            continue
        disc[st[ST_DISC_N]] = card
        st[ST_DISC_N] += 1
        if (
            rules[R_OPENING_ACTION] == OPENING_REDRAW
            and CARD_IS_ACTION[card] != 0
            and st[ST_PILE_N] > 0
        ):
            emit(st, ev, EV_TURN_UP, -1, card, TURN_UP_COVERED, 0, 0)
            continue
        emit(st, ev, EV_TURN_UP, -1, card, TURN_UP_KEPT, 0, 0)
        return card


@engine_jit
def _open(tab, card, seats, rng, ev):
    """S4 (``apply``): the opening card's effect on the first player; sets who starts.
    S14 (``ignore``): a wild is named by the first player, any other action does nothing."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    rules = tab[T_RULES]
    players = st[ST_PLAYERS]
    dealer = st[ST_DEALER]
    first = (dealer + 1) % players
    st[ST_CUR] = first
    st[ST_COLOR] = CARD_COLOR[card]
    if card >= WILD:  # Wild, Shuffle Hands, Customizable: the first player names the color
        kind = strategy_of(seats, first)
        nxt = (first + 1) % players
        memory = tab[T_MEMORY]
        st[ST_COLOR] = choose_color(kind, hands[first, : hn[first]], nxt, memory, rng)
        emit(st, ev, EV_COLOR, first, st[ST_COLOR], 0, 0, 0)
        return
    if rules[R_OPENING_ACTION] == OPENING_IGNORE:  # S14: matched, but nothing happens
        if CARD_IS_ACTION[card] != 0:
            emit(st, ev, EV_IGNORED, first, card, 0, 0, 0)
        return
    sym = CARD_SYMBOL[card]
    # Reading (S24): an opening Skip Everyone acts as a Skip (nobody played it), a Draw Four
    # as a Draw Two of 4, a Discard All has no effect (nobody holds its cards)
    if sym in (SKIP, SKIP_EVERYONE):
        emit(st, ev, EV_LOSE_TURN, first, LOST_TO_SKIP, 0, 0, 0)
        st[ST_CUR] = (first + 1) % players
    elif sym in (DRAW_TWO, DRAW_FOUR):
        owed = CARD_DRAW[card]
        emit(st, ev, EV_PENALTY, first, owed, DRAW_PENALTY, 0, 0)
        draw_cards(tab, first, owed, rng, ev, DRAW_PENALTY)
        emit(st, ev, EV_LOSE_TURN, first, LOST_TO_PENALTY, 0, 0, 0)
        st[ST_CUR] = (first + 1) % players
    elif sym == REVERSE:
        st[ST_DIR] = -1
        if rules[R_OPENING_REVERSE] == REVERSE_DEALER:
            st[ST_CUR] = dealer
        else:
            st[ST_CUR] = (dealer - 1) % players


@engine_jit
def setup_round(tab, seats, rng, ev, dealer, shuffled=False):
    """Shuffle the deck, deal ``hand_size`` cards one at a time from the dealer's left, open.

    ``shuffled`` keeps the deck's order (its last card is dealt first): scripted tests.
    """
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    pile = tab[T_PILE]
    max_deficit = tab[T_DEFICIT]
    rules = tab[T_RULES]
    deck = deck_of(tab)
    reset_round(st, hn, max_deficit, tab[T_OUT], dealer)
    announce(tab, SEEN_ROUND_START, -1, 0)
    players = st[ST_PLAYERS]
    n = deck.shape[0]
    for i in range(n):
        pile[i] = deck[i]
    if not shuffled:
        shuffle(pile, n, rng)
    st[ST_PILE_N] = n
    st[ST_DISC_N] = 0
    for _ in range(rules[R_HAND_SIZE]):
        s = dealer
        for _k in range(players):  # seats dealer + 1, dealer + 2, ... (mod players)
            s = s + 1 if s + 1 < players else 0
            st[ST_PILE_N] -= 1
            card = pile[st[ST_PILE_N]]
            hands[s, hn[s]] = card
            hn[s] += 1
            emit(st, ev, EV_DEAL, s, card, 0, 0, 0)
    for s in range(players):
        st[ST_LARGEST_HAND] = max(st[ST_LARGEST_HAND], hn[s])
    card = _turn_up(tab, rng, ev)
    _open(tab, card, seats, rng, ev)
    st[ST_FIRST] = st[ST_CUR]
    emit(st, ev, EV_START, st[ST_CUR], dealer, st[ST_DIR], st[ST_COLOR], card)


@engine_jit
def play_turns(tab, seats, rng, ev):
    """Play from the current position to the round's end: won, void or capped."""
    st = tab[T_ST]
    rules = tab[T_RULES]
    max_turns = rules[R_MAX_TURNS]
    challenges = rules[R_WD4_CHALLENGE] != 0
    while st[ST_STATUS] < 0:
        if st[ST_TURNS] >= max_turns:
            st[ST_STATUS] = STATUS_CAPPED
            break
        p = st[ST_CUR]
        # "Bluff": decided each time a seat becomes active, by the seat's strategy.
        st[ST_BLUFF] = 1 if bluffs(strategy_of(seats, p), seats[p], challenges, rng) else 0
        if st[ST_PENDING] > 0:
            if searches(strategy_of(seats, p)):  # SCENARIO.md, "Strategies": search
                search_penalty(tab, p, seats, rng, ev)
            outcome = resolve_penalty(tab, p, seats, rng, ev)
            if outcome != CONTINUE_TURN:
                continue
        if searches(strategy_of(seats, p)):
            search_turn(tab, p, seats, rng, ev)
        normal_turn(tab, p, seats, rng, ev)
    emit(st, ev, EV_END, st[ST_WINNER], st[ST_STATUS], st[ST_TURNS], 0, 0)


@engine_jit
def play_round(tab, seats, rng, ev, dealer):
    """Play one round to its end; the outcome is left in ``tab``."""
    setup_round(tab, seats, rng, ev, dealer)
    play_turns(tab, seats, rng, ev)

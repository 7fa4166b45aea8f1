"""The ``search`` strategy's look-ahead: determinized Monte Carlo rollouts of each candidate card.

Before a ``search`` seat's normal turn, :func:`search_scores` scores each distinct legal card
in its hand (the first ``max_candidates`` of them in hand order; a wild once per color it
may name) by the rounds it wins out of ``rollouts`` rollouts per move, and writes the scores
into the memory row, where ``strategies.choose_card`` reads them (the highest wins; ties:
the engine's tie rule) and ``strategies.choose_color`` the color of a chosen wild.

Information (SCENARIO.md, "Strategies", ``search``): a rollout plays on a copy of the table
in the table's search scratch rows whose hidden cards are dealt afresh first. The cards the
seat cannot see are counted from public facts only: the deck's composition minus the seat's
own hand minus the discard pile. They are listed in card-id order, shuffled with the
search's own random stream (``RNG_SEARCH``, seeded per game, never the game's) and dealt to
the other hands (each keeping its size) and the draw pile. No other seat's hand and no pile
order is read, so two tables alike in everything public and in the seat's hand give the
same scores. Simplification: cards the seat knows to be in another hand (its old hand after
a 7/0 swap, a card it passed) are not tracked; they are dealt at random like the rest.

Rollouts never search: while they play, every ``search`` seat plays its ``rollout_policy``
(restored afterwards), and :func:`rollout_turns` is the turn loop without the look-ahead
(so the compiled code has no recursion). Other decisions of a ``search`` seat (swap target,
stacking, challenge, the color of a wild it did not choose by search: an opening or drawn
one) follow the basic rules of thumb of strategies.py.
"""

from __future__ import annotations

from uno_stats.engine.cards import N_CARD_TYPES, N_COLORS, WILD
from uno_stats.engine.events import EV_SEARCH, PLAY_NORMAL, emit
from uno_stats.engine.hands import measure
from uno_stats.engine.jit import engine_jit
from uno_stats.engine.piles import collect_playable, find_card, playable
from uno_stats.engine.play import play_card
from uno_stats.engine.rng import below, next_u64, shuffle
from uno_stats.engine.rules import R_MAX_TURNS, R_WD4_CHALLENGE
from uno_stats.engine.schema import STATUS_CAPPED
from uno_stats.engine.state import (
    RNG_ROLLOUT,
    RNG_SEARCH,
    RNG_STREAMS,
    SEARCH_WORK_ROWS,
    ST_BLUFF,
    ST_COLOR,
    ST_CUR,
    ST_DISC_N,
    ST_NO_MERCY_CARDS,
    ST_PARTNERS,
    ST_PENDING,
    ST_PILE_N,
    ST_PLAYERS,
    ST_STATUS,
    ST_TRACE,
    ST_TURNS,
    ST_WINNER,
    T_CAND,
    T_DISC,
    T_HANDS,
    T_HN,
    T_MEMORY,
    T_PILE,
    T_RULES,
    T_ST,
    deck_of,
    table_rows,
)
from uno_stats.engine.strategies import (
    COLOR_BASE,
    COLOR_SLOT,
    LACKS_BASE,
    SCORE_BASE,
    SEARCH,
    bluffs,
    strategy_of,
)
from uno_stats.engine.strategy_table import (
    S_KIND,
    S_MAX_CANDIDATES,
    S_ROLLOUT_POLICY,
    S_ROLLOUTS,
)
from uno_stats.engine.turn import CONTINUE_TURN, normal_turn, resolve_penalty


@engine_jit
def rollout_turns(tab, seats, rng, ev):
    """``round.play_turns`` without the look-ahead: play a rollout to the round's end."""
    st = tab[T_ST]
    rules = tab[T_RULES]
    max_turns = rules[R_MAX_TURNS]
    challenges = rules[R_WD4_CHALLENGE] != 0
    while st[ST_STATUS] < 0:
        if st[ST_TURNS] >= max_turns:
            st[ST_STATUS] = STATUS_CAPPED
            break
        p = st[ST_CUR]
        st[ST_BLUFF] = 1 if bluffs(strategy_of(seats, p), seats[p], challenges, rng) else 0
        if st[ST_PENDING] > 0:
            outcome = resolve_penalty(tab, p, seats, rng, ev)
            if outcome != CONTINUE_TURN:
                continue
        normal_turn(tab, p, seats, rng, ev)


@engine_jit
def deal_hidden(sim, p, counts, pool, srng):
    """Deal the cards seat ``p`` cannot see afresh in the position ``sim``.

    The unseen cards are the deck minus ``p``'s hand minus the discards (public facts and
    ``p``'s own cards only), listed in card-id order into ``pool``, shuffled with ``srng``
    and dealt to the other hands (sizes kept) and then the draw pile.
    """
    st = sim[T_ST]
    hands = sim[T_HANDS:]
    hn = sim[T_HN]
    pile = sim[T_PILE]
    disc = sim[T_DISC]
    deck = deck_of(sim)
    for c in range(N_CARD_TYPES):
        counts[c] = 0
    for i in range(deck.shape[0]):
        counts[deck[i]] += 1
    for i in range(hn[p]):
        counts[hands[p, i]] -= 1
    for i in range(st[ST_DISC_N]):
        counts[disc[i]] -= 1
    m = 0
    for c in range(N_CARD_TYPES):
        for _ in range(counts[c]):
            pool[m] = c
            m += 1
    shuffle(pool, m, srng)
    memory = sim[T_MEMORY]
    rules = sim[T_RULES]
    kept = counts  # reused: by seat, how many of its cards are dealt under an inference
    k = 0  # first the cards each seat surely kept from its last turn without a play: none
    for q in range(st[ST_PLAYERS]):  # it could have played then (strategies._search_observe)
        kept[q] = 0
        known = memory[LACKS_BASE + q]
        if q == p or known == 0:
            continue
        top = (known & 127) - 1
        color = known >> 7 & 7
        size = known >> 10 & 255
        need = min(known >> 18, hn[q])
        j = k
        while kept[q] < need:
            while j < m and playable(pool[j], size, top, color, True, rules):
                j += 1
            if j == m:  # no such card left: the rest of the hand is dealt freely
                break
            tmp = pool[k]
            pool[k] = pool[j]
            pool[j] = tmp
            k += 1
            j += 1
            kept[q] += 1
    if k > 0:  # the rest in a fresh random order (the scan moved the cards it passed over)
        shuffle(pool[k:], m - k, srng)
    front = 0
    for q in range(st[ST_PLAYERS]):
        if q != p:
            for i in range(hn[q]):
                if i < kept[q]:
                    hands[q, i] = pool[front]
                    front += 1
                else:
                    hands[q, i] = pool[k]
                    k += 1
    for i in range(st[ST_PILE_N]):
        pile[i] = pool[k]
        k += 1


@engine_jit
def _rollout_win(tab, sim, p, card, color, seats, rng, ev):
    """One rollout: copy the table to ``sim``, deal the hidden cards afresh, play ``card``
    from ``p``'s hand (a wild naming ``color``), play the round out; whether ``p`` (or its
    partner) won it."""
    rows = table_rows(tab[T_ST, ST_PLAYERS])
    work = tab[2 * rows]
    srng = rng[RNG_SEARCH : RNG_SEARCH + 1]
    rrng = rng[RNG_ROLLOUT : RNG_ROLLOUT + 1]
    for r in range(rows):  # explicit loops: an array assignment may allocate
        for c in range(tab.shape[1]):
            sim[r, c] = tab[r, c]
    st = sim[T_ST]
    st[ST_TRACE] = 0
    deal_hidden(sim, p, work, tab[2 * rows + 1], srng)
    rrng[0] = next_u64(srng)
    hands = sim[T_HANDS:]
    hn = sim[T_HN]
    st[ST_TURNS] += 1  # the turn normal_turn would count, the candidate its choice
    sim[T_MEMORY, COLOR_SLOT] = color + 1  # choose_color names it for this play only
    seats[p, S_KIND] = SEARCH
    play_card(sim, p, find_card(hands, hn, p, card), PLAY_NORMAL, seats, rrng, ev)
    seats[p, S_KIND] = seats[p, S_ROLLOUT_POLICY]
    if st[ST_STATUS] < 0:
        measure(sim)
        rollout_turns(sim, seats, rrng, ev)
    w = st[ST_WINNER]
    if w < 0:
        return 0
    if w == p or (st[ST_PARTNERS] != 0 and w % 2 == p % 2):
        return 1
    return 0


@engine_jit
def _wins(tab, sim, p, card, color, rollouts, seats, rng, ev):
    """The rollouts of one move that ``p`` won."""
    wins = 0
    for _ in range(rollouts):
        wins += _rollout_win(tab, sim, p, card, color, seats, rng, ev)
    return wins


@engine_jit
def search_scores(tab, p, seats, rng, ev):
    """Score each candidate card of seat ``p`` (a ``search`` seat about to take its normal
    turn) by its rollout wins, into the memory row at ``SCORE_BASE + card`` (-1: not tried;
    N_COLORS x the wins of a card, the wins summed over the colors of a wild: the same
    scale); a wild is tried naming each color, and its best color is kept at
    ``COLOR_BASE + card - WILD`` (ties uniform on search's stream).

    Reads the game's state but draws nothing from the game's stream (``rng[0]``): only from
    search's own (see the module docstring). A table without the scratch rows or the three
    streams scores nothing.
    """
    st = tab[T_ST]
    memory = tab[T_MEMORY]
    for c in range(N_CARD_TYPES):
        memory[SCORE_BASE + c] = -1
    for c in range(N_CARD_TYPES - WILD):
        memory[COLOR_BASE + c] = -1
    memory[COLOR_SLOT] = 0
    players = st[ST_PLAYERS]
    rows = table_rows(players)
    if tab.shape[0] < 2 * rows + SEARCH_WORK_ROWS or rng.shape[0] < RNG_STREAMS:
        return
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    disc = tab[T_DISC]
    cand = tab[T_CAND]  # normal_turn collects the candidates afresh after the search
    top = disc[st[ST_DISC_N] - 1]
    classic = st[ST_NO_MERCY_CARDS] == 0
    n = collect_playable(
        hands, hn, p, top, st[ST_COLOR], st[ST_BLUFF] != 0, tab[T_RULES], cand, classic
    )
    knobs = seats[p]
    rollouts = max(1, int(knobs[S_ROLLOUTS]))
    limit = max(1, int(knobs[S_MAX_CANDIDATES]))
    tried = 0
    moves = 0
    for k in range(n):  # the first `limit` distinct cards in hand order are tried (-2)
        card = hands[p, cand[k]]
        if memory[SCORE_BASE + card] == -1 and tried < limit:
            memory[SCORE_BASE + card] = -2
            tried += 1
            moves += N_COLORS if card >= WILD else 1
    if moves < 2 or hn[p] < 2:  # one move (or going out): nothing to choose
        for c in range(N_CARD_TYPES):
            memory[SCORE_BASE + c] = -1
        return
    searchers = 0  # bit q: seat q plays search (and its rollout policy meanwhile)
    for q in range(players):
        if strategy_of(seats, q) == SEARCH:
            searchers |= 1 << q
            seats[q, S_KIND] = seats[q, S_ROLLOUT_POLICY]
    sim = tab[rows : 2 * rows]
    srng = rng[RNG_SEARCH : RNG_SEARCH + 1]
    worlds = srng[0]  # every move is tried in the same dealt worlds (common random numbers)
    for card in range(N_CARD_TYPES):
        if memory[SCORE_BASE + card] != -2:
            continue
        if card < WILD:  # scored N_COLORS x its wins, a wild the sum over its colors
            srng[0] = worlds
            wins = _wins(tab, sim, p, card, -1, rollouts, seats, rng, ev)
            emit(st, ev, EV_SEARCH, p, card, -1, wins, rollouts)
            memory[SCORE_BASE + card] = N_COLORS * wins
            continue
        best = -1
        ties = 0
        total = 0
        for color in range(N_COLORS):
            srng[0] = worlds
            wins = _wins(tab, sim, p, card, color, rollouts, seats, rng, ev)
            emit(st, ev, EV_SEARCH, p, card, color, wins, rollouts)
            total += wins
            if wins > best:
                best = wins
                ties = 1
                memory[COLOR_BASE + card - WILD] = color
            elif wins == best:
                ties += 1
                if below(srng, ties) == 0:  # each tied color kept with chance 1/ties
                    memory[COLOR_BASE + card - WILD] = color
        memory[SCORE_BASE + card] = total  # not its best color's: that maximum of noisy
        # counts would overrate every wild (the card's choice stays unbiased)
    for q in range(players):
        if (searchers >> q) & 1:
            seats[q, S_KIND] = SEARCH

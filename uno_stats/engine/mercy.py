"""The mercy rule (RULES.md S22): a seat whose hand reaches ``mercy_limit`` cards is out.

Its cards go under the discard pile (``mercy_cards: discard-bottom``) or under the draw pile
(``draw-bottom``); the seat takes no further part in the round (``next_seat`` passes it by);
when one seat is left it wins the round (``last_standing``). Allocates nothing.
"""

from __future__ import annotations

from uno_stats.engine.events import EV_KNOCKOUT, emit
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.rules import MERCY_DRAW_BOTTOM, R_MERCY_CARDS, R_MERCY_LIMIT
from uno_stats.engine.schema import STATUS_WON
from uno_stats.engine.state import (
    ST_DISC_N,
    ST_ELIMINATED,
    ST_LAST_STANDING,
    ST_LEFT,
    ST_OUT,
    ST_PILE_N,
    ST_PLAYERS,
    ST_STATUS,
    ST_WINNER,
    T_DISC,
    T_HANDS,
    T_HN,
    T_OUT,
    T_PILE,
    T_RULES,
    T_ST,
    link_seats,
)


@engine_inline
def is_out(st, p):
    """Whether seat ``p`` has been knocked out this round."""
    return (st[ST_OUT] >> p) & 1 != 0


@engine_jit
def knock_out(tab, p, ev):
    """S22: seat ``p`` is out: its hand goes under the discard (or draw) pile, it is recorded
    as the round's next knock-out, and with one seat left that seat wins the round."""
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    held = hn[p]
    under_draw = tab[T_RULES, R_MERCY_CARDS] == MERCY_DRAW_BOTTOM
    row = tab[T_PILE] if under_draw else tab[T_DISC]
    slot = ST_PILE_N if under_draw else ST_DISC_N
    n = st[slot]
    for i in range(n - 1, -1, -1):  # the pile moves up; the hand goes beneath it, in order
        row[i + held] = row[i]
    for i in range(held):
        row[i] = hands[p, i]
    st[slot] = n + held
    hn[p] = 0
    st[ST_OUT] |= 1 << p
    link_seats(st)
    st[ST_LEFT] -= 1
    st[ST_ELIMINATED] += 1
    tab[T_OUT, p] = st[ST_ELIMINATED]
    emit(st, ev, EV_KNOCKOUT, p, held, st[ST_ELIMINATED], 0, 0)
    if st[ST_LEFT] == 1 and st[ST_STATUS] < 0:  # the last seat standing wins the round
        for s in range(st[ST_PLAYERS]):
            if not is_out(st, s):
                st[ST_WINNER] = s
        st[ST_STATUS] = STATUS_WON
        st[ST_LAST_STANDING] = 1


@engine_jit
def mercy_check(tab, p, ev):
    """S22: seat ``p`` just took a card; at ``mercy_limit`` cards, while the round is in
    play, it is knocked out."""
    st = tab[T_ST]
    if tab[T_HN, p] >= tab[T_RULES, R_MERCY_LIMIT] and st[ST_STATUS] < 0:
        knock_out(tab, p, ev)

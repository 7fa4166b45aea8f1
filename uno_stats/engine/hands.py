"""Moves of whole hands (7-0, Shuffle Hands) and the per-turn hand-size measurements."""

from __future__ import annotations

from uno_stats.engine.events import EV_HAND, EV_ROTATE, EV_SHUFFLE_HANDS, EV_SWAP, emit
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.rng import shuffle
from uno_stats.engine.schema import CHECKPOINT_EVERY
from uno_stats.engine.state import (
    N_CHECKPOINTS,
    ST_CHECKPOINTS,
    ST_DIR,
    ST_OUT,
    ST_PLAYERS,
    ST_TURNS,
    T_CHECKPOINTS,
    T_DEFICIT,
    T_HN,
    T_ST,
)


@engine_jit
def _copy_row(hands, hn, src, dst):
    for i in range(hn[src]):
        hands[dst, i] = hands[src, i]
    hn[dst] = hn[src]


@engine_jit
def swap_hands(st, hands, hn, p, q, ev):
    """S9: a 7 swaps the whole hands of seats ``p`` and ``q`` (through the scratch row)."""
    scratch = st[ST_PLAYERS]
    _copy_row(hands, hn, p, scratch)
    _copy_row(hands, hn, q, p)
    _copy_row(hands, hn, scratch, q)
    hn[scratch] = 0
    emit(st, ev, EV_SWAP, p, q, 0, 0, 0)


@engine_jit
def _in_before(st, s, step):
    """The seat still in (S22) nearest to ``s`` going ``step`` (+1 or -1) without wrapping,
    or -1 / ``players`` past the table's end."""
    q = s + step
    while 0 <= q < st[ST_PLAYERS] and (st[ST_OUT] >> q) & 1 != 0:
        q += step
    return q


@engine_jit
def _rotate_in(st, hands, hn):
    """S9 with seats knocked out (S22): every hand still in moves to the next seat still in,
    in the direction of play."""
    players = st[ST_PLAYERS]
    scratch = players
    step = -st[ST_DIR]  # walk against the direction: each seat takes the hand before it
    s = _in_before(st, players if step < 0 else -1, step)  # the last seat in, that way round
    _copy_row(hands, hn, s, scratch)
    while True:
        prev = _in_before(st, s, step)
        if prev < 0 or prev >= players:
            break
        _copy_row(hands, hn, prev, s)
        s = prev
    _copy_row(hands, hn, scratch, s)
    hn[scratch] = 0


@engine_jit
def rotate_hands(st, hands, hn, p, ev):
    """S9: a 0 moves every hand one seat in the direction of play (S22: from seat still in
    to seat still in)."""
    players = st[ST_PLAYERS]
    scratch = players
    if st[ST_OUT] != 0:
        _rotate_in(st, hands, hn)
    elif st[ST_DIR] > 0:  # seat s receives the hand of seat s - 1
        _copy_row(hands, hn, players - 1, scratch)
        for s in range(players - 1, 0, -1):
            _copy_row(hands, hn, s - 1, s)
        _copy_row(hands, hn, scratch, 0)
    else:  # seat s receives the hand of seat s + 1
        _copy_row(hands, hn, 0, scratch)
        for s in range(players - 1):
            _copy_row(hands, hn, s + 1, s)
        _copy_row(hands, hn, scratch, players - 1)
    hn[scratch] = 0
    emit(st, ev, EV_ROTATE, p, st[ST_DIR], 0, 0, 0)


@engine_jit
def shuffle_hands(st, hands, hn, p, rng, ev):
    """S12: collect every hand, shuffle, deal one at a time clockwise from ``p``'s left."""
    players = st[ST_PLAYERS]
    scratch = players
    n = 0
    for s in range(players):
        for i in range(hn[s]):
            hands[scratch, n] = hands[s, i]
            n += 1
        hn[s] = 0
    shuffle(hands[scratch], n, rng)
    emit(st, ev, EV_SHUFFLE_HANDS, p, n, 0, 0, 0)
    s = p
    for k in range(n):
        s = s + 1 if s + 1 < players else 0
        while (st[ST_OUT] >> s) & 1 != 0:  # S22: only seats still in are dealt to
            s = s + 1 if s + 1 < players else 0
        card = hands[scratch, k]
        hands[s, hn[s]] = card
        hn[s] += 1
        emit(st, ev, EV_HAND, s, card, 0, 0, 0)
    # largest_hand needs no update: dealt out evenly, no hand exceeds the largest before


@engine_jit
def _checkpoint(tab, t):
    """Record every hand size after turn ``t`` (a multiple of ``CHECKPOINT_EVERY``), once."""
    st = tab[T_ST]
    if t <= 0:
        return
    k = t // CHECKPOINT_EVERY - 1
    bit = 1 << k
    if st[ST_CHECKPOINTS] & bit == 0:
        st[ST_CHECKPOINTS] |= bit
        for s in range(st[ST_PLAYERS]):
            tab[T_CHECKPOINTS + k, s] = tab[T_HN, s]


@engine_jit
def _measure_in(st, hn, max_deficit):
    """Deficits among the seats still in (S22); a seat knocked out keeps what it had."""
    low = 1 << 30
    for s in range(st[ST_PLAYERS]):
        if (st[ST_OUT] >> s) & 1 == 0:
            low = min(low, hn[s])
    for s in range(st[ST_PLAYERS]):
        if (st[ST_OUT] >> s) & 1 == 0:
            max_deficit[s] = max(max_deficit[s], hn[s] - low)


@engine_inline
def measure(tab):
    """After a turn that did not end the round: deficits, and hand sizes at turns 5, 10, ... 100.

    Inlined at its call sites and without branches but the checkpoint test: it runs every turn.
    """
    st, hn, max_deficit = tab[T_ST], tab[T_HN], tab[T_DEFICIT]
    players = st[ST_PLAYERS]
    if st[ST_OUT] == 0:
        low = hn[0]
        for s in range(1, players):
            low = min(low, hn[s])
        for s in range(players):
            max_deficit[s] = max(max_deficit[s], hn[s] - low)
    else:
        _measure_in(st, hn, max_deficit)
    t = st[ST_TURNS]
    if t <= CHECKPOINT_EVERY * N_CHECKPOINTS and t % CHECKPOINT_EVERY == 0:
        _checkpoint(tab, t)

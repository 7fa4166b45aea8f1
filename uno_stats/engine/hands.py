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
def rotate_hands(st, hands, hn, p, ev):
    """S9: a 0 moves every hand one seat in the direction of play."""
    players = st[ST_PLAYERS]
    scratch = players
    if st[ST_DIR] > 0:  # seat s receives the hand of seat s - 1
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
    for k in range(n):
        s = (p + 1 + k) % players
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


@engine_inline
def measure(tab):
    """After a turn that did not end the round: deficits, and hand sizes at turns 5, 10, ... 100.

    Inlined at its call sites and without branches but the checkpoint test: it runs every turn.
    """
    st, hn, max_deficit = tab[T_ST], tab[T_HN], tab[T_DEFICIT]
    players = st[ST_PLAYERS]
    low = hn[0]
    for s in range(1, players):
        low = min(low, hn[s])
    for s in range(players):
        max_deficit[s] = max(max_deficit[s], hn[s] - low)
    t = st[ST_TURNS]
    if t <= CHECKPOINT_EVERY * N_CHECKPOINTS and t % CHECKPOINT_EVERY == 0:
        _checkpoint(tab, t)

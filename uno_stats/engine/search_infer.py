"""What the opponents' plays say about their hands, for ``search``'s knob ``inference:
last-play`` (SCENARIO.md, "Strategies", ``search``).

A seat's recent plays (the memory row's ``PLAYS_BASE`` entries, written by
memory_row.record_play) were made from the hand it holds now plus the cards it played
since, as long as it has not drawn since (each hand size recorded is one less than the one
before it). In a dealt world that hand is known, so whether the seat's model would have
made each play from it can be judged. Only ``basic`` is judged (a seat its rollouts play
as basic): it plays one of its best-ranked cards (strategies._basic_shed_rank: same color,
then same number or symbol, then wilds) and names its commonest color, so a play it would
not have made marks the world as unlikely. ``random``'s plays say too little (measured: no
gain) to pay for the worlds they would reject.

:func:`deal_again` keeps a world with probability UNLIKE to the power of the plays it
contradicts (rejection sampling, at most MAX_TRIES worlds a rollout, the last one kept).
An approximation of the model's posterior: among the best-ranked cards basic picks
uniformly, and that factor is left out (it rejected most worlds at four players for no
measured gain). Only public plays and the dealt cards are read.
"""

from __future__ import annotations

from uno_stats.engine.cards import N_COLORS, WILD
from uno_stats.engine.jit import engine_jit
from uno_stats.engine.memory_row import PLAYED_BASE, PLAYS_BASE, PLAYS_KEPT, UNRECORDED
from uno_stats.engine.mercy import is_out
from uno_stats.engine.piles import collect_playable
from uno_stats.engine.rng import chance
from uno_stats.engine.search_world import deal
from uno_stats.engine.state import (
    ST_NO_MERCY_CARDS,
    ST_PLAYERS,
    T_CAND,
    T_HANDS,
    T_HN,
    T_RULES,
    T_ST,
)
from uno_stats.engine.strategies import BASIC, _basic_shed_rank, colors_held, strategy_of

UNLIKE = 0.02  # the chance left to a world for each play basic would not have made there
MAX_TRIES = 64  # worlds dealt at most for one rollout; the last is kept


@engine_jit
def names_commonest(hand, named):
    """Whether ``named`` is one of the commonest colors in ``hand`` (the colored cards),
    as basic names for its wild."""
    packed = colors_held(hand)
    most = 0
    for c in range(N_COLORS):
        most = max(most, packed >> (16 * c) & 0xFFFF)
    return packed >> (16 * named) & 0xFFFF == most


@engine_jit
def basic_would_play(sim, q, record, size):
    """Whether basic, holding seat ``q``'s first ``size`` cards in ``sim`` (the card played
    last of them), could have made the play ``record``: the card among its best-ranked
    playable ones, and for a wild the color named among its commonest after it. A play that
    was not legal there (a bluff) is not judged: True."""
    hands = sim[T_HANDS:]
    hn = sim[T_HN]
    cand = sim[T_CAND]
    card = record & 127
    top = record >> 7 & 127
    color = record >> 14 & 7
    held = hn[q]
    hn[q] = size
    classic = sim[T_ST, ST_NO_MERCY_CARDS] == 0
    n = collect_playable(hands, hn, q, top, color, False, sim[T_RULES], cand, classic)
    hn[q] = held
    hand = hands[q, :size]
    best = -1
    mine = -1
    for k in range(n):
        c = hand[cand[k]]
        rank = _basic_shed_rank(c, color, hand)
        best = max(best, rank)
        if c == card:
            mine = rank
    if mine < 0:  # not among the playable cards: a bluff, not judged
        return True
    if mine < best:
        return False
    return card < WILD or names_commonest(hands[q, : size - 1], record >> 17 & 7)


@engine_jit
def world_chance(sim, memory, p, rseats):
    """The chance to keep the world dealt in ``sim`` for seat ``p``: UNLIKE for each recorded
    normal play, made since its player's last draw, that basic would not have made from the
    hand then (the dealt hand plus the cards played since), over the opponents its rollouts
    play as basic (``rseats``); ``memory``: the round's memory row (the plays recorded)."""
    st = sim[T_ST]
    hands = sim[T_HANDS:]
    hn = sim[T_HN]
    odds = 1.0
    for q in range(st[ST_PLAYERS]):
        played = memory[PLAYED_BASE + q]
        if q == p or is_out(st, q) or played & UNRECORDED or strategy_of(rseats, q) != BASIC:
            continue
        size = hn[q]
        base = PLAYS_BASE + q * PLAYS_KEPT
        for j in range(played):
            record = memory[base + j]
            if record >> 20 & 255 != size:  # it drew since: the earlier hands are unknown
                break
            hands[q, size] = record & 127  # the hand then held this card too
            size += 1
            if record >> 28 & 1 and not basic_would_play(sim, q, record, size):
                odds *= UNLIKE
    return odds


@engine_jit
def deal_again(sim, memory, p, pool, m, kept, legal_wd4, srng, rseats):
    """Rejection sampling of the world just dealt in ``sim`` (search_world.deal, same
    arguments): kept with :func:`world_chance`, else dealt again, at most MAX_TRIES worlds
    in all (the last is kept)."""
    for t in range(MAX_TRIES):
        if chance(srng, world_chance(sim, memory, p, rseats)):
            return
        if t < MAX_TRIES - 1:
            deal(sim, p, pool, m, kept, legal_wd4, srng)

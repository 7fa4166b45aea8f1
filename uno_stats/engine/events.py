"""Trace events: what the engine writes, one row per action, when tracing is on.

Each event is ``(kind, seat, a, b, c, d)``; the meaning of a-d depends on the kind
(see :mod:`uno_stats.engine.trace` for the text of each). Tracing costs one branch
per action when off.
"""

from __future__ import annotations

from uno_stats.engine.jit import engine_jit
from uno_stats.engine.state import ST_EV_N, ST_TRACE

EV_DEAL = 1  # seat, card
EV_TURN_UP = 2  # -, card, what became of it (TURN_UP_*)
EV_START = 3  # first seat, dealer, direction, color
EV_TURN = 4  # seat, turn number, top card, active color, direction
EV_PLAY = 5  # seat, card, how (0 normal, 1 drawn, 2 stack, 3 jump-in), hand size after
EV_COLOR = 6  # seat, color named
EV_DRAW = 7  # seat, card, reason (DRAW_*)
EV_PASS = 8  # seat (nothing playable, nothing to draw)
EV_LOSE_TURN = 9  # seat, reason (LOST_TO_*)
EV_REVERSE = 10  # seat, new direction
EV_PENALTY = 11  # seat, cards owed, reason (DRAW_*)
EV_CHALLENGE = 12  # challenger, accused seat, 1 if the Wild Draw Four was illegal
EV_UNO = 13  # seat, what happened (UNO_*)
EV_SWAP = 14  # seat, other seat
EV_ROTATE = 15  # seat, direction the hands moved
EV_SHUFFLE_HANDS = 16  # seat
EV_REFILL = 17  # -, cards shuffled into the draw pile
EV_MISTAKE = 18  # seat, card tried
EV_STACK = 19  # seat, new pending total
EV_EXTRA_TURN = 20  # seat
EV_JUMP = 21  # seat jumping in, seat jumped on, card
EV_END = 22  # winner, status
EV_VOLUNTARY = 23  # seat draws while holding a playable card
EV_HAND = 24  # seat, card: a card dealt into a hand by Shuffle Hands
EV_KEEP = 25  # seat, card: a playable drawn card kept (drawn_card: may-play, keep_drawn)
EV_IGNORED = 26  # seat starting, card: an opening action card without effect (S14)
EV_EXHAUSTED = 27  # seat that found the draw pile empty (reshuffle: false, S17)
EV_DEFLECT = 28  # seat now owing the pending total, the total (deflect, S18)
EV_MULTI = 29  # seat, cards played together, first card, last card (multi_play, S20)
EV_SEARCH = 30  # seat, move (a card or SEARCH_*), 1 + color | 1 + 7's target << 3 | bluff << 8 |
# basic's own move << 9, estimated win chance in tenths of a percent, rollouts (search.py)
EV_KNOCKOUT = 31  # seat knocked out by the mercy rule, cards it held, k-th out (S22)
EV_SKIP_ALL = 32  # seat whose Skip Everyone skips every other seat: it plays again (S21)
EV_DISCARD_ALL = 33  # seat, color, cards of that color it discards with its Discard All (S21)
EV_ROULETTE = 34  # seat turning up cards for a Color Roulette, color named, seat that named it

DRAW_TURN, DRAW_PENALTY, DRAW_CHALLENGE, DRAW_UNO, DRAW_MISTAKE, DRAW_FINAL = 0, 1, 2, 3, 4, 5
DRAW_ROULETTE = 6  # a card turned up by a Color Roulette's victim and taken (S21)
# why a seat loses its turn (EV_LOSE_TURN): a Skip, a penalty drawn, a challenge lost
LOST_TO_SKIP, LOST_TO_PENALTY, LOST_TO_CHALLENGE = 0, 1, 2
# the UNO call (EV_UNO): called; forgotten and not caught; forgotten and caught
UNO_CALLED, UNO_FORGOT, UNO_CAUGHT = 0, 1, 2
# an opening card turned up (EV_TURN_UP): covered by the next (redraw), kept to open the
# discard pile, or a Wild Draw Four put back into the reshuffled deck
TURN_UP_COVERED, TURN_UP_KEPT, TURN_UP_RETURNED = 0, 1, 2
PLAY_NORMAL, PLAY_DRAWN, PLAY_STACK, PLAY_JUMP = 0, 1, 2, 3
PLAY_DEFLECT = 4  # a Skip or Reverse answering a pending draw total (S18)
PLAY_MULTI = 5  # a further card of a multi-play, after its first (S20)
# search's moves that are no card (EV_SEARCH): past the card ids (cards.N_CARD_TYPES is 72)
SEARCH_DRAW, SEARCH_CHALLENGE, SEARCH_DECLINE = 120, 121, 122


@engine_jit
def emit(st, ev, kind, seat, a, b, c, d):
    """Record one event when tracing is on (silently stops when the buffer is full)."""
    if st[ST_TRACE] == 0:
        return
    n = st[ST_EV_N]
    if n < ev.shape[0]:
        ev[n, 0] = kind
        ev[n, 1] = seat
        ev[n, 2] = a
        ev[n, 3] = b
        ev[n, 4] = c
        ev[n, 5] = d
    st[ST_EV_N] = n + 1

"""Layout of the engine's working arrays.

A table's scalar state lives in one int64 array ``st`` indexed by the ``ST_*``
constants; hands are rows of ``hands`` with counts in ``hn``. All arrays are
allocated once per chunk and reused for every round.
"""

from __future__ import annotations

import numpy as np

from uno_stats.engine.cards import MAX_CARDS
from uno_stats.engine.jit import engine_inline

# Table and turn state
ST_PLAYERS = 0
ST_CUR = 1  # seat about to become active
ST_DIR = 2  # +1 clockwise, -1 counterclockwise
ST_COLOR = 3  # active color (the announced one after a wild)
ST_PENDING = 4  # draw total owed by the next active seat
ST_PEND_KIND = 5  # 2 or 4: the draw card on top of the pending chain; 0 without one
ST_PEND_CARDS = 6  # draw cards in the pending chain
ST_WD4_PLAYER = 7  # who played the last Wild Draw Four
ST_WD4_LEGAL = 8  # 1 when that play was legal (judged as it was played)
ST_PILE_N = 9
ST_DISC_N = 10
ST_DEALER = 12
ST_FIRST = 13
ST_STATUS = 14  # -1 while playing, then a schema.STATUS_* code
ST_WINNER = 15
ST_PASSES = 16  # passes in a row (nothing playable, nothing drawable)
ST_BLUFF = 17  # the active seat treats illegal Wild Draw Fours as playable this turn
ST_PARTNERS = 18  # 1 under partners scoring: a partner is not an opponent
# Counters of the round
ST_TURNS = 20
ST_DRAWN = 21
ST_RESHUFFLES = 22
ST_LONGEST_STACK = 23
ST_STACK_TOTAL = 24
ST_CHALLENGES = 25
ST_CHALLENGES_WON = 26
ST_UNO_PENALTIES = 27
ST_SEVEN_SWAPS = 28
ST_ZERO_PASSES = 29
ST_JUMP_INS = 30
ST_MISTAKES = 31
ST_HAND_SHUFFLES = 32
ST_CHECKPOINTS = 33  # bit k set: hands recorded after turn 5 * (k + 1)
ST_WD4_PREV_COLOR = 34  # color in play before the last Wild Draw Four
ST_WD4_PREV_TOP = 35  # top card before it
ST_DECK_N = 36  # cards in the deck (row T_DECK)
# Tracing
ST_TRACE = 40
ST_EV_N = 41
ST_SIZE = 48

COUNTERS = (
    ST_TURNS,
    ST_DRAWN,
    ST_RESHUFFLES,
    ST_LONGEST_STACK,
    ST_STACK_TOTAL,
    ST_CHALLENGES,
    ST_CHALLENGES_WON,
    ST_UNO_PENALTIES,
    ST_SEVEN_SWAPS,
    ST_ZERO_PASSES,
    ST_JUMP_INS,
    ST_MISTAKES,
    ST_HAND_SHUFFLES,
    ST_CHECKPOINTS,
)

N_CHECKPOINTS = 20  # after turns 5, 10, ..., 100
EVENT_FIELDS = 6

# Rows of the table array ``tab`` (int64, MAX_CARDS wide): every int64 work array of a
# table lives in it, so compiled helpers pass one array instead of a dozen (numba copies
# each array argument's descriptor on every call; with few arguments calls stay cheap).
T_ST = 0  # scalar state, indexed by ST_*
T_HN = 1  # cards held, by seat (last: the scratch row's count)
T_PILE = 2  # draw pile, top at ST_PILE_N - 1
T_DISC = 3  # discard pile, top at ST_DISC_N - 1
T_CAND = 4  # scratch: hand indices of candidate cards
T_RANK = 5  # scratch: a strategy's ranking of the candidates
T_DEFICIT = 6  # max_deficit by seat
T_RULES = 7  # the encoded rules (rules.R_*)
T_DECK = 8  # the deck's cards (ST_DECK_N of them)
T_LACKS = 9  # by seat, bit c: the seat was seen drawing on color c (public knowledge)
T_CHECKPOINTS = 10  # N_CHECKPOINTS rows: hand sizes by seat after turns 5, 10, ...
T_HANDS = T_CHECKPOINTS + N_CHECKPOINTS  # one row per seat, then a scratch row


@engine_inline
def views(tab):
    """The named arrays inside ``tab`` (views, no copies)."""
    st = tab[T_ST]
    return (
        st,
        tab[T_HANDS:],
        tab[T_HN],
        tab[T_PILE],
        tab[T_DISC],
        tab[T_CAND],
        tab[T_RANK],
        tab[T_DEFICIT],
        tab[T_CHECKPOINTS : T_CHECKPOINTS + N_CHECKPOINTS],
        tab[T_RULES],
        tab[T_DECK, : st[ST_DECK_N]],
    )


class Table:
    """The preallocated working arrays of one table of ``players`` seats.

    ``tab`` holds every int64 array; the attributes are numpy views into it.
    """

    def __init__(
        self, players: int, rules: np.ndarray, deck: np.ndarray, max_events: int = 0
    ) -> None:
        self.tab = np.zeros((T_HANDS + players + 1, MAX_CARDS), dtype=np.int64)
        self.st = self.tab[T_ST]
        self.hands = self.tab[T_HANDS:]
        self.hn = self.tab[T_HN]
        self.pile = self.tab[T_PILE]
        self.disc = self.tab[T_DISC]
        self.max_deficit = self.tab[T_DEFICIT, :players]
        self.checkpoints = self.tab[T_CHECKPOINTS : T_CHECKPOINTS + N_CHECKPOINTS, :players]
        self.rng = np.zeros(1, dtype=np.uint64)
        self.events = np.zeros((max(max_events, 1), EVENT_FIELDS), dtype=np.int64)
        self.st[ST_PLAYERS] = players
        self.st[ST_TRACE] = 1 if max_events > 0 else 0
        self.tab[T_RULES, : len(rules)] = rules
        self.set_deck(deck)

    def set_deck(self, deck: np.ndarray) -> None:
        """Play with ``deck`` (card ids; a scripted test may pass a short ordered deck)."""
        self.tab[T_DECK, :] = 0
        self.tab[T_DECK, : len(deck)] = deck
        self.st[ST_DECK_N] = len(deck)

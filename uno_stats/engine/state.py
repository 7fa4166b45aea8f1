"""Layout of the engine's working arrays.

A table's scalar state lives in one int64 array ``st`` indexed by the ``ST_*``
constants (the order of ``STATE_SLOTS``, checked at import); hands are rows of
``hands`` with counts in ``hn``. All arrays are allocated once per chunk and reused
for every round.
"""

from __future__ import annotations

import numpy as np

from uno_stats.engine.cards import MAX_CARDS, MAX_DECK_CARDS, no_mercy_card
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.rules import R_HAND_SIZE
from uno_stats.engine.schema import CHECKPOINT_TURNS, ROUND_COUNTERS
from uno_stats.engine.slots import check_slots

MAX_SEATS = 20  # the most players a scenario may seat (SCENARIO.md: 2-20)

STATE_SLOTS: tuple[str, ...] = (
    # Table and turn state
    "players",
    "cur",  # seat about to become active
    "dir",  # +1 clockwise, -1 counterclockwise
    "color",  # active color (the announced one after a wild)
    "pending",  # draw total owed by the next active seat
    "pend_kind",  # 2 or 4: the draw card on top of the pending chain; 0 without one
    "pend_cards",  # draw cards in the pending chain
    "wd4_player",  # who played the last Wild Draw Four
    "wd4_legal",  # 1 when that play was legal (judged as it was played; hidden information)
    "wd4_prev_color",  # color in play before the last Wild Draw Four
    "wd4_prev_top",  # top card before it
    "pile_n",
    "disc_n",
    "deck_n",  # cards in the deck (row T_DECK)
    "dealer",
    "first",
    "status",  # -1 while playing, then a schema.STATUS_* code
    "winner",
    "passes",  # passes in a row (nothing playable, nothing drawable)
    "bluff",  # the active seat treats illegal Wild Draw Fours as playable this turn
    "partners",  # 1 under partners scoring: a partner is not an opponent
    "observed",  # 1 when some seat's strategy keeps a memory of public events
    "out",  # bit s set: seat s is knocked out by the mercy rule (S22)
    "left",  # seats still in the round (players, less those knocked out)
    "no_mercy_cards",  # 1 when the deck holds a No Mercy card (cards.no_mercy_card)
    # Tracing
    "trace",
    "ev_n",
    # Counters of the round (schema.ROUND_COUNTERS, in order), then the checkpoint bits:
    # reset_round clears ST_TURNS .. ST_CHECKPOINTS.
    *ROUND_COUNTERS,
    "checkpoints",  # bit k set: hands recorded after turn 5 * (k + 1)
)
ST_PLAYERS = 0
ST_CUR = 1
ST_DIR = 2
ST_COLOR = 3
ST_PENDING = 4
ST_PEND_KIND = 5
ST_PEND_CARDS = 6
ST_WD4_PLAYER = 7
ST_WD4_LEGAL = 8
ST_WD4_PREV_COLOR = 9
ST_WD4_PREV_TOP = 10
ST_PILE_N = 11
ST_DISC_N = 12
ST_DECK_N = 13
ST_DEALER = 14
ST_FIRST = 15
ST_STATUS = 16
ST_WINNER = 17
ST_PASSES = 18
ST_BLUFF = 19
ST_PARTNERS = 20
ST_OBSERVED = 21
ST_OUT = 22
ST_LEFT = 23
ST_NO_MERCY_CARDS = 24
ST_TRACE = 25
ST_EV_N = 26
ST_TURNS = 27  # the first round counter
ST_CARDS_DRAWN = 28
ST_RESHUFFLES = 29
ST_LONGEST_STACK = 30
ST_STACK_TOTAL = 31
ST_CHALLENGES = 32
ST_CHALLENGES_WON = 33
ST_UNO_PENALTIES = 34
ST_SEVEN_SWAPS = 35
ST_ZERO_PASSES = 36
ST_JUMP_INS = 37
ST_MISTAKES = 38
ST_HAND_SHUFFLES = 39
ST_LARGEST_HAND = 40
ST_TURN_DRAWS = 41
ST_TURN_DRAW_CARDS = 42
ST_MULTI_PLAYS = 43
ST_MULTI_CARDS = 44
ST_ELIMINATED = 45
ST_LAST_STANDING = 46
ST_ROULETTE_DRAWS = 47
ST_CHECKPOINTS = 48
ST_SIZE = len(STATE_SLOTS)
N_COUNTERS = len(ROUND_COUNTERS)

check_slots(globals(), "ST_", STATE_SLOTS, extra=("ST_SIZE",))
# Past the named slots, the order of play: st[NEXT_SEATS + 2 * s] is the seat after seat s
# clockwise (direction +1), st[NEXT_SEATS + 2 * s + 1] counterclockwise, seats knocked out
# (S22) passed by (link_seats below fills them; play.next_seat reads one a turn, no branch).
NEXT_SEATS = ST_SIZE
if NEXT_SEATS + 2 * MAX_SEATS > MAX_CARDS:
    raise ImportError("the state slots and the order of play do not fit a row of the table")

N_CHECKPOINTS = len(CHECKPOINT_TURNS)  # after turns 5, 10, ..., 100
EVENT_FIELDS = 6

# Rows of the table array ``tab`` (int64, table_width(deck) wide): every int64 work array of a
# table lives in it, so compiled helpers pass one array instead of a dozen (numba copies
# each array argument's descriptor on every call; with few arguments calls stay cheap).
# A compiled function takes the rows it uses by name (``hn = tab[T_HN]``; ``tab[T_HANDS:]``
# for the hands; checkpoint_rows and deck_of below for the two views with computed ends).
T_ST = 0  # scalar state, indexed by ST_*
T_HN = 1  # cards held, by seat (last: the scratch row's count)
T_PILE = 2  # draw pile, top at ST_PILE_N - 1
T_DISC = 3  # discard pile, top at ST_DISC_N - 1
T_CAND = 4  # scratch: hand indices of candidate cards
T_RANK = 5  # scratch: a strategy's ranking of the candidates
T_DEFICIT = 6  # max_deficit by seat
T_RULES = 7  # the encoded rules (rules.R_*)
T_DECK = 8  # the deck's cards (ST_DECK_N of them)
T_CHECKPOINTS = 9  # N_CHECKPOINTS rows: hand sizes by seat after turns 5, 10, ...
# What memory-keeping strategies remember: one row for every seat, since each sees the same
# public events (memory_row.observe); kept once, it is updated once per event.
T_MEMORY = T_CHECKPOINTS + N_CHECKPOINTS
T_SEATING = T_MEMORY + 1  # by position, the scenario seat sitting there (S16)
T_OUT = T_SEATING + 1  # by seat: 0, or k when it was the k-th knocked out this round (S22)
T_HANDS = T_OUT + 1  # one row per seat, then a scratch row
# After the scratch row: the search strategy's scratch (strategies.SEARCH, search.py), allocated
# with the table and never touched by the other strategies: a whole copy of the rows above
# (``table_rows(players)`` of them, the position a rollout plays on) and its work rows.
SEARCH_WORK_ROWS = 9
# The random streams of a table (``Table.rng``): the game's, search's sampling stream, and the
# stream of the rollout being played (seeded from search's).
RNG_GAME, RNG_SEARCH, RNG_ROLLOUT = 0, 1, 2
RNG_STREAMS = 3


@engine_jit
def link_seats(st):
    """Fill the order of play that ``play.next_seat`` reads (:data:`NEXT_SEATS`): for every
    seat, in each direction, the next seat still in (S22), or the seat itself when it is the
    only one in. Called for a new table, for a round after a knock-out, at each knock-out."""
    players = st[ST_PLAYERS]
    for s in range(players):
        for way in range(2):  # clockwise (direction +1), then counterclockwise
            step = 1 - 2 * way
            q = s
            for _ in range(players):
                q += step
                if q >= players:
                    q -= players
                elif q < 0:
                    q += players
                if (st[ST_OUT] >> q) & 1 == 0:
                    break
            st[NEXT_SEATS + 2 * s + way] = q


@engine_inline
def table_rows(players):
    """Rows of a table's own arrays (the scalar state to the hands' scratch row)."""
    return T_HANDS + players + 1


def table_width(deck_cards: int) -> int:
    """Columns of ``tab`` for a deck of ``deck_cards`` cards: MAX_CARDS, or the deck's size
    when larger (S19), so that every pile and hand row can hold the whole deck.

    Sized per run: rows such as the hand counts are cleared every round, so a classic deck's
    table stays as narrow (and as fast) as before several decks were possible.
    """
    if deck_cards > MAX_DECK_CARDS:
        raise ValueError(f"a deck of {deck_cards} cards: at most {MAX_DECK_CARDS}")
    return max(MAX_CARDS, deck_cards)


@engine_inline
def checkpoint_rows(tab):
    """The ``N_CHECKPOINTS`` rows of hand sizes by seat (a view of ``tab``)."""
    return tab[T_CHECKPOINTS : T_CHECKPOINTS + N_CHECKPOINTS]


@engine_inline
def deck_of(tab):
    """The deck's ``ST_DECK_N`` cards (a view of ``tab``'s deck row)."""
    return tab[T_DECK, : tab[T_ST, ST_DECK_N]]


class Table:
    """The preallocated working arrays of one table of ``players`` seats.

    ``tab`` holds every int64 array; the attributes are numpy views into it.
    """

    def __init__(
        self, players: int, rules: np.ndarray, deck: np.ndarray, max_events: int = 0
    ) -> None:
        # the compiled code trusts these (a scenario checks them, with a line number): a
        # table past them would write outside its arrays
        if not 1 <= players <= MAX_SEATS:
            raise ValueError(f"{players} players: a table seats 1 to {MAX_SEATS}")
        dealt = players * int(rules[R_HAND_SIZE])
        if dealt >= len(deck):
            raise ValueError(f"{dealt} cards dealt, but the deck holds {len(deck)}")
        width = table_width(len(deck))
        rows = T_HANDS + players + 1  # table_rows(players), then search's scratch
        self.tab = np.zeros((2 * rows + SEARCH_WORK_ROWS, width), dtype=np.int64)
        self.st = self.tab[T_ST]
        self.hands = self.tab[T_HANDS:]
        self.hn = self.tab[T_HN]
        self.pile = self.tab[T_PILE]
        self.disc = self.tab[T_DISC]
        self.max_deficit = self.tab[T_DEFICIT, :players]
        self.checkpoints = self.tab[T_CHECKPOINTS : T_CHECKPOINTS + N_CHECKPOINTS, :players]
        self.memory = self.tab[T_MEMORY]
        self.rng = np.zeros(RNG_STREAMS, dtype=np.uint64)
        self.events = np.zeros((max(max_events, 1), EVENT_FIELDS), dtype=np.int64)
        self.st[ST_PLAYERS] = players
        link_seats(self.st)
        self.st[ST_TRACE] = 1 if max_events > 0 else 0
        self.tab[T_RULES, : len(rules)] = rules
        self.tab[T_SEATING, :players] = np.arange(players)  # seating: fixed
        self.set_deck(deck)

    def set_deck(self, deck: np.ndarray) -> None:
        """Play with ``deck`` (card ids; a scripted test may pass a short ordered deck)."""
        self.tab[T_DECK, :] = 0
        self.tab[T_DECK, : len(deck)] = deck
        self.st[ST_DECK_N] = len(deck)
        self.st[ST_NO_MERCY_CARDS] = 1 if any(no_mercy_card(int(c)) for c in deck) else 0

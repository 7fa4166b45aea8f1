"""The memory row of public events: its layout, and how each event the engine announces
updates it (:func:`observe`).

Strategies that keep a memory remember only public events, which every seat sees alike, so
one row of the table serves them all: color-denier's record of the colors each seat was seen
unable to play (``row[q]``), search's no-play records (:mod:`uno_stats.engine.search_lacks`)
and recorded plays, and the move search chose for the decision at hand (the ``FORCE_*``
slots, which the choice functions of :mod:`uno_stats.engine.strategies` take). Only public
events and cards are written here.
"""

from __future__ import annotations

from uno_stats.engine.cards import CARD_COLOR, MAX_CARDS, WILD
from uno_stats.engine.jit import engine_inline, engine_jit
from uno_stats.engine.search_lacks import lacks_after_draw, lacks_after_no_play, lacks_after_play

# Past the seats' entries (20 at most, color-denier's): search's inferences, at
# LACKS_BASE + q what it infers from seat q's last turns without a play (search_lacks).
LACKS_BASE = 20
# PLAYED_BASE + q: how many of seat q's last plays are recorded at PLAYS_BASE + q * PLAYS_KEPT
# (most recent first; record_play): the card | the top card << 7 | the active color << 14 |
# the color named << 17 | its hand size just after << 20 | 1 << 28 for a normal turn's play.
# Cleared for everyone when hands move or a round starts; UNRECORDED is set there from a
# play's announcement to its record (a play never recorded, such as the cards a Discard All
# takes with it, empties the seat's record at its next announcement).
# Plays are recorded only when a search seat uses them (inference: last-play): the table's
# ST_OBSERVED then has strategy_table.RECORDS_PLAYS set (never in a rollout's copy).
PLAYED_BASE = 40
UNRECORDED = 1 << 8
PLAYS_KEPT = 4
PLAYS_BASE = 70
# Then the move search chose for the decision at hand (search.py writes it just before; the
# choice functions of strategies.py take each slot when they use it, leaving 0): 1 + the
# card to play (or to answer a pending draw with), 1 + the color to name for it, 1 + the
# seat to swap hands with on its 7, 1 to draw instead of playing, 1 to challenge a Wild Draw
# Four (2 not to), 1 to draw a pending total rather than stack or deflect.
FORCE_CARD = 64
FORCE_COLOR = 65
FORCE_TARGET = 66
FORCE_DRAW = 67
FORCE_CHALLENGE = 68
FORCE_DECLINE = 69
FORCE_SLOTS = 6
if (
    LACKS_BASE + 20 > PLAYED_BASE
    or PLAYED_BASE + 20 > FORCE_CARD
    or FORCE_CARD + FORCE_SLOTS > PLAYS_BASE
    or PLAYS_BASE + 20 * PLAYS_KEPT > MAX_CARDS
):
    raise ImportError("search's memory does not fit the memory row")

# Public events the engine announces to strategies that keep a memory (see observe).
SEEN_ROUND_START = 0  # a new deal
SEEN_NO_PLAY = 1  # seat took its turn without playing from hand, not by choice; value:
# the active color | the top card << 3 | the seat's hand size << 10 (no_play_value)
SEEN_PLAY = 2  # seat played card ``value``
SEEN_HANDS_MOVED = 3  # hands changed seats (7, 0, Shuffle Hands)
SEEN_DREW = 4  # right after its SEEN_NO_PLAY turn's draw: how many of the cards it drew
# surely did not fit then or are about to be played (drew_value)


@engine_inline
def no_play_value(color, top, hand_size):
    """The value of a ``SEEN_NO_PLAY`` event: the active color, the top card, the hand size."""
    return color | (top << 3) | (hand_size << 10)


@engine_jit
def _denier_observe(row, players, what, seat, value):
    """color-denier's memory: ``row[q]`` bit c - seat q was seen unable to play on color c
    (cleared when q later plays that color, and for everyone when hands move or a round starts)."""
    if what == SEEN_NO_PLAY:
        row[seat] |= 1 << (value & 7)
    elif what == SEEN_PLAY:
        if value < WILD:  # it holds that color after all
            row[seat] &= ~(1 << CARD_COLOR[value])
    elif what != SEEN_DREW:  # a new deal, or hands moved: what was known is lost
        for q in range(players):
            row[q] = 0


@engine_jit
def _search_observe(row, players, what, seat, value):
    """search's memory: ``row[LACKS_BASE + q]``, seat q's last turns without a play and how
    many of its cards are surely from those hands (search_lacks), and the plays recorded
    (PLAYED_BASE, record_play). Cleared for everyone when hands move or a round starts:
    what was known is lost."""
    if what == SEEN_NO_PLAY:
        row[LACKS_BASE + seat] = lacks_after_no_play(row[LACKS_BASE + seat], value)
    elif what == SEEN_PLAY:
        played = row[PLAYED_BASE + seat]
        row[PLAYED_BASE + seat] = UNRECORDED if played & UNRECORDED else played | UNRECORDED
        row[LACKS_BASE + seat] = lacks_after_play(row[LACKS_BASE + seat], value)
    elif what == SEEN_DREW:
        row[LACKS_BASE + seat] = lacks_after_draw(row[LACKS_BASE + seat], value)
    else:
        for q in range(players):
            row[LACKS_BASE + q] = 0
            row[PLAYED_BASE + q] = 0
        if what == SEEN_ROUND_START:  # a choice made for a round that ended unused
            for k in range(FORCE_SLOTS):
                row[FORCE_CARD + k] = 0


@engine_jit
def record_play(memory, seat, card, top, color, named, size, normal):
    """search's memory of ``seat``'s play of ``card`` on ``top`` and ``color``, naming
    ``named`` (its own color for a colored card), leaving it ``size`` cards (PLAYED_BASE)."""
    base = PLAYS_BASE + seat * PLAYS_KEPT
    for i in range(PLAYS_KEPT - 1, 0, -1):
        memory[base + i] = memory[base + i - 1]
    memory[base] = card | top << 7 | color << 14 | named << 17 | min(size, 255) << 20
    if normal:
        memory[base] |= 1 << 28
    memory[PLAYED_BASE + seat] = min((memory[PLAYED_BASE + seat] & 255) + 1, PLAYS_KEPT)


@engine_jit
def observe(memory, players, what, seat, value):
    """A public event (``SEEN_*``), seen alike by every seat: the shared memory row of the
    strategies that keep one (color-denier's and search's) takes it in."""
    _denier_observe(memory, players, what, seat, value)
    _search_observe(memory, players, what, seat, value)


@engine_jit
def observe_in_rollout(memory, players, what, seat, value):
    """:func:`observe` in a search's rollout (strategy_table.IN_ROLLOUT): color-denier's
    memory only, the one a rollout's choices read (search's no-play records and plays are
    read from the round's row when its worlds are dealt, and its moves' slots are emptied
    by a round start, which no rollout reaches)."""
    _denier_observe(memory, players, what, seat, value)

"""What ``search`` infers from a seat's turns without a play (SCENARIO.md, "Strategies",
``search``): the records kept in the memory row at ``memory_row.LACKS_BASE`` + the seat.

Inference, not a rule of the engine: a seat that draws without playing (not a voluntary
draw, which the engine shows as such) held no card it could play then. A seat's entry packs
its last LACKS_KEPT such turns, a record of LACK_BITS bits each, the latest in the lowest
bits (0: none): 1 + the top card | the active color << 7 | 1 << 10 if it held one card then
| a lower bound on how many of its cards now are surely from that hand << LACK_COUNT (each
card it plays since that would not have fitted there lowers it by one: it may have been one
of them; the cards its draw showed not to fit join the latest record). LACK_DRAWN marks a
drawn card about to be played. The records are nested: the cards surely from an older
record's hand are in every later one's too, as each later turn without a play saw the whole
hand (search_world.deal reads them so). Only public events and cards are read.
"""

from __future__ import annotations

from uno_stats.engine.cards import CARD_COLOR, CARD_IS_ACTION, CARD_SYMBOL, WILD
from uno_stats.engine.jit import engine_inline, engine_jit

LACK_BITS = 19
LACK_MASK = (1 << LACK_BITS) - 1
LACK_COUNT = 11  # the shift of a record's bound (8 bits)
LACK_ALONE = 1 << 10  # the seat held one card then
LACKS_KEPT = 3
LACK_DRAWN = 1 << 62  # the seat's next play is the card it just drew (lacks_after_draw)
if LACK_BITS * LACKS_KEPT > 62:
    raise ImportError("search's no-play records do not fit their memory entry")


@engine_inline
def drew_value(drawn, plays_drawn, may_keep):
    """The value of a ``SEEN_DREW`` event, public facts only: how many of the ``drawn``
    cards a seat unable to play drew and keeps surely did not fit on that turn's top card and
    color, | 1 << 8 when the last one is about to be played (``plays_drawn``). Every card but
    the last did not fit (RULES.md S2: ``draw: until-playable`` draws on only past a card
    that does not fit); the last one, not played, did not fit either unless the seat may keep
    a playable drawn card (``may_keep``: ``drawn_card: may-play`` and its declared
    ``keep_drawn`` above 0)."""
    if plays_drawn:
        return max(drawn - 1, 0) | 1 << 8
    return drawn if not may_keep else max(drawn - 1, 0)


@engine_jit
def lacks_after_no_play(lacks, value):
    """A seat's records after a turn without a play (``value``: its ``SEEN_NO_PLAY``
    value): a new latest record bounding its whole hand; the oldest goes past LACKS_KEPT."""
    size = min(value >> 10, 255)
    record = 1 + (value >> 3 & 127) | (value & 7) << 7 | (LACK_ALONE if size == 1 else 0)
    older = lacks & ((1 << (LACK_BITS * (LACKS_KEPT - 1))) - 1)
    return older << LACK_BITS | record | size << LACK_COUNT


@engine_jit
def lacks_after_play(lacks, card):
    """A seat's records after it plays ``card``: each bound one lower, but for the records
    ``card`` would have fitted on (it was not in that hand) and but after the draw of a turn
    without a play whose drawn card this is (LACK_DRAWN: it lowers none); a record left at 0
    is dropped."""
    if lacks & LACK_DRAWN:
        return lacks & ~LACK_DRAWN
    for j in range(LACKS_KEPT):
        shift = j * LACK_BITS
        record = lacks >> shift & LACK_MASK
        if record != 0 and not lack_excludes(record, card):
            if record >> LACK_COUNT > 1:
                lacks -= 1 << (shift + LACK_COUNT)
            else:
                lacks &= ~(LACK_MASK << shift)
    return lacks


@engine_jit
def lack_excludes(record, card):
    """Whether ``card`` surely was not in the hand of a no-play ``record``: it matches the
    top card or color that hand could not play on (every wild does: a hand holding one
    could play it, or a card of the color, S3; a Wild Draw Four too, S7: it is legal unless
    the hand holds a card that plays), unless the hand was of one card and ``card`` is an
    action card (``no_action_finish`` may have kept it)."""
    if record & LACK_ALONE and CARD_IS_ACTION[card] != 0:
        return False
    if card >= WILD:
        return True
    top = (record & 127) - 1  # piles.matches: the color or the number / symbol
    return CARD_COLOR[card] == record >> 7 & 7 or CARD_SYMBOL[card] == CARD_SYMBOL[top]


@engine_jit
def lacks_after_draw(lacks, drew):
    """A seat's records after the draw of its turn without a play (``drew``: a SEEN_DREW
    value): the drawn cards that did not fit join the latest record; a drawn card about to
    be played sets LACK_DRAWN, so that its play lowers no record (it was in none of those
    hands)."""
    record = lacks & LACK_MASK
    if record == 0:
        return lacks
    count = min((record >> LACK_COUNT) + (drew & 255), 255)
    lacks = lacks & ~LACK_MASK | record & ((1 << LACK_COUNT) - 1) | count << LACK_COUNT
    return lacks | LACK_DRAWN if drew >> 8 & 1 else lacks


@engine_jit
def lacks_span(lacks):
    """How many of a seat's cards its records bound: the largest bound (the latest's)."""
    span = 0
    for j in range(LACKS_KEPT):
        record = lacks >> (j * LACK_BITS) & LACK_MASK
        if record != 0:
            span = max(span, record >> LACK_COUNT)
    return span

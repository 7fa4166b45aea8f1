"""Cards as small integers, with lookup tables for color, symbol, points and names.

A colored card is ``color * 16 + symbol`` (symbols 0-9 are numbers, then Skip, Reverse,
Draw Two and the No Mercy kinds Draw Four, Skip Everyone, Discard All: RULES.md "UNO Show 'Em
No Mercy"); the wilds follow at 64-71. Every colored card is below ``WILD`` and the ids keep
the order of the classic deck's 56 cards, so every choice that walks cards in id order is the
same as before the No Mercy cards. The engine reads the tables as compile-time constants.

The numpy tables (``CARD_*`` and the ``*_MASK`` sets: colored cards as bits of one int64, the
wilds as bits ``card - WILD`` of another) are built on first use (the module's
``__getattr__``), so that reading a scenario, which needs only the plain constants and
:func:`deck_cards`, imports no numpy.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

N_COLORS = 4
NO_COLOR = 4
COLOR_NAMES = ("red", "yellow", "green", "blue")

SKIP, REVERSE, DRAW_TWO = 10, 11, 12
DRAW_FOUR, SKIP_EVERYONE, DISCARD_ALL = 13, 14, 15  # the No Mercy colored kinds (S21)
N_CLASSIC_SYMBOLS = 13  # numbers, Skip, Reverse, Draw Two
SYMBOLS_PER_COLOR = 16
WILD, WILD_DRAW_FOUR, WILD_SHUFFLE, WILD_CUSTOM = 64, 65, 66, 67
# The No Mercy wilds (S21): Wild Reverse Draw Four, Wild Draw Six, Wild Draw Ten, Color Roulette
WILD_REVERSE_DRAW_FOUR, WILD_DRAW_SIX, WILD_DRAW_TEN, WILD_ROULETTE = 68, 69, 70, 71
WILD_DRAWS = (WILD_DRAW_FOUR, WILD_REVERSE_DRAW_FOUR, WILD_DRAW_SIX, WILD_DRAW_TEN)
"""The wilds that make the next player draw (an opening one goes back, S4, S24)."""
N_CARD_TYPES = 72
N_WILDS = N_CARD_TYPES - WILD
# Symbols of the wilds: never equal to a colored card's symbol, so they only match by color.
SYM_WILD = SYMBOLS_PER_COLOR
SYM_WILD_DRAW_FOUR, SYM_SHUFFLE, SYM_CUSTOM = SYM_WILD + 1, SYM_WILD + 2, SYM_WILD + 3
N_SYMBOLS = SYM_WILD + N_WILDS

# A table's narrowest width: room for one classic deck (108 + 4 + 4) and for two rows of every
# card id side by side in the scratch rows (multi-play's counts, search's scores)
MAX_CARDS = 160
MAX_DECKS = 3  # the most copies of one deck a scenario may shuffle together (RULES.md S19)
MAX_DECK_CARDS = MAX_DECKS * (108 + 4 + 4)  # 348: the most cards a scenario's deck may hold


def card_symbol(card: int) -> int:
    """The symbol of card id ``card`` (plain Python; ``CARD_SYMBOL`` holds the same values)."""
    return card % SYMBOLS_PER_COLOR if card < WILD else SYM_WILD + card - WILD


DRAW_VALUES = {
    DRAW_TWO: 2,
    DRAW_FOUR: 4,
    SYM_WILD_DRAW_FOUR: 4,
    SYM_WILD + WILD_REVERSE_DRAW_FOUR - WILD: 4,
    SYM_WILD + WILD_DRAW_SIX - WILD: 6,
    SYM_WILD + WILD_DRAW_TEN - WILD: 10,
}
"""What each draw card adds to a pending total, by symbol (RULES.md S6, S21)."""


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    import numpy as np

    color = np.full(N_CARD_TYPES, NO_COLOR, dtype=np.int64)
    symbol = np.array([card_symbol(c) for c in range(N_CARD_TYPES)], dtype=np.int64)
    # Reading (S21: the No Mercy sheet scores nothing): every colored action card 20, every
    # wild 50, numbers at face value, as the classic cards
    points = np.full(N_CARD_TYPES, 50, dtype=np.int64)  # every wild
    for c in range(WILD):
        color[c] = c // SYMBOLS_PER_COLOR
        points[c] = symbol[c] if symbol[c] < 10 else 20
    is_action = (symbol >= SKIP).astype(np.int64)  # every colored action card and every wild
    draw = np.array([DRAW_VALUES.get(int(s), 0) for s in symbol], dtype=np.int64)
    return color, symbol, points, is_action, draw


def _signed(mask: int) -> int:
    """A 64-bit mask as the int64 the engine holds (bit 63 is the sign bit)."""
    return mask - (1 << 64) if mask >= 1 << 63 else mask


def _masks(
    card_color: np.ndarray, card_symbol: np.ndarray, card_is_action: np.ndarray
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Sets of cards as 64-bit masks: colored cards as bit ``c`` (their 64 ids fill an
    int64), wilds as bit ``c - WILD`` of a mask of their own."""
    import numpy as np

    color = [0] * (N_COLORS + 1)  # by color; NO_COLOR holds nothing
    symbol = [0] * N_SYMBOLS  # colored cards by symbol (none for a wild's symbol)
    action = 0
    for c in range(WILD):
        color[card_color[c]] |= 1 << c
        symbol[card_symbol[c]] |= 1 << c
        if card_is_action[c]:
            action |= 1 << c
    other_wilds = ((1 << N_WILDS) - 1) & ~WD4_BIT
    return (
        np.array([_signed(m) for m in color], dtype=np.int64),
        np.array([_signed(m) for m in symbol], dtype=np.int64),
        _signed(action),
        other_wilds,
    )


if TYPE_CHECKING:  # built on first use by __getattr__ below
    CARD_COLOR: np.ndarray
    CARD_SYMBOL: np.ndarray
    CARD_POINTS: np.ndarray
    CARD_IS_ACTION: np.ndarray
    CARD_DRAW: np.ndarray
    """``CARD_DRAW[c]``: what card ``c`` adds to a pending draw total (0: not a draw card)."""
    COLOR_MASK: np.ndarray
    """``COLOR_MASK[c]``: the cards of color ``c``."""
    SYMBOL_MASK: np.ndarray
    """``SYMBOL_MASK[s]``: the colored cards of symbol ``s`` (none for a wild's symbol)."""
    ACTION_MASK: int
    """The colored action cards: Skip, Reverse, Draw Two, Draw Four, Skip Everyone, Discard
    All (every wild is an action card too: see ``CARD_IS_ACTION``)."""
    OTHER_WILDS_MASK: int
    """The wilds but the Wild Draw Four, as a mask of wild bits (bit ``card - WILD``)."""
    CLASSIC_BIT: np.ndarray
    """``CLASSIC_BIT[c]``: card ``c``'s bit in the classic legality word (below)."""
    CLASSIC_COLOR_MASK: np.ndarray
    """``CLASSIC_COLOR_MASK[c]``: the classic cards of color ``c``, as classic bits."""
WD4_BIT = 1 << (WILD_DRAW_FOUR - WILD)
"""The Wild Draw Four as a wild bit."""

# The classic legality word: a deck without No Mercy cards (``no_mercy_card``) fits one int64,
# so ``piles.collect_playable`` tests each card of it with one shift, as before the No Mercy
# cards. A classic colored card's bit is its id; the four classic wilds take the bits of the
# No Mercy colored kinds (ids ``color * 16 + 13..15``), which such a deck never holds; a No
# Mercy card's is a spare bit no classic mask sets (never tested: such a deck takes the
# two-word path).
CLASSIC_WILD_BITS = {WILD: 13, WILD_DRAW_FOUR: 14, WILD_SHUFFLE: 15, WILD_CUSTOM: 29}
NO_CLASSIC_BIT = 62
CLASSIC_COLORED_MASK = sum(
    1 << (c * SYMBOLS_PER_COLOR + s) for c in range(N_COLORS) for s in range(N_CLASSIC_SYMBOLS)
)
"""The classic colored cards, as classic bits (their ids)."""
CLASSIC_WILDS_MASK = sum(1 << b for b in CLASSIC_WILD_BITS.values())
CLASSIC_WD4_BIT = 1 << CLASSIC_WILD_BITS[WILD_DRAW_FOUR]
CLASSIC_OTHER_WILDS_MASK = CLASSIC_WILDS_MASK & ~CLASSIC_WD4_BIT
CLASSIC_ACTION_MASK = CLASSIC_WILDS_MASK | sum(
    1 << (c * SYMBOLS_PER_COLOR + s) for c in range(N_COLORS) for s in (SKIP, REVERSE, DRAW_TWO)
)
"""The classic action cards (Skip, Reverse, Draw Two, every wild), as classic bits."""


def no_mercy_card(card: int) -> bool:
    """Whether card id ``card`` is one of the No Mercy kinds (S21), none of them classic."""
    return (
        card % SYMBOLS_PER_COLOR >= N_CLASSIC_SYMBOLS
        if card < WILD
        else card >= WILD_REVERSE_DRAW_FOUR
    )


def _classic_bits() -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    bits = np.full(N_CARD_TYPES, NO_CLASSIC_BIT, dtype=np.int64)
    for card in range(N_CARD_TYPES):
        if not no_mercy_card(card):
            bits[card] = CLASSIC_WILD_BITS.get(card, card)
    colors = [0] * (N_COLORS + 1)  # NO_COLOR holds nothing
    for c in range(N_COLORS):
        for s in range(N_CLASSIC_SYMBOLS):
            colors[c] |= 1 << (c * SYMBOLS_PER_COLOR + s)
    return bits, np.array(colors, dtype=np.int64)


_TABLE_NAMES = (
    "CARD_COLOR",
    "CARD_SYMBOL",
    "CARD_POINTS",
    "CARD_IS_ACTION",
    "CARD_DRAW",
    "COLOR_MASK",
    "SYMBOL_MASK",
    "ACTION_MASK",
    "OTHER_WILDS_MASK",
    "CLASSIC_BIT",
    "CLASSIC_COLOR_MASK",
)
_BUILDING = threading.Lock()


def __getattr__(name: str) -> Any:
    """The numpy tables of :data:`_TABLE_NAMES`, built together on first use and kept as
    module globals (so later lookups, and the engine's imports of them, find them there)."""
    if name not in _TABLE_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with _BUILDING:  # two threads asking at once get the same arrays
        tables = globals()
        if name not in tables:
            color, symbol, points, is_action, draw = _tables()
            masks = _masks(color, symbol, is_action)
            built = (color, symbol, points, is_action, draw, *masks, *_classic_bits())
            tables.update(zip(_TABLE_NAMES, built, strict=True))
    return tables[name]


DECK_KINDS: tuple[str, ...] = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "skip",
    "reverse",
    "draw_two",
    "draw_four",
    "skip_everyone",
    "discard_all",
    "wild",
    "wild_draw_four",
    "wild_reverse_draw_four",
    "wild_draw_six",
    "wild_draw_ten",
    "wild_color_roulette",
)
"""The card kinds a scenario's ``deck.counts`` may set (RULES.md S19, S21): the colored kinds
(symbols 0-15, in symbol order) count per color, the wilds count per deck."""
COLORED_KINDS = DECK_KINDS[:SYMBOLS_PER_COLOR]
WILD_KINDS = DECK_KINDS[SYMBOLS_PER_COLOR:]
NO_MERCY_KINDS = (
    "draw_four",
    "skip_everyone",
    "discard_all",
    "wild_reverse_draw_four",
    "wild_draw_six",
    "wild_draw_ten",
    "wild_color_roulette",
)
"""The kinds the No Mercy deck adds (S21): none of them in the classic deck."""
# the card id of each wild kind, in deck order (the classic two first)
_WILD_IDS = {
    "wild": WILD,
    "wild_draw_four": WILD_DRAW_FOUR,
    "wild_reverse_draw_four": WILD_REVERSE_DRAW_FOUR,
    "wild_draw_six": WILD_DRAW_SIX,
    "wild_draw_ten": WILD_DRAW_TEN,
    "wild_color_roulette": WILD_ROULETTE,
}
CLASSIC_COUNTS: dict[str, int] = {
    **{kind: 2 for kind in COLORED_KINDS},
    **{kind: 0 for kind in NO_MERCY_KINDS},
    "zero": 1,
    "wild": 4,
    "wild_draw_four": 4,
}
"""How many of each kind one classic deck holds (per color for the colored kinds)."""
NO_MERCY_COUNTS: dict[str, int] = {
    **{kind: 2 for kind in COLORED_KINDS},
    "skip": 3,
    "reverse": 3,
    "draw_two": 3,
    "draw_four": 2,
    "skip_everyone": 2,
    "discard_all": 3,
    "wild": 0,
    "wild_draw_four": 0,
    "wild_reverse_draw_four": 8,
    "wild_draw_six": 4,
    "wild_draw_ten": 4,
    "wild_color_roulette": 8,
}
"""The official 168-card No Mercy deck (RULES.md S21, Mattel HWV18): per color two each of
0-9, three Skips, Reverses, Draw Twos and Discard Alls, two Draw Fours and Skip Everyones;
8 Wild Reverse Draw Fours, 4 Wild Draw Sixes, 4 Wild Draw Tens, 8 Wild Color Roulettes."""

NO_MERCY_CLASSIC_PLUS_COUNTS: dict[str, int] = {
    **CLASSIC_COUNTS,
    "skip_everyone": 2,
    "discard_all": 2,
    "wild_draw_six": 4,
    "wild_draw_ten": 4,
}
"""A circulating breakdown (RULES.md S21): the classic 108 cards plus two Skip Everyones and
two Discard Alls per color and four Wild Draw Sixes and Tens (132 cards)."""
DECK_PRESETS: dict[str, dict[str, int]] = {
    "classic": CLASSIC_COUNTS,
    "no-mercy": NO_MERCY_COUNTS,
    "no-mercy-classic-plus": NO_MERCY_CLASSIC_PLUS_COUNTS,
}
"""The named decks of ``deck: {preset: NAME}`` (SCENARIO.md "The deck"): counts per kind."""


def changed_counts(counts: dict[str, int]) -> dict[str, int]:
    """The kinds whose count differs from the classic deck's, in :data:`DECK_KINDS` order."""
    return {
        k: counts[k] for k in DECK_KINDS if counts.get(k, CLASSIC_COUNTS[k]) != CLASSIC_COUNTS[k]
    }


def build_deck(
    shuffle_hands_cards: int = 0,
    custom_cards: int = 0,
    counts: dict[str, int] | None = None,
    decks: int = 1,
) -> np.ndarray:
    """:func:`deck_cards` as an int16 array (the engine's deck)."""
    import numpy as np

    cards = deck_cards(shuffle_hands_cards, custom_cards, counts, decks)
    return np.array(cards, dtype=np.int16)


def deck_cards(
    shuffle_hands_cards: int = 0,
    custom_cards: int = 0,
    counts: dict[str, int] | None = None,
    decks: int = 1,
) -> list[int]:
    """The deck as card ids: ``decks`` copies of one deck (S19), each the classic 108 with
    the kinds of ``counts`` changed, plus the special wilds asked for.

    One copy lists, per color, its zeros then each symbol's cards, then the wilds of
    :data:`WILD_KINDS` in order, Shuffle Hands and Customizable wilds; copies follow each other. The
    classic deck (no ``counts``, one copy) is the order every seed's games were played from.
    ``counts`` names kinds of :data:`DECK_KINDS` only (ValueError otherwise).
    """
    unknown = sorted(set(counts or {}) - set(DECK_KINDS))
    if unknown:  # e.g. the scenario shorthand "numbers", which a scenario resolves first
        raise ValueError(f"unknown card kinds {unknown}: the kinds are {', '.join(DECK_KINDS)}")
    have = {**CLASSIC_COUNTS, **(counts or {})}
    cards: list[int] = []
    for color in range(N_COLORS):
        base = color * SYMBOLS_PER_COLOR
        for sym in range(SYMBOLS_PER_COLOR):  # classic: one 0, two each of 1-9, Skip, ...
            cards += [base + sym] * have[COLORED_KINDS[sym]]
    for kind in WILD_KINDS:
        cards += [_WILD_IDS[kind]] * have[kind]
    cards += [WILD_SHUFFLE] * shuffle_hands_cards + [WILD_CUSTOM] * custom_cards
    # Reading: the copies lie one after another before the shuffle (only a scripted deal,
    # which keeps the order, could tell); the classic deck keeps the order it always had
    return cards * decks


_SYMBOL_NAMES = {
    SKIP: "Skip",
    REVERSE: "Reverse",
    DRAW_TWO: "Draw Two",
    DRAW_FOUR: "Draw Four",
    SKIP_EVERYONE: "Skip Everyone",
    DISCARD_ALL: "Discard All",
}
_WILD_NAMES = {
    WILD: "Wild",
    WILD_DRAW_FOUR: "Wild Draw Four",
    WILD_SHUFFLE: "Wild Shuffle Hands",
    WILD_CUSTOM: "Wild Customizable",
    WILD_REVERSE_DRAW_FOUR: "Wild Reverse Draw Four",
    WILD_DRAW_SIX: "Wild Draw Six",
    WILD_DRAW_TEN: "Wild Draw Ten",
    WILD_ROULETTE: "Wild Color Roulette",
}


def card_name(card: int) -> str:
    """A card as a player would say it, e.g. ``red 7`` or ``blue Draw Two``."""
    card = int(card)
    if card in _WILD_NAMES:
        return _WILD_NAMES[card]
    color, sym = divmod(card, SYMBOLS_PER_COLOR)
    return f"{COLOR_NAMES[color]} {_SYMBOL_NAMES.get(sym, str(sym))}"


def card_id(name: str) -> int:
    """The card id of a name written as :func:`card_name` writes it (for tests and scripts)."""
    for card in range(N_CARD_TYPES):
        if card_name(card).lower() == name.strip().lower():
            return card
    raise ValueError(f"unknown card {name!r}")

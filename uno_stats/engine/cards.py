"""Cards as small integers, with lookup tables for color, symbol, points and names.

A colored card is ``color * 13 + symbol`` (symbols 0-9 are numbers, then Skip,
Reverse, Draw Two); the wilds follow at 52-55. The engine reads the tables as
compile-time constants.

The numpy tables (``CARD_*`` and the ``*_MASK`` sets) are built on first use (the module's
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
SYMBOLS_PER_COLOR = 13
WILD, WILD_DRAW_FOUR, WILD_SHUFFLE, WILD_CUSTOM = 52, 53, 54, 55
N_CARD_TYPES = 56
# Symbols of the wilds: never equal to a colored card's symbol, so they only match by color.
SYM_WILD, SYM_WILD_DRAW_FOUR, SYM_SHUFFLE, SYM_CUSTOM = 13, 14, 15, 16

MAX_CARDS = 128  # a table's narrowest width: room for one classic deck (108 + 4 + 4)
MAX_DECKS = 3  # the most copies of one deck a scenario may shuffle together (RULES.md S19)
MAX_DECK_CARDS = MAX_DECKS * (108 + 4 + 4)  # 348: the most cards a scenario's deck may hold


_WILD_SYMBOLS = {
    WILD: SYM_WILD,
    WILD_DRAW_FOUR: SYM_WILD_DRAW_FOUR,
    WILD_SHUFFLE: SYM_SHUFFLE,
    WILD_CUSTOM: SYM_CUSTOM,
}


def card_symbol(card: int) -> int:
    """The symbol of card id ``card`` (plain Python; ``CARD_SYMBOL`` holds the same values)."""
    return card % SYMBOLS_PER_COLOR if card < WILD else _WILD_SYMBOLS[card]


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    import numpy as np

    color = np.full(N_CARD_TYPES, NO_COLOR, dtype=np.int64)
    symbol = np.array([card_symbol(c) for c in range(N_CARD_TYPES)], dtype=np.int64)
    points = np.full(N_CARD_TYPES, 50, dtype=np.int64)  # every wild
    for c in range(WILD):
        color[c] = c // SYMBOLS_PER_COLOR
        points[c] = symbol[c] if symbol[c] < 10 else 20
    is_action = (symbol >= SKIP).astype(np.int64)  # Skip, Reverse, Draw Two and every wild
    return color, symbol, points, is_action


def _masks(
    card_color: np.ndarray, card_symbol: np.ndarray, card_is_action: np.ndarray
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Sets of card ids as 64-bit masks (bit ``c`` stands for card ``c``; 56 ids fit)."""
    import numpy as np

    color = np.zeros(N_COLORS + 1, dtype=np.int64)  # by color; NO_COLOR holds nothing
    symbol = np.zeros(SYM_CUSTOM + 1, dtype=np.int64)  # colored cards by symbol
    for c in range(4 * SYMBOLS_PER_COLOR):
        color[card_color[c]] |= 1 << c
        symbol[card_symbol[c]] |= 1 << c
    action = 0
    for c in range(N_CARD_TYPES):
        if card_is_action[c]:
            action |= 1 << c
    other_wilds = (1 << WILD) | (1 << WILD_SHUFFLE) | (1 << WILD_CUSTOM)
    return color, symbol, action, other_wilds


if TYPE_CHECKING:  # built on first use by __getattr__ below
    CARD_COLOR: np.ndarray
    CARD_SYMBOL: np.ndarray
    CARD_POINTS: np.ndarray
    CARD_IS_ACTION: np.ndarray
    COLOR_MASK: np.ndarray
    """``COLOR_MASK[c]``: the cards of color ``c``."""
    SYMBOL_MASK: np.ndarray
    """``SYMBOL_MASK[s]``: the colored cards of symbol ``s`` (none for a wild's symbol)."""
    ACTION_MASK: int
    """Skip, Reverse, Draw Two and every wild."""
    OTHER_WILDS_MASK: int
    """The wilds but the Wild Draw Four."""
WD4_BIT = 1 << WILD_DRAW_FOUR

_TABLE_NAMES = (
    "CARD_COLOR",
    "CARD_SYMBOL",
    "CARD_POINTS",
    "CARD_IS_ACTION",
    "COLOR_MASK",
    "SYMBOL_MASK",
    "ACTION_MASK",
    "OTHER_WILDS_MASK",
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
            color, symbol, points, is_action = _tables()
            masks = _masks(color, symbol, is_action)
            tables.update(
                zip(_TABLE_NAMES, (color, symbol, points, is_action, *masks), strict=True)
            )
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
    "wild",
    "wild_draw_four",
)
"""The card kinds a scenario's ``deck.counts`` may set (RULES.md S19): the colored kinds
(symbols 0-12, in symbol order) count per color, the two wilds count per deck."""
COLORED_KINDS = DECK_KINDS[:SYMBOLS_PER_COLOR]
CLASSIC_COUNTS: dict[str, int] = {
    **{kind: 2 for kind in COLORED_KINDS},
    "zero": 1,
    "wild": 4,
    "wild_draw_four": 4,
}
"""How many of each kind one classic deck holds (per color for the colored kinds)."""


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

    One copy lists, per color, its zeros then each symbol's cards, then the Wilds, Wild Draw
    Fours, Shuffle Hands and Customizable wilds; copies follow each other. The classic deck
    (no ``counts``, one copy) is the order every seed's games were played from. ``counts``
    names kinds of :data:`DECK_KINDS` only (ValueError otherwise).
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
    cards += [WILD] * have["wild"] + [WILD_DRAW_FOUR] * have["wild_draw_four"]
    cards += [WILD_SHUFFLE] * shuffle_hands_cards + [WILD_CUSTOM] * custom_cards
    # Reading: the copies lie one after another before the shuffle (only a scripted deal,
    # which keeps the order, could tell); the classic deck keeps the order it always had
    return cards * decks


_SYMBOL_NAMES = {SKIP: "Skip", REVERSE: "Reverse", DRAW_TWO: "Draw Two"}
_WILD_NAMES = {
    WILD: "Wild",
    WILD_DRAW_FOUR: "Wild Draw Four",
    WILD_SHUFFLE: "Wild Shuffle Hands",
    WILD_CUSTOM: "Wild Customizable",
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

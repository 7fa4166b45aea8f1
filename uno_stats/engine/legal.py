"""Legality facts shared by the rules loop and the strategies: who blocks a Wild Draw Four,
and who is an opponent. Pure functions of cards and encoded rules, no table state."""

from __future__ import annotations

from uno_stats.engine.cards import CARD_COLOR, CARD_SYMBOL, WILD, WILD_DRAW_FOUR
from uno_stats.engine.jit import engine_jit
from uno_stats.engine.rules import WD4_COLOR_OR_NUMBER, WD4_COLOR_OR_WILD, WD4_NO_OTHER_PLAY


@engine_jit
def top_number(top):
    """The number on ``top`` (0-9), or -1 when it is not a number card."""
    return CARD_SYMBOL[top] if (top < WILD and CARD_SYMBOL[top] < 10) else -1


@engine_jit
def wd4_top_key(top, restriction):
    """What :func:`blocks_wd4` compares a colored card's symbol with: the top card's symbol
    under ``no-other-play`` (S15: any match blocks), otherwise :func:`top_number`."""
    if restriction == WD4_NO_OTHER_PLAY:
        return CARD_SYMBOL[top]
    return top_number(top)


@engine_jit
def blocks_wd4(card, color, number, restriction):
    """Whether holding ``card`` makes a Wild Draw Four illegal (RULES.md "Who blocks a Wild
    Draw Four"): ``color`` - any card of the active color; ``color-or-wild`` - that, or a
    Wild / Shuffle Hands / Customizable; ``color-or-number`` - that, or a number card with
    the top card's ``number``; ``no-other-play`` (S15) - any card playable on the top card,
    ``number`` then being the top card's symbol (:func:`wd4_top_key`). Under ``none``
    callers skip the test (nothing blocks)."""
    if card == WILD_DRAW_FOUR:
        return False
    if card < WILD:
        return CARD_COLOR[card] == color or (
            restriction in (WD4_COLOR_OR_NUMBER, WD4_NO_OTHER_PLAY) and CARD_SYMBOL[card] == number
        )
    return restriction in (WD4_COLOR_OR_WILD, WD4_NO_OTHER_PLAY)


@engine_jit
def is_opponent(partners, p, q):
    """Whether seat ``q`` is an opponent of seat ``p`` (under partners scoring, a partner
    - the seat two away - is not)."""
    if q == p:
        return False
    return not (partners != 0 and (q - p) % 2 == 0)

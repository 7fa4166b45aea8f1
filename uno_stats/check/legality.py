"""The rules the checker judges by, written from RULES.md without the engine's code:
matching, the Wild Draw Four restriction, card points, and the rule values of a config."""

from __future__ import annotations

from typing import Any

from uno_stats.engine import EngineConfig
from uno_stats.engine.cards import CARD_COLOR, CARD_SYMBOL, WILD, WILD_DRAW_FOUR
from uno_stats.engine.rules import RULES


def decode_rules(config: EngineConfig) -> dict[str, Any]:
    """The rule values (as a scenario writes them) that ``config`` was encoded from."""
    rules: dict[str, Any] = {}
    for index, spec in enumerate(RULES):
        value = int(config.rules[index])
        if spec.kind == "bool":
            rules[spec.key] = bool(value)
        elif spec.kind == "enum" and not isinstance(spec.choices[0], int):
            rules[spec.key] = spec.choices[value]
        else:
            rules[spec.key] = value
    return rules


def wd4_allowed(hand: list[int], color: int, top: int, mode: str) -> bool:
    """RULES.md "Who blocks a Wild Draw Four": may a hand holding ``hand`` (the Wild Draw
    Four itself excluded) play one on ``top`` with ``color`` active, under ``mode``?"""
    if mode == "none":
        return True
    top_number = int(CARD_SYMBOL[top]) if top < WILD and CARD_SYMBOL[top] < 10 else -1
    for c in hand:
        if c == WILD_DRAW_FOUR:
            continue
        if c < WILD:
            if CARD_COLOR[c] == color:
                return False
            if mode == "color-or-number" and CARD_SYMBOL[c] == top_number:
                return False
            if mode == "no-other-play" and CARD_SYMBOL[c] == CARD_SYMBOL[top]:
                return False  # S15: any other playable card blocks
        elif mode in ("color-or-wild", "no-other-play"):
            return False
    return True


def card_points(card: int) -> int:
    """RULES.md "points": numbers at face value, Skip, Reverse and Draw Two 20, wilds 50."""
    if card >= WILD:
        return 50
    symbol = int(CARD_SYMBOL[card])
    return symbol if symbol < 10 else 20


def matches(card: int, top: int, color: int) -> bool:
    """RULES.md "Matching": a wild, or the active color, or the top card's number or symbol."""
    return card >= WILD or CARD_COLOR[card] == color or CARD_SYMBOL[card] == CARD_SYMBOL[top]

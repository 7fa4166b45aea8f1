"""The rule matrix of RULES.md: one table of options and presets, encoded for the engine.

Everything that knows about rule keys reads this table: scenario validation,
``uno-stats rules``, the engine encoding and the reports. A rule is declared
once here; the engine reads it from the encoded array at the index ``R_<KEY>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

PRESET_NAMES: tuple[str, ...] = (
    "mattel-2022",
    "mattel-2001",
    "classic-house",
    "draw-until-playable",
)


@dataclass(frozen=True)
class RuleSpec:
    """One rule key: its allowed values, default, per-preset value and meaning."""

    key: str
    kind: str  # "enum", "bool" or "int"
    default: Any
    meaning: str
    sources: str
    choices: tuple[Any, ...] = ()
    low: int = 0
    high: int = 0
    presets: tuple[Any, ...] | None = None  # one value per PRESET_NAMES entry; None: default

    def allowed(self) -> str:
        """Human-readable description of the allowed values."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "enum":
            return ", ".join(str(c) for c in self.choices)
        return f"an integer from {self.low} to {self.high}"

    def preset_value(self, preset: str) -> Any:
        """The value this rule takes under ``preset``."""
        if self.presets is None:
            return self.default
        return self.presets[PRESET_NAMES.index(preset)]

    def encode(self, value: Any) -> int:
        """The integer the engine reads for ``value`` (an enum of integers: the value itself)."""
        if self.kind == "enum" and not isinstance(self.choices[0], int):
            return self.choices.index(value)
        return int(value)


def _enum(key, choices, meaning, sources, presets=None):
    return RuleSpec(
        key, "enum", choices[0], meaning, sources, choices=tuple(choices), presets=presets
    )


def _bool(key, default, meaning, sources, presets=None):
    return RuleSpec(key, "bool", default, meaning, sources, presets=presets)


def _int(key, default, low, high, meaning, sources, presets=None):
    return RuleSpec(key, "int", default, meaning, sources, low=low, high=high, presets=presets)


RULES: tuple[RuleSpec, ...] = (
    # Deck and deal
    _int(
        "shuffle_hands_cards",
        0,
        0,
        4,
        "Wild Shuffle Hands cards added: every hand is collected, shuffled and dealt out from the "
        "player's left; the player names the color",
        "002",
        (1, 0, 0, 0),
    ),
    _int(
        "custom_cards",
        0,
        0,
        4,
        "Wild Customizable (blank) cards added, acting per custom_card_rule",
        "002",
        (3, 0, 0, 0),
    ),
    _enum(
        "custom_card_rule",
        ("extra-turn", "wild"),
        "extra-turn: a wild after which its player takes another turn; wild: a plain wild",
        "002",
    ),
    _int("hand_size", 7, 1, 20, "cards dealt to each player", "all"),
    # Opening card
    _enum(
        "opening_action",
        ("apply", "redraw"),
        "apply: an opening action or wild takes effect on the first player; redraw: it is covered "
        "by the next card turned until a number card shows",
        "000, 002",
        ("redraw", "apply", "apply", "apply"),
    ),
    _enum(
        "opening_reverse",
        ("dealer-starts", "dealer-right-starts"),
        "who plays first after an opening Reverse (play then runs counterclockwise)",
        "000, 001",
        ("dealer-starts", "dealer-starts", "dealer-starts", "dealer-right-starts"),
    ),
    # A turn
    _enum(
        "draw",
        ("one", "until-playable"),
        "a player who cannot or will not play draws one card, or keeps drawing until a card fits",
        "all, 003",
        ("one", "one", "one", "until-playable"),
    ),
    _enum(
        "drawn_card",
        ("may-play", "must-play"),
        "a playable drawn card may be kept, or must be played at once; an older card may never be "
        "played after drawing",
        "000, 003",
        ("may-play", "may-play", "may-play", "must-play"),
    ),
    _bool(
        "voluntary_draw",
        True,
        "a player holding a playable card may draw instead (whether they do is the strategy's "
        "choice)",
        "002",
    ),
    _bool(
        "two_player_rules",
        True,
        "with two players a Reverse acts as a Skip (a Skip, Draw Two or Wild Draw Four already "
        "gives its player another turn)",
        "000-004",
    ),
    _bool(
        "no_action_finish",
        False,
        "a card that would be its player's last may not be an action card or wild",
        "003",
    ),
    _enum(
        "deadlock",
        ("void-round", "cap"),
        "void-round: when nothing can be drawn and every player passes in a row the round is void; "
        "cap: play on until max_turns",
        "000",
    ),
    _int(
        "max_turns",
        10000,
        10,
        1_000_000,
        "safety cap on turns; a capped round is recorded as capped, never as a win",
        "-",
    ),
    # Draw cards, stacking and the Wild Draw Four
    _enum(
        "wd4_restriction",
        ("color", "color-or-wild", "color-or-number", "none"),
        "a Wild Draw Four is legal only without a card of the active color (color), nor a Wild "
        "(color-or-wild), nor a card matching color or number (color-or-number); none: always",
        "000-003",
        ("color-or-wild", "color", "color", "color-or-number"),
    ),
    _bool(
        "wd4_challenge",
        True,
        "the victim of a Wild Draw Four may challenge it; without challenges nobody bluffs",
        "000, 002-004",
        (True, True, True, False),
    ),
    _int("challenge_penalty", 6, 0, 20, "cards a failed challenger draws (4 + 2)", "000, 002, 004"),
    _bool(
        "stack_draw_two",
        False,
        "a player owing a Draw Two penalty may pass it on with their own Draw Two (+2)",
        "002, 003",
    ),
    _bool(
        "stack_draw_four",
        False,
        "a player owing a Wild Draw Four penalty may pass it on with a Wild Draw Four (+4)",
        "002, 003",
    ),
    _bool(
        "stack_cross",
        False,
        "a Draw Two may answer a Wild Draw Four and the other way round; totals add",
        "002, 003",
    ),
    _bool(
        "stack_victim_skips",
        True,
        "the player who draws a pending draw total also loses their turn; false: they then play",
        "002",
    ),
    _bool(
        "final_penalty",
        True,
        "a round won on a Draw Two or Wild Draw Four: the next player still draws it before scoring",
        "000-002",
    ),
    # Hand-changing cards and out-of-turn play
    _bool(
        "seven_zero",
        False,
        "a 7 swaps hands with an opponent of the player's choice; a 0 passes every hand one seat "
        "in the direction of play",
        "002, 003",
    ),
    _bool(
        "jump_in",
        False,
        "a player holding the exact card just played (not a wild) may play it at once out of turn",
        "002, 003",
    ),
    # UNO calls and mistakes
    _enum(
        "uno_penalty",
        (2, 4, 0),
        "cards drawn by a player caught not calling UNO (0: calls not modelled)",
        "000-004",
        (2, 4, 2, 4),
    ),
    _enum(
        "invalid_play_penalty",
        (0, 1, 2),
        "a wrong card played is taken back; the player draws this many cards and plays legally",
        "000, 004",
    ),
    # Scoring
    _enum(
        "scoring",
        ("none", "points", "low-score", "partners"),
        "none: single rounds; points: the winner scores the other hands, first to the target; "
        "low-score: each seat adds its own hand, lowest total wins; partners: 4 players, seats "
        "0+2 vs 1+3",
        "000-003",
        ("points", "points", "points", "none"),
    ),
)

RULES_BY_KEY: dict[str, RuleSpec] = {spec.key: spec for spec in RULES}

# Engine indices: R_<KEY> is the position of <key> in the encoded rule array (checked below).
R_COUNT = len(RULES)
R_SHUFFLE_HANDS_CARDS = 0
R_CUSTOM_CARDS = 1
R_CUSTOM_CARD_RULE = 2
R_HAND_SIZE = 3
R_OPENING_ACTION = 4
R_OPENING_REVERSE = 5
R_DRAW = 6
R_DRAWN_CARD = 7
R_VOLUNTARY_DRAW = 8
R_TWO_PLAYER_RULES = 9
R_NO_ACTION_FINISH = 10
R_DEADLOCK = 11
R_MAX_TURNS = 12
R_WD4_RESTRICTION = 13
R_WD4_CHALLENGE = 14
R_CHALLENGE_PENALTY = 15
R_STACK_DRAW_TWO = 16
R_STACK_DRAW_FOUR = 17
R_STACK_CROSS = 18
R_STACK_VICTIM_SKIPS = 19
R_FINAL_PENALTY = 20
R_SEVEN_ZERO = 21
R_JUMP_IN = 22
R_UNO_PENALTY = 23
R_INVALID_PLAY_PENALTY = 24
R_SCORING = 25
assert R_COUNT == 26 and all(globals()["R_" + s.key.upper()] == i for i, s in enumerate(RULES)), (
    "rule index constants out of step with RULES"
)

# Encoded enum values the engine compares against.
OPENING_APPLY, OPENING_REDRAW = 0, 1
REVERSE_DEALER, REVERSE_DEALER_RIGHT = 0, 1
DRAW_ONE, DRAW_UNTIL_PLAYABLE = 0, 1
DRAWN_MAY_PLAY, DRAWN_MUST_PLAY = 0, 1
DEADLOCK_VOID, DEADLOCK_CAP = 0, 1
CUSTOM_EXTRA_TURN, CUSTOM_WILD = 0, 1
WD4_COLOR, WD4_COLOR_OR_WILD, WD4_COLOR_OR_NUMBER, WD4_NONE = 0, 1, 2, 3
SCORING_NONE, SCORING_POINTS, SCORING_LOW, SCORING_PARTNERS = 0, 1, 2, 3


def preset_rules(preset: str) -> dict[str, Any]:
    """Every rule key with the value ``preset`` gives it."""
    if preset not in PRESET_NAMES:
        raise KeyError(preset)
    return {spec.key: spec.preset_value(preset) for spec in RULES}


def resolve_rules(preset: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """The preset's rules with single keys overridden (values assumed valid)."""
    rules = preset_rules(preset)
    rules.update(overrides)
    return rules


def encode_rules(rules: dict[str, Any]) -> np.ndarray:
    """The int64 array the engine reads, indexed by the ``R_*`` constants."""
    out = np.zeros(R_COUNT, dtype=np.int64)
    for index, spec in enumerate(RULES):
        out[index] = spec.encode(rules[spec.key])
    return out


def deck_size(rules: dict[str, Any]) -> int:
    """Cards in the deck these rules play with (108 plus special wilds)."""
    return 108 + int(rules["shuffle_hands_cards"]) + int(rules["custom_cards"])

"""The rule matrix of RULES.md: one table of options and presets, encoded for the engine.

Everything that knows about rule keys reads this table: scenario validation,
``uno-stats rules``, the engine encoding and the reports. A rule is declared
once here; the engine reads it from the encoded array at the index ``R_<KEY>`` and
compares it with the enum codes below, both checked against the table at import.
Only facts live here (they are part of the engine's hash): what each rule means is
help text in :mod:`uno_stats.help_text`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from uno_stats.engine.slots import SlotMismatch, check_slots

if TYPE_CHECKING:
    import numpy as np

PRESET_NAMES: tuple[str, ...] = (
    "mattel-2022",
    "mattel-2001",
    "classic-house",
    "draw-until-playable",
    "no-mercy",
)


@dataclass(frozen=True)
class RuleSpec:
    """One rule key: its allowed values, default and per-preset value."""

    key: str
    kind: str  # "enum", "bool" or "int"
    default: Any
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


def _enum(key: str, choices: tuple[Any, ...], presets: tuple[Any, ...] | None = None) -> RuleSpec:
    return RuleSpec(key, "enum", choices[0], choices=choices, presets=presets)


def _bool(key: str, default: bool, presets: tuple[Any, ...] | None = None) -> RuleSpec:
    return RuleSpec(key, "bool", default, presets=presets)


def _int(
    key: str, default: int, low: int, high: int, presets: tuple[Any, ...] | None = None
) -> RuleSpec:
    return RuleSpec(key, "int", default, low=low, high=high, presets=presets)


RULES: tuple[RuleSpec, ...] = (
    # Deck and deal
    _int("shuffle_hands_cards", 0, 0, 4, (1, 0, 0, 0, 0)),
    _int("custom_cards", 0, 0, 4, (3, 0, 0, 0, 0)),
    _enum("custom_card_rule", ("extra-turn", "wild")),
    _int("hand_size", 7, 1, 20),
    # Opening card
    _enum(
        "opening_action",
        ("apply", "redraw", "ignore"),
        ("redraw", "apply", "apply", "apply", "redraw"),
    ),
    _enum(
        "opening_reverse",
        ("dealer-starts", "dealer-right-starts"),
        ("dealer-starts", "dealer-starts", "dealer-starts", "dealer-right-starts", "dealer-starts"),
    ),
    # A turn
    _enum(
        "draw",
        ("one", "until-playable"),
        ("one", "one", "one", "until-playable", "until-playable"),
    ),
    _enum(
        "drawn_card",
        ("may-play", "must-play"),
        ("may-play", "may-play", "may-play", "must-play", "must-play"),
    ),
    _bool("voluntary_draw", True),
    _bool("two_player_rules", True),
    _bool("no_action_finish", False),
    _enum("deadlock", ("void-round", "cap")),
    _int("max_turns", 10000, 10, 1_000_000),
    # Draw cards, stacking and the Wild Draw Four
    _enum(
        "wd4_restriction",
        ("color", "color-or-wild", "color-or-number", "none", "no-other-play"),
        ("color-or-wild", "color", "color", "color-or-number", "none"),
    ),
    _bool("wd4_challenge", True, (True, True, True, False, False)),
    _int("challenge_penalty", 6, 0, 20),
    _bool("stack_draw_two", False),
    _bool("stack_draw_four", False),
    _bool("stack_cross", False),
    _bool("stack_victim_skips", True),
    _bool("final_penalty", True),
    # Hand-changing cards and out-of-turn play
    _bool("seven_zero", False, (False, False, False, False, True)),
    _bool("jump_in", False),
    # UNO calls and mistakes
    _enum("uno_penalty", (2, 4, 0), (2, 4, 2, 4, 2)),
    _enum("invalid_play_penalty", (0, 1, 2)),
    # Scoring
    _enum(
        "scoring",
        ("none", "points", "low-score", "partners"),
        ("points", "points", "points", "none", "none"),
    ),
    # Issue 12 keys, appended so the indices above stay put
    _enum("seating", ("fixed", "random")),
    _bool("reshuffle", True),
    _enum("exhausted_winner", ("fewest-cards", "fewest-points")),
    _bool("deflect", False),
    _enum("multi_play", ("off", "same-number", "same-number-color")),
    _bool("multi_play_actions", False),
    # Issue 25 keys: UNO Show 'Em No Mercy (RULES.md S21-S24)
    _enum(
        "stack_draws",
        ("off", "equal-or-higher", "equal", "any"),
        ("off", "off", "off", "off", "equal-or-higher"),
    ),
    _int("mercy_limit", 0, 0, 200, (0, 0, 0, 0, 25)),
    _enum("mercy_cards", ("discard-bottom", "draw-bottom")),
    _enum("roulette_namer", ("victim", "player")),
)

RULES_BY_KEY: dict[str, RuleSpec] = {spec.key: spec for spec in RULES}

# Engine indices: R_<KEY> is the position of <key> in the encoded rule array (checked below).
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
R_SEATING = 26
R_RESHUFFLE = 27
R_EXHAUSTED_WINNER = 28
R_DEFLECT = 29
R_MULTI_PLAY = 30
R_MULTI_PLAY_ACTIONS = 31
R_STACK_DRAWS = 32
R_MERCY_LIMIT = 33
R_MERCY_CARDS = 34
R_ROULETTE_NAMER = 35
R_COUNT = len(RULES)
check_slots(globals(), "R_", [spec.key for spec in RULES], extra=("R_COUNT",))


def code(key: str, choice: str) -> int:
    """The encoded value of ``choice`` of the enum rule ``key`` (raises if it is not one)."""
    spec = RULES_BY_KEY[key]
    if choice not in spec.choices:
        raise SlotMismatch(f"{choice!r} is not a choice of rule {key!r}")
    return spec.encode(choice)


# Encoded enum values the engine compares against, taken from the table.
OPENING_APPLY, OPENING_REDRAW = code("opening_action", "apply"), code("opening_action", "redraw")
OPENING_IGNORE = code("opening_action", "ignore")
REVERSE_DEALER = code("opening_reverse", "dealer-starts")
REVERSE_DEALER_RIGHT = code("opening_reverse", "dealer-right-starts")
DRAW_ONE, DRAW_UNTIL_PLAYABLE = code("draw", "one"), code("draw", "until-playable")
DRAWN_MAY_PLAY, DRAWN_MUST_PLAY = code("drawn_card", "may-play"), code("drawn_card", "must-play")
DEADLOCK_VOID, DEADLOCK_CAP = code("deadlock", "void-round"), code("deadlock", "cap")
CUSTOM_EXTRA_TURN = code("custom_card_rule", "extra-turn")
CUSTOM_WILD = code("custom_card_rule", "wild")
WD4_COLOR = code("wd4_restriction", "color")
WD4_COLOR_OR_WILD = code("wd4_restriction", "color-or-wild")
WD4_COLOR_OR_NUMBER = code("wd4_restriction", "color-or-number")
WD4_NONE = code("wd4_restriction", "none")
WD4_NO_OTHER_PLAY = code("wd4_restriction", "no-other-play")
SCORING_NONE, SCORING_POINTS = code("scoring", "none"), code("scoring", "points")
SCORING_LOW, SCORING_PARTNERS = code("scoring", "low-score"), code("scoring", "partners")
SEATING_FIXED, SEATING_RANDOM = code("seating", "fixed"), code("seating", "random")
EXHAUSTED_FEWEST_CARDS = code("exhausted_winner", "fewest-cards")
EXHAUSTED_FEWEST_POINTS = code("exhausted_winner", "fewest-points")
MULTI_OFF, MULTI_SAME_NUMBER = code("multi_play", "off"), code("multi_play", "same-number")
MULTI_SAME_CARD = code("multi_play", "same-number-color")
STACK_OFF, STACK_EQUAL_OR_HIGHER = (
    code("stack_draws", "off"),
    code("stack_draws", "equal-or-higher"),
)
STACK_EQUAL, STACK_ANY = code("stack_draws", "equal"), code("stack_draws", "any")
MERCY_DISCARD_BOTTOM = code("mercy_cards", "discard-bottom")
MERCY_DRAW_BOTTOM = code("mercy_cards", "draw-bottom")
ROULETTE_VICTIM, ROULETTE_PLAYER = (
    code("roulette_namer", "victim"),
    code("roulette_namer", "player"),
)


PRESET_DECKS: dict[str, str] = {"no-mercy": "no-mercy"}
"""The deck a rules preset plays when the scenario names none (``cards.DECK_PRESETS``)."""


def preset_deck(preset: str) -> dict[str, Any] | None:
    """The resolved ``deck`` section (S19) a rules preset plays by default: None (the classic
    deck) but for ``no-mercy``, whose 168 cards are a deck of their own (S21)."""
    from uno_stats.engine.cards import DECK_PRESETS, changed_counts

    name = PRESET_DECKS.get(preset)
    if name is None:
        return None
    return {"decks": 1, "counts": changed_counts(DECK_PRESETS[name])}


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
    import numpy as np  # here: reading a scenario checks rules without numpy

    out = np.zeros(R_COUNT, dtype=np.int64)
    for index, spec in enumerate(RULES):
        out[index] = spec.encode(rules[spec.key])
    return out


def deck_size(rules: dict[str, Any], deck: dict[str, Any] | None = None) -> int:
    """Cards in the deck these rules play with: 108 plus special wilds, or with a scenario's
    resolved ``deck`` section (S19) that many copies of its counts."""
    from uno_stats.engine.cards import deck_cards

    counts = dict((deck or {}).get("counts", {}))
    copies = int((deck or {}).get("decks", 1))
    return len(
        deck_cards(int(rules["shuffle_hands_cards"]), int(rules["custom_cards"]), counts, copies)
    )

"""The strategies and their per-seat knobs (SCENARIO.md), encoded for the engine.

Scenario validation, ``uno-stats strategies`` and the engine all read this table.
The compiled decision functions live in :mod:`uno_stats.engine.strategies`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class StrategyInfo:
    """A named way of playing: its engine id and one documenting paragraph."""

    name: str
    engine_id: int
    doc: str


@dataclass(frozen=True)
class KnobSpec:
    """A per-seat behaviour knob of SCENARIO.md."""

    key: str
    kind: str  # "prob" (a float in [0, 1]) or "enum"
    default: Any
    meaning: str
    choices: tuple[str, ...] = ()

    def allowed(self) -> str:
        """Human-readable description of the allowed values."""
        if self.kind == "enum":
            return ", ".join(self.choices)
        return "a probability from 0 to 1"

    def encode(self, value: Any) -> float:
        """The float the engine reads for ``value``."""
        if self.kind == "enum":
            return float(self.choices.index(value))
        return float(value)


STRATEGIES: tuple[StrategyInfo, ...] = (
    StrategyInfo(
        "random",
        0,
        "Plays a legal card chosen uniformly among the legal cards in hand (two red 5s are two "
        "choices); draws only when it holds none, or when voluntary_draw fires; plays a drawn card "
        "whenever it may and it is legal; names a wild's color uniformly; swaps with a uniformly "
        "random opponent on a 7; stacks whenever it can (uniform among stacking cards); jumps in "
        "whenever it can; challenges and bluffs only as its knobs say.",
    ),
    StrategyInfo(
        "basic",
        1,
        "What a careful casual player does: plays a card of the active color if it has one, "
        "else a number or symbol match, keeps Wilds for when nothing else fits and a Wild Draw "
        "Four for last (never bluffing it), names the color it holds most of, and swaps with the "
        "opponent holding the fewest cards on a 7. Ties are broken uniformly at random; it plays "
        "a legal drawn card, stacks and jumps in whenever it can.",
    ),
    StrategyInfo(
        "aggressive",
        2,
        "Attacks a player about to win: when the next player holds two cards or fewer it plays "
        "Draw Twos, Wild Draw Fours, Skips and Reverses first (the highest-point first); "
        "otherwise it dumps its highest-point card. Names the color it holds most of and swaps "
        "with the opponent holding the fewest cards; ties are broken uniformly at random.",
    ),
    StrategyInfo(
        "hoarder",
        3,
        "Holds its wilds and action cards to the end: plays number cards first (the highest "
        "number first, shedding points), then Skips, Reverses and Draw Twos, then a Wild, and a "
        "Wild Draw Four last. Names the color it holds most of and swaps with the opponent "
        "holding the fewest cards; ties are broken uniformly at random.",
    ),
    StrategyInfo(
        "color-denier",
        4,
        "Switches play to a color the next player lacks, judged only from what everyone saw: a "
        "player seen drawing on their turn with nothing to play lacked the active color (the "
        "mark is cleared when they later play that color, and for everyone when hands move on "
        "a 7, 0 or Shuffle Hands). Plays a card of such a color first, otherwise as basic; on a "
        "wild names the lacking color it holds most of, else its commonest color.",
    ),
)
STRATEGIES_BY_NAME: dict[str, StrategyInfo] = {s.name: s for s in STRATEGIES}

CHALLENGE_CHOICES = ("never", "always", "smart")
CHALLENGE_NEVER, CHALLENGE_ALWAYS, CHALLENGE_SMART = 0, 1, 2

KNOBS: tuple[KnobSpec, ...] = (
    KnobSpec("forget_uno", "prob", 0.0, "probability of not calling UNO on the next-to-last card"),
    KnobSpec(
        "catch_uno", "prob", 1.0, "probability that this player catches an opponent's missed call"
    ),
    KnobSpec("challenge", "enum", "never", "when to challenge a Wild Draw Four", CHALLENGE_CHOICES),
    KnobSpec(
        "bluff",
        "prob",
        0.0,
        "per turn: probability of treating illegal Wild Draw Fours as playable",
    ),
    KnobSpec("voluntary_draw", "prob", 0.0, "probability of drawing while holding a playable card"),
    KnobSpec("mistake", "prob", 0.0, "probability of first trying an invalid card"),
)
KNOBS_BY_KEY: dict[str, KnobSpec] = {k.key: k for k in KNOBS}

# Columns of the encoded per-seat strategy array.
S_KIND = 0
S_FORGET_UNO = 1
S_CATCH_UNO = 2
S_CHALLENGE = 3
S_BLUFF = 4
S_VOLUNTARY_DRAW = 5
S_MISTAKE = 6
S_COUNT = 7
assert [k.key for k in KNOBS] == [
    "forget_uno",
    "catch_uno",
    "challenge",
    "bluff",
    "voluntary_draw",
    "mistake",
], "knob columns out of step with KNOBS"


def default_seat() -> dict[str, Any]:
    """A seat playing ``random`` with every knob at its default."""
    seat: dict[str, Any] = {"strategy": "random"}
    seat.update({k.key: k.default for k in KNOBS})
    return seat


def encode_strategies(seats: Sequence[dict[str, Any]]) -> np.ndarray:
    """The float64 array ``[seat, S_*]`` the engine reads; one resolved dict per seat."""
    out = np.zeros((len(seats), S_COUNT), dtype=np.float64)
    for i, seat in enumerate(seats):
        out[i, S_KIND] = STRATEGIES_BY_NAME[seat["strategy"]].engine_id
        for column, knob in enumerate(KNOBS, start=1):
            out[i, column] = knob.encode(seat.get(knob.key, knob.default))
    return out

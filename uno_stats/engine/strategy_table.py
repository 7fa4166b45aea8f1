"""The strategies and their per-seat knobs (SCENARIO.md), encoded for the engine.

Scenario validation, ``uno-stats strategies`` and the engine all read this table.
The compiled decision functions live in :mod:`uno_stats.engine.strategies`; a
strategy's engine id is its position here, and the ``S_*`` columns follow ``KNOBS``
(both checked at import). Only facts live here: what each strategy and knob does is
help text in :mod:`uno_stats.help_text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from uno_stats.engine.slots import SlotMismatch, check_slots

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class StrategyInfo:
    """A named way of playing; ``memory``: it keeps a memory of public events."""

    name: str
    memory: bool = False


@dataclass(frozen=True)
class KnobSpec:
    """A per-seat behaviour knob of SCENARIO.md."""

    key: str
    kind: str  # "prob" (a float in [0, 1]) or "enum"
    default: Any
    choices: tuple[Any, ...] = ()  # an enum's names, or its integers (encoded as themselves)
    only: tuple[str, ...] = ()  # the strategies that read it (empty: every strategy)

    def allowed(self) -> str:
        """Human-readable description of the allowed values."""
        if self.kind == "enum":
            return ", ".join(str(c) for c in self.choices)
        return "a probability from 0 to 1"

    def encode(self, value: Any) -> float:
        """The float the engine reads for ``value``: a named choice's position, an integer
        choice itself, a probability as it is."""
        if self.kind == "enum":
            if isinstance(self.choices[0], int):
                return float(value)
            return float(self.choices.index(value))
        return float(value)


STRATEGIES: tuple[StrategyInfo, ...] = (
    StrategyInfo("random"),
    StrategyInfo("basic"),
    StrategyInfo("aggressive"),
    StrategyInfo("hoarder"),
    StrategyInfo("color-denier", memory=True),
    StrategyInfo("search", memory=True),  # last: the rollout policies are the strategies before it
)
STRATEGIES_BY_NAME: dict[str, StrategyInfo] = {s.name: s for s in STRATEGIES}


def strategy_id(name: str) -> int:
    """The engine id of strategy ``name`` (its position in ``STRATEGIES``)."""
    for index, info in enumerate(STRATEGIES):
        if info.name == name:
            return index
    raise SlotMismatch(f"no strategy named {name!r}")


CHALLENGE_CHOICES = ("never", "always", "smart")
# search's knobs (SCENARIO.md, "Strategies", and help_text.KNOB_HELP say what each does).
ROLLOUT_CHOICES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
ROLLOUT_POLICIES = tuple(s.name for s in STRATEGIES if s.name != "search")
CANDIDATE_CHOICES = (2, 3, 4, 6, 8, 12, 16, 56)
OPPONENT_MODELS = ("declared", "own-policy")
ALLOCATIONS = ("halving", "equal")
PRIORS = ("basic", "none")
MARGINS = (0, 1, 2, 3)
CLOSE_CALLS = (0, 1, 2, 3)
MOVE_SETS = ("plays", "all", "cards")
HORIZONS = (0, 2, 4, 8, 16)
INFERENCES = ("none", "last-play")
if STRATEGIES[-1].name != "search" or tuple(s.name for s in STRATEGIES[:-1]) != ROLLOUT_POLICIES:
    raise ImportError("a rollout policy's encoded value must be its strategy id")

SEARCH_ONLY = ("search",)
KNOBS: tuple[KnobSpec, ...] = (
    KnobSpec("forget_uno", "prob", 0.0),
    KnobSpec("catch_uno", "prob", 1.0),
    KnobSpec("challenge", "enum", "never", CHALLENGE_CHOICES),
    KnobSpec("bluff", "prob", 0.0),
    KnobSpec("voluntary_draw", "prob", 0.0),
    KnobSpec("mistake", "prob", 0.0),
    KnobSpec("keep_drawn", "prob", 0.0),
    KnobSpec("rollouts", "enum", 256, ROLLOUT_CHOICES, SEARCH_ONLY),
    KnobSpec("rollout_policy", "enum", "basic", ROLLOUT_POLICIES, SEARCH_ONLY),
    KnobSpec("max_candidates", "enum", 8, CANDIDATE_CHOICES, SEARCH_ONLY),
    KnobSpec("opponent_model", "enum", "declared", OPPONENT_MODELS, SEARCH_ONLY),
    KnobSpec("allocation", "enum", "equal", ALLOCATIONS, SEARCH_ONLY),
    KnobSpec("prior", "enum", "basic", PRIORS, SEARCH_ONLY),
    KnobSpec("margin", "enum", 1, MARGINS, SEARCH_ONLY),
    KnobSpec("search_moves", "enum", "plays", MOVE_SETS, SEARCH_ONLY),
    KnobSpec("horizon", "enum", 8, HORIZONS, SEARCH_ONLY),
    KnobSpec("inference", "enum", "none", INFERENCES, SEARCH_ONLY),
    KnobSpec("close_calls", "enum", 3, CLOSE_CALLS, SEARCH_ONLY),
)
KNOBS_BY_KEY: dict[str, KnobSpec] = {k.key: k for k in KNOBS}

CHALLENGE_NEVER = CHALLENGE_CHOICES.index("never")  # the encoded values of the challenge knob
CHALLENGE_ALWAYS = CHALLENGE_CHOICES.index("always")
CHALLENGE_SMART = CHALLENGE_CHOICES.index("smart")

# Columns of the encoded per-seat strategy array: the strategy id, then the knobs in order.
S_KIND = 0
S_FORGET_UNO = 1
S_CATCH_UNO = 2
S_CHALLENGE = 3
S_BLUFF = 4
S_VOLUNTARY_DRAW = 5
S_MISTAKE = 6
S_KEEP_DRAWN = 7
S_ROLLOUTS = 8
S_ROLLOUT_POLICY = 9
S_MAX_CANDIDATES = 10
S_OPPONENT_MODEL = 11
S_ALLOCATION = 12
S_PRIOR = 13
S_MARGIN = 14
S_SEARCH_MOVES = 15
S_HORIZON = 16
S_INFERENCE = 17
S_CLOSE_CALLS = 18
S_COUNT = 1 + len(KNOBS)
check_slots(globals(), "S_", ["kind", *(k.key for k in KNOBS)], extra=("S_COUNT",))


def default_seat() -> dict[str, Any]:
    """A seat playing ``random`` with every knob at its default."""
    seat: dict[str, Any] = {"strategy": "random"}
    seat.update({k.key: k.default for k in KNOBS})
    return seat


def encode_strategies(seats: Sequence[dict[str, Any]]) -> np.ndarray:
    """The float64 array ``[seat, S_*]`` the engine reads; one resolved dict per seat."""
    import numpy as np  # here: reading a scenario checks seats without numpy

    out = np.zeros((len(seats), S_COUNT), dtype=np.float64)
    for i, seat in enumerate(seats):
        out[i, S_KIND] = strategy_id(seat["strategy"])
        for column, knob in enumerate(KNOBS, start=S_KIND + 1):
            out[i, column] = knob.encode(seat.get(knob.key, knob.default))
    return out


RECORDS_PLAYS = 2  # the bit of state.ST_OBSERVED set when records_plays: play.record_play runs
# The bit of state.ST_OBSERVED set in a rollout's copy (search_world.copy_position): there
# only color-denier's memory is kept (memory_row.observe_in_rollout), as nothing reads
# search's own before the rollout ends (its worlds are dealt from the round's at the start).
IN_ROLLOUT = 4


def records_plays(seats: np.ndarray) -> bool:
    """Whether any seat of the encoded ``seats`` is a search judging worlds by the plays
    seen (``inference`` other than none)."""
    search = strategy_id("search")
    return any(int(s[S_KIND]) == search and s[S_INFERENCE] != 0 for s in seats)


def keeps_memory(seats: np.ndarray) -> bool:
    """Whether any seat of the encoded ``seats`` plays a strategy that keeps a memory."""
    return any(STRATEGIES[int(kind)].memory for kind in seats[:, S_KIND])

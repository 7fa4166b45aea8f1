"""The vocabulary of rule comparisons: metric names, the comparison record, margins.

A metric name (:func:`metric_spec`) says what is compared and how: ``mean_<column>``,
``median_<column>``, ``p<NN>_<column>``, ``dist_<column>``, ``won_rate`` / ``void_rate`` /
``capped_rate``, ``seat<K>_win_rate``, ``comeback<K>_rate``, ``chain<K>_rate`` (the share of
rounds whose longest penalty chain drew K or more cards), ``first_mover_win_rate`` (the
share of won rounds won by whoever moved first) and ``first_mover_edge`` (that share minus
the fair share 1/players). :class:`MetricComparison` holds one metric of run b against
baseline a; :class:`Margin` and :class:`Equivalence` the equivalence test.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from uno_stats.analysis.estimates import Estimate
from uno_stats.errors import ResultsError, quoted

ALPHA = 0.05
TOST_LEVEL = 1 - 2 * ALPHA
"""Equivalence uses the 90% interval: two one-sided tests at 5% each (TOST)."""
UNITS = {"turns": "turns", "cards_drawn": "cards", "match_rounds": "rounds"}
QUESTIONS = {"turns": "round length", "cards_drawn": "cards drawn", "match_rounds": "match length"}


RATE_KINDS: tuple[str, ...] = (
    "rate",
    "seat",
    "comeback",
    "first_mover",
    "first_mover_edge",
    "chain",
)
"""Metric kinds whose values are proportions (shown in percent, margins in points)."""


@dataclass(frozen=True)
class MetricSpec:
    """What a metric name means: its kind (mean, quantile, distribution, rate, seat) and column."""

    key: str
    label: str
    kind: str
    column: str | None = None
    q: float | None = None
    status: str | None = None
    seat: int | None = None
    behind: int | None = None  # comeback metrics: K cards behind; chain metrics: K+ cards

    @property
    def per_seat(self) -> bool:
        """Whether the metric belongs to one seat (needs equal player counts)."""
        return self.kind == "seat"

    @property
    def unit(self) -> str:
        """Unit of the metric's values (empty for rates)."""
        return UNITS.get(self.column or "", "")

    @property
    def question(self) -> str:
        """The question (Holm family) the metric answers."""
        if self.kind == "seat":
            return "seat advantage"
        if self.kind == "rate":
            return "round outcome"
        if self.kind == "comeback":
            return "comebacks"
        if self.kind == "chain":
            return "stacking chains"
        if self.kind in ("first_mover", "first_mover_edge"):
            return "first mover"
        return QUESTIONS.get(self.column or "", str(self.column).replace("_", " "))


def metric_spec(key: str) -> MetricSpec:
    """Parse a metric name such as ``mean_turns``, ``p90_turns``, ``void_rate``,
    ``seat0_win_rate``."""
    if m := re.fullmatch(r"mean_(\w+)", key):
        return MetricSpec(key, f"mean {m[1].replace('_', ' ')}", "mean", m[1])
    if m := re.fullmatch(r"median_(\w+)", key):
        label = f"median {m[1].replace('_', ' ')} (mid-quantile)"
        return MetricSpec(key, label, "quantile", m[1], 0.5)
    if m := re.fullmatch(r"p(\d{1,2})_(\w+)", key):
        label = f"p{m[1]} {m[2].replace('_', ' ')} (mid-quantile)"
        return MetricSpec(key, label, "quantile", m[2], int(m[1]) / 100)
    if m := re.fullmatch(r"dist_(\w+)", key):
        return MetricSpec(key, f"distribution of {m[1].replace('_', ' ')}", "distribution", m[1])
    if m := re.fullmatch(r"(won|void|capped|exhausted)_rate", key):
        return MetricSpec(key, f"{m[1]} rate", "rate", status=m[1])
    if m := re.fullmatch(r"seat(\d+)_win_rate", key):
        return MetricSpec(key, f"seat {m[1]} win rate", "seat", seat=int(m[1]))
    if key == "first_mover_win_rate":
        return MetricSpec(key, "first mover's win rate", "first_mover")
    if key == "first_mover_edge":
        return MetricSpec(key, "first mover's edge (win share - 1/players)", "first_mover_edge")
    if m := re.fullmatch(r"comeback(\d+)_rate", key):
        label = f"P(win | {m[1]}+ cards behind)"
        return MetricSpec(key, label, "comeback", "max_deficit", behind=int(m[1]))
    if m := re.fullmatch(r"chain(\d+)_rate", key):
        label = f"share of rounds with a chain of {m[1]}+ draw cards"
        return MetricSpec(key, label, "chain", "longest_stack", behind=int(m[1]))
    raise ResultsError(
        f"unknown metric {key!r}: use mean_COL, median_COL, pNN_COL, dist_COL, won_rate, "
        "void_rate, capped_rate, exhausted_rate, seatK_win_rate, comebackK_rate, "
        "chainK_rate, first_mover_win_rate or first_mover_edge"
    )


@dataclass(frozen=True)
class Margin:
    """An equivalence margin: ``value`` in the metric's units, or a fraction of the baseline."""

    value: float
    relative: bool

    def absolute(self, baseline: float, rate: bool) -> float:
        """The margin in the metric's units for a baseline estimate.

        Reading (the spec is silent): an absolute margin for a rate is in percentage points
        (``--margin 1.5`` on a win rate means +-1.5 pp); a relative one is a fraction of the
        baseline estimate, taken as known.
        """
        if self.relative:
            return self.value * abs(baseline)
        return self.value / 100 if rate else self.value

    def text(self) -> str:
        """The margin as the user wrote it: ``2%`` or ``1.5``."""
        return f"{100 * self.value:g}%" if self.relative else f"{self.value:g}"


_MARGIN = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(%?)\s*")
"""The documented forms of a margin: a decimal number, optionally followed by one ``%``."""


def parse_margin(text: str) -> Margin:
    """``"2%"`` (relative to the baseline) or ``"1.5"`` (absolute; pp for rates).

    Only these forms: no exponent, sign, ``inf``/``nan``, separators or repeated ``%``.
    """
    found = _MARGIN.fullmatch(text)
    if found is None:
        raise ResultsError(
            f"--margin: {quoted(text)} is not allowed: a positive number such as 1.5, or a "
            "percentage such as 2%"
        )
    value, relative = float(found.group(1)), found.group(2) == "%"
    if not (value > 0 and math.isfinite(value)):
        raise ResultsError(f"--margin: {quoted(text)} is not allowed: the margin must be positive")
    return Margin(value / 100 if relative else value, relative)


@dataclass(frozen=True)
class Equivalence:
    """TOST verdict on a difference: ``same`` (90% interval inside +-margin), ``different``
    (outside it entirely) or ``undecided``, with the games per run that would decide it."""

    margin: Margin
    bound: float
    low: float
    high: float
    outcome: str
    games_needed: int | None


@dataclass(frozen=True)
class MetricComparison:
    """Run b against baseline a on one metric: estimates, b - a, b / a, test and effect size.

    ``status``: ``tested``; ``identical`` (paired, and every game gave the same value);
    ``absent`` (zero in every round of both runs). Only ``tested`` rows have a p-value.
    ``direction``: the sign of the effect the test saw (+1: b higher). ``tost``: the 90%
    difference interval.
    """

    metric: str
    label: str
    kind: str
    unit: str
    baseline: Estimate
    other: Estimate
    difference: Estimate
    ratio: Estimate
    test: str
    statistic: float
    p: float
    effect_name: str
    effect: float
    p_holm: float
    family: int = 1
    question: str = ""
    paired: bool = False
    status: str = "tested"
    direction: int = 0
    tost: tuple[float, float] = (math.nan, math.nan)
    equivalence: Equivalence | None = None
    note: str = ""

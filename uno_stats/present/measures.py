"""The main answers of a run as named measures, for sweep answers, sweep plots and tests.

A :class:`Measure` reads one estimate (with its 95% interval) from a run's answers: mean
round length, the first mover's edge, the comeback rate from :data:`COMEBACK_K` cards
behind, own-turn draws per round, rounds not won by going out and match length. A measure a
run cannot answer (no won rounds, no matches, a missing column) reads as None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from uno_stats.analysis.estimates import Estimate, proportion
from uno_stats.analysis.point_answers import Answered
from uno_stats.analysis.questions import RunAnswers

COMEBACK_K = 3
"""The deficit the answers quote comebacks from (the ``comeback3_rate`` metric)."""


@dataclass(frozen=True)
class Measure:
    """One main answer: how to read it from a run, and how to show it."""

    key: str
    label: str
    unit: str  # "turns", "rounds", "draws" or "pp"/"%" for proportions
    read: Callable[[Answered], Estimate | None]
    percent: bool = False  # a proportion shown in % (or in pp for an edge)
    reference: float | None = None  # a value the plot marks (0 for an edge)
    optional: bool = False  # shown only where some run has a nonzero value
    metric: str | None = None  # the compare metric answering the same question, if any

    def value(self, a: Answered) -> Estimate | None:
        """The estimate for run ``a``, or None when the run cannot answer it."""
        return self.read(a)


def comeback_rate(a: Answered, k: int = COMEBACK_K) -> Estimate | None:
    """P(win | ever ``k`` or more cards behind the smallest hand), or None (also for a
    sweep point's main answers alone, which do not hold it)."""
    c = a.comeback if isinstance(a, RunAnswers) else None
    if c is None or k not in c.ks:
        return None
    e = c.rates[c.ks.index(k)]
    return e if e.n > 0 else None


def _edge(a: Answered) -> Estimate | None:
    return a.first_mover_edge


def _draws(a: Answered) -> Estimate | None:
    if not isinstance(a, RunAnswers) or a.events.draws is None:
        return None
    return a.events.draws.per_round


def _match(a: Answered) -> Estimate | None:
    return a.mean_match_rounds


def not_out_rate(a: Answered) -> Estimate:
    """Share of rounds that did not end with a player going out (void, capped or exhausted;
    an exhausted round may still have a winner, RULES.md S17), Wilson interval."""
    s = a.status
    return proportion(s.n - s.counts[0], s.n)


MEASURES: tuple[Measure, ...] = (
    Measure(
        "mean_turns", "mean round length", "turns", lambda a: a.length.mean, metric="mean_turns"
    ),
    Measure(
        "first_mover_edge",
        "first mover's edge",
        "pp",
        _edge,
        percent=True,
        reference=0.0,
        metric="first_mover_edge",
    ),
    Measure(
        "comeback_rate",
        f"P(win | ever {COMEBACK_K}+ cards behind)",
        "%",
        comeback_rate,
        percent=True,
        metric=f"comeback{COMEBACK_K}_rate",
    ),
    Measure("draws_per_round", "own-turn draws per round", "draws", _draws),
    Measure("not_out_rate", "rounds not won by going out", "%", not_out_rate, True, optional=True),
    Measure("mean_match_rounds", "mean match length", "rounds", _match, metric="mean_match_rounds"),
)


def measures_for(answers: Sequence[Answered]) -> list[Measure]:
    """The measures every one of ``answers`` can answer (optional ones: where nonzero)."""
    out = []
    for m in MEASURES:
        values = [m.value(a) for a in answers]
        if any(v is None for v in values):
            continue
        if m.optional and not any(v is not None and v.value > 0 for v in values):
            continue
        out.append(m)
    return out


def shown(m: Measure, e: Estimate, k: int = 2) -> str:
    """``value unit (95% CI low to high)`` in the measure's unit (percent for proportions),
    ``k`` decimals."""
    scale = 100 if m.percent else 1
    v, lo, hi = (scale * x for x in (e.value, e.low, e.high))
    if m.unit == "pp":
        return f"{v:+.{k}f} pp (95% CI {lo:+.{k}f} to {hi:+.{k}f})"
    if m.percent:
        return f"{v:.{k}f}% (95% CI {lo:.{k}f} to {hi:.{k}f}%)"
    return f"{v:,.{k}f} {m.unit} (95% CI {lo:,.{k}f} to {hi:,.{k}f})"

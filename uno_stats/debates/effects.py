"""The ``effects`` debate: which of a sweep's axes matter, and by how much.

What the ``effects`` command and :func:`uno_stats.effects` share once a sweep is run or
opened: the metric names and the margin are checked before anything runs or is read, then
each sweep's effects are computed from its point runs
(:func:`uno_stats.analysis.effects.sweep_effects`). Running a sweep scenario first and
refusing an incomplete sweep stay with the caller, which words them for its user.
"""

from __future__ import annotations

from collections.abc import Sequence

from uno_stats.analysis.effects import SweepEffects, effect_spec, sweep_effects
from uno_stats.analysis.metrics import Margin, parse_margin
from uno_stats.analysis.sweep_points import sweep_of
from uno_stats.store.runs import Run


def checked_options(metrics: Sequence[str] | None, margin: str | None) -> Margin | None:
    """Check every metric name (a one-line error for an unknown one) and parse ``margin``
    (``"2%"`` or ``"1.5"``; None: no margin), before a sweep is run or read."""
    for name in metrics or []:
        effect_spec(name)
    return parse_margin(margin) if margin is not None else None


def sweeps_effects(
    sweeps: Sequence[Sequence[Run]],
    metrics: Sequence[str] | None = None,
    *,
    interactions: bool | None = None,
    three_factor: bool = False,
    margin: Margin | None = None,
) -> list[SweepEffects]:
    """The effects of each sweep's axes; each item of ``sweeps`` is one sweep's point runs.

    ``metrics``: None (or empty) for the default metrics; ``interactions``: None for
    two-factor interactions when a sweep has at most 8 varying axes; ``three_factor`` adds
    the three-factor ones; ``margin`` names the terms with no practical effect.
    """
    return [
        sweep_effects(
            sweep_of(runs),
            list(metrics) if metrics else None,
            interactions=interactions,
            three_factor=three_factor,
            margin=margin,
        )
        for runs in sweeps
    ]

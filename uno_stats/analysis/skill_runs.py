"""Skill studies from runs: the sweeps over one seat's strategy or knob (SCENARIO.md,
``strategies.<seat>.<key>``), read into the paired-deal tables of
:mod:`uno_stats.analysis.skill`.

A sweep over one seat's ``strategy`` is a *skill table* per combination of its other axes
(players, rules): the focal seat played by each strategy on the same deals. A sweep over
one seat's knob (``strategies.0.rollouts``) is a *knob curve*: the focal seat's win share
at each value and the paired difference from the value before. (A sweep's points run
together, so their manifests hold one wall time: the speed at each value is measured apart,
docs/PERFORMANCE.md.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from uno_stats.analysis.estimates import Estimate, proportion
from uno_stats.analysis.skill import (
    FocalSkill,
    SpreadEffect,
    focal_skill,
    focal_wins,
    paired_mean,
    paired_table,
    spread_effects,
)
from uno_stats.engine.strategy_table import STRATEGIES
from uno_stats.scenario.fields import seat_axis
from uno_stats.store.runs import Run

_ORDER = [s.name for s in STRATEGIES]  # strategies from the simplest to search


@dataclass(frozen=True)
class SkillTable:
    """One setting of the other axes (``{"players": 2}``) and its paired-deal answers."""

    setting: dict[str, Any]
    skill: FocalSkill
    table: np.ndarray  # deals x strategies, 1 where the focal seat won


@dataclass(frozen=True)
class SkillStudy:
    """A sweep over the focal seat's strategy: one table per setting, and how each other
    two-valued axis (a house rule) moves the spread of the last strategy over the first."""

    name: str
    focal: int
    opponents: str  # what the other seats play (their strategy names, deduplicated)
    tables: tuple[SkillTable, ...]
    effects: tuple[SpreadEffect, ...]


@dataclass(frozen=True)
class KnobPoint:
    """One value of the focal seat's knob: its win share and the paired change from the
    value before (None for the first)."""

    value: Any
    share: Estimate
    change: Estimate | None


@dataclass(frozen=True)
class KnobCurve:
    name: str
    knob: str
    strategy: str
    opponents: str
    points: tuple[KnobPoint, ...]


def _value(run: Run, axis: str) -> Any:
    """The run's value on sweep ``axis``."""
    return (run.manifest.sweep_assignment or {})[axis]


def _focal_axis(runs: Sequence[Run]) -> tuple[str, int, str] | None:
    """The one-seat axis of a sweep's runs: ``(axis, seat, key)``, or None."""
    for axis in runs[0].manifest.sweep_assignment or {}:
        found = seat_axis(axis)
        if found is not None:
            return axis, found[0], found[1]
    return None


def _opponents(run: Run, focal: int) -> str:
    names = [s["strategy"] for i, s in enumerate(run.scenario.seats) if i != focal]
    return ", ".join(dict.fromkeys(names))


def _settings(runs: Sequence[Run], axis: str) -> dict[tuple, list[Run]]:
    """The runs by the values of the other axes (in the sweep's order)."""
    out: dict[tuple, list[Run]] = {}
    for run in runs:
        others = {k: v for k, v in (run.manifest.sweep_assignment or {}).items() if k != axis}
        out.setdefault(tuple(others.items()), []).append(run)
    return out


def skill_study(name: str, runs: Sequence[Run]) -> SkillStudy | None:
    """The study of one sweep's runs if it sweeps one seat's strategy (else None)."""
    found = _focal_axis(runs) if runs else None
    if found is None or found[2] != "strategy":
        return None
    axis, focal, _key = found
    tables = []
    for setting, members in _settings(runs, axis).items():
        members = sorted(members, key=lambda r: _ORDER.index(_value(r, axis)))
        names = [_value(r, axis) for r in members]
        table = paired_table([focal_wins(r.scan(), focal) for r in members])
        tables.append(SkillTable(dict(setting), focal_skill(names, table), table))
    points = [(t.setting, t.table) for t in tables if t.table.shape[1] >= 2]
    effects = spread_effects(points, better=-1, worse=0) if len(points) > 1 else ()
    return SkillStudy(name, focal, _opponents(runs[0], focal), tuple(tables), effects)


def knob_curve(name: str, runs: Sequence[Run]) -> KnobCurve | None:
    """The curve of one sweep's runs if it sweeps one seat's knob (else None)."""
    found = _focal_axis(runs) if runs else None
    if found is None or found[2] == "strategy" or len(_settings(runs, found[0])) != 1:
        return None
    axis, focal, knob = found
    members = sorted(runs, key=lambda r: _value(r, axis))
    columns = [focal_wins(r.scan(), focal) for r in members]
    table = paired_table(columns)
    points = []
    for k, run in enumerate(members):
        share = proportion(int(table[:, k].sum()), table.shape[0])
        change = paired_mean(table[:, k].astype(float) - table[:, k - 1]) if k else None
        points.append(KnobPoint(_value(run, axis), share, change))
    strategy = members[0].scenario.seats[focal]["strategy"]
    return KnobCurve(name, knob, strategy, _opponents(members[0], focal), tuple(points))


def skill_studies(
    groups: Sequence[Any],
) -> tuple[tuple[SkillStudy, ...], tuple[KnobCurve, ...]]:
    """The skill studies and knob curves among a report's sweep groups."""
    studies = [s for g in groups if (s := skill_study(g.name, g.runs)) is not None]
    curves = [c for g in groups if (c := knob_curve(g.name, g.runs)) is not None]
    return tuple(studies), tuple(curves)

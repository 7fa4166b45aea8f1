"""A sweep's points, built one at a time: the template, the axes and the design's rows.

A sweep of 100,000 points must not hold 100,000 scenarios (about 3.4 kB each, measured):
:class:`PointTable` keeps the file's template, its axes and (for a fractional or random
design) the design's rows of level indices, and builds point ``i``'s scenario only when asked,
checked as a whole scenario like any file. Loading the file checks every point that could
fail: one point per distinct combination of the axes that the cross-key checks read
(:data:`CROSS_CHECKED_AXES`); every other axis's values were each checked on their own by
:func:`uno_stats.scenario.fields.check_sweep`, so two points that differ only there pass or fail
together.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, overload

from uno_stats.errors import ScenarioError
from uno_stats.scenario.checks import ErrorContext, show_value
from uno_stats.scenario.fields import DEFAULTS, check_fields, check_table, seat_axis
from uno_stats.scenario.model import Scenario, SweepPoint

if TYPE_CHECKING:
    from array import array

CROSS_CHECKED_AXES = frozenset(
    {
        "players",
        "deck.decks",
        "rules.preset",
        "rules.hand_size",
        "rules.scoring",
        "rules.shuffle_hands_cards",
        "rules.custom_cards",
        "rules.opening_action",
        "rules.mercy_limit",
    }
)
"""The axes that checks across keys read (:func:`~uno_stats.scenario.fields.check_table`, the
deck checks of :func:`~uno_stats.scenario.deck.check_deck_table`, the seats counted against
``players``, and the preset, which sets every rule). Guard:
tests/scenario/test_points.py reads which keys those checks touch."""

MAX_LABEL = 200
"""A design's point labels are ``point-01`` ... when an axis-value label would be longer."""


def label_of(assignment: dict[str, Any]) -> str:
    """``axis-value`` parts joined by ``_``;
    unique: an axis's values are distinct, none has ``_``."""
    parts = []
    for axis, value in assignment.items():
        text = value if isinstance(value, str) else show_value(value)
        parts.append(f"{axis.rpartition('.')[2]}-{re.sub(r'[^A-Za-z0-9.-]+', '-', text)}")
    return "_".join(parts)


def _axis_lines(ctx: ErrorContext) -> ErrorContext:
    """``ctx`` without the lines of the sweep's list entries (``sweep.AXIS[i]``): a point's
    checks never name them, and an axis of 10,000 values would otherwise be copied for
    every point checked."""
    keys = {k: v for k, v in ctx.keys.items() if not (k.startswith("sweep.") and k.endswith("]"))}
    values = {
        k: v for k, v in ctx.values.items() if not (k.startswith("sweep.") and k.endswith("]"))
    }
    return ErrorContext(ctx.source, keys, values)


@dataclass(frozen=True)
class PointTable(Sequence[SweepPoint]):
    """The points of a sweep, in its design's row order, each built on demand.

    ``rows`` holds a designed sweep's level indices, one row per point, flat (``len(axes)``
    a point: 4 bytes each, and no numpy to import for ``validate``); None is the full
    factorial (first axis slowest), whose rows are computed. ``numbered``: labels are
    ``point-001`` ... (a design whose axis-value labels would be too long).
    """

    template: dict[str, Any]  # the file's data without sweep and design
    axes: dict[str, list[Any]]
    rows: array[int] | None = None
    numbered: bool = False
    ctx: ErrorContext = field(default_factory=lambda: ErrorContext("<scenario>"), compare=False)

    def __len__(self) -> int:
        if self.rows is not None:
            return len(self.rows) // len(self.axes)
        return math.prod(len(v) for v in self.axes.values())

    def levels(self, index: int) -> tuple[int, ...]:
        """Point ``index``'s level index on every axis (0: the axis's first value)."""
        if not 0 <= index < len(self):
            raise IndexError(index)
        if self.rows is not None:
            width = len(self.axes)
            return tuple(self.rows[index * width : (index + 1) * width])
        out = []
        for values in reversed(list(self.axes.values())):
            index, level = divmod(index, len(values))
            out.append(level)
        return tuple(reversed(out))

    def assignment(self, index: int) -> dict[str, Any]:
        """Point ``index``'s value on every axis."""
        levels = self.levels(index)
        return {
            axis: values[lv] for (axis, values), lv in zip(self.axes.items(), levels, strict=True)
        }

    def label(self, index: int) -> str:
        """Point ``index``'s label (a folder-safe name, unique in the sweep)."""
        if self.numbered:
            return f"point-{index + 1:0{len(str(len(self)))}d}"
        return label_of(self.assignment(index))

    def labels(self) -> Iterator[str]:
        """Every point's label, in order, lazily."""
        return (self.label(i) for i in range(len(self)))

    def scenario(self, index: int) -> Scenario:
        """Point ``index``'s whole scenario, checked as such."""
        return build_point(self.template, self.assignment(index), self.ctx, self.label(index))

    @overload
    def __getitem__(self, index: int) -> SweepPoint: ...

    @overload
    def __getitem__(self, index: slice) -> list[SweepPoint]: ...

    def __getitem__(self, index: int | slice) -> SweepPoint | list[SweepPoint]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        assignment = self.assignment(index)
        label = self.label(index)
        return SweepPoint(
            assignment, label, build_point(self.template, assignment, self.ctx, label)
        )

    def with_template(self, **changes: Any) -> PointTable:
        """The same points with top-level template keys (``games``, ``seed``) replaced."""
        return replace(self, template={**self.template, **changes})

    def kinds(self) -> Iterator[int]:
        """The first point of each distinct combination of the cross-checked axes' values
        (see the module doc), in order: a sweep without such an axis has one kind."""
        cross = [j for j, axis in enumerate(self.axes) if axis in CROSS_CHECKED_AXES]
        seen: set[tuple[int, ...]] = set()
        for i in range(len(self)):
            levels = self.levels(i)
            kind = tuple(levels[j] for j in cross)
            if kind not in seen:
                seen.add(kind)
                yield i

    def check_every_kind(self) -> int:
        """Check one point per distinct combination of the cross-checked axes (see the module
        doc); raises the first point's :class:`ScenarioError`. The number checked."""
        checked = 0
        for i in self.kinds():
            self.scenario(i)
            checked += 1
        return checked


def point_table(
    data: dict[str, Any], axes: dict[str, list[Any]], rows: array[int] | None, ctx: ErrorContext
) -> PointTable:
    """The checked points of the sweep ``axes`` of the file ``data`` (``rows``: a design's
    level indices; None: the full factorial)."""
    template = {k: v for k, v in data.items() if k not in ("sweep", "design")}
    table = PointTable(template, dict(axes), rows, False, _axis_lines(ctx))
    if rows is not None and max(len(label) for label in table.labels()) > MAX_LABEL:
        table = replace(table, numbered=True)  # a folder name's limit
    table.check_every_kind()
    return table


def _one_seat(point: dict, axis: str, value: Any, ctx: ErrorContext, label: str) -> list[dict]:
    """The point's strategies entries with one seat's strategy or knob set (the axis
    ``strategies.<seat>.<key>``); a single entry is first copied to every seat."""
    seat, key = seat_axis(axis) or (0, "")
    entries = [dict(entry) for entry in point.get("strategies", [{}])]
    players = point.get("players", DEFAULTS["players"])
    if len(entries) == 1 and isinstance(players, int):
        entries = [dict(entries[0]) for _ in range(players)]
    if seat >= len(entries):
        message = (
            f"seat {seat}, but the table has {len(entries)} seats (0 to {len(entries) - 1}) "
            f"(sweep point {label})"
        )
        line = ctx.keys.get(f"sweep.{axis}")
        raise ScenarioError(message, file=ctx.source, line=line, key=f"sweep.{axis}")
    entries[seat][key] = value
    return entries


def build_point(
    template: dict[str, Any], assignment: dict[str, Any], ctx: ErrorContext, label: str
) -> Scenario:
    """One sweep point's scenario: the file with the point's values written in, checked as a
    whole."""
    point = copy.deepcopy(template)
    point_ctx = ErrorContext(ctx.source, dict(ctx.keys), dict(ctx.values))
    for axis, value in assignment.items():
        section, _, key = axis.partition(".")
        if axis == "players":
            point["players"] = value
        elif section == "deck":  # deck.decks, the only deck axis
            point["deck"] = {**point.get("deck", {}), key: value}
        elif section == "rules":
            point["rules"] = {**point.get("rules", {}), key: value}
        elif seat_axis(axis) is not None:
            point["strategies"] = _one_seat(point, axis, value, ctx, label)
        else:
            point["strategies"] = [{**entry, key: value} for entry in point.get("strategies", [{}])]
        if f"sweep.{axis}" in ctx.keys:
            point_ctx.keys[axis] = point_ctx.values[axis] = ctx.keys[f"sweep.{axis}"]
    try:
        fields = check_fields(point, point_ctx, None, False)
        check_table(fields, point, point_ctx)
    except ScenarioError as exc:
        point_key = f"sweep.{exc.key}" if exc.key in assignment else exc.key
        message = f"{exc.detail} (sweep point {label})"
        raise ScenarioError(message, file=ctx.source, line=exc.line, key=point_key) from None
    return Scenario(**fields, sweep=None, source=ctx.source)

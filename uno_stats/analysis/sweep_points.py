"""A sweep as the effects analysis reads it: its axes, and each point's values and rows.

The one place that knows how a sweep is stored (one dataset whose points read as runs,
each with a manifest naming its axis values; or a folder of point runs of the earlier
layout), so that a change of storage changes :func:`sweep_of` alone. Everything downstream
sees :class:`Sweep` and :class:`SweepPoint`. What the analysis needs of every point is read
in one grouped query over :meth:`Sweep.point_rows` (a ``point`` column) and split by point
(:func:`by_point`): a sweep dataset's parts are scanned once, not once per point.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from uno_stats.errors import ResultsError
from uno_stats.store.parts import POINT
from uno_stats.store.runs import points_pieces, points_scan

if TYPE_CHECKING:
    from uno_stats.store.runs import Run

DEAL_AXES: tuple[str, ...] = ("players", "deck.decks", "rules.hand_size")
"""Axes that change the deal itself: points that differ in them do not replay the same deals."""


@dataclass(frozen=True)
class SweepPoint:
    """One point: its label, its value on every axis, how its games were drawn, its rows.

    ``deal``: the seed, game count, players, decks and hand size. Points with the same
    ``deal`` replay the same deals game by game (game k of each starts from the same
    shuffle), so their games pair up by index.
    """

    label: str
    values: dict[str, Any]
    seed: int
    games: int
    players: int
    deal: tuple[Any, ...]
    rows: pl.LazyFrame
    columns: frozenset[str] | None = None  # None: read from ``rows``

    @property
    def column_names(self) -> frozenset[str]:
        """The point's result columns."""
        if self.columns is not None:
            return self.columns
        return frozenset(self.rows.collect_schema().names())


@dataclass(frozen=True)
class Sweep:
    """A sweep's name, its axes in the file's order (values in order), its points and, for
    a designed sweep (a fractional factorial), the design's record (kind, resolution,
    generators, points) as the sweep folder's manifest keeps it."""

    name: str
    axes: dict[str, tuple[Any, ...]]
    points: tuple[SweepPoint, ...]
    design: dict[str, Any] | None = None  # the sweep manifest's design record; None: full
    frame: pl.LazyFrame | None = None  # every point's rows with a point column; None: built
    pieces: tuple[pl.LazyFrame, ...] | None = None  # ``frame`` a part at a time; None: built

    @property
    def seed(self) -> int:
        """The seed of the first point (every point of a sweep shares it)."""
        return self.points[0].seed

    def point_rows(self) -> pl.LazyFrame:
        """Every point's rows in one frame, with a ``point`` column (u32): the point's
        position in :attr:`points`."""
        if self.frame is not None:
            return self.frame
        return pl.concat(self._point_frames(), how="diagonal_relaxed")

    def _point_frames(self) -> list[pl.LazyFrame]:
        return [
            p.rows.with_columns(pl.lit(i, pl.UInt32).alias(POINT))
            for i, p in enumerate(self.points)
        ]

    def row_pieces(self) -> list[pl.LazyFrame]:
        """:meth:`point_rows` as pieces in its row order (a part of the dataset each, or a
        point each), each with all of its columns and their types (a column a piece lacks:
        nulls), so that a reader can reduce one piece at a time to what the whole gives."""
        schema = self.point_rows().collect_schema()
        if self.frame is None:
            pieces = self._point_frames()
        else:
            pieces = list(self.pieces) if self.pieces is not None else [self.frame]
        out = []
        for piece in pieces:
            have = set(piece.collect_schema().names())
            out.append(
                piece.select(
                    pl.col(c).cast(t) if c in have else pl.lit(None, t).alias(c)
                    for c, t in schema.items()
                )
            )
        return out


def by_point(frame: pl.DataFrame, points: int) -> list[pl.DataFrame]:
    """``frame`` (a ``point`` column, rows of one point in the order wanted) split into one
    frame per point position ``0 .. points - 1``, without the ``point`` column; a point
    without a row gets an empty frame."""
    parts = frame.partition_by(POINT, as_dict=True, include_key=False, maintain_order=True)
    empty = frame.drop(POINT).clear()
    return [parts.get((i,), empty) for i in range(points)]


def sweep_of(runs: Sequence[Run]) -> Sweep:
    """The sweep whose point runs are ``runs`` (as opened from one sweep folder).

    Raises :class:`ResultsError` when the runs are not the points of one sweep.
    """
    if not runs:
        raise ResultsError("no runs: effects needs the results folder of a sweep")
    names = {run.manifest.name for run in runs}
    if len(names) != 1:
        raise ResultsError(
            "effects reads one sweep at a time; these runs belong to " + ", ".join(sorted(names))
        )
    name = names.pop()
    axes: dict[str, list[Any]] = {}
    points = []
    schemas: dict[Path, frozenset[str]] = {}  # the points of one dataset share its columns
    for run in runs:
        m = run.manifest
        if m.tournament is not None:
            raise ResultsError(f"{name}: a tournament, not a sweep: use summary or compare")
        if not m.sweep_assignment:
            raise ResultsError(f"{run.path}: not a sweep point (no sweep axes in its manifest)")
        for axis, value in m.sweep_assignment.items():
            seen = axes.setdefault(axis, [])
            if value not in seen:
                seen.append(value)
        scenario = run.scenario
        decks = int((scenario.deck or {}).get("decks", 1))
        deal = (m.seed, m.games, scenario.players, decks, scenario.rules.get("hand_size"))
        points.append(
            SweepPoint(
                label=m.sweep_label or run.path.name,
                values=dict(m.sweep_assignment),
                seed=m.seed,
                games=m.games,
                players=scenario.players,
                deal=deal,
                rows=run.scan(),
                columns=_columns(run, schemas),
            )
        )
    if any(set(p.values) != set(axes) for p in points):
        raise ResultsError(f"{name}: the points do not all name the same sweep axes")
    listed, design = _listed(runs[0])
    if listed is not None and set(listed) == set(axes):
        # the file's order of each axis's values (the first value is the baseline level)
        axes = {a: [v for v in listed[a] if v in axes[a]] for a in listed}
    values = {axis: tuple(v) for axis, v in axes.items()}
    pieces = tuple(points_pieces(runs))
    return Sweep(name, values, tuple(points), design, points_scan(runs), pieces)


def _columns(run: Run, schemas: dict[Path, frozenset[str]]) -> frozenset[str]:
    """The result columns of ``run``, read once per sweep dataset (a point of the earlier
    per-point layout: its own)."""
    if run.folder not in schemas:
        schemas[run.folder] = frozenset(run.scan().collect_schema().names())
    return schemas[run.folder]


def _listed(run: Run) -> tuple[dict[str, list[Any]] | None, dict[str, Any] | None]:
    """The axes as the sweep folder's manifest lists them, and its design record (None and
    None without a sweep manifest). A point of a sweep dataset names its folder; a point
    folder of the earlier per-point layout lies in it."""
    from uno_stats.store.manifest import (
        MANIFEST,
        PointFoldersManifest,
        SweepManifest,
        read_manifest,
    )

    parent = run.folder if run.folder != run.path else run.path.parent
    if not (parent / MANIFEST).exists():
        return None, None
    try:
        top = read_manifest(parent)
    except ResultsError:
        return None, None
    if not isinstance(top, SweepManifest | PointFoldersManifest):
        return None, None
    return dict(top.axes), getattr(top, "design", None)

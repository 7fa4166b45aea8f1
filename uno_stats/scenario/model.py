"""What a loaded scenario is: :class:`Scenario` (a run's, or a sweep's template and points)
and :class:`SweepPoint`. Built and checked by :mod:`uno_stats.scenario.load`; a sweep's points
are built on demand by :mod:`uno_stats.scenario.points`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from uno_stats.scenario.designs import Design


@dataclass(frozen=True)
class SweepPoint:
    """One point of a sweep: its axis values, a folder-safe label and its scenario."""

    assignment: dict[str, Any]
    label: str
    scenario: Scenario


@dataclass(frozen=True)
class Scenario:
    """A resolved scenario: every rule key and every seat's knobs have a value.

    With a sweep, the top-level fields are the file's template and each of
    :meth:`sweep_points` is a whole scenario, checked as such (the template alone may rely on
    the sweep, e.g. a ``match`` under ``draw-until-playable`` with a ``rules.scoring`` axis).
    A ``tournament`` expands the same way into one point per balanced seating, or with
    ``seating: random`` one point per table of strategies (:mod:`uno_stats.scenario.seatings`).
    """

    name: str
    description: str
    players: int
    games: int
    seed: int
    preset: str
    rules: dict[str, Any]
    seats: tuple[dict[str, Any], ...]
    match_target: int | None
    sweep: dict[str, list] | None
    source: str | None
    tournament: tuple[str, ...] | None = None
    deck: dict[str, Any] | None = None  # RULES.md S19; None: one classic deck
    design: dict[str, Any] | None = None  # SCENARIO.md design; None: the full factorial
    _points: Sequence[SweepPoint] = field(default=(), repr=False, compare=False)
    _given_rules: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The resolved scenario in the file's shape, JSON-serialisable; reloadable as is.

        ``strategies`` is a single entry when every seat is the same; ``match`` and ``sweep``
        appear only when set, ``deck`` only for a deck other than the classic one. Under a
        ``rules.preset`` sweep, ``rules`` holds only the keys the file set, so that each point
        still takes its own preset's values.
        """
        seats = [dict(seat) for seat in self.seats]
        rules = self.rules
        if self.sweep is not None and "rules.preset" in self.sweep:
            rules = {key: value for key, value in rules.items() if key in self._given_rules}
        out: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "rules": {"preset": self.preset, **rules},
            # only a deck other than the classic one: older folders keep their config hash
            **({"deck": copy.deepcopy(self.deck)} if self.deck is not None else {}),
            "strategies": seats[:1] if all(s == seats[0] for s in seats) else seats,
        }
        if self.match_target is not None:
            out["match"] = {"target": self.match_target}
        if self.sweep is not None:
            out["sweep"] = {axis: list(values) for axis, values in self.sweep.items()}
        if self.design is not None:  # only when not full: older folders keep their hash
            out["design"] = dict(self.design)
        if self.tournament is not None:
            out["tournament"] = list(self.tournament)
        return out

    def sweep_points(self) -> list[SweepPoint]:
        """One resolved scenario per sweep point or tournament rotation: a sweep's points in
        its design's row order (the full factorial: first axis slowest).

        [] without a sweep or tournament. Builds every point: a large sweep's runner reads
        :meth:`point_table` instead.
        """
        return list(self._points)

    def point_table(self) -> Sequence[SweepPoint]:
        """The sweep's points (or a tournament's rotations), each built when read: a sweep's
        is a :class:`~uno_stats.scenario.points.PointTable`."""
        return self._points

    @property
    def point_count(self) -> int:
        """Sweep points or tournament rotations (0 without either)."""
        return len(self._points)

    def point_labels(self) -> Iterator[str]:
        """Every point's label, in order, without building the points' scenarios."""
        labels = getattr(self._points, "labels", None)  # a PointTable's own, lazy
        return labels() if labels is not None else (p.label for p in self._points)

    def point_kinds(self) -> list[Scenario]:
        """One point's scenario per combination of the axes that checks across keys read
        (:data:`~uno_stats.scenario.points.CROSS_CHECKED_AXES`: players, decks, preset,
        scoring, ...; every rotation of a tournament): whichever player count, deck or
        scoring a point has, one of these has it too. [] without a sweep or tournament."""
        kinds = getattr(self._points, "kinds", None)  # a PointTable's own
        if kinds is None:
            return [p.scenario for p in self._points]
        return [self._points.scenario(i) for i in kinds()]  # type: ignore[attr-defined]

    def sweep_design(self) -> Design | None:
        """The sweep's design (:mod:`uno_stats.scenario.designs`; it needs numpy); None without a
        sweep. A random design's rows are its points' level indices."""
        from uno_stats.scenario import designs

        if self.sweep is None:
            return None
        factors, sizes = list(self.sweep), [len(v) for v in self.sweep.values()]
        spec = self.design or {"type": "full"}
        if spec["type"] == "fractional":
            return designs.fractional_design(factors, spec["resolution"])
        if spec["type"] == "random":
            return designs.random_design(factors, sizes, spec["points"], spec["seed"])
        return designs.full_design(factors, sizes)

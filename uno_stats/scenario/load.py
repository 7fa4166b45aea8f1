"""Scenario files (SCENARIO.md): load them, build a :class:`Scenario`, and expand sweeps.

Every problem raises :class:`ScenarioError` naming the file, the 1-based line, the dotted key
and what is allowed. A loaded :class:`Scenario` is fully valid, sweep points included: each
key is checked by :mod:`uno_stats.scenario.fields`, and each sweep point or tournament
rotation (:mod:`uno_stats.scenario.seatings`) is checked again as a whole scenario here.

YAML is read by :mod:`uno_stats.scenario.reader` (YAML 1.2 booleans and exponents, no
anchors or aliases, bounded size and nesting); the limits are in :mod:`uno_stats.limits`.
"""

from __future__ import annotations

import copy
import itertools
import re
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import yaml

from uno_stats.errors import ScenarioError
from uno_stats.limits import MAX_FILE_BYTES, MAX_GAMES, MAX_SEED
from uno_stats.scenario.checks import ErrorContext, int_check, show_value
from uno_stats.scenario.fields import (
    DEFAULTS,
    check_design,
    check_fields,
    check_sweep,
    check_table,
    check_tournament,
    seat_axis,
)
from uno_stats.scenario.reader import MAP_TAG, SEQ_TAG, LimitError, Loader, read_text
from uno_stats.scenario.seatings import balanced_seatings, random_seating_tables

if TYPE_CHECKING:
    from uno_stats.scenario.designs import Design


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
    _points: tuple[SweepPoint, ...] = field(default=(), repr=False, compare=False)
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

        [] without a sweep or tournament.
        """
        return list(self._points)

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


@dataclass(frozen=True)
class SweepPoint:
    """One point of a sweep: its axis values, a folder-safe label and its scenario."""

    assignment: dict[str, Any]
    label: str
    scenario: Scenario


def load_scenario(path: str | Path) -> Scenario:
    """Load and validate the scenario file at ``path``; raises :class:`ScenarioError`."""
    source = str(path)
    return parse_scenario(read_text(path), source)


def parse_scenario(text: str, source: str = "<string>") -> Scenario:
    """Validate scenario YAML ``text``; ``source`` names it in errors and in ``Scenario.source``."""
    ctx = ErrorContext(source)
    if len(text) > MAX_FILE_BYTES:
        ctx.fail(None, f"larger than {MAX_FILE_BYTES:,} characters: is this a scenario file?")
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        data = None if node is None else _to_python(node, loader, "", ctx)
    except LimitError as exc:
        ctx.fail(None, f"invalid YAML: {exc}", exc.line)
    except yaml.YAMLError as exc:
        _yaml_error(exc, ctx)
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        ctx.fail(None, f"invalid YAML: {exc}")
    finally:
        loader.dispose()
    if node is None:
        ctx.fail(None, "the file is empty: a scenario needs at least a name")
    return _build(data, ctx, node.start_mark.line + 1)


def scenario_from_dict(data: dict, source: str = "<dict>") -> Scenario:
    """Validate an already-loaded mapping (errors carry no line numbers)."""
    return _build(data, ErrorContext(source), None)


def with_overrides(s: Scenario, *, games: int | None = None, seed: int | None = None) -> Scenario:
    """``s`` (and every sweep point) with ``games`` and/or ``seed`` replaced, as the CLI sets."""
    ctx = ErrorContext(s.source or "<scenario>")
    changes: dict[str, Any] = {}
    if games is not None:
        changes["games"] = ctx.checked("games", int_check(1, MAX_GAMES), games)
    if seed is not None:
        changes["seed"] = ctx.checked("seed", int_check(0, MAX_SEED), seed)
    if not changes:
        return s
    points = tuple(replace(p, scenario=replace(p.scenario, **changes)) for p in s._points)
    return replace(s, **changes, _points=points)


def _yaml_error(exc: yaml.YAMLError, ctx: ErrorContext) -> NoReturn:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or str(exc)
    context = getattr(exc, "context", None)
    if context and problem != context and not context.startswith("while "):
        problem = f"{context}, {problem}"  # e.g. "expected a single document ..., but found ..."
    ctx.fail(None, f"invalid YAML: {problem}", mark.line + 1 if mark else None)


def _to_python(node: yaml.Node, loader: Loader, path: str, ctx: ErrorContext) -> Any:
    """Build plain values from ``node``; record key and value lines; reject duplicate keys."""
    if not isinstance(node, yaml.ScalarNode) and node.tag not in (MAP_TAG, SEQ_TAG):
        ctx.fail(
            path or None, f"invalid YAML: tag {node.tag} is not allowed", node.start_mark.line + 1
        )
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                ctx.fail(path or None, "keys must be plain names", key_node.start_mark.line + 1)
            key = key_node.value
            sub = f"{path}.{key}" if path else key
            line = key_node.start_mark.line + 1
            if key in out:
                ctx.fail(sub, f"duplicate key (first given on line {ctx.keys.get(sub)})", line)
            ctx.keys[sub] = line
            ctx.values[sub] = value_node.start_mark.line + 1
            out[key] = _to_python(value_node, loader, sub, ctx)
        return out
    if isinstance(node, yaml.SequenceNode):
        items = []
        for index, item in enumerate(node.value):
            sub = f"{path}[{index}]"
            ctx.keys[sub] = ctx.values[sub] = item.start_mark.line + 1
            items.append(_to_python(item, loader, sub, ctx))
        return items
    return loader.construct_object(node, deep=True)


def _rotation_points(
    data: dict, names: tuple[str, ...], players: int, ctx: ErrorContext
) -> tuple[SweepPoint, ...]:
    """Seating r puts ``names[balanced_seatings(...)[r][s]]`` at seat s; knobs are shared.

    With ``rules.seating: random`` the points are the tables of
    :func:`uno_stats.scenario.seatings.random_seating_tables`, each seated at random per game.
    """
    template = {k: v for k, v in data.items() if k != "tournament"}
    entry = (data.get("strategies") or [{}])[0]
    points = []
    rules = data.get("rules")
    random = isinstance(rules, dict) and rules.get("seating") == "random"
    design = random_seating_tables if random else balanced_seatings
    for r, seating in enumerate(design(len(names), players)):
        point = copy.deepcopy(template)
        point["strategies"] = [{**entry, "strategy": names[i]} for i in seating]
        fields = check_fields(
            point, ErrorContext(ctx.source, dict(ctx.keys), dict(ctx.values)), None, False
        )
        assignment = {"rotation": r}
        scenario = Scenario(**fields, sweep=None, source=ctx.source)
        points.append(SweepPoint(assignment, _label(assignment), scenario))
    return tuple(points)


def _build(data: Any, ctx: ErrorContext, top_line: int | None) -> Scenario:
    """The scenario of ``data``; with a sweep, every point is checked across keys instead."""
    sweep = data.get("sweep") if isinstance(data, dict) else None
    sweeps_players = isinstance(sweep, dict) and "players" in sweep
    # Every independent check runs, so that one load reports every problem of the file
    no_fields: dict[str, Any] = {}
    fields = ctx.attempt(partial(check_fields, data, ctx, top_line, sweeps_players), no_fields)
    if not isinstance(data, dict):
        ctx.raise_errors()
    names = ctx.attempt(partial(check_tournament, data, ctx), None)
    before = len(ctx.errors)
    spec = ctx.attempt(partial(check_design, data, ctx), None)
    # a design's own points are counted; a design in error adds no product error
    product = spec is None and len(ctx.errors) == before
    sweep_check = partial(check_sweep, data, ctx, product)
    axes = None if names is not None else ctx.attempt(sweep_check, None)
    ctx.raise_errors()
    if names is not None:
        check_table(fields, data, ctx)
        points = _rotation_points(data, names, fields["players"], ctx)
        return Scenario(**fields, sweep=None, source=ctx.source, tournament=names, _points=points)
    if axes is None:
        check_table(fields, data, ctx)
        return Scenario(**fields, sweep=None, source=ctx.source)
    assignments = _assignments(axes, spec, ctx)
    labels = [_label(a) for a in assignments]
    if spec is not None and max(map(len, labels)) > MAX_LABEL:  # a folder name's limit
        labels = [f"point-{i + 1:0{len(str(len(labels)))}d}" for i in range(len(labels))]
    points = tuple(
        _point(data, a, ctx, label) for a, label in zip(assignments, labels, strict=True)
    )
    given = frozenset(data.get("rules", {})) - {"preset"}
    return Scenario(
        **fields, sweep=axes, source=ctx.source, design=spec, _points=points, _given_rules=given
    )


MAX_LABEL = 200
"""A design's point labels are ``point-01`` ... when an axis-value label would be longer."""


def _assignments(
    axes: dict[str, list], spec: dict[str, Any] | None, ctx: ErrorContext
) -> list[dict[str, Any]]:
    """The sweep's points as axis values, in the design's row order."""
    if spec is None:
        combos = itertools.product(*axes.values())
        return [dict(zip(axes, combo, strict=True)) for combo in combos]
    from uno_stats.scenario import designs

    sizes = [len(values) for values in axes.values()]
    try:
        if spec["type"] == "fractional":
            wrong = [f"{axis} has {len(v)}" for axis, v in axes.items() if len(v) != 2]
            if wrong:
                message = f"fractional needs exactly two values on every sweep axis: {wrong[0]}"
                ctx.fail("design.type", f"{message} (use full or random)")
            rows = designs.fractional_rows(len(axes), spec["resolution"])
        else:
            rows = designs.random_rows(sizes, spec["points"], spec["seed"])
    except designs.DesignError as exc:
        key = "design.resolution" if spec["type"] == "fractional" else "design.points"
        ctx.fail(key, str(exc), ctx.values.get(key))
    values = list(axes.values())
    return [
        {axis: values[j][level] for j, (axis, level) in enumerate(zip(axes, row, strict=True))}
        for row in rows
    ]


def _label(assignment: dict[str, Any]) -> str:
    """``axis-value`` parts joined by ``_``; unique: an axis's values are distinct, none has ``_``."""
    parts = []
    for axis, value in assignment.items():
        text = value if isinstance(value, str) else show_value(value)
        parts.append(f"{axis.rpartition('.')[2]}-{re.sub(r'[^A-Za-z0-9.-]+', '-', text)}")
    return "_".join(parts)


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


def _point(data: dict, assignment: dict[str, Any], ctx: ErrorContext, label: str) -> SweepPoint:
    """One sweep point: the file with the point's values written in, checked as a whole."""
    point = copy.deepcopy({k: v for k, v in data.items() if k not in ("sweep", "design")})
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
    return SweepPoint(dict(assignment), label, Scenario(**fields, sweep=None, source=ctx.source))

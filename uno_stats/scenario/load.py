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
from array import array
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, NoReturn

import yaml

from uno_stats.limits import MAX_FILE_BYTES, MAX_GAMES, MAX_SEED
from uno_stats.scenario.checks import ErrorContext, int_check
from uno_stats.scenario.fields import (
    check_design,
    check_fields,
    check_sweep,
    check_table,
    check_tournament,
)
from uno_stats.scenario.model import Scenario, SweepPoint
from uno_stats.scenario.points import PointTable, label_of, point_table
from uno_stats.scenario.reader import MAP_TAG, SEQ_TAG, LimitError, Loader, read_text
from uno_stats.scenario.seatings import balanced_seatings, random_seating_tables

__all__ = ["Scenario", "SweepPoint", "load_scenario", "parse_scenario", "scenario_from_dict"]


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
    points: Sequence[SweepPoint]
    if isinstance(s._points, PointTable):
        points = s._points.with_template(**changes)
    else:
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
        points.append(SweepPoint(assignment, label_of(assignment), scenario))
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
        rotations = _rotation_points(data, names, fields["players"], ctx)
        return Scenario(
            **fields, sweep=None, source=ctx.source, tournament=names, _points=rotations
        )
    if axes is None:
        check_table(fields, data, ctx)
        return Scenario(**fields, sweep=None, source=ctx.source)
    points = point_table(data, axes, _design_rows(axes, spec, ctx), ctx)
    given = frozenset(data.get("rules", {})) - {"preset"}
    return Scenario(
        **fields, sweep=axes, source=ctx.source, design=spec, _points=points, _given_rules=given
    )


def _design_rows(
    axes: dict[str, list], spec: dict[str, Any] | None, ctx: ErrorContext
) -> array[int] | None:
    """A designed sweep's points as rows of level indices, in the design's order (None: the
    full factorial, whose rows :class:`PointTable` computes)."""
    if spec is None:
        return None
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
    return array("i", itertools.chain.from_iterable(rows))  # flat: len(axes) a point

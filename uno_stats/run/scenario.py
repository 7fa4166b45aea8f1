"""Scenario files (SCENARIO.md): load, validate and resolve them, and expand sweeps.

Every problem raises :class:`ScenarioError` naming the file, the 1-based line, the dotted key
and what is allowed. A loaded :class:`Scenario` is fully valid, sweep points included.

YAML is read with a ``SafeLoader`` whose implicit types follow YAML 1.2 for booleans and
exponents: only ``true``/``false`` are booleans (``yes``, ``no``, ``on``, ``off`` stay text, so
they are reported instead of silently becoming booleans) and ``1e-3`` is a float.
"""

from __future__ import annotations

import copy
import difflib
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, NoReturn

import yaml

from uno_stats.engine.rules import PRESET_NAMES, RULES_BY_KEY, RuleSpec, deck_size, resolve_rules
from uno_stats.engine.strategy_table import KNOBS_BY_KEY, STRATEGIES_BY_NAME, KnobSpec, default_seat
from uno_stats.errors import ScenarioError
from uno_stats.run.seatings import balanced_seatings

_SECTIONS = ("rules", "strategies", "match", "sweep", "tournament")
TOP_KEYS = ("name", "description", "players", "games", "seed", *_SECTIONS)
DEFAULTS: dict[str, Any] = {"players": 4, "games": 10_000, "seed": 0, "preset": "mattel-2022"}
MATCH_TARGET_DEFAULT = 500
SWEEP_AXES: tuple[str, ...] = (
    "players",
    "rules.preset",
    *(f"rules.{key}" for key in RULES_BY_KEY),
    "strategies.strategy",
    *(f"strategies.{key}" for key in KNOBS_BY_KEY),
)
_NAME_RE = re.compile(r"[a-z0-9-]+")
_TOP_HINTS = {"target": "not a top-level key: the match target is match.target"}
_TOP_HINTS.update({k: f"not a top-level key: write it under rules: ({k})" for k in RULES_BY_KEY})
_TOP_HINTS["preset"] = "not a top-level key: write it under rules: (preset)"
for _knob in ("strategy", *KNOBS_BY_KEY):
    _TOP_HINTS[_knob] = f"not a top-level key: write it in a strategies entry ({_knob})"


class _Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans (true/false only) and exponent floats such as 1e-3."""


_BOOL_TAG, _MAP_TAG, _SEQ_TAG = (f"tag:yaml.org,2002:{t}" for t in ("bool", "map", "seq"))
_Loader.yaml_implicit_resolvers = {
    first: [r for r in resolvers if r[0] != _BOOL_TAG]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    _BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float", re.compile(r"^[-+]?[0-9]+[eE][-+]?[0-9]+$"), list("-+0123456789")
)


@dataclass(frozen=True)
class Scenario:
    """A resolved scenario: every rule key and every seat's knobs have a value.

    With a sweep, the top-level fields are the file's template and each of
    :meth:`sweep_points` is a whole scenario, checked as such (the template alone may rely on
    the sweep, e.g. a ``match`` under ``draw-until-playable`` with a ``rules.scoring`` axis).
    A ``tournament`` expands the same way into one point per balanced seating
    (:mod:`uno_stats.run.seatings`).
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
    _points: tuple[SweepPoint, ...] = field(default=(), repr=False, compare=False)
    _given_rules: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The resolved scenario in the file's shape, JSON-serialisable; reloadable as is.

        ``strategies`` is a single entry when every seat is the same; ``match`` and ``sweep``
        appear only when set. Under a ``rules.preset`` sweep, ``rules`` holds only the keys the
        file set, so that each point still takes its own preset's values.
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
            "strategies": seats[:1] if all(s == seats[0] for s in seats) else seats,
        }
        if self.match_target is not None:
            out["match"] = {"target": self.match_target}
        if self.sweep is not None:
            out["sweep"] = {axis: list(values) for axis, values in self.sweep.items()}
        if self.tournament is not None:
            out["tournament"] = list(self.tournament)
        return out

    def sweep_points(self) -> list[SweepPoint]:
        """One resolved scenario per sweep point (first axis slowest) or tournament rotation.

        [] without a sweep or tournament.
        """
        return list(self._points)


@dataclass(frozen=True)
class SweepPoint:
    """One point of a sweep: its axis values, a folder-safe label and its scenario."""

    assignment: dict[str, Any]
    label: str
    scenario: Scenario


_Check = Callable[[Any], Any]


class _Invalid(Exception):
    """A value check failed; the message says what is allowed."""


@dataclass
class _Ctx:
    """Where errors point: the source name and the line of each dotted key and value."""

    source: str
    keys: dict[str, int] = field(default_factory=dict)
    values: dict[str, int] = field(default_factory=dict)

    def fail(self, key: str | None, message: str, line: int | None = None) -> NoReturn:
        if line is None and key is not None:
            line = self.keys.get(key)
        key = key.replace("\n", "\\n") if key else key
        raise ScenarioError(message.replace("\n", " "), file=self.source, line=line, key=key)

    def bad_value(self, key: str, value: Any, allowed: str, line: int | None = None) -> NoReturn:
        line = line if line is not None else self.values.get(key)
        self.fail(key, f"{_show(value)} is not allowed: {allowed}", line)

    def checked(self, key: str, check: _Check, value: Any, line: int | None = None) -> Any:
        """``check(value)``, or an error at ``key`` (value line unless ``line``) saying why."""
        try:
            return check(value)
        except _Invalid as exc:
            self.fail(key, str(exc), line if line is not None else self.values.get(key))


def load_scenario(path: str | Path) -> Scenario:
    """Load and validate the scenario file at ``path``; raises :class:`ScenarioError`."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError("file not found", file=source) from None
    except UnicodeDecodeError:
        raise ScenarioError("cannot read file: not UTF-8 text", file=source) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read file: {exc.strerror}", file=source) from None
    return parse_scenario(text, source)


def parse_scenario(text: str, source: str = "<string>") -> Scenario:
    """Validate scenario YAML ``text``; ``source`` names it in errors and in ``Scenario.source``."""
    ctx = _Ctx(source)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = None if node is None else _to_python(node, loader, "", ctx)
    except yaml.YAMLError as exc:
        _yaml_error(exc, ctx)
    except RecursionError:
        ctx.fail(None, "invalid YAML: an alias refers to itself")
    finally:
        loader.dispose()
    if node is None:
        ctx.fail(None, "the file is empty: a scenario needs at least a name")
    return _build(data, ctx, node.start_mark.line + 1)


def scenario_from_dict(data: dict, source: str = "<dict>") -> Scenario:
    """Validate an already-loaded mapping (errors carry no line numbers)."""
    return _build(data, _Ctx(source), None)


def with_overrides(s: Scenario, *, games: int | None = None, seed: int | None = None) -> Scenario:
    """``s`` (and every sweep point) with ``games`` and/or ``seed`` replaced, as the CLI sets."""
    ctx = _Ctx(s.source or "<scenario>")
    changes: dict[str, Any] = {}
    if games is not None:
        changes["games"] = ctx.checked("games", _int_check(1, None), games)
    if seed is not None:
        changes["seed"] = ctx.checked("seed", _int_check(0, None), seed)
    if not changes:
        return s
    points = tuple(replace(p, scenario=replace(p.scenario, **changes)) for p in s._points)
    return replace(s, **changes, _points=points)


def _yaml_error(exc: yaml.YAMLError, ctx: _Ctx) -> NoReturn:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or str(exc)
    context = getattr(exc, "context", None)
    if context and problem != context and not context.startswith("while "):
        problem = f"{context}, {problem}"  # e.g. "expected a single document ..., but found ..."
    ctx.fail(None, f"invalid YAML: {problem}", mark.line + 1 if mark else None)


def _to_python(node: yaml.Node, loader: _Loader, path: str, ctx: _Ctx) -> Any:
    """Build plain values from ``node``; record key and value lines; reject duplicate keys."""
    if not isinstance(node, yaml.ScalarNode) and node.tag not in (_MAP_TAG, _SEQ_TAG):
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


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return repr(value) if isinstance(value, str) else str(value)


def _did_you_mean(word: Any, choices: list[str]) -> str:
    close = difflib.get_close_matches(str(word), choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _int_check(low: int, high: int | None) -> Callable[[Any], int]:
    allowed = f"an integer from {low} to {high}" if high is not None else ""
    allowed = allowed or f"an integer of at least {low}"

    def check(value: Any) -> int:
        if type(value) is not int:
            raise _Invalid(f"{_show(value)} is not allowed: {allowed}")
        if value < low or (high is not None and value > high):
            raise _Invalid(f"{value} is out of range: {allowed}")
        return value

    return check


def _choice(value: Any, choices: tuple[Any, ...], allowed: str) -> Any:
    """``value`` if it equals a choice of the same type (so 1.0 and true are not 1)."""
    if any(type(value) is type(c) and value == c for c in choices):
        return value
    hint = _did_you_mean(value, [str(c) for c in choices]) if isinstance(value, str) else ""
    raise _Invalid(f"{_show(value)} is not allowed: {allowed}{hint}")


def _rule_value(spec: RuleSpec, value: Any) -> Any:
    if spec.kind == "int":
        return _int_check(spec.low, spec.high)(value)
    choices = (True, False) if spec.kind == "bool" else spec.choices
    return _choice(value, choices, spec.allowed())


def _knob_value(knob: KnobSpec, value: Any) -> Any:
    if knob.kind == "enum":
        return _choice(value, knob.choices, knob.allowed())
    if type(value) not in (int, float):
        raise _Invalid(f"{_show(value)} is not allowed: {knob.allowed()}")
    if not 0 <= value <= 1:  # also rejects nan
        raise _Invalid(f"{value} is out of range: {knob.allowed()}")
    return float(value)


_STRATEGY_NAMES = tuple(STRATEGIES_BY_NAME)
_strategy_name = partial(_choice, choices=_STRATEGY_NAMES, allowed=", ".join(_STRATEGY_NAMES))
_preset = partial(_choice, choices=PRESET_NAMES, allowed=", ".join(PRESET_NAMES))


def _axis_check(axis: str) -> _Check | None:
    """The check a sweep axis's values get, as if written in the file; None if unknown."""
    section, _, key = axis.partition(".")
    if axis == "players":
        return _int_check(2, 10)
    if section == "rules" and key == "preset":
        return _preset
    if section == "rules" and key in RULES_BY_KEY:
        return partial(_rule_value, RULES_BY_KEY[key])
    if section == "strategies" and key == "strategy":
        return _strategy_name
    if section == "strategies" and key in KNOBS_BY_KEY:
        return partial(_knob_value, KNOBS_BY_KEY[key])
    return None


def _mapping(value: Any, key: str, ctx: _Ctx, example: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        ctx.bad_value(key, value, f"a mapping such as {example}")
    return value


def _check_keys(mapping: dict, allowed: list[str], prefix: str, ctx: _Ctx, hints: dict) -> None:
    for key in mapping:
        if key in allowed:
            continue
        suggestion = _did_you_mean(key, allowed)
        message = f"unknown key{suggestion}" if suggestion else ""
        message = message or f"unknown key: allowed keys are {', '.join(allowed)}"
        ctx.fail(f"{prefix}{key}", hints.get(key, message))


def _name(data: dict, ctx: _Ctx) -> str:
    if "name" not in data:
        ctx.fail("name", "missing: every scenario needs a name such as stacking-on")
    name = data["name"]
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        ctx.bad_value("name", name, "lowercase letters, digits and '-', such as stacking-on")
    return name


def _rules(data: dict, ctx: _Ctx) -> tuple[str, dict[str, Any]]:
    raw = _mapping(data.get("rules", {}), "rules", ctx, "{preset: mattel-2022}")
    hints = {"target": "not a rule key: the match target is match.target (match: {target: 500})"}
    hints["players"] = "not a rule key: players is a top-level key"
    _check_keys(raw, ["preset", *RULES_BY_KEY], "rules.", ctx, hints)
    preset = DEFAULTS["preset"]
    if "preset" in raw:
        preset = ctx.checked("rules.preset", _preset, raw["preset"])
    overrides = {
        key: ctx.checked(f"rules.{key}", partial(_rule_value, RULES_BY_KEY[key]), value)
        for key, value in raw.items()
        if key != "preset"
    }
    return preset, resolve_rules(preset, overrides)


def _seat(entry: Any, key: str, ctx: _Ctx) -> dict[str, Any]:
    entry = _mapping(entry, key, ctx, "{strategy: random}")
    _check_keys(entry, ["strategy", *KNOBS_BY_KEY], f"{key}.", ctx, {})
    seat = default_seat()
    for knob, value in entry.items():
        check = _strategy_name if knob == "strategy" else partial(_knob_value, KNOBS_BY_KEY[knob])
        seat[knob] = ctx.checked(f"{key}.{knob}", check, value)
    return seat


def _seats(data: dict, players: int, ctx: _Ctx, sweeps_players: bool) -> tuple[dict, ...]:
    entries = data.get("strategies", [{}])
    if not isinstance(entries, list) or not entries:
        ctx.bad_value("strategies", entries, f"a list of 1 entry (every seat) or {players}")
    seats = [_seat(entry, f"strategies[{i}]", ctx) for i, entry in enumerate(entries)]
    if len(seats) == 1:
        return tuple(dict(seats[0]) for _ in range(players))
    if sweeps_players:
        message = f"cannot sweep players with {len(seats)} per-seat strategies: give one entry"
        ctx.fail("sweep.players", message)
    if len(seats) != players:
        allowed = f"1 entry (for every seat) or {players} (one per seat)"
        ctx.fail("strategies", f"{len(seats)} entries for {players} players: give {allowed}")
    return tuple(seats)


def _match_target(data: dict, ctx: _Ctx) -> int | None:
    if "match" not in data:
        return None
    raw = _mapping(data["match"], "match", ctx, "{target: 500}")
    _check_keys(raw, ["target"], "match.", ctx, {})
    if "target" not in raw:
        return MATCH_TARGET_DEFAULT
    return ctx.checked("match.target", _int_check(1, 100_000), raw["target"])


def _sweep(data: dict, ctx: _Ctx) -> dict[str, list] | None:
    if "sweep" not in data:
        return None
    raw = _mapping(data["sweep"], "sweep", ctx, "{players: [2, 4]}")
    if not raw:
        ctx.fail("sweep", "needs at least one axis, such as players: [2, 4]")
    axes: dict[str, list] = {}
    for axis, values in raw.items():
        key = f"sweep.{axis}"
        check = _axis_check(axis)
        if check is None:
            allowed = "players, rules.<rule key>, strategies.<knob> or strategies.strategy"
            ctx.fail(key, f"unknown sweep axis{_did_you_mean(axis, list(SWEEP_AXES))}: {allowed}")
        if not isinstance(values, list) or not values:
            ctx.bad_value(key, values, "a non-empty list of values, such as [false, true]")
        axes[axis] = []
        for index, value in enumerate(values):
            line = ctx.values.get(f"{key}[{index}]")
            value = ctx.checked(key, check, value, line)
            if value in axes[axis]:
                ctx.fail(key, f"{_show(value)} is listed twice: each value once", line)
            axes[axis].append(value)
    return axes


def _kind(value: Any) -> str:
    kinds = {dict: "a mapping", list: "a list", str: "text", type(None): "empty"}
    return kinds.get(type(value), f"the value {_show(value)}")


def _fields(data: Any, ctx: _Ctx, top_line: int | None, sweeps_players: bool) -> dict[str, Any]:
    """Every field of a Scenario but sweep and source, each value checked on its own."""
    if not isinstance(data, dict):
        message = f"the top level must be a mapping (name: ..., players: ...), not {_kind(data)}"
        ctx.fail(None, message, top_line)
    _check_keys(data, list(TOP_KEYS), "", ctx, _TOP_HINTS)
    fields: dict[str, Any] = {"name": _name(data, ctx)}
    description = data.get("description", "")
    if not isinstance(description, str):
        ctx.bad_value("description", description, "text")
    fields["description"] = description
    for key, low, high in (("players", 2, 10), ("games", 1, None), ("seed", 0, None)):
        value = data.get(key, DEFAULTS[key])
        fields[key] = ctx.checked(key, _int_check(low, high), value) if key in data else value
    fields["preset"], fields["rules"] = _rules(data, ctx)
    fields["seats"] = _seats(data, fields["players"], ctx, sweeps_players)
    fields["match_target"] = _match_target(data, ctx)
    return fields


def _check_table(fields: dict[str, Any], data: dict, ctx: _Ctx) -> None:
    """Checks across keys: the deal fits the deck, partners has 4 players, match has scoring."""
    rules, players = fields["rules"], fields["players"]
    dealt, deck = players * rules["hand_size"], deck_size(rules)
    if dealt >= deck:
        key = "rules.hand_size" if "hand_size" in data.get("rules", {}) else "players"
        message = f"{players} players x rules.hand_size {rules['hand_size']} = {dealt} cards dealt"
        ctx.fail(key, f"{message}, but the deck holds {deck}: players x hand_size must be below it")
    if rules["scoring"] == "partners" and players != 4:
        ctx.fail("rules.scoring", f"partners needs exactly 4 players, not {players}")
    if fields["match_target"] is not None and rules["scoring"] == "none":
        message = "a match needs rules.scoring points, low-score or partners, not none"
        if "scoring" not in data.get("rules", {}):
            message += f" (preset {fields['preset']} scores none)"
        ctx.fail("match", f"{message}: set rules.scoring or remove match")


def _tournament(data: dict, ctx: _Ctx) -> tuple[str, ...] | None:
    """The ``tournament`` strategy names: at least two, distinct, with one strategies entry."""
    if "tournament" not in data:
        return None
    raw = data["tournament"]
    if not isinstance(raw, list) or len(raw) < 2:
        ctx.bad_value(
            "tournament", raw, "a list of 2 or more strategy names, such as [basic, random]"
        )
    if "sweep" in data:
        ctx.fail("sweep", "cannot combine sweep with tournament: run them as separate scenarios")
    rules = data.get("rules")
    if isinstance(rules, dict) and rules.get("seating") == "random":  # RULES.md S16
        message = "a tournament balances the seats itself: use seating: fixed (the default)"
        ctx.fail("rules.seating", message)
    if isinstance(data.get("strategies"), list) and len(data["strategies"]) > 1:
        message = "a tournament takes 1 entry (the knobs every seat shares), not per-seat entries"
        ctx.fail("strategies", message)
    names: list[str] = []
    for index, value in enumerate(raw):
        key = f"tournament[{index}]"
        name = ctx.checked(key, _strategy_name, value)
        if name in names:
            ctx.fail(key, f"{name!r} is listed twice: each strategy once")
        names.append(name)
    return tuple(names)


def _rotation_points(
    data: dict, names: tuple[str, ...], players: int, ctx: _Ctx
) -> tuple[SweepPoint, ...]:
    """Seating r puts ``names[balanced_seatings(...)[r][s]]`` at seat s; knobs are shared."""
    template = {k: v for k, v in data.items() if k != "tournament"}
    entry = (data.get("strategies") or [{}])[0]
    points = []
    for r, seating in enumerate(balanced_seatings(len(names), players)):
        point = copy.deepcopy(template)
        point["strategies"] = [{**entry, "strategy": names[i]} for i in seating]
        fields = _fields(point, _Ctx(ctx.source, dict(ctx.keys), dict(ctx.values)), None, False)
        assignment = {"rotation": r}
        scenario = Scenario(**fields, sweep=None, source=ctx.source)
        points.append(SweepPoint(assignment, _label(assignment), scenario))
    return tuple(points)


def _build(data: Any, ctx: _Ctx, top_line: int | None) -> Scenario:
    """The scenario of ``data``; with a sweep, every point is checked across keys instead."""
    sweep = data.get("sweep") if isinstance(data, dict) else None
    fields = _fields(data, ctx, top_line, isinstance(sweep, dict) and "players" in sweep)
    names = _tournament(data, ctx)
    if names is not None:
        _check_table(fields, data, ctx)
        points = _rotation_points(data, names, fields["players"], ctx)
        return Scenario(**fields, sweep=None, source=ctx.source, tournament=names, _points=points)
    axes = _sweep(data, ctx)
    if axes is None:
        _check_table(fields, data, ctx)
        return Scenario(**fields, sweep=None, source=ctx.source)
    points = tuple(_point(data, assignment, ctx) for assignment in _assignments(axes))
    given = frozenset(data.get("rules", {})) - {"preset"}
    return Scenario(**fields, sweep=axes, source=ctx.source, _points=points, _given_rules=given)


def _assignments(axes: dict[str, list]) -> list[dict[str, Any]]:
    return [dict(zip(axes, combo, strict=True)) for combo in itertools.product(*axes.values())]


def _label(assignment: dict[str, Any]) -> str:
    """``axis-value`` parts joined by ``_``; unique: an axis's values are distinct, none has ``_``."""
    parts = []
    for axis, value in assignment.items():
        text = value if isinstance(value, str) else _show(value)
        parts.append(f"{axis.rpartition('.')[2]}-{re.sub(r'[^A-Za-z0-9.-]+', '-', text)}")
    return "_".join(parts)


def _point(data: dict, assignment: dict[str, Any], ctx: _Ctx) -> SweepPoint:
    """One sweep point: the file with the point's values written in, checked as a whole."""
    point = copy.deepcopy({k: v for k, v in data.items() if k != "sweep"})
    point_ctx = _Ctx(ctx.source, dict(ctx.keys), dict(ctx.values))
    for axis, value in assignment.items():
        section, _, key = axis.partition(".")
        if axis == "players":
            point["players"] = value
        elif section == "rules":
            point["rules"] = {**point.get("rules", {}), key: value}
        else:
            point["strategies"] = [{**entry, key: value} for entry in point.get("strategies", [{}])]
        if f"sweep.{axis}" in ctx.keys:
            point_ctx.keys[axis] = point_ctx.values[axis] = ctx.keys[f"sweep.{axis}"]
    label = _label(assignment)
    try:
        fields = _fields(point, point_ctx, None, False)
        _check_table(fields, point, point_ctx)
    except ScenarioError as exc:
        point_key = f"sweep.{exc.key}" if exc.key in assignment else exc.key
        message = f"{exc.detail} (sweep point {label})"
        raise ScenarioError(message, file=ctx.source, line=exc.line, key=point_key) from None
    return SweepPoint(dict(assignment), label, Scenario(**fields, sweep=None, source=ctx.source))

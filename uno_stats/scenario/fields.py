"""Scenario fields (SCENARIO.md): each key of a scenario file checked and resolved.

Every section has its check here: the top-level keys, ``rules`` (a preset and its overrides),
``strategies`` (one entry or one per seat, knobs filled from their defaults), ``match``,
``sweep`` (each axis's values checked as if written in the file) and ``tournament``, and the
checks across keys (the deal fits the deck, partners has 4 players, a match scores). Every
problem raises :class:`ScenarioError` through an :class:`ErrorContext`, which knows the file
and the 1-based line of each dotted key and value. :mod:`uno_stats.scenario.load` builds the
:class:`~uno_stats.scenario.load.Scenario` and its sweep points from these checks.
"""

from __future__ import annotations

import math
import re
from functools import partial
from typing import Any

from uno_stats.engine.cards import MAX_DECKS
from uno_stats.engine.rules import PRESET_NAMES, RULES_BY_KEY, RuleSpec, resolve_rules
from uno_stats.engine.strategy_table import KNOBS_BY_KEY, STRATEGIES_BY_NAME, KnobSpec, default_seat
from uno_stats.limits import (
    MAX_AXIS_VALUES,
    MAX_DESCRIPTION,
    MAX_GAMES,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_SEED,
    MAX_SWEEP_POINTS,
)
from uno_stats.scenario.checks import (
    Check,
    ErrorContext,
    Invalid,
    check_keys,
    choice,
    did_you_mean,
    int_check,
    mapping,
    show_value,
)
from uno_stats.scenario.deck import check_deck, check_deck_table

_SECTIONS = ("rules", "deck", "strategies", "match", "sweep", "design", "tournament")
TOP_KEYS = ("name", "description", "players", "games", "seed", *_SECTIONS)
DEFAULTS: dict[str, Any] = {"players": 4, "games": 10_000, "seed": 0, "preset": "mattel-2022"}
MATCH_TARGET_DEFAULT = 500
SWEEP_AXES: tuple[str, ...] = (
    "players",
    "deck.decks",
    "rules.preset",
    *(f"rules.{key}" for key in RULES_BY_KEY),
    "strategies.strategy",
    *(f"strategies.{key}" for key in KNOBS_BY_KEY),
)
_NAME_RE = re.compile(r"[a-z0-9-]+")
_TOP_HINTS = {"target": "not a top-level key: the match target is match.target"}
_TOP_HINTS.update({k: f"not a top-level key: write it under rules: ({k})" for k in RULES_BY_KEY})
_TOP_HINTS["preset"] = "not a top-level key: write it under rules: (preset)"
_TOP_HINTS.update(
    {k: f"not a top-level key: write it under deck: ({k})" for k in ("decks", "counts")}
)
for _knob in ("strategy", *KNOBS_BY_KEY):
    _TOP_HINTS[_knob] = f"not a top-level key: write it in a strategies entry ({_knob})"


_INVALID = object()  # a value that failed its check (the error is kept in the context)


def _rule_value(spec: RuleSpec, value: Any) -> Any:
    if spec.kind == "int":
        return int_check(spec.low, spec.high)(value)
    choices = (True, False) if spec.kind == "bool" else spec.choices
    return choice(value, choices, spec.allowed())


def _knob_value(knob: KnobSpec, value: Any) -> Any:
    if knob.kind == "enum":
        return choice(value, knob.choices, knob.allowed())
    if type(value) not in (int, float):
        raise Invalid(f"{show_value(value)} is not allowed: {knob.allowed()}")
    if not 0 <= value <= 1:  # also rejects nan
        raise Invalid(f"{value} is out of range: {knob.allowed()}")
    return float(value)


_STRATEGY_NAMES = tuple(STRATEGIES_BY_NAME)
_strategy_name = partial(choice, choices=_STRATEGY_NAMES, allowed=", ".join(_STRATEGY_NAMES))
_preset = partial(choice, choices=PRESET_NAMES, allowed=", ".join(PRESET_NAMES))


SEAT_AXIS = re.compile(r"strategies\.(\d+)\.([a-z_]+)")
"""A sweep axis of one seat's strategy or knob: ``strategies.<seat>.<key>`` (seat from 0)."""


def seat_axis(axis: str) -> tuple[int, str] | None:
    """``(seat, key)`` of a one-seat sweep axis (``strategies.1.strategy``), else None."""
    found = SEAT_AXIS.fullmatch(axis)
    return (int(found.group(1)), found.group(2)) if found else None


def _axis_check(axis: str) -> Check | None:
    """The check a sweep axis's values get, as if written in the file; None if unknown."""
    seat = seat_axis(axis)
    if seat is not None and seat[0] < MAX_PLAYERS:
        axis = f"strategies.{seat[1]}"
    section, _, key = axis.partition(".")
    if axis == "players":
        return int_check(2, MAX_PLAYERS)
    if axis == "deck.decks":  # RULES.md S19: e.g. one deck against two at the same table
        return int_check(1, MAX_DECKS)
    if section == "rules" and key == "preset":
        return _preset
    if section == "rules" and key in RULES_BY_KEY:
        return partial(_rule_value, RULES_BY_KEY[key])
    if section == "strategies" and key == "strategy":
        return _strategy_name
    if section == "strategies" and key in KNOBS_BY_KEY:
        return partial(_knob_value, KNOBS_BY_KEY[key])
    return None


def _name(data: dict, ctx: ErrorContext) -> str:
    if "name" not in data:
        ctx.fail("name", "missing: every scenario needs a name such as stacking-on")
    name = data["name"]
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        ctx.bad_value("name", name, "lowercase letters, digits and '-', such as stacking-on")
    if len(name) > MAX_NAME:
        ctx.fail("name", f"{len(name)} characters: at most {MAX_NAME}", ctx.values.get("name"))
    return name


def _rules(data: dict, ctx: ErrorContext) -> tuple[str, dict[str, Any]]:
    raw = mapping(data.get("rules", {}), "rules", ctx, "{preset: mattel-2022}")
    hints = {"target": "not a rule key: the match target is match.target (match: {target: 500})"}
    hints["players"] = "not a rule key: players is a top-level key"
    check_keys(raw, ["preset", *RULES_BY_KEY], "rules.", ctx, hints)
    preset = DEFAULTS["preset"]
    if "preset" in raw:
        preset = ctx.attempt(partial(ctx.checked, "rules.preset", _preset, raw["preset"]), preset)
    overrides = {}
    for key, value in raw.items():
        if key == "preset" or key not in RULES_BY_KEY:
            continue
        check = partial(_rule_value, RULES_BY_KEY[key])
        checked = ctx.attempt(partial(ctx.checked, f"rules.{key}", check, value), _INVALID)
        if checked is not _INVALID:
            overrides[key] = checked
    return preset, resolve_rules(preset, overrides)


def _seat(entry: Any, key: str, ctx: ErrorContext) -> dict[str, Any]:
    entry = mapping(entry, key, ctx, "{strategy: random}")
    check_keys(entry, ["strategy", *KNOBS_BY_KEY], f"{key}.", ctx, {})
    seat = default_seat()
    for knob, value in entry.items():
        if knob != "strategy" and knob not in KNOBS_BY_KEY:
            continue  # reported by check_keys
        check = _strategy_name if knob == "strategy" else partial(_knob_value, KNOBS_BY_KEY[knob])
        seat[knob] = ctx.attempt(partial(ctx.checked, f"{key}.{knob}", check, value), seat[knob])
    return seat


def _seats(
    data: dict, players: int | None, ctx: ErrorContext, sweeps_players: bool
) -> tuple[dict, ...]:
    """The seats' strategies; ``players`` None (itself in error): entries not counted."""
    entries = data.get("strategies", [{}])
    if not isinstance(entries, list) or not entries:
        per_seat = players or "one per seat"
        ctx.bad_value("strategies", entries, f"a list of 1 entry (every seat) or {per_seat}")
    seats = [
        ctx.attempt(partial(_seat, entry, f"strategies[{i}]", ctx), default_seat())
        for i, entry in enumerate(entries)
    ]
    if players is None:
        return tuple(seats)
    if len(seats) == 1:
        return tuple(dict(seats[0]) for _ in range(players))
    if sweeps_players:
        message = f"cannot sweep players with {len(seats)} per-seat strategies: give one entry"
        ctx.fail("sweep.players", message)
    if len(seats) != players:
        allowed = f"1 entry (for every seat) or {players} (one per seat)"
        ctx.fail("strategies", f"{len(seats)} entries for {players} players: give {allowed}")
    return tuple(seats)


def _match_target(data: dict, ctx: ErrorContext) -> int | None:
    if "match" not in data:
        return None
    raw = mapping(data["match"], "match", ctx, "{target: 500}")
    check_keys(raw, ["target"], "match.", ctx, {})
    if "target" not in raw:
        return MATCH_TARGET_DEFAULT
    return ctx.checked("match.target", int_check(1, 100_000), raw["target"])


def check_sweep(data: dict, ctx: ErrorContext, product: bool = True) -> dict[str, list] | None:
    """The ``sweep`` axes and their checked values (None without a sweep), within the limits
    (the product of the axes' sizes counted against the points limit when ``product``)."""
    if "sweep" not in data:
        return None
    raw = mapping(data["sweep"], "sweep", ctx, "{players: [2, 4]}")
    if not raw:
        ctx.fail("sweep", "needs at least one axis, such as players: [2, 4]")
    axes: dict[str, list] = {}
    for axis, values in raw.items():
        checked = ctx.attempt(partial(_sweep_axis, axis, values, ctx), None)
        if checked is not None:
            axes[axis] = checked
    if ctx.errors or not product:
        return axes
    points = math.prod(len(values) for values in axes.values())
    if points > MAX_SWEEP_POINTS:
        sizes = " x ".join(str(len(values)) for values in axes.values())
        message = f"{sizes} = {points:,} points: at most {MAX_SWEEP_POINTS:,}"
        ctx.fail("sweep", message)
    return axes


_DESIGN_ALLOWED = "full, {type: fractional, resolution: 3, 4 or 5} or {type: random, points: N}"
_DESIGN_KEYS = {"full": ["type"], "fractional": ["type", "resolution"]}
_DESIGN_KEYS["random"] = ["type", "points", "seed"]


def check_design(data: dict, ctx: ErrorContext) -> dict[str, Any] | None:
    """The ``design`` of a sweep as a mapping (``type`` and its keys; ``random``'s ``seed``
    filled from the scenario's), or None for the full factorial (the default)."""
    if "design" not in data:
        return None
    raw = data["design"]
    if "sweep" not in data:
        ctx.fail("design", "a design chooses the points of a sweep: add sweep: or remove design")
    if raw == "full":
        return None
    if not isinstance(raw, dict):
        ctx.bad_value("design", raw, _DESIGN_ALLOWED)
    kind = raw.get("type")
    if "type" not in raw:
        ctx.fail("design", f"missing type: {_DESIGN_ALLOWED}")
    if kind not in _DESIGN_KEYS:
        hint = did_you_mean(kind, list(_DESIGN_KEYS)) if isinstance(kind, str) else ""
        ctx.bad_value("design.type", kind, f"full, fractional or random{hint}")
    check_keys(raw, _DESIGN_KEYS[kind], "design.", ctx, {})
    ctx.raise_errors()
    if kind == "full":
        return None
    if kind == "fractional":
        if "resolution" not in raw:
            ctx.fail(
                "design", "missing resolution: 3, 4 or 5 (e.g. {type: fractional, resolution: 5})"
            )
        check = partial(choice, choices=(3, 4, 5), allowed="3, 4 or 5")
        return {
            "type": kind,
            "resolution": ctx.checked("design.resolution", check, raw["resolution"]),
        }
    if "points" not in raw:
        ctx.fail("design", "missing points: the number of sweep points (e.g. points: 50)")
    points = ctx.checked("design.points", int_check(2, MAX_SWEEP_POINTS), raw["points"])
    seed = data.get("seed", DEFAULTS["seed"])
    seed = seed if type(seed) is int and 0 <= seed <= MAX_SEED else DEFAULTS["seed"]
    seed = ctx.checked("design.seed", int_check(0, MAX_SEED), raw.get("seed", seed))
    return {"type": kind, "points": points, "seed": seed}


def _sweep_axis(axis: str, values: Any, ctx: ErrorContext) -> list:
    """The checked values of one sweep axis."""
    key = f"sweep.{axis}"
    check = _axis_check(axis)
    if check is None:
        allowed = (
            "players, deck.decks, rules.<rule key>, strategies.<knob>, strategies.strategy "
            "or strategies.<seat>.<knob or strategy>"
        )
        ctx.fail(key, f"unknown sweep axis{did_you_mean(axis, list(SWEEP_AXES))}: {allowed}")
    if not isinstance(values, list) or not values:
        ctx.bad_value(key, values, "a non-empty list of values, such as [false, true]")
    if len(values) > MAX_AXIS_VALUES:
        ctx.fail(key, f"{len(values):,} values: at most {MAX_AXIS_VALUES:,} per axis")
    out = []
    seen: dict[tuple[type, Any], int] = {}  # linear duplicate check; 1 and true differ
    for index, value in enumerate(values):
        line = ctx.values.get(f"{key}[{index}]")
        value = ctx.checked(key, check, value, line)
        if (type(value), value) in seen:
            ctx.fail(key, f"{show_value(value)} is listed twice: each value once", line)
        seen[(type(value), value)] = index
        out.append(value)
    return out


def _kind(value: Any) -> str:
    kinds = {dict: "a mapping", list: "a list", str: "text", type(None): "empty"}
    return kinds.get(type(value), f"the value {show_value(value)}")


def check_fields(
    data: Any, ctx: ErrorContext, top_line: int | None, sweeps_players: bool
) -> dict[str, Any]:
    """Every field of a Scenario but sweep and source, each value checked on its own."""
    if not isinstance(data, dict):
        message = f"the top level must be a mapping (name: ..., players: ...), not {_kind(data)}"
        ctx.fail(None, message, top_line)
    check_keys(data, list(TOP_KEYS), "", ctx, _TOP_HINTS)
    fields: dict[str, Any] = {"name": ctx.attempt(partial(_name, data, ctx), "")}
    fields["description"] = ctx.attempt(partial(_description, data, ctx), "")
    players_ok = True
    for key, low, high in (
        ("players", 2, MAX_PLAYERS),
        ("games", 1, MAX_GAMES),
        ("seed", 0, MAX_SEED),
    ):
        value = data.get(key, DEFAULTS[key])
        if key in data:
            before = len(ctx.errors)
            check = partial(ctx.checked, key, int_check(low, high), value)
            value = ctx.attempt(check, DEFAULTS[key])
            players_ok = players_ok and (key != "players" or len(ctx.errors) == before)
        fields[key] = value
    preset = DEFAULTS["preset"]
    fields["preset"], fields["rules"] = ctx.attempt(
        partial(_rules, data, ctx), (preset, resolve_rules(preset, {}))
    )
    fields["deck"] = ctx.attempt(partial(check_deck, data, ctx, fields["preset"]), None)
    # with players in error, the seats are checked one by one but not counted against it
    seats = partial(_seats, data, fields["players"] if players_ok else None, ctx, sweeps_players)
    no_seats: tuple[dict, ...] = ()
    fields["seats"] = ctx.attempt(seats, no_seats)
    fields["match_target"] = ctx.attempt(partial(_match_target, data, ctx), None)
    ctx.raise_errors()
    return fields


def _description(data: dict, ctx: ErrorContext) -> str:
    description = data.get("description", "")
    if not isinstance(description, str):
        ctx.bad_value("description", description, "text")
    if len(description) > MAX_DESCRIPTION:
        message = f"{len(description):,} characters: at most {MAX_DESCRIPTION:,}"
        ctx.fail("description", message, ctx.values.get("description"))
    return description


def check_table(fields: dict[str, Any], data: dict, ctx: ErrorContext) -> None:
    """Checks across keys: the deck suits the rules and the deal fits it (S19), partners has
    4 players, match has scoring."""
    rules, players = fields["rules"], fields["players"]
    deck = check_deck_table(rules, fields["deck"], ctx)
    dealt = players * rules["hand_size"]
    if dealt >= deck:
        key = "rules.hand_size" if "hand_size" in data.get("rules", {}) else "players"
        message = f"{players} players x rules.hand_size {rules['hand_size']} = {dealt} cards dealt"
        ctx.fail(key, f"{message}, but the deck holds {deck}: players x hand_size must be below it")
    if rules["scoring"] == "partners" and players != 4:
        ctx.fail("rules.scoring", f"partners needs exactly 4 players, not {players}")
    _check_mercy(rules, data, ctx)
    if fields["match_target"] is not None and rules["scoring"] == "none":
        message = "a match needs rules.scoring points, low-score or partners, not none"
        if "scoring" not in data.get("rules", {}):
            message += f" (preset {fields['preset']} scores none)"
        ctx.fail("match", f"{message}: set rules.scoring or remove match")


def _check_mercy(rules: dict[str, Any], data: dict, ctx: ErrorContext) -> None:
    """RULES.md S22: the mercy limit lies above the deal, and plays no partners or low-score
    match."""
    limit = rules["mercy_limit"]
    if limit == 0:
        return
    given = data.get("rules", {})
    key = "rules.mercy_limit" if "mercy_limit" in given else "rules.preset"
    if limit <= rules["hand_size"]:
        message = f"mercy_limit {limit} must exceed rules.hand_size {rules['hand_size']}"
        ctx.fail(key, f"{message} (the deal would knock players out): raise it, or 0 for off")
    if rules["scoring"] in ("partners", "low-score"):
        message = f"the mercy rule (mercy_limit {limit}) does not combine with scoring "
        message += f"{rules['scoring']}: use scoring none or points, or mercy_limit 0"
        ctx.fail("rules.scoring" if "scoring" in given else key, message)


def check_tournament(data: dict, ctx: ErrorContext) -> tuple[str, ...] | None:
    """The ``tournament`` strategy names: at least two, distinct, with one strategies entry."""
    if "tournament" not in data:
        return None
    raw = data["tournament"]
    if not isinstance(raw, list) or len(raw) < 2:
        ctx.bad_value(
            "tournament", raw, "a list of 2 or more strategy names, such as [basic, random]"
        )
    if len(raw) > len(_STRATEGY_NAMES):
        message = (
            f"{len(raw):,} entries: each of the {len(_STRATEGY_NAMES)} strategies at most once"
        )
        ctx.fail("tournament", message)
    if "sweep" in data:
        ctx.fail("sweep", "cannot combine sweep with tournament: run them as separate scenarios")
    if isinstance(data.get("strategies"), list) and len(data["strategies"]) > 1:
        message = "a tournament takes 1 entry (the knobs every seat shares), not per-seat entries"
        ctx.fail("strategies", message)
    names: list[str] = []
    for index, value in enumerate(raw):
        name = ctx.attempt(partial(_tournament_entry, index, value, names, ctx), None)
        if name is not None:
            names.append(name)
    return tuple(names)


def _tournament_entry(index: int, value: Any, names: list[str], ctx: ErrorContext) -> str:
    key = f"tournament[{index}]"
    name = ctx.checked(key, _strategy_name, value)
    if name in names:
        ctx.fail(key, f"{name!r} is listed twice: each strategy once")
    return str(name)

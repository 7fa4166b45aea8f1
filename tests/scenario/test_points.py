"""A sweep's points built one at a time (uno_stats/scenario/points.py).

Loading a sweep checks one point per combination of the axes that the checks across keys
read (``CROSS_CHECKED_AXES``), every other axis value on its own. That is sound only while
the list names every sweepable key those checks read: the guard below runs the checks
across keys on recording mappings and compares what they read with the list, so that a new
check reading another key fails here instead of silently going unchecked on some points.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from uno_stats.errors import ScenarioError
from uno_stats.scenario.checks import ErrorContext
from uno_stats.scenario.fields import SWEEP_AXES, check_fields, check_table
from uno_stats.scenario.load import parse_scenario
from uno_stats.scenario.points import CROSS_CHECKED_AXES, PointTable

FIELD_AXES = {"players": "players", "preset": "rules.preset", "deck": "deck", "rules": "rules"}
"""A resolved field's name as the sweep axis (or axis prefix) it comes from."""


class Reading(dict):
    """A mapping that records, in ``log``, the dotted name of every key read from it (any
    iteration over it records ``PREFIX*``: every key); mappings inside read the same way."""

    def __init__(self, data: dict[str, Any], prefix: str, log: set[str], names=None) -> None:
        super().__init__(data)
        self.prefix, self.log, self.names = prefix, log, names or {}

    def _name(self, key: str) -> str:
        return self.names.get(key, f"{self.prefix}{key}")

    def _value(self, key: str, value: Any) -> Any:
        if isinstance(value, dict) and not isinstance(value, Reading):
            return Reading(value, f"{self._name(key)}.", self.log)
        return value

    def __getitem__(self, key: str) -> Any:
        self.log.add(self._name(key))
        return self._value(key, super().__getitem__(key))

    def get(self, key: str, default: Any = None) -> Any:
        self.log.add(self._name(key))
        return self._value(key, super().get(key, default))

    def __contains__(self, key: object) -> bool:
        self.log.add(self._name(str(key)))
        return super().__contains__(key)

    def __iter__(self) -> Iterator[str]:
        self.log.add(f"{self.prefix}*")
        return super().__iter__()

    def items(self):  # type: ignore[override]
        self.log.add(f"{self.prefix}*")
        return super().items()

    def keys(self):  # type: ignore[override]
        self.log.add(f"{self.prefix}*")
        return super().keys()

    def values(self):  # type: ignore[override]
        self.log.add(f"{self.prefix}*")
        return super().values()


CASES: tuple[dict[str, Any], ...] = (
    {"name": "x"},
    {"name": "x", "players": 3, "rules": {"preset": "classic-house", "hand_size": 5}},
    {"name": "x", "rules": {"preset": "mattel-2001"}, "match": {"target": 200}},
    {"name": "x", "rules": {"scoring": "partners"}, "match": {"target": 200}},
    {"name": "x", "rules": {"opening_action": "redraw"}, "deck": {"decks": 2}},
    {"name": "x", "deck": {"counts": {"wild_draw_four": 8}}},
    {"name": "x", "rules": {"shuffle_hands_cards": 1, "custom_cards": 3}},
)
"""Files that take every branch of the checks across keys that passes."""


def _read_by_checks(data: dict[str, Any]) -> set[str]:
    """The dotted names of the keys that the checks across keys read for ``data``."""
    ctx = ErrorContext("<test>")
    fields = check_fields(copy.deepcopy(data), ctx, None, False)
    log: set[str] = set()
    check_table(Reading(fields, "", log, FIELD_AXES), Reading(copy.deepcopy(data), "", log), ctx)
    return log


def _as_axes(names: set[str]) -> set[str]:
    """The sweep axes among ``names``; ``rules.*`` (every rule read) stands for every
    ``rules.`` axis, ``deck.*`` for ``deck.decks``."""
    out = set()
    for name in names:
        if name.endswith("*"):
            out |= {axis for axis in SWEEP_AXES if axis.startswith(name[:-1])}
        elif name in SWEEP_AXES:
            out.add(name)
    return out


def test_the_cross_checked_axes_are_exactly_the_sweepable_keys_the_checks_across_keys_read():
    read = set().union(*(_read_by_checks(case) for case in CASES))
    axes = _as_axes(read)
    missing = axes - CROSS_CHECKED_AXES
    assert not missing, (
        f"the checks across keys read {sorted(missing)}: add them to CROSS_CHECKED_AXES in "
        "uno_stats/scenario/points.py (and docs/SCENARIO.md 'Limits'), or points of a sweep "
        "over them would go unchecked"
    )
    # rules.preset sets every rule, so it is cross-checked whichever rules the checks read
    assert CROSS_CHECKED_AXES - {"rules.preset"} == axes
    assert "strategies.strategy" not in read and not any(a.startswith("strategies") for a in axes)


def test_the_recorder_sees_a_new_check_that_reads_another_key(monkeypatch):
    """The guard fails when a check across keys starts reading a key not in the list."""
    from uno_stats.scenario import fields

    real = fields.check_table

    def with_a_new_check(f: dict[str, Any], data: dict[str, Any], ctx: ErrorContext) -> None:
        real(f, data, ctx)
        if f["rules"]["stack_draw_two"] and f["players"] > 19:
            ctx.fail("rules.stack_draw_two", "a made-up check across keys")

    monkeypatch.setattr(fields, "check_table", with_a_new_check)
    monkeypatch.setitem(globals(), "check_table", with_a_new_check)
    assert "rules.stack_draw_two" in _as_axes(_read_by_checks({"name": "x"}))


def _table(text: str) -> PointTable:
    table = parse_scenario(text).point_table()
    assert isinstance(table, PointTable)
    return table


def test_loading_checks_one_point_per_combination_of_the_cross_checked_axes(monkeypatch):
    text = (
        "name: x\nsweep:\n  players: [2, 3, 4]\n  rules.stack_draw_two: [false, true]\n"
        "  strategies.bluff: [0.0, 0.5, 1.0]\n"
    )
    table = _table(text)
    assert len(table) == 18
    built: list[int] = []
    real = PointTable.scenario
    monkeypatch.setattr(PointTable, "scenario", lambda self, i: built.append(i) or real(self, i))
    assert table.check_every_kind() == 3  # one point per player count
    assert built == [0, 6, 12]


def test_a_failing_point_of_a_cross_checked_combination_fails_the_load():
    """20 players x 7 cards do not fit a 108-card deck: only the last players value fails,
    and its every point is checked through the first point of that combination."""
    text = "name: x\nsweep:\n  strategies.bluff: [0.0, 1.0]\n  players: [4, 20]\n"
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text)
    assert info.value.key == "sweep.players" and "sweep point bluff-0.0_players-20" in str(
        info.value
    )


def test_every_point_of_a_loaded_sweep_builds_and_has_its_values():
    table = _table(
        "name: x\nrules: {preset: classic-house}\nsweep:\n  players: [2, 5]\n"
        "  rules.hand_size: [5, 7]\n  strategies.forget_uno: [0.0, 0.25]\n"
    )
    for i in range(len(table)):
        point = table[i]
        assert table.label(i) == point.label and table.assignment(i) == point.assignment
        s = point.scenario
        assert s.players == point.assignment["players"]
        assert s.rules["hand_size"] == point.assignment["rules.hand_size"]
        assert {seat["forget_uno"] for seat in s.seats} == {
            point.assignment["strategies.forget_uno"]
        }
    assert table.levels(len(table) - 1) == (1, 1, 1) and table.levels(1) == (0, 0, 1)
    with pytest.raises(IndexError):
        table.levels(len(table))

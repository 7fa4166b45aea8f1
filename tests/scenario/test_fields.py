"""A scenario file's every problem is reported, one line each, in the order checked."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from uno_stats.cli import app
from uno_stats.errors import ScenarioError, ScenarioErrors
from uno_stats.scenario.load import parse_scenario

BAD = """\
name: Bad Name
players: 1
games: -5
rules:
  preset: mattel-2022
  stak_draw_two: true
  hand_size: 99
strategies:
  - strategy: genius
    bluff: 2
match:
  target: 0
sweep:
  rules.stack_draw_two: [true, true]
  nonsense: [1]
"""
EXPECTED = [
    (1, "name", "'Bad Name' is not allowed"),
    (2, "players", "1 is out of range"),
    (3, "games", "-5 is out of range"),
    (6, "rules.stak_draw_two", "unknown key (did you mean 'stack_draw_two'?)"),
    (7, "rules.hand_size", "99 is out of range"),
    (9, "strategies[0].strategy", "'genius' is not allowed"),
    (10, "strategies[0].bluff", "2 is out of range"),
    (12, "match.target", "0 is out of range"),
    (14, "sweep.rules.stack_draw_two", "true is listed twice"),
    (15, "sweep.nonsense", "unknown sweep axis"),
]


def test_every_error_of_a_file_is_kept() -> None:
    with pytest.raises(ScenarioErrors) as info:
        parse_scenario(BAD, "bad.yaml")
    found = [(e.line, e.key, e.detail) for e in info.value.errors]
    assert len(found) == len(EXPECTED)
    for (line, key, detail), (want_line, want_key, starts) in zip(found, EXPECTED, strict=True):
        assert (line, key) == (want_line, want_key) and detail.startswith(starts), detail
    # the exception itself reads as the first error
    assert str(info.value) == str(info.value.errors[0]) and info.value.line == 1


def test_one_error_is_raised_as_itself() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario("name: ok\nplayers: 1\n", "one.yaml")
    assert type(info.value) is ScenarioError and info.value.key == "players"


def test_tournament_and_deck_entries_are_each_checked() -> None:
    text = (
        "name: t\ntournament: [basic, genius, basic, random]\n"
        "deck:\n  counts:\n    jokers: 2\n    wild: 99\n"
    )
    with pytest.raises(ScenarioErrors) as info:
        parse_scenario(text, "t.yaml")
    keys = [e.key for e in info.value.errors]
    assert keys == ["deck.counts.jokers", "deck.counts.wild", "tournament[1]", "tournament[2]"]


def test_a_key_in_error_does_not_add_errors_that_follow_from_it() -> None:
    """players: 1 is wrong; the two per-seat entries are not also counted against it."""
    text = "name: p\nplayers: 1\nstrategies: [{strategy: basic}, {strategy: random}]\n"
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "p.yaml")
    assert type(info.value) is ScenarioError and info.value.key == "players"


def test_validate_and_run_print_every_error_one_line_each(tmp_path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BAD)
    cli = CliRunner()
    for args in (["validate", str(path)], ["run", str(path), "--out", str(tmp_path / "out")]):
        result = cli.invoke(app, args)
        assert result.exit_code == 1 and result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == len(EXPECTED)
        for line, (number, key, starts) in zip(lines, EXPECTED, strict=True):
            assert re.fullmatch(
                rf"Error: {re.escape(str(path))}:{number}: {re.escape(key)}: .+", line
            )
            assert f": {key}: {starts}" in line
    assert not (tmp_path / "out").exists()

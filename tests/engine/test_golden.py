"""Golden games: every preset, every house-rule key and a match, traced and compared byte
for byte with tests/engine/golden/ (written by scripts/golden.py)."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from golden_cases import (
    CASES,
    CHOICE_CASES,
    MATCH_CASES,
    PRESET_CASES,
    RULE_CASES,
    WITNESS_IN_BASELINE,
)

from uno_stats.check.games import check_game, check_played_game
from uno_stats.check.golden import GOLDEN_DIR, GoldenCase, case_config, case_events, golden_text
from uno_stats.engine.rules import PRESET_NAMES, RULES, preset_rules

GOLDEN = Path(__file__).resolve().parents[2] / GOLDEN_DIR
REGENERATE = (
    "If the change in play is intended, regenerate the golden files with "
    "`make golden` (scripts/golden.py), read `git diff tests/engine/golden` "
    "and commit them with the change."
)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_golden_trace_is_unchanged(case: GoldenCase):
    path = GOLDEN / f"{case.name}.txt"
    assert path.exists(), f"{path} is missing. {REGENERATE}"
    stored = path.read_bytes()
    fresh = golden_text(case).encode()
    if fresh != stored:
        diff = difflib.unified_diff(
            stored.decode().splitlines(),
            fresh.decode().splitlines(),
            f"{GOLDEN_DIR}/{case.name}.txt (stored)",
            "fresh trace",
            lineterm="",
            n=2,
        )
        shown = "\n".join(list(diff)[:40])
        pytest.fail(f"golden game {case.name} plays differently now:\n{shown}\n{REGENERATE}")


def test_no_golden_file_without_a_case():
    stored = {p.stem for p in GOLDEN.glob("*.txt")}
    assert stored == {case.name for case in CASES}, REGENERATE


def test_golden_set_covers_every_preset_and_every_rule_key_at_a_non_default_value():
    assert {case.preset for case in PRESET_CASES} == set(PRESET_NAMES)
    assert [case.key for case in RULE_CASES] == [spec.key for spec in RULES]
    for case in RULE_CASES:
        assert case.key is not None
        assert case.resolved_rules()[case.key] != preset_rules(case.preset)[case.key], case.name
    assert any(case.match_target > 0 for case in MATCH_CASES)


@pytest.mark.parametrize("case", RULE_CASES + CHOICE_CASES, ids=lambda c: c.name)
def test_each_rule_case_makes_its_key_fire(case: GoldenCase):
    """The traced games differ from the same games with the key at the preset's value, and
    show the key at work (its witness)."""
    config, baseline = case.config(), case.baseline()
    assert case.witness is not None
    for game in case.games:
        events = case_events(case, config, game)
        before = case_events(case, baseline, game)
        same = events.shape == before.shape and bool((events == before).all())
        assert not same, f"{case.name} game {game}: {case.key} changes nothing"
        shown = before if case.key in WITNESS_IN_BASELINE else events
        assert case.witness(shown), f"{case.name} game {game}: {case.shows}: not seen"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_golden_games_pass_the_checker(case: GoldenCase):
    config = case_config(case)
    for game in case.games:
        if case.deck:
            problems = check_game(config, case_events(case, config, game))
        else:
            problems = check_played_game(config, game)
        assert not problems, "\n".join(str(p) for p in problems[:5])

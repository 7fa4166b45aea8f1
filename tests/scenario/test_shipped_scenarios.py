"""Every shipped scenario loads, and each debate the README promises has its scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_stats.scenario.load import load_scenario

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_shipped_scenario_loads(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.name == path.stem
    assert scenario.description
    for point in scenario.sweep_points():
        assert point.scenario.players * point.scenario.rules["hand_size"] < 108


def test_every_debate_has_a_scenario() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {
        "mattel-2022-4p",
        "stacking-off",
        "stacking-draw-two",
        "stacking-all",
        "seven-zero",
        "jump-in",
        "draw-until-playable",
        "forced-play",
        "no-action-finish",
        "uno-penalty",
        "challenge-bluffing",
        "match-points",
        "match-low-score",
        "match-partners",
        "players-sweep",
        "tournament",
        "tournament-mattel-2001",
        "tournament-classic-house",
        "tournament-draw-until-playable",
        "opening-ignore",
        "wd4-no-other-play",
        "seating-random",
        "no-reshuffle",
        "deflect",
        "multi-play",
    } <= names


def test_match_scenarios_cover_every_scoring_mode() -> None:
    modes = {load_scenario(p).rules["scoring"] for p in SCENARIOS if load_scenario(p).match_target}
    assert modes == {"points", "low-score", "partners"}

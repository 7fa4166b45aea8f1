"""The shipped house-rules screen and five-rule factorial: what README and METHODS say of them."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from uno_stats.engine import EngineConfig
from uno_stats.scenario.load import load_scenario, scenario_from_dict

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_the_screen_is_15_two_level_house_rules_at_4_players_in_a_resolution_v_fraction():
    scenario = load_scenario(SCENARIOS / "house-rules-screen.yaml")
    assert scenario.sweep is not None
    assert len(scenario.sweep) >= 15
    assert all(axis.startswith("rules.") for axis in scenario.sweep)
    assert all(len(values) == 2 for values in scenario.sweep.values())
    assert scenario.design == {"type": "fractional", "resolution": 5}
    points = scenario.sweep_points()
    assert len(points) == 256
    assert {p.scenario.players for p in points} == {4}
    assert scenario.games >= 15_000  # the pilot's 0.522-turn half-width x sqrt(1000/15000)


@pytest.mark.slow
def test_every_combination_of_the_screen_is_a_valid_scenario():
    """All 2^15 combinations, not only the 256 of the fraction, load and configure."""
    scenario = load_scenario(SCENARIOS / "house-rules-screen.yaml")
    assert scenario.sweep is not None
    base = {
        "name": "combo",
        "players": scenario.players,
        "games": 1,
        "seed": 1,
        "strategies": [{"strategy": "random", "challenge": "smart", "bluff": 0.1}],
    }
    keys = [axis.removeprefix("rules.") for axis in scenario.sweep]
    count = 0
    for combo in itertools.product(*scenario.sweep.values()):
        rules = {"preset": "classic-house", **dict(zip(keys, combo, strict=True))}
        EngineConfig.from_scenario(scenario_from_dict({**base, "rules": rules}))
        count += 1
    assert count == 2**15


def test_the_five_rules_are_a_full_factorial_at_2_4_and_6_players():
    scenario = load_scenario(SCENARIOS / "house-rules-five.yaml")
    assert scenario.sweep is not None
    assert scenario.sweep["players"] == [2, 4, 6]
    rules = [a for a in scenario.sweep if a.startswith("rules.")]
    assert len(rules) == 5
    assert scenario.design is None or scenario.design.get("type", "full") == "full"
    assert len(scenario.sweep_points()) == 3 * 2**5

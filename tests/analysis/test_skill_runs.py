"""Skill studies read from real runs (uno_stats.analysis.skill_runs): a sweep of one seat's
strategy is a paired-deal table per setting, a sweep of one seat's knob a knob curve."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from uno_stats.analysis.questions import sweep_groups
from uno_stats.analysis.skill import focal_skill
from uno_stats.analysis.skill_runs import skill_studies
from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import parse_scenario
from uno_stats.store.runs import open_runs

STUDY = """
name: study
players: 3
games: 300
seed: 4
rules:
  preset: mattel-2001
  seating: random
strategies:
  - strategy: random
sweep:
  rules.jump_in: [false, true]
  strategies.1.strategy: [basic, random]
"""

CURVE = """
name: curve
players: 2
games: 300
seed: 4
rules:
  preset: mattel-2001
strategies:
  - strategy: search
    horizon: 2
  - strategy: random
sweep:
  strategies.0.rollouts: [1, 4]
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> list:
    out = tmp_path_factory.mktemp("skill")
    found = []
    for text in (STUDY, CURVE):
        scenario = parse_scenario(text, "x.yaml")
        run_scenario(scenario, out_dir=out, workers=1, progress=False)
        found += open_runs(out / scenario.name)
    return found


def _won_by(run, seat: int) -> np.ndarray:
    """Per game (sorted), whether scenario seat ``seat`` won: straight from the rows."""
    df = run.scan().select("game", "winner", "seating").sort("game").collect()
    at = [list(s).index(seat) for s in df["seating"].to_list()]
    return (df["winner"].to_numpy() == np.array(at)).astype(np.int8)


@pytest.mark.engine
def test_a_sweep_of_one_seats_strategy_is_a_table_per_setting(runs) -> None:
    studies, curves = skill_studies(sweep_groups(runs))
    (study,) = studies
    assert (study.name, study.focal, study.opponents) == ("study", 1, "random")
    assert [t.setting for t in study.tables] == [{"rules.jump_in": False}, {"rules.jump_in": True}]
    for t in study.tables:
        assert t.skill.strategies == ("random", "basic")  # simplest first
        members = {
            r.manifest.sweep_assignment["strategies.1.strategy"]: r
            for r in runs
            if r.manifest.name == "study"
            and r.manifest.sweep_assignment["rules.jump_in"] == t.setting["rules.jump_in"]
        }
        expected = np.column_stack([_won_by(members[s], 1) for s in ("random", "basic")])
        assert np.array_equal(t.table, expected)
        assert t.skill == focal_skill(("random", "basic"), expected)
    (effect,) = study.effects
    assert effect.axis == "rules.jump_in" and effect.values == (False, True)
    assert effect.effect.n == 300
    (curve,) = curves
    assert (curve.knob, curve.strategy, curve.opponents) == ("rollouts", "search", "random")
    assert [p.value for p in curve.points] == [1, 4]
    assert curve.points[0].change is None and curve.points[1].change is not None


@pytest.mark.engine
def test_every_point_replays_the_same_deals(runs) -> None:
    """The same seed: the first deal of every point of the study is the same (first
    player's seat and the opening card agree), whoever plays seat 1."""
    study = [r for r in runs if r.manifest.name == "study"]
    firsts = {
        tuple(r.scan().sort("game").select("first_player", "dealer").head(5).collect().rows())
        for r in study
    }
    assert len(firsts) == 1
    assert isinstance(runs[0].scan(), pl.LazyFrame)
    assert all(r.part_files() and all(f.exists() for f in r.part_files()) for r in runs)

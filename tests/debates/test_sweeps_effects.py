"""The effects debate's shared steps (uno_stats.debates.effects): options checked before any
run, and each sweep's effects exactly as analysis computes them for that sweep alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write_sweep

from uno_stats.analysis.effects import sweep_effects
from uno_stats.analysis.metrics import Margin
from uno_stats.analysis.sweep_points import sweep_of
from uno_stats.debates.effects import checked_options, sweeps_effects
from uno_stats.errors import UnoStatsError
from uno_stats.store.runs import open_runs


def test_options_are_checked_before_anything_runs() -> None:
    assert checked_options(None, None) is None
    assert checked_options(["mean_turns", "won_rate"], "2%") == Margin(0.02, relative=True)
    assert checked_options([], "1.5") == Margin(1.5, relative=False)
    with pytest.raises(UnoStatsError, match="unknown metric 'bogus'"):
        checked_options(["mean_turns", "bogus"], None)
    with pytest.raises(UnoStatsError, match="--margin: '2 %%' is not allowed"):
        checked_options(None, "2 %%")


def test_each_sweep_gets_its_own_effects_in_order(tmp_path: Path) -> None:
    sweeps = [
        open_runs(write_sweep(tmp_path, "by-players", {"players": [2, 4]}, games=300)),
        open_runs(
            write_sweep(
                tmp_path, "by-turns", {"mean_turns": [20, 40], "players": [3, 4]}, games=300
            )
        ),
    ]
    margin = Margin(1.0, relative=False)
    found = sweeps_effects(sweeps, ["mean_turns"], interactions=True, margin=margin)
    assert [r.sweep.name for r in found] == ["by-players", "by-turns"]
    for runs, result in zip(sweeps, found, strict=True):
        alone = sweep_effects(sweep_of(runs), ["mean_turns"], interactions=True, margin=margin)
        assert result.effects == alone.effects
    assert any(e.term.name == "mean_turns:players" for e in found[1].effects)

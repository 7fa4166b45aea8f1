"""A sweep written before the sweep dataset (one run folder per point) still reads.

``data/per-point-sweep/old-sweep`` was written by uno-stats at commit ee23f2f (the last one
before the sweep dataset) from ``data/per-point-sweep/old-sweep.yaml``::

    uno-stats run old-sweep.yaml --out OUT -w 1 -q --fresh --chunk-size 100

(4 points of 150 rounds, each point two parts: 100 and a short 50). It reads as its four
points, gives the figures that version printed, and the figures of a fresh run of the same
file in the current layout; a run into it is refused with one line naming --fresh.
"""

from __future__ import annotations

import csv
import io
import math
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from uno_stats.cli import app
from uno_stats.errors import RunError
from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import load_scenario
from uno_stats.store.manifest import PointFoldersManifest, read_manifest
from uno_stats.store.runs import open_runs
from uno_stats.store.verify import verified_runs

DATA = Path(__file__).parent / "data" / "per-point-sweep"
OLD = DATA / "old-sweep"
LABELS = [
    "players-2_stack_draw_two-false",
    "players-2_stack_draw_two-true",
    "players-3_stack_draw_two-false",
    "players-3_stack_draw_two-true",
]
OLD_MEAN_TURNS = {
    # mean_turns, low, high of each point as `uno-stats summary --format csv` printed them
    # at ee23f2f (the version that wrote the folder)
    LABELS[0]: (49.1, 42.56363586650119, 55.636364133498816),
    LABELS[1]: (46.75333333333333, 40.5420412666609, 52.96462540000576),
    LABELS[2]: (46.43333333333333, 42.2019646026169, 50.66470206404976),
    LABELS[3]: (45.70666666666666, 41.638727741576425, 49.7746055917569),
}


def _summary_rows(folder: Path) -> list[dict[str, str]]:
    result = CliRunner().invoke(app, ["summary", str(folder), "--format", "csv"])
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout)))


def test_an_old_per_point_sweep_reads_as_its_points() -> None:
    assert isinstance(read_manifest(OLD), PointFoldersManifest)
    for runs in (open_runs(OLD), verified_runs(OLD)):
        assert [r.manifest.sweep_label for r in runs] == LABELS
        assert [r.path for r in runs] == [OLD / label for label in LABELS]
        assert all(r.complete and r.manifest.rows == 150 for r in runs)
        assert [r.players for r in runs] == [2, 2, 3, 3]
    (one,) = verified_runs(OLD / LABELS[3])
    assert one.scan().collect().height == 150 and one.manifest.sweep_assignment == {
        "players": 3,
        "rules.stack_draw_two": True,
    }


def test_an_old_sweep_gives_the_figures_of_the_version_that_wrote_it() -> None:
    rows = _summary_rows(OLD)
    got = {
        r["run"].removeprefix("old-sweep[").removesuffix("]"): tuple(
            float(r[k]) for k in ("estimate", "low", "high")
        )
        for r in rows
        if r["question"] == "round_length" and r["metric"] == "mean_turns"
    }
    assert got == OLD_MEAN_TURNS


def _close(a: str, b: str) -> bool:
    """Equal text, or floats equal to 1e-12 relative (a statistic's last bits follow how the
    rows are cut into parts, as they did before the sweep dataset)."""
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-15)


def test_an_old_sweep_gives_the_figures_of_a_fresh_run_in_the_current_layout(
    tmp_path: Path,
) -> None:
    fresh = run_scenario(
        load_scenario(DATA / "old-sweep.yaml"), tmp_path, workers=1, progress=False
    )
    assert not isinstance(read_manifest(fresh.path), PointFoldersManifest)
    old, new = _summary_rows(OLD), _summary_rows(fresh.path)
    assert len(old) == len(new) > 1000
    for a, b in zip(old, new, strict=True):
        assert a.keys() == b.keys()
        assert all(_close(a[k], b[k]) for k in a), (a, b)


def test_a_run_into_an_old_sweep_is_refused_in_one_line_and_fresh_replaces_it(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    shutil.copytree(OLD, out / "old-sweep")
    scenario = load_scenario(DATA / "old-sweep.yaml")
    with pytest.raises(RunError) as info:
        run_scenario(scenario, out, workers=1, progress=False)
    message = str(info.value)
    assert "\n" not in message
    assert "per-point layout of an earlier uno-stats" in message and "--fresh" in message
    kept = sorted(p.name for p in (out / "old-sweep").iterdir() if p.name != ".lock")
    assert kept == sorted([*LABELS, "manifest.json"])  # untouched (the lock was only taken)
    outcome = run_scenario(scenario, out, workers=1, progress=False, fresh=True)
    assert not isinstance(read_manifest(outcome.path), PointFoldersManifest)
    assert [r.manifest.sweep_label for r in outcome.runs] == LABELS

"""The sweep measurements of the bench (uno_stats/bench/sweeps.py): a sweep whose points
play the single run's games, the median of paired ratios, and a plan and manifest that do
not grow with the points."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from uno_stats.bench import sweeps
from uno_stats.bench.suite import Suite, machine_info
from uno_stats.present.bench_report import bench_document
from uno_stats.present.document import render_markdown
from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import load_scenario
from uno_stats.store.verify import verified_runs


def test_the_sweeps_points_play_the_single_runs_games(tmp_path: Path) -> None:
    """Its turn caps never bind: every point holds exactly the single run's first games."""
    single, sweep = sweeps.overhead_files(tmp_path, 200, points=5)
    s = load_scenario(sweep)
    assert s.point_count == 5 and s.games == 40 and load_scenario(single).games == 200
    assert s.sweep == {"rules.max_turns": [10_000, 10_001, 10_002, 10_003, 10_004]}
    one = run_scenario(load_scenario(single), tmp_path / "one", workers=1, progress=False)
    many = run_scenario(s, tmp_path / "many", workers=1, progress=False, chunk_size=30)
    (run,) = verified_runs(one.path)
    first = run.scan().filter(pl.col("game") < 40).collect().sort("game")
    first = first.with_columns(pl.col("hand_checkpoints").cast(pl.Binary))
    for point in verified_runs(many.path):
        assert point.scan().collect().sort("game").equals(first), point.path.name


def test_the_overhead_is_the_median_of_pairs_taken_in_alternating_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seconds = {"single": iter([1.0, 2.0, 1.0]), "sweep": iter([1.2, 2.2, 1.5])}
    order: list[str] = []

    def fake_run(path: Path, out: Path, workers: int, scheduler: str | None) -> float:
        kind = "sweep" if "sweep" in path.name else "single"
        order.append(kind)
        return next(seconds[kind])

    whole = iter([2.0, 4.0, 2.5, 3.0, 2.0, 3.0])  # single, sweep; sweep, single; ...
    monkeypatch.setattr(sweeps, "_run_seconds", fake_run)
    monkeypatch.setattr(sweeps, "timed_cpu", lambda args: (next(whole), 0.0))
    suite = Suite(1_000_000, 3, machine_info())
    suite.sweeps = sweeps.measure_sweep_overhead(1_000_000, 3, tmp_path, 2)
    assert order == ["single", "sweep", "sweep", "single", "single", "sweep"]
    alone, commands = suite.sweeps
    assert alone.value == pytest.approx(1.2)  # 1.2/1, 2.2/2 = 1.1, 1.5/1 (median 1.2)
    assert "median of 3 paired ratios (1.10-1.50)" in alone.note
    assert "single 1.0 s, sweep 1.5 s (medians): +0.5 ms a point" in alone.note
    assert alone.what == "sweep of 1,000 points x 1,000 games / one run of 1,000,000 games"
    assert commands.value == pytest.approx(1.5)  # 4/2, 2.5/3, 3/2
    text = render_markdown(bench_document(suite, "uno-stats bench --report", None))
    assert "## Sweeps" in text and "python scripts/sweep_overhead.py --games 1000000" in text


def test_on_a_cluster_only_the_runs_are_timed(tmp_path: Path, monkeypatch) -> None:
    calls: list[str | None] = []
    monkeypatch.setattr(
        sweeps, "_run_seconds", lambda path, out, w, scheduler: calls.append(scheduler) or 1.0
    )
    (row,) = sweeps.measure_sweep_overhead(20_000, 2, tmp_path, 2, "tcp://127.0.0.1:1")
    assert calls == ["tcp://127.0.0.1:1"] * 4 and "on the Dask cluster" in row.what
    assert "--scheduler tcp://127.0.0.1:1" in row.command


def _plans(tmp_path: Path, points: tuple[int, ...], monkeypatch) -> Suite:
    monkeypatch.setattr(sweeps, "PLAN_POINTS", points)
    suite = Suite(1000, 1, machine_info())
    suite.sweep_plans = sweeps.measure_sweep_plans(tmp_path)
    return suite


def test_a_plan_and_its_manifest_are_measured(tmp_path: Path, monkeypatch) -> None:
    suite = _plans(tmp_path, (1_000,), monkeypatch)
    plan, manifest = suite.sweep_plans
    assert plan.what == "plan of 1,000 points x 1,000 games" and plan.unit == "MiB peak traced"
    assert "(20 chunks, 1,000 slices)" in plan.note and 0 < plan.value < 64
    assert manifest.unit == "KiB" and 0 < manifest.value < 64
    assert not list(tmp_path.glob("plan-*/"))


@pytest.mark.slow
def test_a_plan_of_100000_points_stays_small(tmp_path: Path, monkeypatch) -> None:
    """The limit's plan holds no object per point: its traced memory and its manifest are
    within 2x of a 1,000-point sweep's (the file's axis values are its only growth)."""
    suite = _plans(tmp_path, (1_000, 100_000), monkeypatch)
    small, small_manifest, big, big_manifest = suite.sweep_plans
    assert "(2,000 chunks, 100,000 slices)" in big.note
    assert big.value < 2 * small.value and big_manifest.value < 2 * small_manifest.value

"""The runner: determinism across workers and chunkings, resume, failures, sweeps, Dask."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from uno_stats.errors import RunError
from uno_stats.run import backends, plan, tasks
from uno_stats.run.plan import default_chunk_size
from uno_stats.run.runner import RunInterrupted, run_scenario
from uno_stats.scenario.load import load_scenario, with_overrides
from uno_stats.store.manifest import (
    SweepManifest,
    read_manifest,
    read_run_manifest,
    write_manifest,
)
from uno_stats.store.runs import open_runs

TINY = """\
name: tiny
players: 4
games: 1200
seed: 7
rules:
  preset: mattel-2022
"""
MATCHES = """\
name: tiny-match
players: 3
games: 40
seed: 11
rules:
  preset: mattel-2022
match:
  target: 200
"""
SWEEP = """\
name: tiny-sweep
players: 4
games: 300
seed: 3
rules:
  preset: mattel-2022
sweep:
  players: [2, 3]
  rules.stack_draw_two: [false, true]
"""


def scenario(tmp_path: Path, text: str = TINY, **overrides):
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    return with_overrides(load_scenario(path), **overrides)


def frame(path: Path) -> pl.DataFrame:
    """Every row of a run (or sweep), in game order: independent of how it was chunked."""
    frames = [run.scan().collect() for run in open_runs(path)]
    return pl.concat(frames).sort("game", "round")


def run_quiet(s, out: Path, **kwargs):
    return run_scenario(s, out_dir=out, progress=False, **kwargs)


REAL_RUN_CHUNK = tasks.run_chunk


class Counting:
    """A stand-in for ``tasks.run_chunk`` that records calls and can fail on one chunk."""

    def __init__(self, fail_at: int | None = None, exc: BaseException | None = None) -> None:
        self.calls: list[int] = []
        self.fail_at = fail_at
        self.exc = exc or ValueError("boom")

    def __call__(self, config, first_game, n_games):
        if first_game == self.fail_at:
            raise self.exc
        self.calls.append(first_game)
        return REAL_RUN_CHUNK(config, first_game, n_games)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> pl.DataFrame:
    """The tiny scenario run in-process with the default chunk size."""
    tmp = tmp_path_factory.mktemp("reference")
    run_quiet(scenario(tmp), tmp / "out", workers=1)
    return frame(tmp / "out" / "tiny")


@pytest.mark.parametrize(("workers", "chunk_size"), [(1, 170), (2, 400), (2, None)])
def test_same_results_whatever_workers_and_chunks(tmp_path, reference, workers, chunk_size):
    outcome = run_quiet(
        scenario(tmp_path), tmp_path / "out", workers=workers, chunk_size=chunk_size
    )
    assert outcome.games == 1200
    assert outcome.resumed_chunks == 0
    got = frame(outcome.path)
    assert got.height == 1200
    assert got.equals(reference)
    assert got["game"].to_list() == list(range(1200))


def test_matches_same_results_whatever_chunks(tmp_path):
    a = run_quiet(scenario(tmp_path, MATCHES), tmp_path / "a", workers=1, chunk_size=7)
    b = run_quiet(scenario(tmp_path, MATCHES), tmp_path / "b", workers=2, chunk_size=40)
    fa, fb = frame(a.path), frame(b.path)
    assert fa.height >= 40
    assert fa.equals(fb)
    assert fa["game"].unique().sort().to_list() == list(range(40))


def test_manifest_fields(tmp_path):
    s = scenario(tmp_path)
    outcome = run_quiet(s, tmp_path / "out", workers=1, chunk_size=500)
    m = read_run_manifest(outcome.path)
    assert m.name == "tiny" and m.seed == 7 and m.games == 1200
    assert m.scenario_data == json.loads(json.dumps(s.to_dict()))
    assert (m.chunk_size, m.chunks_done, m.rows, m.complete) == (500, 3, 1200, True)
    assert m.sweep_label is None and m.sweep_assignment is None
    assert m.wall_time_s > 0 and m.games_per_s > 0
    assert m.version and m.created and len(m.config_hash) == 16
    assert [p.name for p in outcome.runs[0].part_files()] == [
        "part-000000.parquet",
        "part-000001.parquet",
        "part-000002.parquet",
    ]


def test_resume_recomputes_only_missing_chunk(tmp_path, monkeypatch, reference):
    s = scenario(tmp_path)
    out = tmp_path / "out"
    first = run_quiet(s, out, workers=1, chunk_size=300)
    (first.path / "parts" / "part-000002.parquet").unlink()
    manifest = read_run_manifest(first.path)
    manifest.complete = False
    write_manifest(first.path, manifest)

    counting = Counting()
    monkeypatch.setattr(tasks, "run_chunk", counting)
    # Another worker count would default to another chunk size: the folder's own is kept.
    again = run_quiet(s, out, workers=1)
    assert counting.calls == [600]
    assert again.resumed_chunks == 3
    assert read_run_manifest(again.path).complete is True
    assert frame(again.path).equals(reference)

    counting.calls.clear()
    run_quiet(s, out, workers=1)
    assert counting.calls == []


def test_other_scenario_in_folder_needs_fresh(tmp_path):
    out = tmp_path / "out"
    run_quiet(scenario(tmp_path), out, workers=1, chunk_size=600)
    changed = scenario(tmp_path, seed=8)
    with pytest.raises(RunError, match="--fresh"):
        run_quiet(changed, out, workers=1)
    with pytest.raises(RunError, match="--fresh"):
        run_quiet(scenario(tmp_path), out, workers=1, chunk_size=300)
    outcome = run_quiet(changed, out, workers=1, chunk_size=600, fresh=True)
    assert outcome.resumed_chunks == 0
    assert read_run_manifest(outcome.path).seed == 8


def test_changed_engine_code_needs_fresh(tmp_path, monkeypatch):
    out = tmp_path / "out"
    run_quiet(scenario(tmp_path), out, workers=1, chunk_size=600)
    monkeypatch.setattr(plan, "engine_hash", lambda: "another-engine")
    with pytest.raises(RunError, match="its engine"):
        run_quiet(scenario(tmp_path), out, workers=1)


def test_refuses_folder_that_is_not_results(tmp_path):
    (tmp_path / "out" / "tiny").mkdir(parents=True)
    (tmp_path / "out" / "tiny" / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="not a results folder"):
        run_quiet(scenario(tmp_path), tmp_path / "out", workers=1, fresh=True)
    assert (tmp_path / "out" / "tiny" / "notes.txt").exists()


def test_failing_chunk_names_chunk_and_seed_and_keeps_parts(tmp_path, monkeypatch):
    monkeypatch.setattr(tasks, "run_chunk", Counting(fail_at=600))
    with pytest.raises(RunError) as info:
        run_quiet(scenario(tmp_path), tmp_path / "out", workers=1, chunk_size=300)
    message = str(info.value)
    assert "chunk 2 (games 600-899, seed 7) failed" in message
    assert "boom" in message
    run_dir = tmp_path / "out" / "tiny"
    parts = sorted(p.name for p in (run_dir / "parts").iterdir())
    assert parts == ["part-000000.parquet", "part-000001.parquet"]
    manifest = read_run_manifest(run_dir)
    assert manifest.complete is False and manifest.chunks_done == 2


@pytest.mark.skipif(backends.START_METHOD != "fork", reason="spawned workers re-import run_chunk")
def test_failing_chunk_in_pool_worker(tmp_path, monkeypatch):
    # Pool workers are forked (backends.START_METHOD), so they see the patched chunk function.
    monkeypatch.setattr(tasks, "run_chunk", Counting(fail_at=600))
    with pytest.raises(RunError, match=r"chunk 2 \(games 600-899, seed 7\) failed: ValueError"):
        run_quiet(scenario(tmp_path), tmp_path / "out", workers=2, chunk_size=300)
    run_dir = tmp_path / "out" / "tiny"
    assert not (run_dir / "parts" / "part-000002.parquet").exists()
    assert read_run_manifest(run_dir).complete is False


def test_ctrl_c_keeps_parts_and_resumes(tmp_path, monkeypatch, reference):
    s = scenario(tmp_path)
    monkeypatch.setattr(tasks, "run_chunk", Counting(fail_at=900, exc=KeyboardInterrupt()))
    with pytest.raises(RunInterrupted) as info:
        run_quiet(s, tmp_path / "out", workers=1, chunk_size=300)
    assert (info.value.games_done, info.value.games_total) == (900, 1200)
    assert read_run_manifest(tmp_path / "out" / "tiny").complete is False
    counting = Counting()
    monkeypatch.setattr(tasks, "run_chunk", counting)
    outcome = run_quiet(s, tmp_path / "out", workers=1)
    assert counting.calls == [900]
    assert frame(outcome.path).equals(reference)


def test_a_sweep_is_one_dataset_with_a_point_column(tmp_path):
    s = scenario(tmp_path, SWEEP)
    outcome = run_quiet(s, tmp_path / "out", workers=2)
    labels = [p.label for p in s.sweep_points()]
    assert len(labels) == 4
    sweep = read_manifest(outcome.path)
    assert isinstance(sweep, SweepManifest) and sweep.points == 4 and sweep.complete is True
    assert sorted(p.name for p in outcome.path.iterdir()) == [".lock", "manifest.json", "parts"]
    parts = sorted((outcome.path / "parts").iterdir())
    assert len(parts) == sweep.chunks and sweep.chunks == -(-4 * 300 // sweep.chunk_size)
    assert sweep.name == "tiny-sweep" and sweep.seed == 3 and sweep.axes == s.sweep
    assert [r.path.name for r in outcome.runs] == labels
    for run, point in zip(outcome.runs, s.sweep_points(), strict=True):
        assert run.manifest.sweep_label == point.label
        assert run.manifest.sweep_assignment == point.assignment
        assert run.manifest.complete is True and run.players == point.scenario.players
        assert run.scan().select(pl.len()).collect().item() == 300
    assert outcome.games == 4 * 300
    assert len(open_runs(outcome.path)) == 4


def test_default_chunk_size(tmp_path):
    s = scenario(tmp_path)
    assert default_chunk_size(with_overrides(s, games=10_000_000), 2) == plan.ROUND_CHUNK
    small = default_chunk_size(s, 2)
    assert 1200 / small >= plan.MIN_CHUNKS_PER_WORKER * 2
    m = scenario(tmp_path, MATCHES, games=1_000_000)
    assert default_chunk_size(m, 2) == plan.MATCH_CHUNK


@pytest.mark.slow
def test_dask_cluster_gives_same_results(tmp_path, reference):
    distributed = pytest.importorskip("dask.distributed")
    sweep = scenario(tmp_path, SWEEP)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        outcome = run_quiet(
            scenario(tmp_path), tmp_path / "out", workers=2, scheduler=cluster.scheduler_address
        )
        swept = run_quiet(sweep, tmp_path / "sweep", workers=2, scheduler=cluster.scheduler_address)
    assert frame(outcome.path).equals(reference)
    local = run_quiet(sweep, tmp_path / "local", workers=1)
    for remote, here in zip(swept.runs, local.runs, strict=True):  # a sweep's points too
        assert remote.scan().collect().sort("game").equals(here.scan().collect().sort("game"))


def test_sweep_points_equal_the_same_points_run_one_by_one(tmp_path):
    s = scenario(tmp_path, SWEEP)
    swept = run_quiet(s, tmp_path / "sweep", workers=2)
    for run, point in zip(swept.runs, s.sweep_points(), strict=True):
        alone = run_quiet(point.scenario, tmp_path / "alone" / point.label, workers=1)
        mine = run.scan().collect().sort("game", "round")
        assert mine.equals(frame(alone.path)), point.label

"""More than one machine, as README "From one laptop to a Dask cluster" sets it up: a
``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, a run sent to them with
``--scheduler tcp://...``, results identical to a local run, and ``bench --scheduler``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from uno_stats.cli import app
from uno_stats.store.runs import open_runs

pytest.importorskip("dask.distributed")

SCENARIO = """\
name: cluster
players: 4
games: 3000
seed: 19
rules:
  preset: mattel-2022
"""


def _dask_command(tmp_path: Path) -> list[str]:
    script = Path(sys.executable).parent / "dask"
    if not script.exists():
        pytest.skip("no `dask` command beside this Python (pip install 'uno-stats[dask]')")
    return [str(script)]


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[str]:
    """The address of a scheduler with two single-thread worker processes, all on 127.0.0.1."""
    procs: list[subprocess.Popen] = []
    yield from _cluster(tmp_path, procs)


@pytest.fixture
def cluster_procs(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen]]]:
    """The cluster of :func:`cluster` and its processes (scheduler first, then workers)."""
    procs: list[subprocess.Popen] = []
    for address in _cluster(tmp_path, procs):
        yield address, procs


def _cluster(tmp_path: Path, procs: list[subprocess.Popen]) -> Iterator[str]:
    dask = _dask_command(tmp_path)
    info = tmp_path / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    common = {"cwd": tmp_path, "env": env, "stdout": subprocess.DEVNULL}
    scheduler = ["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"]
    procs.append(
        subprocess.Popen(
            [*dask, *scheduler, "--scheduler-file", str(info)],
            stderr=(tmp_path / "scheduler.log").open("w"),
            **common,
        )
    )
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert info.exists(), (tmp_path / "scheduler.log").read_text()
        for i in range(2):
            worker = ["worker", "--scheduler-file", str(info), "--nthreads", "1", "--no-dashboard"]
            procs.append(
                subprocess.Popen(
                    [*dask, *worker, "--local-directory", str(tmp_path / f"w{i}")],
                    stderr=(tmp_path / f"worker{i}.log").open("w"),
                    **common,
                )
            )
        from dask.distributed import Client

        address = json.loads(info.read_text())["address"]
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in reversed(procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def frame(path: Path) -> pl.DataFrame:
    return pl.concat(run.scan().collect() for run in open_runs(path)).sort("game")


@pytest.mark.slow
def test_run_on_spawned_scheduler_and_two_workers_equals_local_run(tmp_path, cluster):
    path = tmp_path / "cluster.yaml"
    path.write_text(SCENARIO)
    cli = CliRunner()
    local = cli.invoke(app, ["run", str(path), "-o", str(tmp_path / "local"), "-w", "1", "-q"])
    assert local.exit_code == 0, local.output
    remote = cli.invoke(
        app, ["run", str(path), "-o", str(tmp_path / "dask"), "-q", "--scheduler", cluster]
    )
    assert remote.exit_code == 0, remote.output
    parts = sorted(p.name for p in (tmp_path / "dask" / "cluster" / "parts").iterdir())
    assert len(parts) >= 2  # the parent wrote every chunk's part into its own folder
    assert frame(tmp_path / "dask" / "cluster").equals(frame(tmp_path / "local" / "cluster"))
    bench = cli.invoke(app, ["bench", "-n", "2000", "--scheduler", cluster])
    assert bench.exit_code == 0, bench.output
    assert cluster in bench.stdout and "rounds/s" in bench.stdout


BIG_SWEEP = (
    "name: big-sweep\nplayers: 3\ngames: 4\nseed: 23\nrules: {preset: classic-house}\n"
    "sweep:\n  rules.max_turns: ["
    + ", ".join(str(5000 + i) for i in range(100))
    + "]\n  strategies.forget_uno: ["
    + ", ".join(str(i / 100) for i in range(100))
    + "]\n"
)
"""10,000 points of 4 games: the points' fixed costs, not the games, are the work."""


def dataset(folder: Path) -> pl.DataFrame:
    """Every row of a sweep dataset, by point and game (read straight from its parts)."""
    return pl.read_parquet(sorted((folder / "parts").glob("*.parquet"))).sort(
        "point", "game", "round"
    )


@pytest.mark.slow
def test_a_10000_point_sweep_on_the_cluster_survives_a_killed_worker(tmp_path, cluster_procs):
    """The sweep on the scheduler and two worker processes, one worker killed once the first
    parts are written: Dask hands its chunks to the other, and the dataset is the local one."""
    import threading

    from uno_stats.run.runner import run_scenario
    from uno_stats.scenario.load import parse_scenario
    from uno_stats.store.manifest import read_manifest
    from uno_stats.store.verify import check_run

    address, procs = cluster_procs
    s = parse_scenario(BIG_SWEEP)
    assert s.point_count == 10_000
    # the local run in its default chunks (10,000 games), the cluster's in chunks of 2,000
    local = run_scenario(s, tmp_path / "local", workers=1, progress=False)
    killed: list[int] = []  # how many parts were on disk when the worker was killed

    def kill_a_worker() -> None:
        parts = tmp_path / "dask" / "big-sweep" / "parts"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(list(parts.glob("part-*.parquet"))) < 2:
            time.sleep(0.05)
        procs[1].kill()
        killed.append(len(list(parts.glob("part-*.parquet"))))

    killer = threading.Thread(target=kill_a_worker, daemon=True)
    killer.start()
    remote = run_scenario(s, tmp_path / "dask", progress=False, scheduler=address, chunk_size=2000)
    killer.join(timeout=5)
    manifest = read_manifest(remote.path)
    assert killed and killed[0] < manifest.chunks, f"killed after {killed} of 20 parts"
    assert check_run(remote.path, manifest).complete and manifest.chunk_size == 2000
    assert read_manifest(local.path).chunk_size == 10_000
    assert dataset(remote.path).equals(dataset(local.path))

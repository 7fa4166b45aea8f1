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
    dask = _dask_command(tmp_path)
    info = tmp_path / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    common = {"cwd": tmp_path, "env": env, "stdout": subprocess.DEVNULL}
    scheduler = ["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"]
    procs = [
        subprocess.Popen(
            [*dask, *scheduler, "--scheduler-file", str(info)],
            stderr=(tmp_path / "scheduler.log").open("w"),
            **common,
        )
    ]
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

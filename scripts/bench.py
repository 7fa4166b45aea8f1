"""Benchmark uno-stats: engine rounds/s by worker count, and cold vs warm start of a run.

Usage: .venv/bin/python scripts/bench.py [--games N] [--scenario PATH] [--start-games N]
Prints two tables and writes bench-results/bench.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from tabulate import tabulate

from uno_stats.run.bench import benchmark, load_bench_scenario, notes, results_table
from uno_stats.run.results import tool_version

OUT = Path("bench-results")


def time_run(scenario: str | None, games: int, workers: int, cache_dir: str, out: str) -> float:
    """Seconds for a whole `uno-stats run` in a fresh process using numba cache ``cache_dir``."""
    path = scenario or str(Path(out) / "bench.yaml")
    if scenario is None:
        from uno_stats.run.bench import DEFAULT_SCENARIO

        Path(path).write_text(DEFAULT_SCENARIO)
    cmd = [sys.executable, "-m", "uno_stats.cli", "run", path, "--games", str(games)]
    cmd += ["--workers", str(workers), "--out", out, "--quiet", "--fresh"]
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    started = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def start_time(scenario: str | None, games: int, workers: int) -> dict:
    """Cold (empty numba cache: compiles) then warm (cache filled) start of a small run."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        cold = time_run(scenario, games, workers, cache, out)
        warm = time_run(scenario, games, workers, cache, out)
    return {"workers": workers, "games": games, "cold_s": cold, "warm_s": warm}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="games per throughput run")
    parser.add_argument("--scenario", default=None, help="scenario file (default: built-in 4p)")
    parser.add_argument("--start-games", type=int, default=2000, help="games for start timing")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="most workers")
    args = parser.parse_args()

    counts = sorted({1, args.workers})
    scenario = load_bench_scenario(Path(args.scenario) if args.scenario else None)
    results = benchmark(scenario, args.games, counts)
    print(f"Throughput: {scenario.name}, {scenario.players} players\n")
    print(results_table(results))
    print(notes(results) + "\n")

    start = start_time(args.scenario, args.start_games, args.workers)
    print(f"Start-up: a whole `uno-stats run --games {args.start_games}` in a new process\n")
    table = [[start["workers"], f"{start['cold_s']:.2f}", f"{start['warm_s']:.2f}"]]
    print(tabulate(table, ["workers", "cold s (empty numba cache)", "warm s (cache filled)"]))

    OUT.mkdir(exist_ok=True)
    report = {
        "version": tool_version(),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "scenario": scenario.to_dict(),
        "throughput": [r.to_dict() for r in results],
        "start": start,
    }
    (OUT / "bench.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwrote {OUT / 'bench.json'}")


if __name__ == "__main__":
    main()

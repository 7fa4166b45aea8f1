"""A sweep's overhead per point, its plan's memory and its manifest's size (issue 22).

Usage: .venv/bin/python scripts/sweep_overhead.py [--games N] [--points K] [--workers W]
    [--scheduler ADDRESS] [--pairs P] [--plans POINTS ...]

Times a sweep of K (1,000) points of N / K games whose points play identical games (a turn
cap that never binds) against one run of the same N games, in pairs, each run in a fresh
process (uno_stats/bench/sweeps.py), on W local workers or on the Dask cluster at ADDRESS;
with --plans, only measures the plan and manifest of sweeps of those sizes. The same
measurements are part of ``uno-stats bench --report`` (``make bench``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tabulate import tabulate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from uno_stats.bench import sweeps  # noqa: E402
from uno_stats.bench.suite import machine_info  # noqa: E402
from uno_stats.present.bench_report import _value  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games of each side")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", help="a Dask scheduler's address")
    parser.add_argument("--pairs", type=int, default=sweeps.OVERHEAD_PAIRS)
    parser.add_argument("--points", type=int, default=sweeps.SWEEP_POINTS, help="sweep points")
    parser.add_argument("--plans", type=int, nargs="*", help="only plan sweeps of these sizes")
    args = parser.parse_args(argv)
    sweeps.OVERHEAD_PAIRS = sweeps.COMMAND_PAIRS = args.pairs
    sweeps.SWEEP_POINTS = args.points
    load = machine_info()["load average at start (1, 5, 15 min)"]
    with tempfile.TemporaryDirectory(prefix="uno-sweeps-") as tmp:
        if args.plans is not None:
            sweeps.PLAN_POINTS = tuple(args.plans) or sweeps.PLAN_POINTS
            found = sweeps.measure_sweep_plans(Path(tmp))
        else:
            found = sweeps.measure_sweep_overhead(
                args.games, args.pairs, Path(tmp), args.workers, args.scheduler
            )
    rows = [[r.what, _value(r), r.note] for r in found]
    print(tabulate(rows, ["what", "value", "note"], maxcolwidths=[40, 30, 80]))
    print(f"\nload average at start: {load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

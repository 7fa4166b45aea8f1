"""What a sweep costs beyond its games: the overhead per point, the plan and the manifest.

Issue 22 asks that a sweep of 1,000 points x 1,000 games whose points play identical games
run within 1.3x of one run of the same 1,000,000 games at the same worker count. The
sweep's points differ only in ``rules.max_turns`` (10,000 and up: a turn cap that never
binds), so every point plays games of the same length as the single run's. Each pair of
timings runs the single run and the sweep one after the other (the order alternating), each
in a fresh process, timed inside it from loading the scenario file to the run's last
manifest (planning, pool, every part written and its manifest, the final verification);
the median of the pairs' ratios is kept, so that a shared machine's drift cancels. The
same pair as whole ``uno-stats run`` commands adds each one's printed summary (a sweep's:
its points table and its effects). The plan's memory and the manifest's size are measured
at 1,000, 10,000 and 100,000 points (the limit).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from uno_stats.bench.throughput import bench_scenario_text
from uno_stats.bench.timing import Row, cli_command, median, median_interval, timed_cpu
from uno_stats.errors import UnoStatsError

SWEEP_POINTS = 1_000
"""Points of the overhead sweep (its games: the measurement's games over these)."""
TURN_CAP = 10_000
"""The first point's ``max_turns``: the preset's own cap, which no round reaches."""
OVERHEAD_PAIRS = 5
"""Pairs of timings (single run, sweep) at most (``repeat`` when smaller)."""
COMMAND_PAIRS = 3
"""Pairs of whole ``uno-stats run`` commands at most (a sweep's summary takes seconds)."""
PLAN_POINTS = (1_000, 10_000, 100_000)
"""Sweep sizes whose plan memory and manifest size are measured."""
PLAN_GAMES = 1_000
"""Games per point of those plans (100,000,000 games at 100,000 points)."""

_RUN_TIME = (
    "import sys, time\n"
    "from uno_stats.run.runner import run_scenario\n"
    "from uno_stats.scenario.load import load_scenario\n"
    "path, out, workers, scheduler = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]\n"
    "started = time.perf_counter()\n"
    "run_scenario(load_scenario(path), out, workers=workers, progress=False,\n"
    "             scheduler=scheduler or None)\n"
    "print(time.perf_counter() - started)\n"
)
"""Times one run in a fresh process, from loading its scenario file to its last manifest."""

_PLAN = (
    "import json, sys, time, tracemalloc\n"
    "from pathlib import Path\n"
    "from uno_stats.run.sweep_plan import plan_sweep\n"
    "from uno_stats.scenario.load import load_scenario\n"
    "from uno_stats.store.manifest import MANIFEST, write_manifest\n"
    "out = Path(sys.argv[2])\n"
    "tracemalloc.start()\n"
    "started = time.perf_counter()\n"
    "plan = plan_sweep(load_scenario(sys.argv[1]), out, None, 2, lambda note: None)\n"
    "planned = time.perf_counter() - started\n"
    "slices = sum(len(plan.slices(chunk)) for chunk in plan.todo)\n"
    "peak = tracemalloc.get_traced_memory()[1]\n"
    "out.mkdir(parents=True)\n"
    "write_manifest(out, plan.manifest)\n"
    "print(json.dumps({'peak': peak, 'seconds': planned, 'chunks': plan.n_chunks,\n"
    "                  'slices': slices, 'bytes': (out / MANIFEST).stat().st_size}))\n"
)
"""Loads and plans a sweep in a fresh process, then generates every chunk's work: the
peak of Python's traced allocations (numpy's included), the planning time, and the bytes
of the manifest it writes."""


def overhead_files(folder: Path, games: int, points: int = SWEEP_POINTS) -> tuple[Path, Path]:
    """The single run of ``games`` games and the sweep of ``points`` points of
    ``games // points`` games (at least one each) on the bench table, as scenario files."""
    per_point = max(1, games // points)
    table = bench_scenario_text()
    single = folder / "overhead-single.yaml"
    single.write_text(table.replace("games: 200000", f"games: {per_point * points}"))
    caps = ", ".join(str(TURN_CAP + i) for i in range(points))
    sweep = folder / "overhead-sweep.yaml"
    sweep.write_text(
        table.replace("games: 200000", f"games: {per_point}")
        + f"sweep:\n  rules.max_turns: [{caps}]\n"
    )
    return single, sweep


def _run_seconds(path: Path, out: Path, workers: int, scheduler: str | None) -> float:
    """Seconds of one run of ``path`` into ``out`` in a fresh process (:data:`_RUN_TIME`);
    the folder is removed afterwards."""
    args = [sys.executable, "-c", _RUN_TIME, str(path), str(out), str(workers), scheduler or ""]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    shutil.rmtree(out, ignore_errors=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise UnoStatsError(f"bench: timing a run of {path.name} failed: {last}")
    return float(done.stdout.split()[-1])


def _pairs(
    timed: Callable[[Path, Path], float], single: Path, sweep: Path, folder: Path, pairs: int
) -> list[tuple[float, float]]:
    """``pairs`` pairs of (single, sweep) seconds, the order alternating from pair to pair."""
    out = []
    for turn in range(pairs):
        order = [(single, "single"), (sweep, "sweep")]
        if turn % 2:
            order.reverse()
        seconds = {kind: timed(path, folder / f"{kind}-{turn}") for path, kind in order}
        out.append((seconds["single"], seconds["sweep"]))
    return out


def _overhead_row(
    what: str, pairs: list[tuple[float, float]], points: int, command: str, extra: str
) -> Row:
    """The median ratio sweep / single of ``pairs``, with the overhead per point."""
    ratios = [sweep / single for single, sweep in pairs]
    single_s = median([single for single, _ in pairs])
    sweep_s = median([sweep for _, sweep in pairs])
    per_point = (sweep_s - single_s) / points * 1000
    return Row(
        what,
        median(ratios),
        "x the single run",
        command,
        f"median of {len(pairs)} paired ratios ({min(ratios):.2f}-{max(ratios):.2f}), the "
        f"order alternating; single {single_s:.1f} s, sweep {sweep_s:.1f} s (medians): "
        f"{per_point:+.1f} ms a point{extra}",
        median_interval(ratios),
    )


def measure_sweep_overhead(
    games: int, repeat: int, folder: Path, workers: int, scheduler: str | None = None
) -> list[Row]:
    """The sweep against the single run of ``games`` games (see the module doc), ``repeat``
    pairs at most: the runs alone, and (locally) the whole ``run`` commands with their
    printed summaries."""
    single, sweep = overhead_files(folder, games, SWEEP_POINTS)
    per_point = max(1, games // SWEEP_POINTS)
    where = f" on the Dask cluster at {scheduler}" if scheduler else ""
    pairs = _pairs(
        lambda path, out: _run_seconds(path, out, workers, scheduler),
        single,
        sweep,
        folder,
        max(1, min(OVERHEAD_PAIRS, repeat)),
    )
    flag = f"--scheduler {scheduler}" if scheduler else f"--workers {workers}"
    rows = [
        _overhead_row(
            f"sweep of {SWEEP_POINTS:,} points x {per_point:,} games / one run of "
            f"{SWEEP_POINTS * per_point:,} games{where}",
            pairs,
            SWEEP_POINTS,
            f"python scripts/sweep_overhead.py --games {games} --points {SWEEP_POINTS} {flag}",
            "; the run alone, in a fresh process: load, plan, play, write, verify",
        )
    ]
    if scheduler:
        return rows
    args = ["--workers", str(workers), "--quiet"]

    def command(path: Path, out: Path) -> float:
        seconds = timed_cpu([*cli_command(), "run", str(path), "--out", str(out), *args])[0]
        shutil.rmtree(out, ignore_errors=True)
        return seconds

    whole = _pairs(command, single, sweep, folder, max(1, min(COMMAND_PAIRS, repeat)))
    rows.append(
        _overhead_row(
            "the same as whole `uno-stats run` commands",
            whole,
            SWEEP_POINTS,
            f"uno-stats run overhead-sweep.yaml --workers {workers} --quiet (and "
            "overhead-single.yaml)",
            "; process start and the printed summary included (the sweep's: its points "
            f"table and the effects of its {SWEEP_POINTS - 1:,} terms)",
        )
    )
    return rows


def plan_file(folder: Path, points: int) -> Path:
    """A sweep of ``points`` points (``max_turns`` values times ``forget_uno`` values) of
    :data:`PLAN_GAMES` games each, as a scenario file."""
    caps = min(points, 1_000)
    knobs = points // caps
    path = folder / f"plan-{points}.yaml"
    text = bench_scenario_text().replace("games: 200000", f"games: {PLAN_GAMES}")
    text += "sweep:\n  rules.max_turns: [" + ", ".join(str(TURN_CAP + i) for i in range(caps))
    text += "]\n"
    if knobs > 1:
        text += "  strategies.forget_uno: [" + ", ".join(str(k / knobs) for k in range(knobs))
        text += "]\n"
    path.write_text(text)
    return path


def measure_sweep_plans(folder: Path) -> list[Row]:
    """Plan memory, planning time and manifest size at :data:`PLAN_POINTS` points."""
    rows = []
    for points in PLAN_POINTS:
        path = plan_file(folder, points)
        out = folder / f"plan-{points}"
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _PLAN, str(path), str(out)],
            capture_output=True,
            text=True,
            check=False,
        )
        shutil.rmtree(out, ignore_errors=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise UnoStatsError(f"bench: planning a sweep of {points:,} points failed: {last}")
        found = json.loads(done.stdout.splitlines()[-1])
        command = f"python scripts/sweep_overhead.py --plans {points}"
        rows.append(
            Row(
                f"plan of {points:,} points x {PLAN_GAMES:,} games",
                found["peak"] / 2**20,
                "MiB peak traced",
                command,
                f"tracemalloc peak while loading the file, planning and generating every "
                f"chunk's work ({found['chunks']:,} chunks, {found['slices']:,} slices); "
                f"planned in {found['seconds']:.2f} s; {time.perf_counter() - started:.1f} s "
                "in all with the process start",
            )
        )
        rows.append(
            Row(
                f"manifest of {points:,} points",
                found["bytes"] / 1024,
                "KiB",
                command,
                "manifest.json as written (it records the sweep's scenario, not its points)",
            )
        )
    return rows

"""The measurements behind ``uno-stats bench --report``: each with the command that took it.

Engine throughput (rounds/s) for every preset and every strategy on one worker; the
default table on 1 and 2 workers (the scaling ratio); whole ``uno-stats run`` commands
against the engine alone at the same worker count; start-up times (``--help``,
``validate``, a cached and a cold ``run``); peak memory of a large and a small run, and of
the ``summary`` of each, with the time to summarise 100x the games (synthetic); and,
given the source of the minimal C loop of the official rules (``bench --report --yardstick
PATH``) and a C compiler, that loop as a yardstick. Whole commands run in subprocesses, as
a user types them. Sizes scale with ``games`` so that a quick run is possible.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from uno_stats.bench.throughput import (
    DEFAULT_PRESET,
    DEFAULT_STRATEGY,
    BenchResult,
    benchmark,
    load_bench_scenario,
)
from uno_stats.bench.timing import Row, median_interval
from uno_stats.bench.timing import cli_command as _cli
from uno_stats.bench.timing import median as _median
from uno_stats.bench.timing import timed as _timed
from uno_stats.bench.timing import timed_cpu as _timed_cpu
from uno_stats.errors import UnoStatsError

PROJECT = Path(__file__).resolve().parents[2]
"""The project folder (the one holding ``uno_stats/``)."""
START_GAMES = 2000
"""Games of the start-up runs (a first taste of the tool)."""
QUICK_REPEATS = 5
"""Timings of ``--help`` and ``validate`` (the median is kept)."""


@dataclass
class Suite:
    """Everything ``bench --report`` measured, by section."""

    games: int
    repeat: int
    machine: dict[str, str]
    throughput: list[Row] = field(default_factory=list)  # rounds/s per preset and strategy
    scaling: list[BenchResult] = field(default_factory=list)  # default table, 1 and 2 workers
    scaling_command: str = ""
    end_to_end: list[Row] = field(default_factory=list)  # ratio rows: run vs engine
    run_rates: dict[int, float] = field(default_factory=dict)  # whole-run rounds/s by workers
    costs: list[Row] = field(default_factory=list)  # where a run's CPU goes, per round
    starts: list[Row] = field(default_factory=list)
    memory: list[Row] = field(default_factory=list)
    summary_memory: list[Row] = field(default_factory=list)  # summary: peak memory, 100x time
    sweeps: list[Row] = field(default_factory=list)  # a sweep against one run of its games
    sweep_plans: list[Row] = field(default_factory=list)  # plan memory, manifest bytes
    yardstick: list[Row] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # what was not measured, and why
    seconds: float = 0.0


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info() -> dict[str, str]:
    """The machine and software the figures were measured on."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "-"
    return {
        "cpu": _cpu_model(),
        "cores": str(os.cpu_count()),
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "numba": _version("numba"),
        "numpy": _version("numpy"),
        "polars": _version("polars"),
        "pyarrow": _version("pyarrow"),
        "uno-stats": _version("uno-stats"),
        "load average at start (1, 5, 15 min)": load,
    }


def _table_file(folder: Path) -> tuple[Path, str]:
    """The scenario file the whole-run commands use, and how the report names it."""
    shipped = PROJECT / "scenarios" / "mattel-2022-4p.yaml"
    if shipped.exists():
        return shipped, "scenarios/mattel-2022-4p.yaml"
    from uno_stats.bench.throughput import DEFAULT_SCENARIO

    path = folder / "bench.yaml"
    path.write_text(DEFAULT_SCENARIO)
    return path, "bench.yaml (the built-in bench table)"


SEARCH_SHARE = 5_000
"""``search`` plays a round per rollout of each move (256 a move at its default budget): its
throughput is timed on 1/5,000 of the games (at least 100), so that it costs about what
another strategy does (about 5,000 times slower than ``random`` at four players)."""


def _games_for(strategy: str, games: int) -> int:
    """The games a throughput timing of ``strategy`` plays (fewer for ``search``)."""
    return max(100, games // SEARCH_SHARE) if strategy == "search" else games


def measure_throughput(
    suite: Suite, presets: list[str], strategies: list[str], c_loop: Path | None = None
) -> None:
    """Rounds/s on one worker for each preset (``random`` players) and each strategy, the
    median of ``repeat`` timings; with ``c_loop`` (:func:`build_yardstick`) each timing comes
    right after one of the C loop, and the row notes the median of those paired ratios."""
    from uno_stats.bench.throughput import median_result

    cases = [(p, DEFAULT_STRATEGY) for p in presets]
    cases += [(DEFAULT_PRESET, s) for s in strategies if s != DEFAULT_STRATEGY]
    c_rounds = max(1, min(PAIR_ROUNDS, suite.games))
    for preset, strategy in cases:
        scenario = load_bench_scenario(None, preset, strategy)
        games = _games_for(strategy, suite.games)
        timed, shares = [], []
        for turn in range(max(1, suite.repeat)):
            c_rate = c_loop_rate(c_loop, c_rounds, turn + 1) if c_loop else None
            (result,) = benchmark(scenario, games, [1])
            timed.append(result)
            if c_rate:
                shares.append(result.rounds_per_s / c_rate)
        note = ""
        if shares:
            note = (
                f"{_median(shares):.2f} of the C loop: median of {len(shares)} ratios, each to "
                f"a C timing ({c_rounds:,} rounds) just before"
            )
        suite.throughput.append(
            Row(
                f"{preset}, {strategy}",
                median_result(timed).rounds_per_s,
                "rounds/s",
                f"uno-stats bench --preset {preset} --strategy {strategy} --workers 1 "
                f"--games {games} --repeat {suite.repeat}",
                note,
            )
        )


def measure_scaling(suite: Suite, workers: int, scheduler: str | None = None) -> None:
    """The default table on 1 and ``workers`` workers (or a Dask cluster)."""
    scenario = load_bench_scenario(None)
    suite.scaling = benchmark(scenario, suite.games, sorted({1, workers}), suite.repeat)
    suite.scaling_command = (
        f"uno-stats bench --workers {workers} --games {suite.games} --repeat {suite.repeat}"
    )
    if scheduler:
        suite.scaling += benchmark(scenario, suite.games, [workers], suite.repeat, scheduler)
        suite.scaling_command += f"; the same with --scheduler {scheduler}"


E2E_RUNS = 5
"""Pairs of (engine-only timing, whole ``run``) per worker count (at most ``repeat``)."""


def measure_end_to_end(suite: Suite, folder: Path) -> None:
    """Whole ``uno-stats run`` commands (Parquet, summary, start-up) against the engine alone
    at the same worker count, in pairs: each run right after an engine-only timing of the same
    rounds of the same table, the worker counts taking turns, and the median of the paired
    ratios kept. A shared machine's speed drifts within minutes (docs/PERFORMANCE.md), so a
    run set against an engine figure measured minutes before would measure the drift as much
    as the run."""
    from uno_stats.scenario.load import load_scenario

    path, name = _table_file(folder)
    table = load_scenario(path)
    counts = [r.workers for r in suite.scaling if r.where == "local"]
    pairs: dict[int, list[tuple[float, float, float]]] = {w: [] for w in counts}
    runs = max(1, min(E2E_RUNS, suite.repeat))
    for _ in range(runs):
        for workers in counts:
            (engine,) = benchmark(table, suite.games, [workers])
            args = ["run", str(path), "--games", str(suite.games)]
            args += ["--workers", str(workers)]
            args += ["--out", str(folder / "e2e"), "--quiet", "--fresh"]
            wall, cpu = _timed_cpu([*_cli(), *args])
            pairs[workers].append((engine.seconds, wall, cpu))
    for workers in counts:
        ratios = [engine / wall for engine, wall, _ in pairs[workers]]
        engine_s = _median([engine for engine, _, _ in pairs[workers]])
        wall_s = _median([wall for _, wall, _ in pairs[workers]])
        cpu_s = _median([cpu for _, _, cpu in pairs[workers]])
        suite.run_rates[workers] = suite.games / wall_s
        suite.end_to_end.append(
            Row(
                f"{workers} worker{'s' * (workers > 1)}: {suite.games / wall_s:,.0f} rounds/s "
                f"end to end vs {suite.games / engine_s:,.0f} engine only",
                _median(ratios),
                "of the engine",
                f"uno-stats run {name} --games {suite.games} --workers {workers} --quiet --fresh",
                f"median of {runs} paired ratios ({min(ratios):.2f}-{max(ratios):.2f}), each run "
                f"right after an engine-only timing of the same rounds; run {wall_s:.1f} s wall "
                f"({cpu_s:.1f} s CPU, medians), summary and process start-up included",
                median_interval(ratios),
            )
        )


def measure_starts(suite: Suite, folder: Path, cold: bool) -> None:
    """``--help``, ``validate``, a cached ``run`` and (``cold``) a run on an empty cache."""
    path, name = _table_file(folder)
    quick = [("--help", ["--help"]), ("validate", ["validate", str(path)])]
    for label, args in quick:
        seconds = _median([_timed([*_cli(), *args]) for _ in range(QUICK_REPEATS)])
        shown = "uno-stats " + " ".join(args).replace(str(path), name)
        suite.starts.append(Row(label, seconds, "s", shown, f"median of {QUICK_REPEATS}"))
    run = ["run", str(path), "--games", str(START_GAMES), "--out", str(folder / "start")]
    run += ["--quiet", "--fresh"]
    shown = f"uno-stats run {name} --games {START_GAMES} --quiet --fresh"
    warm = [_timed_cpu([*_cli(), *run]) for _ in range(3)]
    suite.starts.append(
        Row(
            f"run of {START_GAMES:,} rounds, cached engine",
            _median([wall for wall, _ in warm]),
            "s",
            shown,
            f"median of 3; {_median([cpu for _, cpu in warm]):.2f} s CPU",
        )
    )
    if not cold:
        suite.skipped.append("cold start: not asked for (--no-cold)")
        return
    with tempfile.TemporaryDirectory(prefix="uno-cold-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        seconds, cpu = _timed_cpu([*_cli(), *run], env=env)
    suite.starts.append(
        Row(
            f"run of {START_GAMES:,} rounds, empty engine cache (compiles)",
            seconds,
            "s",
            f"NUMBA_CACHE_DIR=$(mktemp -d) {shown}",
            f"{cpu:.0f} s CPU",
        )
    )


_PEAK = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], check=True, capture_output=True)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def measure_memory(suite: Suite, folder: Path) -> None:
    """Peak resident memory of a run of 10x and of 1/10 the games, each in a fresh process.

    ``ru_maxrss`` of ``RUSAGE_CHILDREN`` is the largest single process of the run (the
    parent or one worker), in KiB on Linux.
    """
    path, name = _table_file(folder)
    for games in (max(100, suite.games * 10), max(10, suite.games // 10)):
        args = ["run", str(path), "--games", str(games), "--out", str(folder / "mem")]
        args += ["--quiet", "--fresh"]
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _PEAK, *_cli(), *args],
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - started
        if done.returncode != 0:
            raise UnoStatsError(f"bench: memory run of {games:,} games failed: {done.stderr}")
        kib = int(done.stdout.split()[-1])
        suite.memory.append(
            Row(
                f"run of {games:,} rounds",
                kib / 1024,
                "MiB peak (largest process)",
                f"uno-stats run {name} --games {games} --quiet --fresh",
                "resource.getrusage(RUSAGE_CHILDREN).ru_maxrss of a wrapper process; "
                f"{wall:.1f} s wall, {games / wall:,.0f} rounds/s end to end on the default "
                "workers",
            )
        )
        shutil.rmtree(folder / "mem", ignore_errors=True)


SYNTHETIC_COPIES = 10
"""The 100x summary reads the parts of the 10x run this many times over (a synthetic run)."""
_SUMMARY_TIME = (
    "import sys, time\n"
    "from pathlib import Path\n"
    "from uno_stats.present.report import summary_text\n"
    "from uno_stats.store.manifest import read_run_manifest\n"
    "from uno_stats.store.runs import Run\n"
    "folder = Path(sys.argv[1])\n"
    "started = time.perf_counter()\n"
    "summary_text([Run(folder, read_run_manifest(folder))], 'json')\n"
    "print(time.perf_counter() - started)\n"
)
"""Times ``summary --format json`` of a folder read unverified (every part file counts)."""


def _summary_peak(folder: Path) -> tuple[float, float]:
    """Peak resident MiB and wall seconds of ``summary --format json`` of ``folder``."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, *_cli(), "summary", str(folder), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise UnoStatsError(f"bench: summary of {folder} failed: {done.stderr}")
    return int(done.stdout.split()[-1]) / 1024, time.perf_counter() - started


def measure_summary(suite: Suite, folder: Path) -> None:
    """Peak memory of ``summary`` of a run of ``games`` and of 10x the games, each in a fresh
    process, and the time to summarise 100x the games: a synthetic run whose parts are the
    10x run's, each linked :data:`SYNTHETIC_COPIES` times, read unverified through the API
    (verification would keep one copy)."""
    path, name = _table_file(folder)
    big = max(100, suite.games * 10)
    for games in (suite.games, big):
        out = folder / "summary" / str(games)
        args = ["run", str(path), "--games", str(games), "--out", str(out), "--quiet"]
        subprocess.run([*_cli(), *args], check=True, capture_output=True)
        (run_dir,) = (p.parent for p in out.glob("*/manifest.json"))
        mib, wall = _summary_peak(run_dir)
        suite.summary_memory.append(
            Row(
                f"summary of {games:,} rounds",
                mib,
                "MiB peak",
                f"uno-stats run {name} --games {games} --out OUT; "
                f"uno-stats summary OUT/{run_dir.name} --format json",
                f"resource.getrusage(RUSAGE_CHILDREN).ru_maxrss of a wrapper process; "
                f"{wall:.1f} s wall",
            )
        )
    synthetic = folder / "summary" / "synthetic" / run_dir.name
    (synthetic / "parts").mkdir(parents=True)
    shutil.copy(run_dir / "manifest.json", synthetic / "manifest.json")
    parts = sorted((run_dir / "parts").glob("part-*.parquet"))
    for i in range(SYNTHETIC_COPIES * len(parts)):
        (synthetic / "parts" / f"part-{i:06d}.parquet").symlink_to(parts[i % len(parts)])
    done = subprocess.run(
        [sys.executable, "-c", _SUMMARY_TIME, str(synthetic)],
        capture_output=True,
        text=True,
        check=True,
    )
    suite.summary_memory.append(
        Row(
            f"summary of {big * SYNTHETIC_COPIES:,} rounds (synthetic)",
            float(done.stdout.split()[-1]),
            "s",
            f"python -c 'summary_text([Run(folder, read_run_manifest(folder))], \"json\")' "
            f"on the {big:,}-round run's parts linked {SYNTHETIC_COPIES} times",
            "the summary's computation only (no verification, no process start)",
        )
    )
    shutil.rmtree(folder / "summary", ignore_errors=True)


YARDSTICK_PAIRS = 15
"""Paired timings of the C loop and the engine: enough for a 95% interval of the median ratio
(order statistics: the 4th smallest to the 4th largest of 15 ratios)."""
PAIR_ROUNDS = 250_000
"""Rounds of each side of a pair at most: short pairs, so that both sides of each see the same
seconds of a machine whose speed drifts, and many of them."""


def _bench_engine_rate() -> Callable[[int], float]:
    """A timing of ``rounds`` rounds of the bench table on one worker: rounds/s."""
    scenario = load_bench_scenario(None)
    return lambda rounds: benchmark(scenario, rounds, [1])[0].rounds_per_s


def build_yardstick(suite: Suite, folder: Path, source: Path) -> Path | None:
    """Compile the C loop at ``source`` into ``folder``; None (the reason noted in
    ``suite.skipped``) when there is no source or no C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not source.exists():
        suite.skipped.append(f"C yardstick: {source} does not exist")
        return None
    if compiler is None:
        suite.skipped.append("C yardstick: no C compiler (cc, gcc or clang) on the PATH")
        return None
    binary = folder / Path(compiler).name / "uno_c"  # the folder names the compiler used
    binary.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [compiler, "-O2", "-o", str(binary), str(source), "-lm"], check=True, capture_output=True
    )
    return binary


def _c_loop_command(binary: Path, rounds: int, seed: int) -> list[str]:
    """The C loop's command line: 4 players, ``rounds`` rounds, ``seed``."""
    return [str(binary), "4", str(rounds), str(seed)]


def c_loop_rate(binary: Path, rounds: int, seed: int) -> float | None:
    """Rounds/s of one run of the C loop (4 players), as it times itself; None when its
    output is not the expected line."""
    command = _c_loop_command(binary, rounds, seed)
    return _c_rate(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def measure_yardstick(
    suite: Suite,
    binary: Path,
    source: Path,
    engine_rate: Callable[[int], float] | None = None,
    pairs: int = YARDSTICK_PAIRS,
) -> None:
    """The minimal C loop's rounds/s (``binary``, compiled from ``source`` by
    :func:`build_yardstick`), the engine's share of it (same players, one core) and how far
    the machine scales (copies of the C loop at once against one).

    Each of ``pairs`` turns times the C loop, then as many copies of it at once as the
    engine had workers, then the engine on one worker (``engine_rate(rounds)``, default: the
    bench table), each over the same rounds (:data:`PAIR_ROUNDS` at most). The medians of the
    per-turn ratios are reported, the engine's share with a distribution-free 95% interval
    (:func:`median_interval`), so that both sides of a ratio see the same seconds of a
    machine whose speed drifts and the spread of that drift shows.
    """
    rounds = max(1, min(PAIR_ROUNDS, suite.games))
    top = max((r.workers for r in suite.scaling if r.where == "local"), default=1)
    rate_of_engine = engine_rate or _bench_engine_rate()
    singles, engine_rates, engine_shares = [], [], []
    machine_scaling, together_rates = [], []
    for turn in range(max(1, pairs)):
        c_rate = c_loop_rate(binary, rounds, turn + 1)
        if c_rate is None:
            suite.skipped.append("C yardstick: unexpected output from the C loop")
            return
        singles.append(c_rate)
        if top > 1:  # the machine's own scaling: copies of a loop that shares nothing
            copies = [
                subprocess.Popen(
                    _c_loop_command(binary, rounds, turn * top + k + 1),
                    stdout=subprocess.PIPE,
                    text=True,
                )
                for k in range(top)
            ]
            rates = [_c_rate(proc.communicate()[0]) for proc in copies]
            if all(rate is not None for rate in rates):
                together = sum(rate for rate in rates if rate is not None)
                together_rates.append(together)
                machine_scaling.append(together / c_rate)
        engine_rates.append(rate_of_engine(rounds))
        engine_shares.append(engine_rates[-1] / c_rate)
    turns = len(singles)
    shown = f"{binary.parent.name} -O2 -o uno_c {source} -lm && ./uno_c 4 {rounds} SEED"
    each = f"median of {turns} timings of {rounds:,} rounds" if turns > 1 else ""
    suite.yardstick.append(
        Row("minimal C loop, 4 players", _median(singles), "rounds/s", shown, each)
    )
    interval = median_interval(engine_shares)
    spread = (
        f"; 95% interval of the median {interval[0]:.2f}-{interval[1]:.2f} (order statistics)"
        if interval
        else ""
    )
    fastest = max(engine_rates) / max(singles)
    suite.yardstick.append(
        Row(
            "engine (mattel-2022, 4 random players, 1 worker) / C loop",
            _median(engine_shares),
            "ratio",
            f"uno-stats bench --workers 1 --games {rounds}, in turn with the C loop",
            f"median of {turns} ratios, each of a C timing and the engine timing after it"
            f"{spread}; fastest engine timing / fastest C timing {fastest:.2f}"
            if turns > 1
            else "",
            interval,
        )
    )
    if machine_scaling:
        suite.yardstick.append(
            Row(
                f"{top} copies of the C loop at once (the machine's scaling)",
                _median(machine_scaling),
                "x one copy",
                f"{top} x `./uno_c 4 {rounds} SEED` started together",
                f"{_median(together_rates):,.0f} rounds/s together"
                + (f"; median of {turns} ratios to the single copy before" if turns > 1 else ""),
            )
        )


def _c_rate(output: str) -> float | None:
    """The rounds/s the C loop printed (``games/s=...``), or None."""
    found = re.search(r"games/s=([0-9.]+)", output)
    return float(found.group(1)) if found else None


COST_CHUNKS = 5
"""Chunks played and written to take the per-round costs (the median is kept)."""


def measure_costs(suite: Suite, folder: Path) -> None:
    """CPU microseconds per round to play a chunk and to write its Parquet part, in this
    process, and what they allow end to end: writing overlaps play on a second core with
    one worker, but takes its share of the cores when every core plays."""
    from uno_stats.bench.throughput import warm_up_engine
    from uno_stats.engine import EngineConfig
    from uno_stats.run.tasks import run_chunk
    from uno_stats.scenario.load import with_overrides
    from uno_stats.store.parts import PartMeta, write_part

    size = max(100, min(50_000, suite.games // 4))
    config = EngineConfig.from_scenario(with_overrides(load_bench_scenario(None), games=size))
    warm_up_engine(config)
    play, write = [], []
    for k in range(COST_CHUNKS):
        started = time.thread_time()
        columns = run_chunk(config, k * size, size)
        played = time.thread_time()
        meta = PartMeta("bench", 2026, "bench", k, k * size, size)  # as a run writes it
        write_part(folder / "costs", k, columns, config.players, meta)
        play.append((played - started) / size * 1e6)
        write.append((time.thread_time() - played) / size * 1e6)
    shutil.rmtree(folder / "costs", ignore_errors=True)
    play_us, write_us = _median(play), _median(write)
    shown = f"median of {COST_CHUNKS} chunks of {size:,} rounds, CPU time of one thread"
    where = "uno_stats.bench.suite.measure_costs"
    suite.costs += [
        Row("play a round (engine, result columns)", play_us, "us CPU", where, shown),
        Row("write a round (Arrow, Parquet zstd, digest)", write_us, "us CPU", where, shown),
        Row(
            "share of a core's time left to play when writing takes a core's share",
            play_us / (play_us + write_us),
            "of the engine",
            where,
            "the end-to-end ceiling when every core plays (play / (play + write))",
        ),
    ]


def sweep_overhead(suite: Suite, folder: Path, workers: int, scheduler: str | None) -> None:
    """A sweep against one run of its games, locally and (given one) on the Dask cluster."""
    from uno_stats.bench.sweeps import measure_sweep_overhead

    suite.sweeps += measure_sweep_overhead(suite.games, suite.repeat, folder, workers)
    if scheduler:
        suite.sweeps += measure_sweep_overhead(
            suite.games, suite.repeat, folder, workers, scheduler
        )


def yardstick_loop(suite: Suite, folder: Path, source: Path | None) -> Path | None:
    """The C loop compiled from ``source`` into ``folder`` (:func:`build_yardstick`); None,
    noted in ``suite.skipped``, when no source was given or it could not be built."""
    if source is None:
        suite.skipped.append("C yardstick: not timed (bench --report --yardstick PATH times one)")
        return None
    return build_yardstick(suite, folder, source)


def run_suite(
    games: int,
    repeat: int = 1,
    workers: int = 2,
    cold: bool = True,
    yardstick: Path | None = None,
    scheduler: str | None = None,
    progress: Any = None,
) -> Suite:
    """Take every measurement of the bench report; ``progress(text)`` hears each step.

    ``yardstick`` is the C loop's source, read where it lies (never copied in); without one
    the yardstick is not timed (the report says so).
    """
    from uno_stats.bench.sweeps import measure_sweep_plans
    from uno_stats.engine.rules import PRESET_NAMES
    from uno_stats.engine.strategy_table import STRATEGIES

    say = progress or (lambda text: None)
    started = time.perf_counter()
    suite = Suite(games, repeat, machine_info())
    with tempfile.TemporaryDirectory(prefix="uno-bench-") as tmp:
        folder = Path(tmp)
        c_loop = yardstick_loop(suite, folder, yardstick)
        steps = (
            (
                "engine speed by preset and strategy",
                lambda: measure_throughput(
                    suite, list(PRESET_NAMES), [s.name for s in STRATEGIES], c_loop
                ),
            ),
            ("scaling over workers", lambda: measure_scaling(suite, workers, scheduler)),
            ("end to end", lambda: measure_end_to_end(suite, folder)),
            ("play and write costs", lambda: measure_costs(suite, folder)),
            ("start-up", lambda: measure_starts(suite, folder, cold)),
            ("peak memory", lambda: measure_memory(suite, folder)),
            ("summary memory and time", lambda: measure_summary(suite, folder)),
            ("sweep overhead", lambda: sweep_overhead(suite, folder, workers, scheduler)),
            ("sweep plans", lambda: suite.sweep_plans.extend(measure_sweep_plans(folder))),
            (
                "C yardstick",
                lambda: (
                    measure_yardstick(suite, c_loop, yardstick) if c_loop and yardstick else None
                ),
            ),
        )
        for label, step in steps:
            say(f"bench: {label} ...")
            step()
    suite.seconds = time.perf_counter() - started
    return suite

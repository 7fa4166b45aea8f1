"""Engine speed and work of this checkout against another commit, per preset and strategy.

Checks out ``REF`` into a detached worktree (kept for reuse under ``--base-dir``), then
measures each case (the built-in 4-player benchmark table of ``uno-stats bench``, one
worker, in process) with both engines, two ways:

* **Work per round** (``--count-games N``, 0 skips it): user-space instructions and cycles
  per round, which the machine's load does not move: (count around 2N rounds - count around
  N rounds) / N, so that everything but the rounds (start-up, loading the engine, the fixed
  cost of a call) cancels. Both engines play the same games. ``--counter perf`` counts with
  ``perf stat -e instructions:u,cycles:u`` around a child process per case and N or 2N
  (each child loads the engine and prepares every case, then plays its rounds). A VM
  without a PMU (``dmesg``: "no PMU driver, software events only", as this project's) has
  no hardware counters, and ``auto`` then takes ``valgrind``: ONE child per engine plays
  every case, N then 2N rounds, under valgrind's callgrind, whose count is cut into parts
  where the child calls ``sys.getswitchinterval`` (``--dump-before``). callgrind counts
  instructions exactly and simulates the caches (fixed: 32 KiB I1, 48 KiB D1, 2 MiB last
  level) and the branch predictor; its cycles are KCachegrind's estimate, Ir + 10 x (L1
  misses + mispredicted branches) + 100 x last-level misses, printed with the misses.
  valgrind cannot run AVX-512, so under it both engines are compiled for ``--count-cpu``
  (haswell) into a cache of their own (``BASE_DIR/numba-count``; the first time a minute
  or two per checkout, natively). Counting 8 cases at N = 10,000 takes 10 to 15 minutes.
* **Wall time** (``--rounds``, 0 skips it): each case timed ``--rounds`` times with both
  engines AT ONCE: one process per checkout, side by side on the machine's cores, so that
  both see the same moment's load (on a shared VM timings drift by tens of percent within
  a minute, and alternating runs does not cancel that). Each pair gives a new/old ratio of
  rounds per CPU second; the median ratio over the rounds is printed per case, with the
  lowest and highest. Within a process each case is timed ``--repeat`` times and the
  fastest kept (like ``timeit``). The first use of each checkout compiles its engine.

    PYTHONPATH=$PWD python scripts/bench_against.py 20cd0db --count-games 10000 --rounds 5
    PYTHONPATH=$PWD python scripts/bench_against.py 20cd0db --rounds 0   # counts only
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRESETS = ("mattel-2022", "mattel-2001", "classic-house", "draw-until-playable")
STRATEGIES = ("basic", "aggressive", "hoarder", "color-denier")

# Runs inside each checkout's own interpreter path: only APIs both versions have.
_WORKER = """
import json, sys, tempfile, time
from pathlib import Path
from uno_stats.engine import EngineConfig, simulate
# by the checkout's own files (the working directory): an editable install would otherwise
# serve a module this checkout lacks from the installed tree
if Path("uno_stats/bench/throughput.py").exists():
    from uno_stats.bench.throughput import bench_scenario_text
    from uno_stats.scenario.load import load_scenario
else:  # a checkout from before the run layer was split (issue 22)
    from uno_stats.run.bench import bench_scenario_text
    from uno_stats.run.scenario import load_scenario

games, repeat = int(sys.argv[1]), int(sys.argv[3])
out = {}
for case in json.loads(sys.argv[2]):
    preset, strategy = case.split("/")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.yaml"
        path.write_text(bench_scenario_text(preset, strategy))
        config = EngineConfig.from_scenario(load_scenario(path))
    simulate(config, 0, 200)
    best = 0.0
    for _ in range(repeat):  # the fastest repetition: the least disturbed by other load
        started = time.process_time()
        rows = len(simulate(config, 0, games)["game"])
        best = max(best, rows / (time.process_time() - started))
    out[case] = best
print(json.dumps(out))
"""


def cases() -> list[str]:
    """Every shipped preset with ``random`` seats, then every other strategy on mattel-2022."""
    return [f"{p}/random" for p in PRESETS] + [f"mattel-2022/{s}" for s in STRATEGIES]


def checkout(ref: str, base_dir: Path) -> Path:
    """A detached worktree of ``ref`` (reused when it is already there at that commit)."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", ref], capture_output=True, text=True, check=True
    ).stdout.strip()
    tree = base_dir / commit[:12]
    if not tree.exists():
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit],
            check=True,
            capture_output=True,
        )
    return tree


def start(tree: Path, games: int, names: list[str], repeat: int) -> subprocess.Popen[str]:
    """Start the checkout at ``tree`` playing ``names``; :func:`speeds` collects it."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-c", _WORKER, str(games), json.dumps(names), str(repeat)]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True, cwd=tree)


def speeds(process: subprocess.Popen[str]) -> dict[str, float]:
    """Rounds per CPU second of each case the process played."""
    out, _ = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"a timing process failed (exit {process.returncode})")
    return json.loads(out.strip().splitlines()[-1])


# A counted child: loads the engine, prepares every case (a first 200-round call each),
# then plays each case in the order given, N rounds and then 2N rounds, calling mark()
# before each of those calls and after the last. Under valgrind each mark() ends a part of
# the count (callgrind --dump-before); under perf the child plays one case's N or 2N only.
# Only APIs both versions have.
_COUNT_WORKER = """
import sys, tempfile
from pathlib import Path
from uno_stats.engine import EngineConfig, simulate
# by the checkout's own files (the working directory): an editable install would otherwise
# serve a module this checkout lacks from the installed tree
if Path("uno_stats/bench/throughput.py").exists():
    from uno_stats.bench.throughput import bench_scenario_text
    from uno_stats.scenario.load import load_scenario
else:  # a checkout from before the run layer was split (issue 22)
    from uno_stats.run.bench import bench_scenario_text
    from uno_stats.run.scenario import load_scenario

games, mark = int(sys.argv[1]), sys.getswitchinterval
configs = {}
for case in sys.argv[2].split(","):
    preset, strategy = case.split("/")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.yaml"
        path.write_text(bench_scenario_text(preset, strategy))
        configs[case] = EngineConfig.from_scenario(load_scenario(path))
    simulate(configs[case], 0, 200)
for played in sys.argv[3].split(",") if len(sys.argv) > 3 else ():
    for n in (games, 2 * games) if sys.argv[4] == "both" else (int(sys.argv[4]) * games,):
        mark()
        rows = len(simulate(configs[played], 0, n)["game"])
        if rows != n:
            raise SystemExit(f"{played}: {rows} rows for {n} rounds")
mark()
"""
MARK = "sys_getswitchinterval"
"""The C function behind the worker's mark(): nothing else in a child calls it."""
COUNT_CPU = "haswell"
CACHE_GEOMETRY = ("--I1=32768,8,64", "--D1=49152,12,64", "--LL=2097152,16,64")
"""valgrind's simulated caches (size, ways, line): fixed, so counts do not depend on the
host; a 48 KiB data L1 and a 2 MiB last level, about one core of this VM's Xeon."""


@dataclass(frozen=True)
class Work:
    """What one count (or, after :meth:`per_round`, one round) cost."""

    instructions: float
    cycles: float
    l1_misses: float | None = None  # valgrind only: I1 + D1 (reads and writes)
    ll_misses: float | None = None  # valgrind only: last level, instructions and data
    mispredicts: float | None = None  # valgrind only: conditional and indirect branches

    def per_round(self, single: Work, rounds: int) -> Work:
        """(self - single) / rounds, field by field: self a count of 2N rounds, single of N."""

        def diff(a: float | None, b: float | None) -> float | None:
            return None if a is None or b is None else (a - b) / rounds

        return Work(
            (self.instructions - single.instructions) / rounds,
            (self.cycles - single.cycles) / rounds,
            diff(self.l1_misses, single.l1_misses),
            diff(self.ll_misses, single.ll_misses),
            diff(self.mispredicts, single.mispredicts),
        )


def parse_perf(text: str) -> Work:
    """The counts of ``perf stat -x, -e instructions:u,cycles:u`` output (CSV lines)."""
    values: dict[str, float] = {}
    for line in text.splitlines():
        fields = line.split(",")
        if line.startswith("#") or len(fields) < 3 or not fields[2]:
            continue
        if not fields[0][:1].isdigit():  # "<not supported>", "<not counted>"
            raise SystemExit(
                f"perf could not count {fields[2]} ({fields[0]}): try --counter valgrind"
            )
        values[fields[2].split(":")[0]] = float(fields[0])
    if "instructions" not in values or "cycles" not in values:
        raise SystemExit(f"perf printed no instructions and cycles counts:\n{text}")
    return Work(values["instructions"], values["cycles"])


def parse_callgrind(text: str) -> Work:
    """The counts of one callgrind output part (its ``events:`` and ``summary:`` lines)."""
    events: list[str] = []
    summary: list[int] = []
    for line in text.splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            summary = [int(v) for v in line.split()[1:]]
    c = dict(zip(events, summary, strict=True))
    needed = ("Ir", "I1mr", "ILmr", "D1mr", "DLmr", "D1mw", "DLmw", "Bcm", "Bim")
    if any(k not in c for k in needed):
        raise SystemExit(f"callgrind counted {sorted(c)}, not all of {needed}")
    l1 = c["I1mr"] + c["D1mr"] + c["D1mw"]
    ll = c["ILmr"] + c["DLmr"] + c["DLmw"]
    mispredicts = c["Bcm"] + c["Bim"]
    cycles = c["Ir"] + 10 * (l1 + mispredicts) + 100 * ll  # KCachegrind's estimate
    return Work(c["Ir"], cycles, l1, ll, mispredicts)


def perf_can_count() -> bool:
    """Whether ``perf stat`` counts instructions:u and cycles:u on this machine."""
    try:
        probe = subprocess.run(
            ["perf", "stat", "-x,", "-e", "instructions:u,cycles:u", "true"],
            capture_output=True,
            text=True,
        )
        parse_perf(probe.stderr)
    except (FileNotFoundError, SystemExit):
        return False
    return probe.returncode == 0


def count_env(tree: Path, counter: str, base_dir: Path, cpu: str) -> dict[str, str]:
    """The environment of a counted child of the checkout at ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    if counter == "valgrind":  # code valgrind can run, in a cache of its own
        env.update(
            NUMBA_CACHE_DIR=str(base_dir / "numba-count"),
            NUMBA_CPU_NAME=cpu,
            NUMBA_CPU_FEATURES="",
        )
    return env


def run_child(tree: Path, env: dict[str, str], tool: list[str], args: list[str]) -> None:
    """Run the counting worker of the checkout at ``tree`` with ``args``, under ``tool``."""
    command = [*tool, sys.executable, "-c", _COUNT_WORKER, *args]
    try:
        done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True)
    except FileNotFoundError:
        raise SystemExit(
            f"{tool[0]} is not installed (apt-get install {tool[0]}), or skip the counts with"
            " --count-games 0"
        ) from None
    if done.returncode != 0:
        raise SystemExit(f"a counted child failed (exit {done.returncode}):\n{done.stderr[-2000:]}")


def count_valgrind(
    tree: Path, env: dict[str, str], games: int, names: list[str]
) -> dict[str, Work]:
    """Work per round of each case, from one child of ``tree`` under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        tool = ["valgrind", "--tool=callgrind", "--cache-sim=yes", "--branch-sim=yes"]
        tool += [*CACHE_GEOMETRY, f"--dump-before={MARK}", f"--callgrind-out-file={out}"]
        run_child(tree, env, tool, [str(games), ",".join(names), ",".join(names), "both"])
        # part 1: start-up to the first mark; then per case its N rounds, its 2N rounds
        parts = sorted(Path(tmp).glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
        if len(parts) != 1 + 2 * len(names):
            raise SystemExit(f"callgrind wrote {len(parts)} parts, not {1 + 2 * len(names)}")
        works = [parse_callgrind(p.read_text()) for p in parts[1:]]
    return {n: works[2 * k + 1].per_round(works[2 * k], games) for k, n in enumerate(names)}


def count_perf(tree: Path, env: dict[str, str], games: int, names: list[str]) -> dict[str, Work]:
    """Work per round of each case, from two children of ``tree`` per case under perf stat:
    one playing N rounds, one 2N."""
    table: dict[str, Work] = {}
    for name in names:
        works = []
        for times in ("1", "2"):
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "perf.csv"
                tool = [
                    "perf",
                    "stat",
                    "-x,",
                    "-o",
                    str(out),
                    "-e",
                    "instructions:u,cycles:u",
                    "--",
                ]
                run_child(tree, env, tool, [str(games), ",".join(names), name, times])
                works.append(parse_perf(out.read_text()))
        table[name] = works[1].per_round(works[0], games)
    return table


def work_per_round(
    trees: dict[str, Path], counter: str, games: int, names: list[str], base_dir: Path, cpu: str
) -> dict[str, dict[str, Work]]:
    """Work per round of each case (first key) with each engine (``trees``: "old", "new")."""
    envs = {side: count_env(tree, counter, base_dir, cpu) for side, tree in trees.items()}
    for side, tree in trees.items():  # compile (or load) natively first: never under valgrind
        run_child(tree, envs[side], [], ["0", ",".join(names)])
    measure = count_valgrind if counter == "valgrind" else count_perf
    with ThreadPoolExecutor(max_workers=len(trees)) as pool:  # both engines side by side
        futures = {s: pool.submit(measure, t, envs[s], games, names) for s, t in trees.items()}
        counted = {side: future.result() for side, future in futures.items()}
    return {name: {side: counted[side][name] for side in trees} for name in names}


def print_work(table: dict[str, dict[str, Work]], counter: str, games: int, cpu: str) -> None:
    """The work table: per case old, new and new/old of instructions and cycles per round."""
    estimated = counter == "valgrind"
    cyc = "est.cycles" if estimated else "cycles"
    print(
        f"{'case':32s} {'instr/round old':>15s} {'new':>9s} {'new/old':>7s}"
        f" {cyc + '/round old':>20s} {'new':>9s} {'new/old':>7s}"
    )
    for name, sides in table.items():
        old, new = sides["old"], sides["new"]
        print(
            f"{name:32s} {old.instructions:15,.0f} {new.instructions:9,.0f}"
            f" {new.instructions / old.instructions:7.3f} {old.cycles:20,.0f} {new.cycles:9,.0f}"
            f" {new.cycles / old.cycles:7.3f}"
        )
    how = (
        f"valgrind's callgrind: instructions exact; cycles estimated as Ir + 10 x (L1 misses"
        f" + mispredicts) + 100 x LL misses (KCachegrind); both engines compiled for {cpu}"
        if estimated
        else "perf stat -e instructions:u,cycles:u"
    )
    print(f"(count of {2 * games:,} rounds - count of {games:,}) / {games:,}; counted by {how}")
    if estimated:
        print(
            f"{'case':32s} {'L1 miss old':>11s} {'new':>7s} {'LL miss old':>11s} {'new':>7s}"
            f" {'mispred old':>11s} {'new':>7s}"
        )
        for name, sides in table.items():
            old, new = sides["old"], sides["new"]
            print(
                f"{name:32s} {old.l1_misses or 0:11,.1f} {new.l1_misses or 0:7,.1f}"
                f" {old.ll_misses or 0:11,.2f} {new.ll_misses or 0:7,.2f}"
                f" {old.mispredicts or 0:11,.1f} {new.mispredicts or 0:7,.1f}"
            )
        print("per round: simulated L1 (I1+D1) and last-level misses, mispredicted branches")


def wall_pairs(old_tree: Path, names: list[str], args: argparse.Namespace) -> None:
    """Time ``names`` in simultaneous old/new pairs and print the median ratios."""
    ratios: dict[str, list[float]] = {n: [] for n in names}
    old: dict[str, list[float]] = {n: [] for n in names}
    for k in range(args.rounds):
        for name in names:  # both engines at once, the same case: the same moment's load
            pair = (
                start(old_tree, args.games, [name], args.repeat),
                start(ROOT, args.games, [name], args.repeat),
            )
            before, after = speeds(pair[0])[name], speeds(pair[1])[name]
            old[name].append(before)
            ratios[name].append(after / before)
        print(f"round {k + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    print(f"{'case':32s} {'old r/s':>10s} {'new/old':>8s} {'lowest-highest':>14s}")
    for name in names:
        spread = sorted(ratios[name])
        low_high = f"{spread[0]:.3f}-{spread[-1]:.3f}"
        median = statistics.median(spread)
        print(f"{name:32s} {statistics.median(old[name]):10,.0f} {median:8.3f} {low_high:>14s}")
    print(
        f"{args.games:,} games per timing, fastest of {args.repeat} per process, median of "
        f"{args.rounds} simultaneous pairs, rounds per CPU second, against {args.ref} ({old_tree})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("ref", help="the commit to compare against (e.g. main, HEAD~3)")
    parser.add_argument(
        "--count-games",
        type=int,
        default=10_000,
        help="N: work per round = (count of 2N rounds - count of N) / N, per case (0: no counts)",
    )
    parser.add_argument(
        "--counter",
        choices=("auto", "perf", "valgrind"),
        default="auto",
        help="what counts the work: perf (hardware counters), valgrind (callgrind), or "
        "auto: perf when it can count instructions:u and cycles:u here, else valgrind",
    )
    parser.add_argument(
        "--count-cpu",
        default=COUNT_CPU,
        help="the CPU both engines are compiled for under valgrind (no AVX-512 there)",
    )
    parser.add_argument("--games", type=int, default=200_000, help="games per timing")
    parser.add_argument(
        "--rounds", type=int, default=5, help="wall-time pairs per case (median kept; 0: none)"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="timings per process and case (fastest kept)"
    )
    parser.add_argument("--base-dir", type=Path, default=Path("/tmp/uno-stats-bench-against"))
    parser.add_argument("--cases", help="comma-separated preset/strategy cases (default: all)")
    args = parser.parse_args(argv)
    old_tree = checkout(args.ref, args.base_dir)
    names = args.cases.split(",") if args.cases else cases()
    if args.count_games > 0:
        counter = args.counter
        if counter == "auto":
            counter = "perf" if perf_can_count() else "valgrind"
        trees = {"old": old_tree, "new": ROOT}
        table = work_per_round(
            trees, counter, args.count_games, names, args.base_dir, args.count_cpu
        )
        print(f"Work per round against {args.ref} ({old_tree})")
        print_work(table, counter, args.count_games, args.count_cpu)
        print(flush=True)
    if args.rounds > 0:
        print(f"Wall time against {args.ref} ({old_tree})")
        wall_pairs(old_tree, names, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

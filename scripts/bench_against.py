"""Engine speed of this checkout against another commit, per preset and strategy, in one run.

Checks out ``REF`` into a detached worktree (kept for reuse under ``--base-dir``), then
times each case (the built-in 4-player benchmark table of ``uno-stats bench``, one worker,
in process) ``--rounds`` times with both engines AT ONCE: one process per checkout, side
by side on the machine's cores, so that both see the same moment's load (on a shared VM
timings drift by tens of percent within a minute, and alternating runs does not cancel
that). Each pair gives a new/old ratio of rounds per CPU second; the median ratio over
the rounds is printed per case, with the lowest and highest. Within a process each case is
timed ``--repeat`` times and the fastest kept (like ``timeit``). The first use of each
checkout compiles its engine (a minute or two; not timed).

    PYTHONPATH=$PWD python scripts/bench_against.py 20cd0db --games 100000 --repeat 3 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRESETS = ("mattel-2022", "mattel-2001", "classic-house", "draw-until-playable")
STRATEGIES = ("basic", "aggressive", "hoarder", "color-denier")

# Runs inside each checkout's own interpreter path: only APIs both versions have.
_WORKER = """
import json, sys, tempfile, time
from pathlib import Path
from uno_stats.engine import EngineConfig, simulate
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="the commit to compare against (e.g. main, HEAD~3)")
    parser.add_argument("--games", type=int, default=200_000, help="games per case and round")
    parser.add_argument("--rounds", type=int, default=5, help="pairs per case (median kept)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="timings per process and case (fastest kept)"
    )
    parser.add_argument("--base-dir", type=Path, default=Path("/tmp/uno-stats-bench-against"))
    parser.add_argument("--cases", help="comma-separated preset/strategy cases (default: all)")
    args = parser.parse_args(argv)
    old_tree = checkout(args.ref, args.base_dir)
    names = args.cases.split(",") if args.cases else cases()
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
    print(f"{'case':36s} {'old r/s':>10s} {'new/old':>8s} {'lowest-highest':>14s}")
    for name in names:
        spread = sorted(ratios[name])
        low_high = f"{spread[0]:.3f}-{spread[-1]:.3f}"
        median = statistics.median(spread)
        print(f"{name:36s} {statistics.median(old[name]):10,.0f} {median:8.3f} {low_high:>14s}")
    print(
        f"{args.games:,} games per timing, fastest of {args.repeat} per process, median of "
        f"{args.rounds} simultaneous pairs, rounds per CPU second, against {args.ref} ({old_tree})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

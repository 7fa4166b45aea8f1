"""Engine speed of this checkout against another commit, per preset and strategy, in one run.

Checks out ``REF`` into a detached worktree (kept for reuse under ``--base-dir``), then
alternates the two engines ``--rounds`` times: each round runs one process per checkout
that plays every case (the built-in 4-player benchmark table of ``uno-stats bench``, one
worker, in process) and reports the CPU seconds each case took. Alternating and timing
CPU rather than wall time keep the machine's drift out of the ratio; the median over
rounds is printed per case as new / old speed. The first use of each checkout compiles
its engine (a minute or two; not timed).

    PYTHONPATH=$PWD python scripts/bench_against.py 20cd0db --games 200000 --rounds 3
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

games = int(sys.argv[1])
out = {}
for case in json.loads(sys.argv[2]):
    preset, strategy = case.split("/")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.yaml"
        path.write_text(bench_scenario_text(preset, strategy))
        config = EngineConfig.from_scenario(load_scenario(path))
    simulate(config, 0, 200)
    started = time.process_time()
    rows = len(simulate(config, 0, games)["game"])
    out[case] = rows / (time.process_time() - started)
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


def speeds(tree: Path, games: int, names: list[str]) -> dict[str, float]:
    """Rounds per CPU second of each case, played by the checkout at ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", _WORKER, str(games), json.dumps(names)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="the commit to compare against (e.g. main, HEAD~3)")
    parser.add_argument("--games", type=int, default=200_000, help="games per case and round")
    parser.add_argument("--rounds", type=int, default=3, help="alternations (median kept)")
    parser.add_argument("--base-dir", type=Path, default=Path("/tmp/uno-stats-bench-against"))
    args = parser.parse_args(argv)
    old_tree = checkout(args.ref, args.base_dir)
    names = cases()
    old: dict[str, list[float]] = {n: [] for n in names}
    new: dict[str, list[float]] = {n: [] for n in names}
    for k in range(args.rounds):
        order = [(old_tree, old), (ROOT, new)]
        for tree, into in order if k % 2 == 0 else order[::-1]:  # ABBA: drift cancels
            for name, value in speeds(tree, args.games, names).items():
                into[name].append(value)
        print(f"round {k + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    print(f"{'case':36s} {'old r/s':>10s} {'new r/s':>10s} {'new/old':>8s}")
    for name in names:
        a, b = statistics.median(old[name]), statistics.median(new[name])
        print(f"{name:36s} {a:10,.0f} {b:10,.0f} {b / a:8.3f}")
    print(
        f"{args.games:,} games per case, median of {args.rounds} alternations, CPU time, "
        f"against {args.ref} ({old_tree})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

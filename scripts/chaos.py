"""Chaos run: the faults of issues 10 and 24 tried end to end, and a table of what survived.

Usage: .venv/bin/python scripts/chaos.py [--only NAME ...] [--keep]
(``make chaos``). Each case runs the real ``uno-stats`` command in a subprocess and either
breaks something (a fault: kill -9 of the run or of a worker, Ctrl-C, SIGTERM or SIGHUP
with a worker stopped or in a long chunk, a copied, truncated, garbled, emptied or
bit-flipped part, a lost or edited manifest, a folder where a part belongs, a concurrent
run, a read-only or full disk, a dying Dask scheduler or worker) or gives it a bad input
(hostile YAML, a FIFO as scenario, a deep manifest, malformed options), then checks the
promise: one ``Error:`` line instead of a traceback, a stop signal answered at once, and
after rerunning the same command, results identical to an uninterrupted run. Prints how
many faults and bad inputs it tried and how many survived; exits 1 when anything did not
survive. Takes several minutes on two cores: not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl
from tabulate import tabulate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from uno_stats.errors import shortened  # noqa: E402
from uno_stats.store.lock import is_locked  # noqa: E402
from uno_stats.store.manifest import (  # noqa: E402
    PointFoldersManifest,
    read_manifest,
    read_run_manifest,
)
from uno_stats.store.verify import check_run, verified_runs  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
CLI = [sys.executable, "-m", "uno_stats.cli"]
GAMES = 400_000
CHUNK = 20_000
ROUNDS = f"name: chaos\nplayers: 4\ngames: {GAMES}\nseed: 7\n"
# 20,000 matches: at most runner.SMALL_RUN_GAMES, so without --workers a small default run
MATCHES = "name: chaos\nplayers: 3\ngames: 20000\nseed: 3\nrules:\n  scoring: points\nmatch:\n  target: 200\n"
SWEEP = "name: chaos\nplayers: 4\ngames: 100000\nseed: 5\nsweep:\n  players: [2, 3, 4]\n"
# A sweep of many small points (2 x 1,000 of 100 rounds), its chunks of 3,000 games holding
# 30 points each: the sweep dataset's one folder, one manifest and parts across points
MANY = (
    "name: chaos\nplayers: 3\ngames: 100\nseed: 9\nsweep:\n  players: [2, 3]\n"
    "  rules.max_turns: [" + ", ".join(str(5000 + i) for i in range(1000)) + "]\n"
)
CHUNKS = {"rounds": CHUNK, "matches": 200, "many": 3000}
"""--chunk-size of each kind (a 3-point sweep: its default, chunks across points too)."""


@dataclass
class Outcome:
    fault: str
    tried: str
    survived: bool
    detail: str


class Chaos:
    """A scratch folder, the scenario files and the uninterrupted reference runs."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.scenarios = {}
        for name, text in (
            ("rounds", ROUNDS),
            ("matches", MATCHES),
            ("sweep", SWEEP),
            ("many", MANY),
        ):
            path = root / f"{name}.yaml"
            path.write_text(text)
            self.scenarios[name] = path
        self._references: dict[str, pl.DataFrame] = {}
        self._count = 0

    def out(self) -> Path:
        self._count += 1
        return self.root / f"out{self._count}"

    def args(self, kind: str, out: Path, *extra: str) -> list[str]:
        chunk = ["--chunk-size", str(CHUNKS[kind])] if kind in CHUNKS else []
        return [
            *CLI,
            "run",
            str(self.scenarios[kind]),
            "--out",
            str(out),
            "--quiet",
            *chunk,
            *extra,
        ]

    def run(self, args: list[str], timeout: float = 600) -> subprocess.CompletedProcess:
        return subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=timeout)

    def start(self, args: list[str]) -> subprocess.Popen:
        return subprocess.Popen(
            args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )

    def reference(self, kind: str) -> pl.DataFrame:
        if kind not in self._references:
            out = self.root / f"reference-{kind}"
            done = self.run(self.args(kind, out, "--workers", "2"))
            if done.returncode != 0:
                raise RuntimeError(f"reference run failed: {done.stderr.strip()}")
            self._references[kind] = frame(out / "chaos")
        return self._references[kind]

    def same_as_reference(self, kind: str, out: Path) -> tuple[bool, str]:
        runs = verified_runs(out / "chaos")
        if not all(r.complete for r in runs):
            return False, "incomplete after rerun: " + "; ".join(r.progress for r in runs)
        same = frame(out / "chaos").equals(self.reference(kind))
        return same, "identical to an uninterrupted run" if same else "results DIFFER"


def frame(folder: Path) -> pl.DataFrame:
    frames = []
    for run in verified_runs(folder):
        label = run.manifest.sweep_label or ""
        frames.append(run.scan().collect().with_columns(pl.lit(label).alias("point")))
    return pl.concat(frames).sort("point", "game", "round")


def wait_for(condition: Callable[[], bool], timeout: float = 120) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def parts(out: Path) -> list[Path]:
    return sorted((out / "chaos").rglob("part-*.parquet"))


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def one_error_line(done: subprocess.CompletedProcess, code: int = 1) -> tuple[bool, str]:
    """Whether ``done`` ended with exit ``code`` and exactly one ``Error:`` line, no traceback;
    the error line, and when it did not, what was wrong (so that a rare failure explains
    itself in the table)."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("Error: ")]
    traceback_seen = "Traceback" in done.stderr
    ok = done.returncode == code and len(errors) == 1 and not traceback_seen
    line = (errors[0] if errors else (lines[-1] if lines else f"exit {done.returncode}"))[:150]
    if not ok:
        wrong = [f"exit {done.returncode}"] if done.returncode != code else []
        wrong += [f"{len(errors)} Error lines"] if len(errors) != 1 else []
        if traceback_seen:
            after = done.stderr.rsplit("Traceback", 1)[1].splitlines()[1:]
            raised = [x for x in after if x.strip() and not x.startswith((" ", "Error: "))]
            wrong.append(f"a traceback: {raised[-1][:100] if raised else 'no exception line'}")
        line = f"{line} ({', '.join(wrong)})"
    return ok, line


# --- the faults -----------------------------------------------------------------------------


def interrupt_then_rerun(c: Chaos, kind: str, how: str, small: bool = False) -> tuple[bool, str]:
    """Start a pool run, break it ``how`` once a few parts exist, rerun, compare.

    ``small``: a default run (no ``--workers``) of a scenario of at most
    ``runner.SMALL_RUN_GAMES`` games, which plays on one forked worker and writes its parts
    in the command's own process: its own path through the faults.
    """
    out = c.out()
    args = c.args(kind, out, *(() if small else ("--workers", "2")))
    proc = c.start(args)
    if not wait_for(lambda: len(parts(out)) >= 3 or proc.poll() is not None):
        return False, "no parts appeared"
    if proc.poll() is not None:
        return False, "the run finished before it could be broken (make it longer)"
    workers = children(proc.pid)
    detail = ""
    stop = STOP_SIGNALS.get(how.removesuffix(", worker stopped"))
    if how.endswith(", worker stopped"):
        os.kill(workers[0], signal.SIGSTOP)  # issue 24: the signal waited for this worker
    started = time.monotonic()
    if how == "kill -9 worker":
        os.kill(workers[0], signal.SIGKILL)
    else:
        proc.send_signal(stop or signal.SIGKILL)
    try:
        _, err = proc.communicate(timeout=ANSWER_S if stop else 300)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        said = (err.strip().splitlines() or ["nothing"])[-1][:80]
        return False, f"{how} not answered within {ANSWER_S:.0f} s (it said: {said})"
    took = time.monotonic() - started
    if how == "kill -9" and not wait_for(lambda: not any(alive(w) for w in workers), 30):
        return False, "pool workers outlived their parent"
    if how == "kill -9 worker" and f"worker process {workers[0]} was killed by SIGKILL" not in err:
        return False, f"message does not name the worker: {err.strip()[:120]}"
    if stop:
        ok, why = stopped_as_said(out, err, proc.returncode, stop, workers)
        if not ok:
            return False, why
        detail = f"answered in {took:.2f} s; {why}; "
    rerun = c.run(args)
    if rerun.returncode != 0:
        return False, f"rerun failed: {rerun.stderr.strip()[:120]}"
    same, why = c.same_as_reference(kind, out)
    return same, detail + why


STOP_SIGNALS = {"Ctrl-C": signal.SIGINT, "SIGTERM": signal.SIGTERM, "SIGHUP": signal.SIGHUP}
ANSWER_S = 10.0
"""A stop signal not answered in this time counts as a hang (it is answered in about 0.1 s)."""


def saved_on_disk(out: Path) -> int:
    """Games in the good parts of ``out/chaos`` (every point of a sweep), even with none."""
    folder = out / "chaos"
    top = read_manifest(folder)
    if isinstance(top, PointFoldersManifest):  # a sweep of the per-point layout
        runs = [folder / p for p in top.points]
        return sum(check_run(run, read_run_manifest(run), deep=False).games_done for run in runs)
    return check_run(folder, top, deep=False).games_done  # a run, or a sweep's one dataset


def stopped_as_said(
    out: Path, err: str, code: int | None, signum: int, workers: list[int]
) -> tuple[bool, str]:
    """A run stopped by ``signum``: exit 128 + signum, the one line saying what is on disk,
    and no worker left."""
    on_disk = saved_on_disk(out)
    last = (err.strip().splitlines() or [""])[-1]
    if code != 128 + signum or "Traceback" in err:
        raised = [x for x in err.splitlines() if x and not x.startswith((" ", "Traceback"))]
        return (
            False,
            f"exit {code}, {'a traceback: ' + raised[0][:100] if 'Traceback' in err else last[:100]}",
        )
    if not last.startswith((f"Interrupted: {on_disk:,} of", "Stopped: the run was already")):
        return False, f"message {last[:100]!r} but {on_disk:,} games on disk"
    if not wait_for(lambda: not any(alive(w) for w in workers), 5):
        return False, "a worker outlived the stopped run"
    return True, f"reported {on_disk:,} games saved, as on disk, no worker left"


def stop_in_long_chunk(c: Chaos) -> tuple[bool, str]:
    """Ctrl-C while the one in-process worker plays a single chunk of 400,000 rounds."""
    out = c.out()
    args = [*c.args("rounds", out, "--workers", "1"), "--chunk-size", str(GAMES)]
    proc = c.start(args)
    if not wait_for(lambda: (out / "chaos" / "manifest.json").exists()):
        return False, "the run did not start"
    time.sleep(1.0)  # inside the chunk (about 4 s of engine time)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=ANSWER_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return False, f"Ctrl-C not answered within {ANSWER_S:.0f} s"
    took = time.monotonic() - started
    ok, why = stopped_as_said(out, err, proc.returncode, signal.SIGINT, [])
    if not ok:
        return False, why
    if c.run(args).returncode != 0:
        return False, "rerun failed"
    same, how = c.same_as_reference("rounds", out)
    return same, f"answered in {took:.2f} s; {why}; rerun: {how}"


def stop_settle(c: Chaos) -> tuple[bool, str]:
    """Ctrl-C during settle: one line, exit 130; the same command then finishes."""
    a, b = c.root / "settle-a.yaml", c.root / "settle-b.yaml"
    a.write_text("name: settle-a\nplayers: 4\ngames: 100000\nseed: 4\n")
    b.write_text("name: settle-b\nplayers: 4\ngames: 100000\nseed: 4\n")  # never decided
    out = c.out()
    args = [
        *CLI,
        "settle",
        str(a),
        str(b),
        "--out",
        str(out),
        "--quiet",
        "--batch",
        "20000",
        "--max-games",
        "100000",
        "--workers",
        "2",
    ]
    proc = c.start(args)
    if not wait_for(lambda: len(list(out.rglob("part-*.parquet"))) >= 3 or proc.poll() is not None):
        return False, "no parts appeared"
    if proc.poll() is not None:
        return False, "settle finished before it could be stopped"
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=ANSWER_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return False, f"Ctrl-C not answered within {ANSWER_S:.0f} s"
    took = time.monotonic() - started
    last = (err.strip().splitlines() or [""])[-1]
    if proc.returncode != 130 or "Traceback" in err or not last.startswith("Interrupted"):
        return False, f"exit {proc.returncode}: {last[:100]}"
    again = c.run(args)
    if again.returncode != 0:
        return False, f"rerun failed: {again.stderr.strip()[-100:]}"
    return True, f"answered in {took:.2f} s ({last[:60]}...); the same command then finished"


def orphan_race(c: Chaos) -> tuple[bool, str]:
    """kill -9 of a pool run with big chunks, then at once --fresh with another seed."""
    out = c.out()
    proc = c.start(
        [*c.args("rounds", out, "--workers", "2"), "--chunk-size", "200000", "--games", "2000000"]
    )
    if not wait_for(lambda: len(children(proc.pid)) >= 2 and (out / "chaos" / "parts").exists()):
        return False, "the run did not start"
    workers = children(proc.pid)
    proc.kill()
    proc.wait()
    args = [*c.args("rounds", out, "--workers", "2"), "--fresh", "--seed", "8", "--games", "60000"]
    for _ in range(300):
        done = c.run(args)
        if done.returncode == 0 or "in use by another run" not in done.stderr:
            break
        time.sleep(0.1)
    if done.returncode != 0:
        return False, f"fresh run failed: {done.stderr.strip()[:120]}"
    if any(alive(w) for w in workers):
        return False, "old workers still alive"
    (run,) = verified_runs(out / "chaos")
    m, bad = run.manifest, run.check.bad if run.check else []
    if bad or not run.complete or (m.seed, m.games, m.rows) != (8, 60000, 60000):
        return False, f"folder holds {m.rows:,} rows, seed {m.seed}, bad parts {len(bad)}"
    alone = c.root / "orphan-alone"
    c.run([*c.args("rounds", alone, "--workers", "1"), "--seed", "8", "--games", "60000"])
    same = frame(out / "chaos").equals(frame(alone / "chaos"))
    return same, "old workers died with the run; new folder = seed 8 alone" if same else "DIFFER"


def damaged_part(c: Chaos, how: str, kind: str = "rounds") -> tuple[bool, str]:
    """A finished run with one part damaged ``how``: summary says incomplete, report refuses,
    rerun redoes that part only. ``kind`` many: a sweep of 2,000 points, 30 in each part;
    those 30 have no row left, so summary and report are one line naming the first of them
    and why its part failed."""
    out = c.out()
    args = c.args(kind, out, "--workers", "2")
    if c.run(args).returncode != 0:
        return False, "first run failed"
    files = parts(out)
    target = files[3]
    if how == "copied":
        shutil.copy(files[2], target)
    elif how == "truncated":
        target.write_bytes(target.read_bytes()[:3000])
    elif how == "garbled":
        data = bytearray(target.read_bytes())
        for i in range(len(data) // 3, len(data) // 3 + 64):
            data[i] ^= 0x5A
        target.write_bytes(bytes(data))
    elif how == "footer bit":
        flips = footer_flips(target, out / "chaos")
        if flips:
            return False, flips
        data = bytearray(target.read_bytes())
        data[footer_start(bytes(data)) + 40] ^= 0x04
        target.write_bytes(bytes(data))
    elif how == "folder":
        target.unlink()
        target.mkdir()
        (target / "x").write_text("not a part")
    else:
        target.write_bytes(b"")
    if kind == "many":  # the part held 30 points whole: they have no row left to read
        for command in ("summary", "report"):
            where = ["--out", str(out / "report")] if command == "report" else []
            done = c.run([*CLI, command, str(out / "chaos"), *where])
            ok, line = one_error_line(done)
            if not ok or "has no valid result part (1 failed verification" not in line:
                return False, f"{command}: {line}"
        said = "summary and report: one line naming a point of the part and why it failed"
    else:
        summary = c.run([*CLI, "summary", str(out / "chaos"), "--format", "json"])
        said = "summary: incomplete 19 of 20; report refused"
        if summary.returncode != 0 or "(incomplete: 19 of 20 chunks" not in summary.stdout:
            return False, f"summary did not name the run incomplete: {summary.stderr.strip()[:100]}"
        report = c.run([*CLI, "report", str(out / "chaos"), "--out", str(out / "report")])
        if report.returncode != 1 or "--allow-incomplete" not in report.stderr:
            return False, "report did not refuse the incomplete run"
    rerun = c.run(args)
    if rerun.returncode != 0 or rerun.stderr.count("redoing") != 1:
        return False, f"rerun did not redo the part: {rerun.stderr.strip()[:100]}"
    if how == "folder" and not (target.parent / f"{target.name}.moved-aside-1").is_dir():
        return False, "the folder was not moved aside"
    same, why = c.same_as_reference(kind, out)
    extra = "; 150 random footer flips all failed verification" if how == "footer bit" else ""
    return same, f"{said}; rerun redid 1 chunk{extra}: {why}"


def footer_start(data: bytes) -> int:
    return len(data) - 8 - int.from_bytes(data[-8:-4], "little")


def footer_flips(part: Path, run_dir: Path, tries: int = 150) -> str | None:
    """Issue 24's measurement: random single-bit flips in a part's footer must all fail
    verification (17 of 150 passed and then broke polars); None when they do."""
    import random

    from uno_stats.store.manifest import read_run_manifest
    from uno_stats.store.verify import _chunk_index, check_part

    manifest, index = read_run_manifest(run_dir), _chunk_index(part)
    assert index is not None
    data, rng = part.read_bytes(), random.Random(24)
    flipped = part.with_name("flipped.bin")
    passed = 0
    for _ in range(tries):
        damaged = bytearray(data)
        damaged[rng.randrange(footer_start(data), len(data))] ^= 1 << rng.randrange(8)
        flipped.write_bytes(bytes(damaged))
        try:
            check_part(flipped, manifest, index)
            passed += 1
        except ValueError:
            continue
    flipped.unlink()
    return f"{passed} of {tries} footer flips passed verification" if passed else None


def lost_manifest(c: Chaos, how: str) -> tuple[bool, str]:
    """A complete run whose manifest is lost ``how``: the rerun rebuilds it from the parts
    and replays nothing."""
    out = c.out()
    kind = "sweep" if how == "sweep manifest deleted" else "rounds"
    args = c.args(kind, out, "--workers", "2")
    if c.run(args).returncode != 0:
        return False, "first run failed"
    manifest = out / "chaos" / "manifest.json"
    chunks = len(parts(out))
    if how == "half":
        manifest.write_bytes(manifest.read_bytes()[: len(manifest.read_bytes()) // 2])
    elif how == "empty":
        manifest.write_bytes(b"")
    elif how == "random bytes":
        manifest.write_bytes(os.urandom(2000))
    else:
        manifest.unlink()
    rerun = c.run(args)
    if rerun.returncode != 0 or f"({chunks} verified chunks resumed" not in rerun.stderr:
        return False, f"rerun did not resume every chunk: {rerun.stderr.strip()[-150:]}"
    if "rebuilt" not in rerun.stderr:  # a sweep is one dataset too: its manifest rebuilt
        return False, "no note says the manifest was rebuilt"
    same, why = c.same_as_reference(kind, out)
    return same, f"rerun resumed all {chunks} chunks, none replayed: {why}"


def edited_manifest(c: Chaos) -> tuple[bool, str]:
    """players 4 -> 5 in a complete run's manifest: summary is one line naming the field."""
    out = c.out()
    if c.run(c.args("rounds", out, "--workers", "2")).returncode != 0:
        return False, "first run failed"
    manifest = out / "chaos" / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"players": 4', '"players": 5', 1))
    ok, line = one_error_line(c.run([*CLI, "summary", str(out / "chaos")]))
    return ok and "scenario.players" in line, line


def concurrent(c: Chaos) -> tuple[bool, str]:
    out = c.out()
    first = c.start(c.args("rounds", out, "--workers", "1"))
    if not wait_for(lambda: is_locked(out / "chaos")):
        return False, "first run never locked its folder"
    second = c.run([*c.args("rounds", out, "--workers", "1"), "--fresh", "--games", "2000"])
    first.communicate(timeout=600)
    ok, line = one_error_line(second)
    if not ok or f"pid {first.pid}" not in line or first.returncode != 0:
        return False, f"second run: {line}"
    same, why = c.same_as_reference("rounds", out)
    return same, f"second refused ({line[:60]}...); first {why}"


def hostile_input(c: Chaos, name: str) -> tuple[bool, str]:
    """Inputs of the issue's point 5: each must be one Error line, at once, nothing written."""
    out = c.out()
    path = c.root / f"{name}.yaml"
    base = "name: chaos\nplayers: 4\n"
    args: list[str] = []
    code = 1
    if name == "alias bomb":
        rows = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
        rows += [
            f"{b}: &{b} [{', '.join(['*' + a] * 9)}]"
            for a, b in zip("abcdefgh", "bcdefghi", strict=True)
        ]
        path.write_text(base + "\n".join(rows) + "\n")
        limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))"
        runpy = f"{limit}; import sys; sys.argv = ['uno-stats', 'run', {str(path)!r}, '--out', {str(out)!r}]; from uno_stats.cli import main; main()"
        done = subprocess.run(
            [sys.executable, "-c", runpy], capture_output=True, text=True, env=ENV, timeout=120
        )
        ok, line = one_error_line(done)
        return ok and not out.exists(), line
    if name == "games 10^12":
        path.write_text(base + "games: 1000000000000\n")
        args = [*CLI, "validate", str(path)]
    elif name == "--games 1e20":
        path.write_text(base)
        args = [*CLI, "run", str(path), "--games", "1e20", "--out", str(out)]
        code = 2
    elif name == "trace --game 1e20":
        path.write_text(base)
        args = [*CLI, "trace", str(path), "--game", "1e20"]
        code = 2
    elif name == "sweep of 10^5 values":
        values = ", ".join(str(i / 100_000) for i in range(100_000))
        path.write_text(base + f"sweep:\n  strategies.bluff: [{values}]\n")
        args = [*CLI, "run", str(path), "--out", str(out)]
    elif name == "50 MB description":
        path.write_text(base + "description: " + "x" * 50_000_000 + "\n")
        args = [*CLI, "run", str(path), "--out", str(out)]
    elif name == "300-character name":
        path.write_text(f"name: {'a' * 300}\n")
        args = [*CLI, "run", str(path), "--out", str(out)]
    elif name == "deep nesting":
        path.write_text("name: chaos\ndescription: " + "[" * 5000 + "]" * 5000 + "\n")
        args = [*CLI, "run", str(path), "--out", str(out)]
    elif name == "FIFO scenario":
        os.mkfifo(path)
        args = [*CLI, "run", str(path), "--out", str(out)]
    elif name == "device scenario":
        args = [*CLI, "run", "/dev/zero", "--out", str(out)]
    elif name == "folder scenario":
        args = [*CLI, "run", str(c.root), "--out", str(out)]
    elif name == "deep manifest":
        folder = c.root / "deep-manifest"
        folder.mkdir()
        (folder / "manifest.json").write_text("[" * 200_000 + "]" * 200_000)
        args = [*CLI, "summary", str(folder)]
    elif name == "--margin 5%%%":
        path.write_text(base)
        args = [*CLI, "compare", str(path), str(path), "--margin", "5%%%", "--out", str(out)]
    elif name == "--out ''":
        path.write_text(base + "games: 100\n")
        done = subprocess.run(
            [*CLI, "run", str(path.resolve()), "--out", ""],
            capture_output=True,
            text=True,
            env=ENV,
            timeout=120,
            cwd=out.parent,
        )
        ok, line = one_error_line(done, 2)
        return ok and not (out.parent / "chaos").exists(), line
    elif name == "1,000-value players":
        values = ", ".join(str(i) for i in range(1000))
        path.write_text(f"name: chaos\nplayers: [{values}]\n")
        args = [*CLI, "validate", str(path)]
    elif name == "5,000-digit --games":
        path.write_text(base)
        args = [*CLI, "run", str(path), "--games", "9" * 5000, "--out", str(out)]
        code = 2
    started = time.monotonic()
    done = c.run(args, timeout=120)
    ok, line = one_error_line(done, code)
    took = time.monotonic() - started
    longest = max((len(x) for x in done.stderr.splitlines()), default=0)
    if longest > 320:  # issue 24: hostile input is quoted at most about 80 characters
        return False, f"an error line of {longest:,} characters"
    return ok and not out.exists(), f"{shortened(line, 120)} ({took:.1f} s)"


def too_many_workers(c: Chaos) -> tuple[bool, str]:
    out = c.out()
    done = c.run([*c.args("rounds", out, "--workers", "1000"), "--games", "20000"])
    warned = [line for line in done.stderr.splitlines() if line.startswith("Warning: --workers")]
    return done.returncode == 0 and len(warned) == 1, (warned or [done.stderr.strip()])[0][:120]


def bad_folders(c: Chaos, name: str) -> tuple[bool, str]:
    folder = c.root / f"bad-{name.replace(' ', '-')}"
    if name == "--out on a file":
        return one_error_line(c.run(c.args("rounds", c.scenarios["rounds"])))
    if name == "summary of a YAML file":
        return one_error_line(c.run([*CLI, "summary", str(c.scenarios["rounds"])]))
    folder.mkdir()
    (folder / "manifest.json").write_text("[]" if name == "manifest []" else "{}")
    return one_error_line(c.run([*CLI, "summary", str(folder)]))


def stale_tmp(c: Chaos) -> tuple[bool, str]:
    out = c.out()
    (out / "chaos" / "parts").mkdir(parents=True)
    (out / "chaos" / "manifest.json.tmp").write_bytes(b"")
    (out / "chaos" / ".manifest.json.99.tmp").write_bytes(b"")
    done = c.run([*c.args("rounds", out, "--workers", "2"), "--fresh"])
    if done.returncode != 0:
        return False, done.stderr.strip()[:120]
    same, why = c.same_as_reference("rounds", out)
    return same, f"0-byte temp manifests ignored; {why}"


def tmpfs_fault(c: Chaos, name: str) -> tuple[bool, str]:
    mount = c.root / f"tmpfs-{name.split()[0]}"
    mount.mkdir()
    options = "size=1m,ro" if name.startswith("read-only") else "size=2m"
    if (
        os.geteuid() != 0
        or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(mount)], capture_output=True
        ).returncode
    ):
        return True, "skipped: cannot mount a tmpfs here (needs root)"
    try:
        args = c.args("rounds", mount, "--workers", "2")
        done = c.run(args)
        ok, line = one_error_line(done)
        if name.startswith("read-only"):
            return ok and "read-only file system" in line, line
        if not ok or "no space left" not in line:
            return False, line
        subprocess.run(["mount", "-o", "remount,size=64m", str(mount)], check=True)
        if c.run(args).returncode != 0:
            return False, "rerun after freeing space failed"
        same, why = c.same_as_reference("rounds", mount)
        return same, f"{line[7:60]}...; after remount the rerun resumed: {why}"
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dask_fault(c: Chaos, name: str) -> tuple[bool, str]:
    dask = Path(sys.executable).parent / "dask"
    if not dask.exists():
        return True, "skipped: Dask is not installed"
    out = c.out()
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    if name == "unreachable scheduler":
        done = c.run(c.args("rounds", out, "--scheduler", address))
        ok, line = one_error_line(done)
        return ok and not out.exists(), line + ("" if not out.exists() else " (but wrote files)")
    procs = [
        subprocess.Popen(
            [str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=ENV,
        ),
        subprocess.Popen(
            [str(dask), "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=ENV,
        ),
    ]
    try:
        time.sleep(3)  # let the scheduler listen before the run connects
        script = textwrap.dedent(
            f"""
            import sys
            from uno_stats.run import backends
            backends.NO_WORKER_TIMEOUT_S = 10
            backends.DASK_POLL_S = 1
            sys.argv = {c.args("rounds", out, "--scheduler", address)[2:]!r}
            sys.argv[0] = "uno-stats"
            from uno_stats.cli import main
            main()
            """
        )
        run = subprocess.Popen(
            [sys.executable, "-c", script],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        if not wait_for(lambda: len(parts(out)) >= 2 or run.poll() is not None):
            return False, "no parts appeared"
        if name == "Ctrl-C":  # issue 24: the futures are cancelled, the run answers at once
            started = time.monotonic()
            run.send_signal(signal.SIGINT)
            try:
                _, err = run.communicate(timeout=ANSWER_S)
            except subprocess.TimeoutExpired:
                run.kill()
                run.communicate()
                return False, f"Ctrl-C not answered within {ANSWER_S:.0f} s"
            ok, why = stopped_as_said(out, err, run.returncode, signal.SIGINT, [])
            if not ok:
                return False, why
            line = f"Error: answered in {time.monotonic() - started:.2f} s, {why}"
        else:
            victim = procs[0] if name == "scheduler killed mid-run" else procs[1]
            victim.kill()
            _, err = run.communicate(timeout=300)
            ok, line = one_error_line(subprocess.CompletedProcess([], run.returncode, "", err))
            if not ok:
                return False, line
        rerun = c.run(c.args("rounds", out, "--workers", "2"))
        if rerun.returncode != 0:
            return False, f"local rerun failed: {rerun.stderr.strip()[:100]}"
        same, why = c.same_as_reference("rounds", out)
        return same, f"{line[7:70]}...; local rerun resumed: {why}"
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


FAULTS: list[tuple[str, str, Callable[[Chaos], tuple[bool, str]]]] = [
    (
        "kill -9 of the run",
        "pool run, kill -9 mid-run, rerun",
        lambda c: interrupt_then_rerun(c, "rounds", "kill -9"),
    ),
    (
        "kill -9 of a worker",
        "kill -9 one pool worker, rerun",
        lambda c: interrupt_then_rerun(c, "rounds", "kill -9 worker"),
    ),
    ("Ctrl-C", "SIGINT mid-run, rerun", lambda c: interrupt_then_rerun(c, "rounds", "Ctrl-C")),
    ("SIGTERM", "SIGTERM mid-run, rerun", lambda c: interrupt_then_rerun(c, "rounds", "SIGTERM")),
    ("SIGHUP", "SIGHUP mid-run, rerun", lambda c: interrupt_then_rerun(c, "rounds", "SIGHUP")),
    (
        "Ctrl-C, worker stopped",
        "kill -STOP one pool worker, then SIGINT the run (answered within 10 s), rerun",
        lambda c: interrupt_then_rerun(c, "rounds", "Ctrl-C, worker stopped"),
    ),
    (
        "SIGTERM, worker stopped",
        "kill -STOP one pool worker, then SIGTERM the run, rerun",
        lambda c: interrupt_then_rerun(c, "rounds", "SIGTERM, worker stopped"),
    ),
    (
        "Ctrl-C in a long chunk",
        "--workers 1, one chunk of 400,000 rounds, SIGINT 1 s in, rerun",
        stop_in_long_chunk,
    ),
    (
        "small run: Ctrl-C, worker stopped",
        "default run of 20,000 matches, kill -STOP its forked worker, SIGINT, rerun",
        lambda c: interrupt_then_rerun(c, "matches", "Ctrl-C, worker stopped", small=True),
    ),
    (
        "Ctrl-C of a sweep",
        "3-point sweep, SIGINT mid-run, rerun",
        lambda c: interrupt_then_rerun(c, "sweep", "Ctrl-C"),
    ),
    ("Ctrl-C of settle", "settle A B, SIGINT mid-batch, same command again", stop_settle),
    (
        "kill -9 of a match run",
        "matches, kill -9 mid-run, rerun",
        lambda c: interrupt_then_rerun(c, "matches", "kill -9"),
    ),
    (
        "small run: worker killed",
        "default run of 20,000 matches (one forked worker), kill -9 it, rerun",
        lambda c: interrupt_then_rerun(c, "matches", "kill -9 worker", small=True),
    ),
    (
        "small run: Ctrl-C",
        "default run of 20,000 matches, SIGINT mid-run, rerun",
        lambda c: interrupt_then_rerun(c, "matches", "Ctrl-C", small=True),
    ),
    (
        "kill -9 of a sweep",
        "3-point sweep, kill -9 mid-run, rerun",
        lambda c: interrupt_then_rerun(c, "sweep", "kill -9"),
    ),
    (
        "kill -9 of a sweep worker",
        "3-point sweep (chunks across points), kill -9 one pool worker, rerun",
        lambda c: interrupt_then_rerun(c, "sweep", "kill -9 worker"),
    ),
    (
        "SIGTERM of a big sweep",
        "2,000-point sweep, 30 points a part, SIGTERM mid-run, rerun",
        lambda c: interrupt_then_rerun(c, "many", "SIGTERM"),
    ),
    (
        "kill -9 of a big sweep",
        "2,000-point sweep, 30 points a part, kill -9 mid-run, rerun",
        lambda c: interrupt_then_rerun(c, "many", "kill -9"),
    ),
    (
        "copied part of a sweep",
        "2,000-point sweep: part 2 (points 60-89) copied over part 3",
        lambda c: damaged_part(c, "copied", "many"),
    ),
    (
        "garbled part of a sweep",
        "2,000-point sweep: 64 bytes of part 3 flipped",
        lambda c: damaged_part(c, "garbled", "many"),
    ),
    ("orphan race", "kill -9, then --fresh --seed 8 at once", orphan_race),
    ("copied part", "part 2 copied over part 3", lambda c: damaged_part(c, "copied")),
    ("truncated part", "part 3 cut to 3,000 bytes", lambda c: damaged_part(c, "truncated")),
    ("garbled part", "64 bytes of part 3 flipped", lambda c: damaged_part(c, "garbled")),
    ("empty part", "part 3 emptied (0 bytes)", lambda c: damaged_part(c, "empty")),
    (
        "flipped footer bit",
        "150 random single-bit footer flips verified; one through summary, report, rerun",
        lambda c: damaged_part(c, "footer bit"),
    ),
    ("folder for a part", "part 3 replaced by a folder", lambda c: damaged_part(c, "folder")),
    ("manifest cut in half", "manifest.json truncated, rerun", lambda c: lost_manifest(c, "half")),
    ("manifest emptied", "manifest.json 0 bytes, rerun", lambda c: lost_manifest(c, "empty")),
    (
        "manifest random bytes",
        "manifest.json 2,000 random bytes, rerun",
        lambda c: lost_manifest(c, "random bytes"),
    ),
    ("manifest deleted", "manifest.json deleted, rerun", lambda c: lost_manifest(c, "deleted")),
    (
        "sweep manifest deleted",
        "a sweep's one manifest deleted (3 points, chunks across them), rerun",
        lambda c: lost_manifest(c, "sweep manifest deleted"),
    ),
    ("edited manifest", "scenario.players 4 -> 5 in manifest.json, summary", edited_manifest),
    ("concurrent run", "second run --fresh into a running folder", concurrent),
    ("stale temp manifest", "0-byte manifest temp files, then run", stale_tmp),
    (
        "alias bomb",
        "10-line YAML alias bomb, 2 GB address-space limit",
        lambda c: hostile_input(c, "alias bomb"),
    ),
    ("deep nesting", "5,000 nested lists", lambda c: hostile_input(c, "deep nesting")),
    ("FIFO scenario", "mkfifo s.yaml; run s.yaml", lambda c: hostile_input(c, "FIFO scenario")),
    ("device scenario", "run /dev/zero", lambda c: hostile_input(c, "device scenario")),
    ("folder scenario", "run a folder", lambda c: hostile_input(c, "folder scenario")),
    (
        "deep manifest",
        "summary of a 200,000-deep nested manifest.json",
        lambda c: hostile_input(c, "deep manifest"),
    ),
    ("--margin 5%%%", "compare --margin '5%%%'", lambda c: hostile_input(c, "--margin 5%%%")),
    ("--out ''", "run --out '' (the current folder)", lambda c: hostile_input(c, "--out ''")),
    (
        "1,000-value players",
        "players: a list of 1,000 numbers: the error line stays short",
        lambda c: hostile_input(c, "1,000-value players"),
    ),
    (
        "5,000-digit --games",
        "run --games with 5,000 digits: the error line stays short",
        lambda c: hostile_input(c, "5,000-digit --games"),
    ),
    (
        "games 10^12",
        "validate a scenario of 10^12 games",
        lambda c: hostile_input(c, "games 10^12"),
    ),
    ("--games 1e20", "run --games 1e20", lambda c: hostile_input(c, "--games 1e20")),
    ("trace --game 1e20", "trace --game 1e20", lambda c: hostile_input(c, "trace --game 1e20")),
    (
        "huge sweep",
        "a sweep axis of 10^5 values",
        lambda c: hostile_input(c, "sweep of 10^5 values"),
    ),
    ("50 MB description", "a 50 MB scenario file", lambda c: hostile_input(c, "50 MB description")),
    (
        "300-character name",
        "name of 300 characters",
        lambda c: hostile_input(c, "300-character name"),
    ),
    ("--workers 1000", "1,000 workers asked on this machine", too_many_workers),
    ("--out on a file", "--out pointing at a file", lambda c: bad_folders(c, "--out on a file")),
    (
        "summary of a YAML",
        "summary of a scenario file",
        lambda c: bad_folders(c, "summary of a YAML file"),
    ),
    (
        "manifest []",
        "summary of a folder whose manifest is []",
        lambda c: bad_folders(c, "manifest []"),
    ),
    (
        "manifest {}",
        "summary of a folder whose manifest is {}",
        lambda c: bad_folders(c, "manifest {}"),
    ),
    ("read-only disk", "--out on a read-only tmpfs", lambda c: tmpfs_fault(c, "read-only")),
    ("full disk", "--out on a 2 MB tmpfs, then grow it, rerun", lambda c: tmpfs_fault(c, "full")),
    (
        "unreachable scheduler",
        "--scheduler with nobody listening",
        lambda c: dask_fault(c, "unreachable scheduler"),
    ),
    (
        "Dask scheduler killed",
        "kill -9 the scheduler mid-run, rerun locally",
        lambda c: dask_fault(c, "scheduler killed mid-run"),
    ),
    (
        "no Dask worker left",
        "kill -9 the only worker mid-run, rerun locally",
        lambda c: dask_fault(c, "worker killed"),
    ),
    (
        "Ctrl-C of a Dask run",
        "SIGINT mid-run on a Dask cluster (futures cancelled), rerun locally",
        lambda c: dask_fault(c, "Ctrl-C"),
    ),
]

BAD_INPUTS = {
    "alias bomb",
    "deep nesting",
    "games 10^12",
    "--games 1e20",
    "trace --game 1e20",
    "huge sweep",
    "50 MB description",
    "300-character name",
    "--workers 1000",
    "--out on a file",
    "summary of a YAML",
    "manifest []",
    "manifest {}",
    "FIFO scenario",
    "device scenario",
    "folder scenario",
    "deep manifest",
    "--margin 5%%%",
    "--out ''",
    "1,000-value players",
    "5,000-digit --games",
}
"""The cases that give a bad input rather than break something (the rest are faults)."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", nargs="*", help="run only the faults whose name contains one of these"
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    ns = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="uno-chaos-"))
    chaos = Chaos(scratch)
    results: list[Outcome] = []
    try:
        for name, tried, fn in FAULTS:
            if ns.only and not any(word in name for word in ns.only):
                continue
            started = time.monotonic()
            try:
                survived, detail = fn(chaos)
            except Exception as exc:  # a fault the harness did not foresee is a failure
                survived, detail = False, f"harness: {type(exc).__name__}: {exc}"
                traceback.print_exc()
            took = time.monotonic() - started
            results.append(Outcome(name, tried, survived, f"{detail} [{took:.0f} s]"))
            print(f"{'ok  ' if survived else 'FAIL'} {name}: {detail}", file=sys.stderr, flush=True)
    finally:
        if not ns.keep:
            subprocess.run(
                ["umount", "-l", *map(str, scratch.glob("tmpfs-*"))], capture_output=True
            )
            shutil.rmtree(scratch, ignore_errors=True)
    rows = [[r.fault, r.tried, "yes" if r.survived else "NO", r.detail] for r in results]
    print(
        tabulate(
            rows,
            ["fault", "what was tried", "survived", "what happened"],
            maxcolwidths=[None, 34, None, 70],
        )
    )
    failed = sum(not r.survived for r in results)
    inputs = sum(r.fault in BAD_INPUTS for r in results)
    bad_failed = sum(r.fault in BAD_INPUTS and not r.survived for r in results)
    print(
        f"\n{len(results) - inputs - (failed - bad_failed)} of {len(results) - inputs} faults "
        f"and {inputs - bad_failed} of {inputs} bad inputs handled cleanly; "
        f"{len(results) - failed} of {len(results)} survived."
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Faults at the edge: the folder lock, dying workers and parents, Ctrl-C, full and read-only
disks, stale temporary files, huge plans, an unreachable Dask scheduler."""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing as mp
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import polars as pl
import pytest

from uno_stats.errors import RunError
from uno_stats.limits import MAX_GAMES
from uno_stats.run import backends, tasks
from uno_stats.run.interrupts import STOP_SIGNALS, stop_on_signals
from uno_stats.run.plan import plan_run
from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import parse_scenario, with_overrides
from uno_stats.store.lock import LOCK_FILE, is_locked
from uno_stats.store.manifest import read_run_manifest
from uno_stats.store.parts import PartMeta, part_path
from uno_stats.store.verify import check_run, verified_runs

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-c", "from uno_stats.cli import main; main()"]
TINY = "name: tiny\nplayers: 4\ngames: 1000\nseed: 7\n"


def env() -> dict[str, str]:
    # PYTHONFAULTHANDLER: a command that hangs prints every thread's stack on SIGABRT (ended)
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"}


def default_stop_signals() -> None:
    """In a test's command, before it starts: Ctrl-C, SIGTERM and SIGHUP act as they do for
    a command typed in a terminal, whatever this test run inherited (a background job
    ignores SIGINT; ``nohup make test`` ignores SIGHUP, which a run then keeps ignoring)."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)


ENDS_WITHIN_S = 120.0
"""How long a command of these tests may take to end once told to (a liveness bound: a run of
a few seconds that hangs fails here, with its threads' stacks, instead of stalling CI)."""


def ended(proc: subprocess.Popen, within: float = ENDS_WITHIN_S) -> str:
    """Wait for ``proc`` to end and return its stderr; if it has not ended ``within`` seconds,
    fail with the stacks of its threads (SIGABRT under faulthandler: see env)."""
    try:
        return proc.communicate(timeout=within)[1] or ""
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        try:
            err = proc.communicate(timeout=10)[1] or ""
        except subprocess.TimeoutExpired:
            proc.kill()
            err = proc.communicate()[1] or ""
        pytest.fail(f"pid {proc.pid} did not end within {within:.0f} s; its stacks:\n{err}")


def frame(folder: Path) -> pl.DataFrame:
    return pl.concat([r.scan().collect() for r in verified_runs(folder)]).sort("game")


def wait_for(condition, timeout: float = 60.0) -> bool:
    """Poll ``condition`` until true or ``timeout`` (a liveness bound, not a speed test)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead too
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return True


HOLD_LOCK = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from uno_stats.store.lock import folder_lock
    with folder_lock(Path(sys.argv[1])):
        print("locked", flush=True)
        time.sleep(600)
    """
)


@pytest.fixture
def holder(tmp_path):
    """A process holding the lock of ``tmp_path/out/tiny`` (killed at the end)."""
    folder = tmp_path / "out" / "tiny"
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(folder)], stdout=subprocess.PIPE, text=True, env=env()
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    yield proc
    proc.kill()
    proc.wait()


def test_second_run_into_a_locked_folder_says_who_holds_it(tmp_path, holder):
    s = parse_scenario(TINY)
    with pytest.raises(RunError, match=rf"in use by another run \(pid {holder.pid} on "):
        run_scenario(s, tmp_path / "out", workers=1, progress=False)
    assert is_locked(tmp_path / "out" / "tiny")


def test_fresh_never_wipes_a_locked_folder(tmp_path):
    s = parse_scenario(TINY)
    outcome = run_scenario(s, tmp_path / "out", workers=1, progress=False, chunk_size=250)
    before = sorted(p.name for p in (outcome.path / "parts").iterdir())
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(outcome.path)], stdout=subprocess.PIPE, env=env()
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"locked"
        with pytest.raises(RunError, match="in use by another run"):
            run_scenario(s, tmp_path / "out", workers=1, progress=False, fresh=True)
        assert sorted(p.name for p in (outcome.path / "parts").iterdir()) == before
    finally:
        proc.kill()
        proc.wait()
    # The OS released the killed holder's lock: the run goes ahead.
    assert not is_locked(outcome.path)
    again = run_scenario(s, tmp_path / "out", workers=1, progress=False, fresh=True)
    assert again.resumed_chunks == 0 and (outcome.path / LOCK_FILE).exists()


def test_two_concurrent_cli_runs(tmp_path):
    """A second run (even --fresh) while the first runs is refused and touches nothing."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(TINY)
    out = tmp_path / "out"
    args = [*CLI, "run", str(scenario), "--out", str(out), "--quiet", "--workers", "1"]
    first = subprocess.Popen(
        [*args, "--games", "10000000", "--chunk-size", "20000"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env(),
        preexec_fn=default_stop_signals,
    )
    assert wait_for(lambda: (out / "tiny" / "manifest.json").exists() and is_locked(out / "tiny"))
    run_id = read_run_manifest(out / "tiny").run_id
    second = subprocess.run(
        [*args, "--fresh", "--games", "2000"], capture_output=True, text=True, env=env()
    )
    assert first.poll() is None, "the first run ended too soon for this test"
    # The first run loads the engine after taking the lock: interrupt it once it saved a part.
    assert wait_for(lambda: any((out / "tiny" / "parts").glob("part-*.parquet")))
    first.send_signal(signal.SIGINT)
    ended(first)
    assert second.returncode == 1
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and f"in use by another run (pid {first.pid} on " in lines[0]
    assert first.returncode == 130
    manifest = read_run_manifest(out / "tiny")
    check = check_run(out / "tiny", manifest)
    assert manifest.run_id == run_id and manifest.games == 10_000_000
    assert check.good and not check.bad and manifest.rows == check.rows


def test_stale_temporary_files_never_block_a_run(tmp_path):
    folder = tmp_path / "out" / "tiny"
    (folder / "parts").mkdir(parents=True)
    (folder / "manifest.json.tmp").write_bytes(b"")  # an older version's name
    (folder / ".manifest.json.4242.tmp").write_bytes(b"")
    (folder / "parts" / ".part-000000.parquet.4242.tmp").write_bytes(b"half")
    for fresh in (False, True):
        outcome = run_scenario(
            parse_scenario(TINY), tmp_path / "out", workers=1, progress=False, fresh=fresh
        )
        assert verified_runs(outcome.path)[0].complete
    leftovers = [p.name for p in folder.rglob("*.tmp")]
    assert leftovers == []


def test_planning_is_lazy_for_the_largest_run(tmp_path):
    s = with_overrides(parse_scenario(TINY), games=MAX_GAMES)
    planned = plan_run(0, s, tmp_path / "tiny", 1, 2, lambda m: None)
    assert planned.n_chunks == MAX_GAMES
    first = list(itertools.islice(planned.todo, 3))
    assert [(c.index, c.first_game, c.n_games) for c in first] == [(0, 0, 1), (1, 1, 1), (2, 2, 1)]
    last = planned.chunk(MAX_GAMES - 1)
    assert (last.first_game, last.n_games) == (MAX_GAMES - 1, 1)


def _orphan_child(run_dir: str, meta: PartMeta, config) -> None:
    tasks.run_and_write_chunk(config, run_dir, 4, meta, parent_pid=os.getppid() + 10**7)


@pytest.mark.skipif(backends.START_METHOD != "fork", reason="needs fork")
def test_worker_whose_parent_is_gone_exits_without_writing(tmp_path):
    from uno_stats import engine

    s = parse_scenario(TINY)
    meta = PartMeta("someid", 7, "hash", 0, 0, 10)
    config = engine.EngineConfig.from_scenario(s)
    child = mp.get_context("fork").Process(target=_orphan_child, args=(str(tmp_path), meta, config))
    child.start()
    child.join(60)
    assert child.exitcode == 1
    assert not part_path(tmp_path, 0).exists()


DIE_WITH_PARENT = textwrap.dedent(
    """
    import os, sys, time
    from uno_stats.run.backends import die_with_parent
    parent = os.getpid()
    child = os.fork()
    if child == 0:
        armed = die_with_parent(parent)
        print(os.getpid(), armed, flush=True)
        time.sleep(600)
        os._exit(0)
    time.sleep(600)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux only")
def test_worker_dies_with_its_parent():
    parent = subprocess.Popen(
        [sys.executable, "-c", DIE_WITH_PARENT], stdout=subprocess.PIPE, text=True, env=env()
    )
    assert parent.stdout is not None
    pid, armed = parent.stdout.readline().split()
    assert armed == "True" and alive(int(pid))
    parent.kill()
    parent.wait()
    assert wait_for(lambda: not alive(int(pid)), timeout=30)


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_orphan_race_kill_9_of_the_parent_then_a_fresh_run(tmp_path):
    """The issue's case 1: kill -9 of a pool run, then --fresh with another seed at once.

    The old workers die with their parent, the new run never counts an old part, and its
    results equal an uninterrupted run of the new seed.
    """
    scenario = tmp_path / "s.yaml"
    scenario.write_text(TINY)
    out = tmp_path / "out"
    killed = subprocess.Popen(
        [
            *CLI,
            "run",
            str(scenario),
            "--out",
            str(out),
            "--quiet",
            "--workers",
            "2",
            "--games",
            "2000000",
            "--chunk-size",
            "100000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env(),
    )
    assert wait_for(lambda: len(_children(killed.pid)) >= 2 and (out / "tiny" / "parts").exists())
    workers = _children(killed.pid)
    killed.kill()
    killed.wait()
    s = with_overrides(parse_scenario(TINY), games=3000, seed=8)
    outcome = None
    for _ in range(200):  # the lock is free once every old worker is gone
        try:
            outcome = run_scenario(s, out, workers=2, progress=False, fresh=True, chunk_size=500)
            break
        except RunError as exc:
            assert "in use by another run" in str(exc)
            time.sleep(0.1)
    assert outcome is not None
    assert wait_for(lambda: not any(alive(p) for p in workers), timeout=30)
    manifest = read_run_manifest(outcome.path)
    (run,) = verified_runs(outcome.path)
    assert run.complete and not run.check.bad
    assert (manifest.seed, manifest.games, manifest.rows) == (8, 3000, 3000)
    alone = run_scenario(s, tmp_path / "alone", workers=1, progress=False)
    assert frame(outcome.path).equals(frame(alone.path))


def _start_pool_run(out: Path, scenario: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            *CLI,
            "run",
            str(scenario),
            "--out",
            str(out),
            "--quiet",
            "--workers",
            "2",
            "--games",
            "2000000",
            "--chunk-size",
            "20000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env(),
        preexec_fn=default_stop_signals,
    )


def test_ctrl_c_reports_the_games_on_disk(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(TINY)
    out = tmp_path / "out"
    proc = _start_pool_run(out, scenario)
    assert wait_for(lambda: len(list((out / "tiny" / "parts").glob("part-*"))) >= 3)
    proc.send_signal(signal.SIGINT)
    err = ended(proc)
    assert proc.returncode == 130
    saved = int(re.search(r"Interrupted: ([\d,]+) of 2,000,000 games", err)[1].replace(",", ""))
    manifest = read_run_manifest(out / "tiny")
    check = check_run(out / "tiny", manifest)
    assert saved == check.games_done == manifest.rows
    assert manifest.chunks_done == len(check.good) and not manifest.complete


def test_killed_worker_is_named_and_finished_parts_stay_good(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(TINY)
    out = tmp_path / "out"
    proc = _start_pool_run(out, scenario)
    assert wait_for(lambda: len(list((out / "tiny" / "parts").glob("part-*"))) >= 2)
    victim = _children(proc.pid)[0]
    os.kill(victim, signal.SIGKILL)
    err = ended(proc)
    assert proc.returncode == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"Error: worker process {victim} was killed by SIGKILL; chunk ")
    assert lines[0].endswith("run the same command again to resume")
    check = check_run(out / "tiny", read_run_manifest(out / "tiny"))
    assert check.good and not check.bad and not check.complete


def _mount_tmpfs(path: Path, options: str) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True
    )
    return done.returncode == 0


@pytest.fixture
def tmpfs(tmp_path):
    mounted: list[Path] = []

    def mount(name: str, options: str) -> Path:
        path = tmp_path / name
        if not _mount_tmpfs(path, options):
            pytest.skip("cannot mount a tmpfs here (needs root and mount rights)")
        mounted.append(path)
        return path

    yield mount
    for path in mounted:
        subprocess.run(["umount", "-l", str(path)], check=False)


def test_read_only_output_folder(tmpfs):
    out = tmpfs("ro", "size=1m,ro")
    with pytest.raises(RunError, match=r"tiny: read-only file system: choose another --out$"):
        run_scenario(parse_scenario(TINY), out, workers=1, progress=False)


def test_full_output_folder_then_resume(tmpfs, tmp_path):
    out = tmpfs("full", "size=200k")
    s = with_overrides(parse_scenario(TINY), games=40_000)
    with pytest.raises(RunError, match=r"no space left on device: free some space .* to resume"):
        run_scenario(s, out, workers=1, progress=False, chunk_size=1000)
    manifest = read_run_manifest(out / "tiny")
    done = check_run(out / "tiny", manifest)
    assert done.good and not done.complete and not done.bad
    assert manifest.chunks_done == len(done.good)
    assert not list((out / "tiny").rglob("*.tmp"))
    subprocess.run(["mount", "-o", "remount,size=20m", str(out)], check=True)
    outcome = run_scenario(s, out, workers=1, progress=False)
    assert outcome.resumed_chunks == len(done.good)
    alone = run_scenario(s, tmp_path / "alone", workers=1, progress=False)
    assert frame(outcome.path).equals(frame(alone.path))


@pytest.mark.slow
def test_unreachable_scheduler_writes_nothing(tmp_path):
    pytest.importorskip("dask.distributed")
    with pytest.raises(RunError, match=r"cannot reach Dask scheduler .* nothing was written"):
        run_scenario(parse_scenario(TINY), tmp_path / "out", scheduler="tcp://127.0.0.1:9")
    assert not (tmp_path / "out").exists()


def _suicide() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.skipif(backends.START_METHOD != "fork", reason="forked workers see this module")
def test_pool_broken_before_a_submit_is_a_named_failure():
    from concurrent.futures.process import BrokenProcessPool

    backend = backends.PoolBackend(2)
    try:
        doomed = backend.submit(_suicide)
        with pytest.raises(BrokenProcessPool):
            doomed.result()
        with pytest.raises(backends.TaskFailed) as info:
            backends.execute(backend, [1, 2], lambda b, t: b.submit(abs, t), lambda t, r: None)
        assert info.value.backend_problem is not None
        assert "was killed by SIGKILL" in info.value.backend_problem
    finally:
        backend.close(cancel=True)


def _waiting_in(pid: int) -> str:
    """The kernel function process ``pid`` sleeps in (``/proc/PID/wchan``), "" if unknown."""
    try:
        return Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return ""


def _nap(pid_file: str, seconds: float) -> None:
    Path(pid_file).write_text(str(os.getpid()))
    time.sleep(seconds)


@pytest.mark.skipif(backends.START_METHOD != "fork", reason="forked workers see this module")
def test_a_worker_killed_while_idle_does_not_hang_the_pool(tmp_path):
    """An idle worker holds the call queue's read lock while it waits for work, so killed
    there it never releases it. The executor then stops the busy worker with SIGTERM: forked
    inside stop_on_signals, it must die of it, not catch it, go back for work and wait on
    that lock for ever, and the pool's shutdown (and the run) with it."""
    from concurrent.futures.process import BrokenProcessPool

    pid_file = tmp_path / "busy"
    with stop_on_signals():
        backend = backends.PoolBackend(2, warm_parent=False)
        workers: list[int] = []
        try:
            busy = backend.submit(_nap, str(pid_file), 30.0)
            assert wait_for(lambda: pid_file.exists() and pid_file.read_text() != "")
            workers = list(backend.executor._processes)
            idle = [pid for pid in workers if pid != int(pid_file.read_text())]
            assert len(workers) == 2 and len(idle) == 1
            # the idle worker is waiting for work, the lock held (where the kernel shows it)
            wait_for(lambda: "pipe" in _waiting_in(idle[0]), timeout=5)
            time.sleep(0.2)
            os.kill(idle[0], signal.SIGKILL)
            with pytest.raises(BrokenProcessPool):
                busy.result(timeout=20)
            closing = threading.Thread(target=backend.close, args=(True,), daemon=True)
            closing.start()
            closing.join(timeout=20)
            assert not closing.is_alive(), "the pool's shutdown waits for ever"
        finally:
            for pid in workers:  # a worker left waiting would keep the shutdown waiting
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


class _LostResultFuture:
    """A Dask future whose chunk finished on a worker that then died: its result never comes
    (Dask recomputes it, and no worker is left to do so)."""

    status = "finished"

    def __init__(self) -> None:
        self.waits = 0

    def result(self, timeout: float | None = None) -> None:
        assert timeout is not None, "an unbounded wait would hang the run"
        self.waits += 1
        assert self.waits < 10_000, "still waiting: the run would never end"
        time.sleep(timeout)
        raise TimeoutError(f"timed out after {timeout} s")


class _EmptyCluster:
    status = "running"

    def scheduler_info(self) -> dict:
        return {"workers": {}}


def _dask_backend(no_worker_timeout: float) -> backends.DaskBackend:
    backend = object.__new__(backends.DaskBackend)  # no scheduler: only the waiting logic
    backend.address = "tcp://nowhere:8786"
    backend.client = _EmptyCluster()
    backend.no_worker_timeout = no_worker_timeout
    backend._no_worker_since = None
    return backend


def test_dask_result_lost_with_its_worker_ends_the_run(monkeypatch):
    """chaos "no Dask worker left": a worker killed right after finishing a chunk took the
    chunk's result with it; fetching it checks the cluster instead of waiting forever."""
    backend = _dask_backend(no_worker_timeout=0.05)
    future = _LostResultFuture()
    monkeypatch.setattr(backends, "DASK_POLL_S", 0.01)
    with pytest.raises(RunError, match="no Dask worker left on tcp://nowhere:8786"):
        backend.result(future)
    assert future.waits >= 2


def test_dask_result_of_a_failed_chunk_raises_its_error():
    class Failed:
        status = "error"

        def result(self, timeout: float | None = None) -> None:
            raise ValueError("the chunk's own error")

    with pytest.raises(ValueError, match="the chunk's own error"):
        _dask_backend(no_worker_timeout=60).result(Failed())


def test_execute_passes_the_cluster_verdict_through(monkeypatch):
    """The RunError of a lost cluster reaches the caller as it is, not as a failed chunk."""
    backend = _dask_backend(no_worker_timeout=0.0)
    backend.slots = 1
    monkeypatch.setattr(backends, "DASK_POLL_S", 0.01)
    monkeypatch.setattr(backend, "wait_any", lambda futures: list(futures))
    with pytest.raises(RunError, match="no Dask worker left"):
        backends.execute(backend, [1], lambda b, task: _LostResultFuture(), lambda t, r: None)


# --- input that cannot hang or trick it -----------------------------------------------------


def _cli(*args: str, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, env=env(), cwd=cwd, timeout=timeout
    )


def _one_error(done: subprocess.CompletedProcess, code: int = 1) -> str:
    """The single ``Error:`` line of a command that failed with ``code`` (no traceback)."""
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error: ")]
    assert done.returncode == code, done.stderr
    assert len(errors) == 1 and "Traceback" not in done.stderr, done.stderr
    return errors[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_scenario_is_one_line_and_never_hangs(tmp_path):
    fifo = tmp_path / "s.yaml"
    os.mkfifo(fifo)
    done = _cli("run", str(fifo), "--out", str(tmp_path / "out"), timeout=10)
    assert "is a FIFO (named pipe), not a scenario file" in _one_error(done)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("path", ["/dev/zero", "."])
def test_a_device_or_folder_as_scenario_is_one_line(tmp_path, path):
    done = _cli("validate", path, cwd=tmp_path, timeout=10)
    kind = "a character device" if path.startswith("/dev") else "a folder"
    assert f"is {kind}, not a scenario file" in _one_error(done)


def test_an_empty_out_is_refused(tmp_path):
    (tmp_path / "s.yaml").write_text(TINY)
    done = _cli("run", "s.yaml", "--out", "", cwd=tmp_path)
    assert "--out: an empty path is not allowed" in _one_error(done, code=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.yaml"]  # nothing written here
    done = _cli("report", "x", "--out", "", cwd=tmp_path)
    assert "--out: an empty path is not allowed" in _one_error(done, code=2)


def test_a_deeply_nested_manifest_is_one_line(tmp_path):
    folder = tmp_path / "deep"
    folder.mkdir()
    (folder / "manifest.json").write_text("[" * 200_000 + "]" * 200_000)
    line = _one_error(_cli("summary", str(folder)))
    assert "unreadable manifest (nested more than 32 levels deep)" in line
    assert "RecursionError" not in line


def test_a_manifest_above_the_size_limit_is_one_line(tmp_path):
    folder = tmp_path / "big"
    folder.mkdir()
    (folder / "manifest.json").write_text('{"name": "' + "x" * 10_000_001 + '"}')
    assert "unreadable manifest (larger than 10,000,000 bytes)" in _one_error(
        _cli("summary", str(folder))
    )


def test_a_huge_games_number_is_quoted_short(tmp_path):
    (tmp_path / "s.yaml").write_text(TINY)
    done = _cli("run", "s.yaml", "--games", "9" * 5000, cwd=tmp_path)
    line = _one_error(done, code=2)
    assert len(line) < 200 and "9999..." in line


# --- stop signals always answer ------------------------------------------------------------

STUCK = textwrap.dedent(
    """
    import os, sys, time
    from uno_stats.run import runner, tasks
    stuck_from = int(os.environ["STUCK_FROM"])
    play = tasks.run_chunk
    def run_chunk(config, first_game, n_games):
        if first_game >= stuck_from:  # a deadlocked chunk: it never ends
            time.sleep(3600)
        return play(config, first_game, n_games)
    tasks.run_chunk = run_chunk
    if os.environ.get("SLOW_FINISH"):  # the clean-up after a stop takes long
        finish = runner._finish_manifest
        def slow(*args):
            time.sleep(30)
            return finish(*args)
        runner._finish_manifest = slow
    if os.environ.get("STOP_WHEN_DONE"):  # a stop signal right after the last chunk
        record = runner._record_chunk
        def record_then_stop(plan, rows):
            record(plan, rows)
            if len(plan.done) == plan.n_chunks:
                os.kill(os.getpid(), 2)
        runner._record_chunk = record_then_stop
    sys.argv[0] = "uno-stats"
    from uno_stats.cli import main
    main()
    """
)
STUCK_GAMES = 8000


def _start_stuck(tmp_path: Path, *args: str, stuck_from: int = 2000, **extra: str):
    """A CLI command (``args``) whose chunks from game ``stuck_from`` on never end."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"name: tiny\nplayers: 4\ngames: {STUCK_GAMES}\nseed: 7\n")
    return subprocess.Popen(
        [sys.executable, "-c", STUCK, *[str(scenario) if a == "SCENARIO" else a for a in args]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**env(), "STUCK_FROM": str(stuck_from), **extra},
        preexec_fn=default_stop_signals,
    )


def _parts(folder: Path) -> list[Path]:
    """The parts under ``folder``, walked again when a folder vanishes mid-walk (a settle's
    re-cut renames its staging folder while the test polls: rglob then raises)."""
    for _ in range(100):
        try:
            return sorted(folder.rglob("part-*.parquet"))
        except FileNotFoundError:
            continue
    return sorted(folder.rglob("part-*.parquet"))


def _stop(proc: subprocess.Popen, signum: int) -> tuple[str, float]:
    """Send ``signum``; stderr and how long the command took to end (bounded: a hang fails)."""
    started = time.monotonic()
    proc.send_signal(signum)
    err = ended(proc, within=10)
    return err, time.monotonic() - started


RUN_ARGS = ("run", "SCENARIO", "--quiet", "--chunk-size", "1000")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    ("workers", "signum", "stopped"),
    [
        (["--workers", "2"], signal.SIGINT, True),  # the case: a SIGSTOPped worker
        (["--workers", "2"], signal.SIGTERM, False),
        (["--workers", "1"], signal.SIGHUP, False),  # in-process, a chunk playing in a thread
        ([], signal.SIGINT, True),  # the small default run: one forked worker
    ],
)
def test_a_stop_signal_ends_a_stuck_run_at_once(tmp_path, workers, signum, stopped):
    out = tmp_path / "out"
    proc = _start_stuck(tmp_path, *RUN_ARGS, "--out", str(out), *workers)
    assert wait_for(lambda: len(_parts(out)) >= 2 or proc.poll() is not None)
    kids = _children(proc.pid)
    if stopped:
        os.kill(kids[0], signal.SIGSTOP)
    err, _ = _stop(proc, signum)
    assert proc.returncode == 128 + signum
    run = verified_runs(out / "tiny", deep=True)[0]
    assert err.strip().splitlines()[-1] == (
        f"Interrupted: {run.check.games_done:,} of {STUCK_GAMES:,} games are saved in "
        f"{out / 'tiny'} (counted on disk); run the same command again to resume."
    )
    assert run.check.games_done == 2000 and not run.check.bad
    assert wait_for(lambda: not any(alive(k) for k in kids), 10), "a worker outlived the run"


def test_a_second_stop_signal_exits_at_once(tmp_path):
    out = tmp_path / "out"
    proc = _start_stuck(tmp_path, *RUN_ARGS, "--out", str(out), "--workers", "2", SLOW_FINISH="1")
    assert wait_for(lambda: len(_parts(out)) >= 2)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.5)  # the first one is being handled (a clean-up made slow)
    err, _ = _stop(proc, signal.SIGINT)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == (
        f"Interrupted again: stopped at once; finished chunks are saved in {out / 'tiny'}: "
        "run the same command again to resume."
    )


def test_a_complete_run_is_never_called_interrupted(tmp_path):
    out = tmp_path / "out"
    proc = _start_stuck(
        tmp_path,
        *RUN_ARGS,
        "--out",
        str(out),
        "--workers",
        "1",
        stuck_from=10**9,
        STOP_WHEN_DONE="1",
    )
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert "Interrupted" not in err
    assert err.strip().splitlines()[-1] == (
        f"Stopped: the run was already complete: all {STUCK_GAMES:,} games are saved in "
        f"{out / 'tiny'}; uno-stats summary {out / 'tiny'} shows them."
    )
    assert verified_runs(out / "tiny")[0].complete


@pytest.mark.parametrize(
    "kind",
    ["sweep:\n  players: [2, 3]\n", "tournament: [random, basic]\n"],
    ids=["sweep", "tournament"],
)
def test_a_stop_signal_ends_a_stuck_sweep(tmp_path, kind):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: tiny\nplayers: 4\ngames: 3000\nseed: 7\n" + kind)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            STUCK,
            "run",
            str(scenario),
            "--out",
            str(out),
            "--quiet",
            "--workers",
            "2",
            "--chunk-size",
            "1000",
        ],
        stderr=subprocess.PIPE,
        text=True,
        env={**env(), "STUCK_FROM": "2000"},
        preexec_fn=default_stop_signals,
    )
    points = (
        2 if kind.startswith("sweep") else len(parse_scenario(scenario.read_text()).sweep_points())
    )
    assert wait_for(lambda: len(_parts(out)) >= 2 * points)
    err, _ = _stop(proc, signal.SIGTERM)
    assert proc.returncode == 128 + signal.SIGTERM
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"Interrupted: {2000 * points:,} of {3000 * points:,} games are saved")


def test_a_stop_signal_ends_settle(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("name: a\nplayers: 4\ngames: 1000\nseed: 7\n")
    b.write_text("name: b\nplayers: 3\ngames: 1000\nseed: 7\n")
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            STUCK,
            "settle",
            str(a),
            str(b),
            "--out",
            str(out),
            "--quiet",
            "--batch",
            "1000",
            "--max-games",
            "5000",
            "--workers",
            "2",
        ],
        stderr=subprocess.PIPE,
        text=True,
        env={**env(), "STUCK_FROM": "1000"},
        preexec_fn=default_stop_signals,
    )
    assert wait_for(lambda: len(_parts(out)) >= 2)
    err, _ = _stop(proc, signal.SIGINT)
    assert proc.returncode == 130, err
    assert "Interrupted: 1,000 of 1,000 games" not in err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("Interrupted: ")


def test_a_reader_error_after_verification_is_one_line(capsys):
    """A part changed after it was verified (or an earlier version's part) breaks polars:
    one Error line, never a traceback."""
    import typer

    from uno_stats.cli.shared import one_line_errors

    with pytest.raises(typer.Exit) as info, one_line_errors():
        raise pl.exceptions.ComputeError("parquet: File out of specification: " + "x" * 500)
    assert info.value.exit_code == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("Error: a results part cannot be read (ComputeError: parquet: File")
    assert "redo damaged ones" in line and len(line) < 250
    with pytest.raises(KeyError), one_line_errors():  # other errors are not hidden
        raise KeyError("a bug")


# --- a lost manifest or a non-file part is repaired, no good part discarded --------------------


def _played(monkeypatch) -> list[int]:
    """The first games of the chunks played from now on (in this process)."""
    calls: list[int] = []
    play = tasks.run_chunk
    monkeypatch.setattr(
        tasks, "run_chunk", lambda c, first, n: calls.append(first) or play(c, first, n)
    )
    return calls


def _tiny_run(out: Path, notes: list[str] | None = None, text: str = TINY):
    return run_scenario(
        parse_scenario(text),
        out,
        workers=1,
        progress=False,
        chunk_size=250,
        notify=None if notes is None else notes.append,
    )


@pytest.mark.parametrize(
    "damage",
    [
        lambda m: m.write_bytes(m.read_bytes()[: len(m.read_bytes()) // 2]),
        lambda m: m.write_bytes(b""),
        lambda m: m.write_bytes(bytes(range(256)) * 4),
        lambda m: m.unlink(),
        lambda m: m.write_text(m.read_text().replace('"players": 4', '"players": 5')),
    ],
    ids=["half", "empty", "random bytes", "deleted", "edited"],
)
def test_a_lost_manifest_is_rebuilt_from_the_parts(tmp_path, monkeypatch, damage):
    first = _tiny_run(tmp_path / "out")
    reference = frame(first.path)
    damage(first.path / "manifest.json")
    played, notes = _played(monkeypatch), []
    again = _tiny_run(tmp_path / "out", notes)
    assert played == [] and again.resumed_chunks == 4  # no good part discarded
    assert any("rebuilt" in n and "4 of run" in n for n in notes), notes
    assert read_run_manifest(first.path).run_id == read_run_manifest(again.path).run_id
    assert frame(again.path).equals(reference)


def test_a_lost_manifest_with_parts_of_another_scenario_is_refused(tmp_path):
    first = _tiny_run(tmp_path / "out")
    (first.path / "manifest.json").write_text("{")
    with pytest.raises(Exception, match="unreadable manifest"):
        _tiny_run(tmp_path / "out", text=TINY.replace("seed: 7", "seed: 8"))
    assert len(list((first.path / "parts").glob("part-*"))) == 4  # nothing deleted


def test_a_lost_sweep_manifest_resumes_every_point(tmp_path, monkeypatch):
    sweep = TINY + "sweep:\n  players: [2, 3]\n"
    first = _tiny_run(tmp_path / "out", text=sweep)
    (first.path / "manifest.json").unlink()
    played = _played(monkeypatch)
    again = _tiny_run(tmp_path / "out", text=sweep)
    assert played == [] and again.resumed_chunks == 8
    assert (first.path / "manifest.json").exists()


def test_a_folder_in_place_of_a_part_is_moved_aside_and_replayed(tmp_path, monkeypatch):
    first = _tiny_run(tmp_path / "out")
    reference = frame(first.path)
    part = part_path(first.path, 2)
    part.unlink()
    part.mkdir()
    (part / "x").write_text("not a part")
    played, notes = _played(monkeypatch), []
    again = _tiny_run(tmp_path / "out", notes)
    assert played == [500]
    assert any(f"redoing {part}: a folder, not a part file; moved aside" in n for n in notes)
    assert (part.parent / f"{part.name}.moved-aside-1" / "x").exists() and part.is_file()
    assert frame(again.path).equals(reference)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_place_of_a_part_never_hangs(tmp_path):
    first = _tiny_run(tmp_path / "out")
    part = part_path(first.path, 1)
    part.unlink()
    os.mkfifo(part)
    done = _cli("summary", str(first.path), timeout=60)
    assert done.returncode == 0 and f"{part} not counted: a FIFO (named pipe)" in done.stderr
    _tiny_run(tmp_path / "out")
    assert part.is_file() and verified_runs(first.path)[0].complete


# --- hostile input is quoted short -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shows"),
    [
        ("players: 4\nrules:\n  preset: " + "p" * 5000 + "\n", "ppp...'"),
        ("players: 4\ndescription: [" + ", ".join(["x"] * 3000) + "]\n", "'x', ...]"),
        ("players: " + "9" * 3000 + "\n", "999..."),
        ("players: 4\nstrategies:\n  - strategy: " + "s" * 3000 + "\n", "sss...'"),
    ],
    ids=["preset", "list", "number", "strategy"],
)
def test_hostile_input_is_quoted_at_most_about_80_characters(tmp_path, text, shows):
    (tmp_path / "s.yaml").write_text("name: x\n" + text)
    line = _one_error(_cli("validate", "s.yaml", cwd=tmp_path))
    assert shows in line and len(line) < 250, line


def test_bounded_keeps_ordinary_messages_whole():
    from uno_stats.errors import bounded

    long_path = "/tmp/" + "/".join(["folder"] * 15) + "/manifest.json"
    for message in [
        f"{long_path}: the run's chunk's parts' own records (a b c); rerun with --fresh",
        "strategies[0].strategy: 'x' is not allowed: use one of random, aggressive",
        "seats: {'a': [1, 2]} is fine",
    ]:
        assert bounded(message) == message
    assert bounded("seats: [" + "{'strategy': 'random'}, " * 1000 + "]").endswith("...]")


@pytest.mark.parametrize(
    "args",
    [
        ["run", "s.yaml", "--workers", "1_0"],
        ["run", "s.yaml", "--workers", "\u0663"],  # an Arabic-Indic 3, which int() takes
        ["run", "s.yaml", "--seed", "+5"],
        ["run", "s.yaml", "--chunk-size", "1e3"],
        ["settle", "s.yaml", "s.yaml", "--batch", " 7"],
        ["bench", "--repeat", "0"],
    ],
    ids=["underscore", "other digits", "sign", "exponent", "space", "zero"],
)
def test_integer_options_take_only_plain_digits(tmp_path, args):
    (tmp_path / "s.yaml").write_text(TINY)
    out = [] if args[0] == "bench" else ["--out", "out"]
    line = _one_error(_cli(*args, *out, cwd=tmp_path), code=2)
    assert f"Error: {args[-2]}: " in line and ("is not allowed" in line or "out of range" in line)
    assert not (tmp_path / "out").exists()


def test_an_abandoned_in_process_run_commits_no_further_part():
    backend = backends.PipelinedBackend()
    renamed: list[int] = []
    assert backend.commit(lambda: renamed.append(1))
    backend.abandon()
    assert not backend.commit(lambda: renamed.append(2))
    assert renamed == [1] and backend.stopped.is_set()


def test_an_abandoned_dask_run_cancels_its_pending_futures():
    class Client:
        status = "running"

        def __init__(self) -> None:
            self.cancelled: list = []
            self.closed = False

        def cancel(self, futures, asynchronous=None):
            self.cancelled.extend(futures)

        def close(self, timeout=None):
            self.closed = True

    backend = _dask_backend(no_worker_timeout=60)
    backend.client = client = Client()
    backend.cluster = None
    backend._log = backends.logging.getLogger("distributed.client")
    backend._log_level = backend._log.level
    backend._pending = {"chunk 3", "chunk 4"}
    backend.abandon()
    assert sorted(client.cancelled) == ["chunk 3", "chunk 4"] and client.closed
    assert not backend._pending

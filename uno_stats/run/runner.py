"""Run a scenario: chunks of games on a process pool (or Dask), one Parquet part per chunk.

Planning (chunks, fingerprints, manifests, resume) is :mod:`uno_stats.run.plan`.

One worker plays in this process, writing each part while the next chunk plays
(:class:`~uno_stats.run.backends.PipelinedBackend`); a default run with few games to play
uses one worker (:data:`SMALL_RUN_GAMES`). With a cached engine, forked pool workers load it
themselves while this process does the caller's ``while_running`` work (the CLI imports its
summary's modules), so this module imports neither numba, polars nor pyarrow.

Every game's random stream depends only on the scenario seed and the game's index, so a
run gives identical results whatever the chunk size or worker count. The parent process
writes each finished chunk at once; rerunning the same command resumes where an
interrupted run stopped: parts that pass verification (:mod:`uno_stats.store.verify`) are
kept, the chunks of missing or failing parts are played again.

A run holds the results folder's lock (:mod:`uno_stats.store.lock`) from before it touches
the folder until it ends; pool workers die with their parent (see
:mod:`uno_stats.run.backends`) and check between chunks that it is still alive, and every part
records the run id, so a part of another run is never counted.
"""

from __future__ import annotations

import itertools
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from uno_stats.engine import jit
from uno_stats.errors import RunError
from uno_stats.limits import cap_workers
from uno_stats.run import tasks
from uno_stats.run.backends import (
    START_METHOD,
    Backend,
    PipelinedBackend,
    PoolBackend,
    TaskFailed,
    execute,
    make_backend,
)
from uno_stats.run.interrupts import stop_on_signals
from uno_stats.run.plan import Chunk, RunPlan, plan_run
from uno_stats.run.sweep_plan import SweepPlan, plan_sweep
from uno_stats.store.folder import check_out_folder, clear_folder, os_error
from uno_stats.store.lock import folder_lock
from uno_stats.store.manifest import write_manifest
from uno_stats.store.parts import PartMeta, write_part, write_table_part
from uno_stats.store.run_check import RunCheck
from uno_stats.store.runs import PointRuns, Run
from uno_stats.store.verify import check_run

if TYPE_CHECKING:
    from uno_stats.scenario.load import Scenario


SMALL_RUN_GAMES = 20_000
"""Runs with at most this many games left to play, and no worker count asked for, play on
one worker: about a tenth of a second of engine time, less than starting a pool costs."""
# Reading: "small" counts games (a match scenario's games are matches, each several rounds).


def _one_worker_run(games: int, workers_chosen: bool, cluster: bool) -> bool:
    """Whether ``games`` make a small default run, played on one worker: no worker count
    asked for, no cluster, at most :data:`SMALL_RUN_GAMES` games."""
    return not workers_chosen and not cluster and games <= SMALL_RUN_GAMES


@dataclass(frozen=True)
class RunOutcome:
    """What :func:`run_scenario` did: where, which runs, and how fast."""

    path: Path
    runs: Sequence[Run]
    games: int
    wall_time_s: float
    games_per_s: float
    resumed_chunks: int
    notes: list[str] = field(default_factory=list)


class RunInterrupted(KeyboardInterrupt):
    """A stop signal (Ctrl-C, SIGTERM, SIGHUP) stopped a run; finished parts are on disk and
    the same command resumes it. ``games_done`` is counted on disk (None: stopped while
    preparing, before any chunk was played); ``signum`` is the signal."""

    def __init__(
        self, path: Path, games_done: int | None, games_total: int, signum: int = 2
    ) -> None:
        self.path = path
        self.games_done = games_done
        self.games_total = games_total
        self.signum = signum
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """One line: exactly what is saved, and how to go on."""
        if self.games_done is None:
            return (
                f"Interrupted while preparing the run in {self.path}, before playing anything; "
                "run the same command again to resume."
            )
        if self.games_done >= self.games_total:
            return (
                f"Stopped: the run was already complete: all {self.games_total:,} games are "
                f"saved in {self.path}; uno-stats summary {self.path} shows them."
            )
        return (
            f"Interrupted: {self.games_done:,} of {self.games_total:,} games are saved in "
            f"{self.path} (counted on disk); run the same command again to resume."
        )


@dataclass
class _Progress:
    """Bookkeeping of one invocation: games computed, timing, the progress bar.

    The bar (tqdm, when ``show`` is true) is opened by :meth:`open_bar` once the workers
    are started, so that importing and starting it delays no worker.
    """

    show: bool
    started: float = field(default_factory=time.perf_counter)
    ended: float | None = None
    computed: int = 0
    bar: Any = None

    def open_bar(self, desc: str, total: int, initial: int) -> None:
        """Start showing progress (None: quiet when stderr is not a terminal)."""
        if self.show and self.bar is None and self.ended is None:
            from tqdm import tqdm

            self.bar = tqdm(
                total=total,
                initial=initial,
                unit="game",
                unit_scale=True,
                desc=desc,
                file=sys.stderr,
                disable=None,  # quiet when stderr is not a terminal
                dynamic_ncols=True,
            )

    def update(self, games: int) -> None:
        """``games`` more games are done."""
        self.computed += games
        if self.bar is not None:
            self.bar.update(games)

    def stop(self) -> None:
        """Close the bar and freeze the clock (once)."""
        if self.ended is None:
            self.ended = time.perf_counter()
            if self.bar is not None:
                self.bar.close()

    @property
    def elapsed(self) -> float:
        return (self.ended or time.perf_counter()) - self.started

    @property
    def rate(self) -> float | None:
        """Games per second computed by this invocation (None when it computed nothing)."""
        return self.computed / self.elapsed if self.computed and self.elapsed > 0 else None


Plan = RunPlan | SweepPlan
"""One results dataset to fill: a run's, or a whole sweep's."""


def _chunk_error(plan: Plan, failed: TaskFailed) -> RunError:
    """One line for a failed chunk: which chunk and seed, what went wrong, how to go on."""
    chunk, exc = failed.task, failed.error
    if isinstance(plan, SweepPlan):
        where = plan.where(chunk)
    else:
        where = f"chunk {chunk.index} (games {chunk.first_game}-{chunk.last_game}"
    what = f"{where}, seed {plan.scenario.seed})"
    resume = "finished chunks are saved: run the same command again to resume"
    if failed.backend_problem:  # a worker or the cluster died, not the chunk's own code
        return RunError(
            f"{failed.backend_problem}; {what} and any others in flight did not finish; {resume}"
        )
    if isinstance(exc, OSError):
        return RunError(f"{what}: {os_error(exc, plan.path)}")
    return RunError(f"{what} failed: {type(exc).__name__}: {exc}; {resume}")


def _submit(backend: Backend, plan: Plan, chunk: Chunk, write_here: bool) -> Any:
    """Start one chunk; the task functions are looked up at call time (tests replace
    ``tasks.run_chunk``).

    Workers on this machine write their own part; Dask workers, which may not share the
    disk, and the one forked worker of a small run (``write_here``: it then never imports
    pyarrow, which this process imports meanwhile) send the columns (a sweep's: its
    table) back for this process to write.
    """
    turns = backend if isinstance(backend, PipelinedBackend) else None
    writes = getattr(backend, "shares_disk", False) and not write_here
    if isinstance(plan, SweepPlan):
        configs, slices = plan.point_configs(), plan.slices(chunk)
        if writes:
            return backend.submit(
                tasks.sweep_and_write_chunk,
                configs,
                slices,
                plan.matches,
                str(plan.path),
                plan.part_meta(chunk),
                os.getpid(),
                turns,
            )
        return backend.submit(tasks.play_sweep_chunk, configs, slices)
    if writes:
        return backend.submit(
            tasks.run_and_write_chunk,
            plan.config,
            str(plan.path),
            plan.scenario.players,
            plan.part_meta(chunk),
            os.getpid(),
            turns,
        )
    return backend.submit(tasks.run_chunk, plan.config, chunk.first_game, chunk.n_games)


def _write_returned(plan: Plan, chunk: Chunk, result: Any) -> int:
    """Write here the part of a chunk whose worker sent its columns back; the rows."""
    meta = plan.part_meta(chunk)
    if isinstance(plan, SweepPlan):
        table, point_rows = result
        if plan.matches:
            meta = PartMeta(**{**meta.__dict__, "point_rows": point_rows})
        write_table_part(plan.path, chunk.index, table, meta)
        return int(table.num_rows)
    write_part(plan.path, chunk.index, result, plan.scenario.players, meta)
    return len(result["game"])


def _record_chunk(plan: Plan, rows: int) -> None:
    """Keep the manifest in step with the parts on disk (a killed run still tells its progress)."""
    plan.manifest.chunks_done = len(plan.done)
    plan.manifest.rows += rows
    write_manifest(plan.path, plan.manifest)


def _finish_manifest(plan: Plan, progress: _Progress) -> RunCheck:
    """Write the manifest with the counts of what is really on disk (footers re-checked);
    ``complete`` only when every planned chunk has a good part. The check."""
    elapsed, rate = progress.elapsed, progress.rate
    check = check_run(plan.path, plan.manifest, deep=False)
    m = plan.manifest
    m.chunks_done = len(check.good)
    m.rows = check.rows
    m.complete = check.complete
    m.wall_time_s = round(m.wall_time_s + elapsed, 3)
    if rate is not None:
        m.games_per_s = round(rate, 1)
    write_manifest(plan.path, m)
    return check


def _plan(scenario: Scenario, root: Path, chunk_size: int | None, workers: int, note: Any) -> Plan:
    """The run's plan: one run folder, or a sweep's (or tournament's) one dataset."""
    if scenario.point_count:
        return plan_sweep(scenario, root, chunk_size, workers, note)
    return plan_run(0, scenario, root, chunk_size, workers, note)


def run_scenario(
    scenario: Scenario,
    out_dir: str | Path = "results",
    workers: int | None = None,
    progress: bool = True,
    scheduler: str | None = None,
    chunk_size: int | None = None,
    fresh: bool = False,
    notify: Callable[[str], None] | None = None,
    games_limit: int | None = None,
    while_running: Callable[[], None] | None = None,
) -> RunOutcome:
    """Simulate ``scenario`` into ``out_dir/<name>/`` (one sub-folder per sweep point).

    ``workers``: local processes (default: every core; 1 runs in this process; capped at
    :func:`~uno_stats.limits.max_workers`). ``scheduler``: a Dask scheduler address, or
    ``"local"`` for an in-process LocalCluster; it is reached before anything is written.
    The folder is locked for the whole run. Verified chunks already on disk from an
    interrupted run of the same scenario are kept; a folder holding another scenario is an
    error unless ``fresh`` (which empties it first, under the lock). ``notify`` receives
    one-line notes (workers capped, parts redone) as they happen; they are also in
    ``RunOutcome.notes``. ``games_limit``: play only the chunks that start below this game
    index (the run stays incomplete and a later call with a higher limit continues it;
    ``settle`` grows runs so). ``while_running`` is called once in this process as soon as
    the first chunks are handed out (after pool workers are started), so that the caller can
    prepare its own work (the CLI imports its summary's modules) while they play. Raises
    :class:`RunError` when a chunk, a worker, the cluster or the disk fails and
    :class:`RunInterrupted` on Ctrl-C, SIGTERM or SIGHUP (:mod:`uno_stats.run.interrupts`:
    workers are stopped at once, what is on disk is counted; a second signal exits).
    """
    notes: list[str] = []

    def note(message: str) -> None:
        notes.append(message)
        if notify is not None:
            notify(message)

    chosen = workers is not None
    workers, capped = cap_workers(max(1, workers or os.cpu_count() or 1))
    if capped:
        note(capped)
    if chunk_size is not None and chunk_size < 1:
        raise RunError(f"chunk size must be at least 1, not {chunk_size}")
    # Reading: a default run (no worker count, no cluster) of at most SMALL_RUN_GAMES games
    # (per sweep point) is cut into chunks for the one worker that plays it: fewer, larger
    # parts, each of which costs its writer a part and a manifest (about 10 ms)
    one = _one_worker_run(scenario.games, chosen, scheduler is not None)
    cut_for = 1 if one else workers
    root = Path(out_dir) / scenario.name
    check_out_folder(root)
    at_once = (
        f"Interrupted again: stopped at once; finished chunks are saved in {root}: run the "
        "same command again to resume."
    )
    with stop_on_signals(at_once), ExitStack() as stack:
        try:
            cluster = stack.enter_context(make_backend(workers, scheduler)) if scheduler else None
            stack.enter_context(folder_lock(root))
            if fresh:
                clear_folder(root)
            plan = _plan(scenario, root, chunk_size, cut_for, note)
            root.mkdir(parents=True, exist_ok=True)
            write_manifest(root, plan.manifest)
        except OSError as exc:
            raise os_error(exc, root) from None
        except KeyboardInterrupt as exc:
            raise RunInterrupted(root, None, scenario.games, _signum(exc)) from None
        compile_here = scheduler in (None, "local")  # workers on this machine share the cache
        try:
            return _execute(
                scenario,
                root,
                plan,
                workers,
                cluster,
                progress,
                notes,
                games_limit,
                compile_here,
                chosen,
                while_running,
            )
        except RunInterrupted:
            raise
        except KeyboardInterrupt as exc:  # a first signal while the manifests were written
            saved = check_run(plan.path, plan.manifest, deep=False).games_done
            raise RunInterrupted(root, saved, plan.manifest.planned_games, _signum(exc)) from None
    raise AssertionError("unreachable")  # pragma: no cover - the with block returns or raises


def _outcome_runs(plan: Plan, check: RunCheck) -> Sequence[Run]:
    """The run, or every point of the sweep, as the disk has it."""
    if isinstance(plan, SweepPlan):
        return PointRuns(plan.path, plan.manifest, check)
    return [Run(plan.path, plan.manifest, check)]


def _signum(exc: BaseException) -> int:
    """The signal behind a ``KeyboardInterrupt`` (SIGINT unless :class:`Stopped` says)."""
    return int(getattr(exc, "signum", signal.SIGINT))


def _todo(plan: Plan, games_limit: int | None) -> Iterator[Chunk]:
    """The chunks of ``plan`` still to play (those starting below ``games_limit``), lazily."""
    if games_limit is None:
        return plan.todo
    return itertools.takewhile(lambda c: c.first_game < games_limit, plan.todo)


def _execute(
    scenario: Scenario,
    root: Path,
    plan: Plan,
    workers: int,
    cluster: Backend | None,
    progress: bool,
    notes: list[str],
    games_limit: int | None,
    compile_here: bool,
    workers_chosen: bool = True,
    while_running: Callable[[], None] | None = None,
) -> RunOutcome:
    """Play every chunk still to do (locked folder, manifests written); the outcome."""
    total = plan.manifest.planned_games
    resumed = len(plan.done)
    already = sum(plan.chunk(i).n_games for i in plan.done)
    pending = next(_todo(plan, games_limit), None) is not None
    todo = _todo(plan, games_limit)
    small = _one_worker_run(total - already, workers_chosen, cluster is not None)
    if small:
        workers = 1  # a pool of every core would cost more than it saves
    # A local pool's forked workers load a cached engine themselves, in parallel, while this
    # process prepares the summary (``while_running``); a cold engine compiles here, once. A
    # small run with something to prepare meanwhile forks its one worker for that reason, and
    # writes that worker's parts here: the worker only loads the engine and plays, while
    # this process imports pyarrow with the summary's modules.
    cached = jit.engine_is_cached()
    fork_one = small and cached and while_running is not None and START_METHOD == "fork"
    warm_here = cluster is not None or not cached or (workers == 1 and not fork_one)
    state = _Progress(progress)

    def started() -> None:
        """The first chunks are handed out (pool workers forked): now the rest can start."""
        if while_running is not None:
            while_running()
        state.open_bar(scenario.name, total, already)

    def on_done(chunk: Chunk, result: Any) -> None:
        if not isinstance(result, int):  # from a worker that does not write its part
            result = _write_returned(plan, chunk, result)
        plan.done.add(chunk.index)
        _record_chunk(plan, result)
        state.update(chunk.n_games)

    def submit(backend: Backend, chunk: Chunk) -> Any:
        return _submit(backend, plan, chunk, write_here=fork_one)

    error: BaseException | None = None
    interrupted: KeyboardInterrupt | None = None
    try:
        if pending and compile_here and warm_here:
            jit.ensure_compiled()  # here, once, with a notice when cold: workers load the cache
        if pending and cluster is not None:
            state.started = time.perf_counter()  # the speed excludes compile and start-up
            execute(cluster, todo, submit, on_done, started)
        elif pending:
            # Closed (running chunks finished) on exit.
            # A stop signal abandons the backend (workers killed, nothing more written).
            with make_backend(
                workers, pipelined=True, warm_parent=warm_here, pool=fork_one
            ) as backend:
                # Reading: the speed excludes compiling and this command's own start-up; pool
                # workers that load a cached engine themselves do so within it.
                state.started = time.perf_counter()
                try:
                    execute(backend, todo, submit, on_done, started)
                except Exception:
                    if fork_one and isinstance(backend, PoolBackend):
                        # its chunks come back here to be written: one still playing would
                        # only be dropped, so the worker is stopped instead of waited for
                        backend.discard()
                    raise
    except TaskFailed as failed:
        error = _chunk_error(plan, failed)
    except OSError as exc:
        error = os_error(exc, root)
    except KeyboardInterrupt as exc:
        interrupted = exc
    finally:
        state.stop()
        try:
            check = _finish_manifest(plan, state)
        except OSError as exc:
            if error is None and interrupted is None:
                raise os_error(exc, root) from None
            check = check_run(plan.path, plan.manifest, deep=False)
    if error is not None:
        raise error from None
    saved = check.games_done
    if interrupted is not None:
        raise RunInterrupted(root, saved, total, _signum(interrupted)) from None
    return RunOutcome(
        path=root,
        runs=_outcome_runs(plan, check),
        games=total,
        wall_time_s=state.elapsed,
        games_per_s=state.rate or 0.0,
        resumed_chunks=resumed,
        notes=notes,
    )

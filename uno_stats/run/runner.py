"""Run a scenario: chunks of games on a process pool (or Dask), one Parquet part per chunk.

Every game's random stream depends only on the scenario seed and the game's index, so a
run gives identical results whatever the chunk size or worker count. The parent process
writes each finished chunk at once; rerunning the same command resumes where an
interrupted run stopped (chunks whose part file exists are skipped).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from tqdm import tqdm

from uno_stats import engine
from uno_stats.engine.jit import engine_source_hash, ensure_compiled
from uno_stats.errors import RunError
from uno_stats.run.backends import Backend, TaskFailed, execute, make_backend
from uno_stats.run.manifest import (
    MANIFEST,
    Manifest,
    SweepManifest,
    read_manifest,
    write_manifest,
)
from uno_stats.run.results import (
    Run,
    count_rows,
    done_chunks,
    remove_stale_tmp,
    tool_version,
    write_part,
)

if TYPE_CHECKING:
    from uno_stats.run.scenario import Scenario, SweepPoint

ROUND_CHUNK = 50_000
"""Default chunk of single rounds: ~0.5 s of engine time on one core (measured), ~8 MB."""
MATCH_CHUNK = 2_000
"""Default chunk of matches: a 500-point match is ~11 rounds, so ~22,000 rows."""
MIN_CHUNKS_PER_WORKER = 4
"""Small runs are cut finer so that every worker gets a few chunks."""


@dataclass(frozen=True)
class RunOutcome:
    """What :func:`run_scenario` did: where, which runs, and how fast."""

    path: Path
    runs: list[Run]
    games: int
    wall_time_s: float
    games_per_s: float
    resumed_chunks: int


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; finished parts are on disk and the same command resumes it."""

    def __init__(self, path: Path, games_done: int, games_total: int) -> None:
        self.path = path
        self.games_done = games_done
        self.games_total = games_total
        super().__init__(f"interrupted with {games_done} of {games_total} games in {path}")


@dataclass(frozen=True)
class Chunk:
    """One unit of work: games ``first_game`` .. ``first_game + n_games - 1`` of one run."""

    run: int  # index of the run (sweep point) in the plan
    index: int  # chunk index within that run; names the part file
    first_game: int
    n_games: int

    @property
    def last_game(self) -> int:
        """Index of the chunk's last game."""
        return self.first_game + self.n_games - 1


@dataclass
class RunPlan:
    """One run folder to fill: its scenario, engine config, chunks and manifest."""

    scenario: Scenario
    path: Path
    chunk_size: int
    config: Any
    manifest: Manifest
    label: str | None = None
    chunks: list[Chunk] = field(default_factory=list)
    done: set[int] = field(default_factory=set)

    @property
    def todo(self) -> list[Chunk]:
        """The chunks whose part file does not exist yet."""
        return [c for c in self.chunks if c.index not in self.done]


def run_chunk(config: Any, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    """Play one chunk (runs in a worker process): the engine's column arrays."""
    return engine.simulate(config, first_game, n_games)


def run_and_write_chunk(
    config: Any, first_game: int, n_games: int, run_dir: str, chunk_index: int, players: int
) -> int:
    """Play one chunk and write its Parquet part in the worker; the rows written.

    Used where workers share the results folder's disk (in-process and the local pool):
    the parent then neither receives nor encodes the columns, which would otherwise make it
    the bottleneck once every core simulates.
    """
    columns = run_chunk(config, first_game, n_games)
    write_part(Path(run_dir), chunk_index, columns, players)
    return len(columns["game"])


def default_chunk_size(scenario: Scenario, workers: int) -> int:
    """Games per chunk: about a second of work, but at least a few chunks per worker."""
    target = MATCH_CHUNK if scenario.match_target else ROUND_CHUNK
    per_worker = math.ceil(scenario.games / (MIN_CHUNKS_PER_WORKER * max(1, workers)))
    return max(1, min(target, per_worker))


def plan_chunks(run: int, games: int, chunk_size: int) -> list[Chunk]:
    """Cut ``games`` games into chunks of ``chunk_size`` (the last one may be shorter)."""
    return [
        Chunk(run, index, first, min(chunk_size, games - first))
        for index, first in enumerate(range(0, games, chunk_size))
    ]


def engine_hash() -> str:
    """Fingerprint of the engine's source: parts played by different engine code never mix."""
    return engine_source_hash()


def config_hash(scenario: Scenario, chunk_size: int) -> str:
    """Fingerprint of what a run folder holds: resolved scenario, chunk size, tool and engine."""
    data = scenario.to_dict()
    data.pop("source", None)  # where the file was read from does not change the results
    payload = {
        "scenario": data,
        "chunk_size": chunk_size,
        "version": tool_version(),
        "engine": engine_hash(),
    }
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _existing_manifest(path: Path) -> Manifest | SweepManifest | None:
    return read_manifest(path) if (path / MANIFEST).exists() else None


def _mismatch(path: Path) -> RunError:
    return RunError(
        f"{path} holds results of a different scenario (or chunk size, or another version of "
        "uno-stats or its engine); "
        "rerun with --fresh to replace them, or choose another --out"
    )


def _prepare_folder(path: Path, fresh: bool) -> None:
    """Clear ``path`` for a fresh run; refuse to touch a folder that is not a results folder."""
    if not path.exists():
        return
    if path.is_file():
        raise RunError(f"{path} is a file, not a results folder")
    if not (path / MANIFEST).exists() and any(path.iterdir()):
        raise RunError(f"{path} exists and is not a results folder; move it away first")
    if fresh:
        shutil.rmtree(path)


def _resumable_size(old: Manifest | SweepManifest | None, scenario: Scenario) -> int | None:
    """The chunk size of an earlier run of this same scenario in the folder, if any.

    Results do not depend on chunking, so a resumed run keeps the folder's chunk size even
    when the worker count (and so the default chunk size) has changed.
    """
    if not isinstance(old, Manifest):
        return None
    size = old.chunk_size
    return size if old.config_hash == config_hash(scenario, size) else None


def _plan_run(
    run: int,
    scenario: Scenario,
    path: Path,
    chunk_size: int | None,
    workers: int,
    point: SweepPoint | None = None,
) -> RunPlan:
    """Plan one run folder, resuming the chunks already on disk when the scenario matches."""
    old = _existing_manifest(path)
    size = chunk_size or _resumable_size(old, scenario) or default_chunk_size(scenario, workers)
    digest = config_hash(scenario, size)
    if old is not None and old.config_hash != digest:
        raise _mismatch(path)
    previous = old if isinstance(old, Manifest) else None
    manifest = new_manifest(scenario, size, point)
    manifest.config_hash = digest
    if previous is not None:
        manifest.created = previous.created
        manifest.wall_time_s = previous.wall_time_s
        manifest.games_per_s = previous.games_per_s
    plan = RunPlan(scenario, path, size, engine.EngineConfig.from_scenario(scenario), manifest)
    plan.label = point.label if point is not None else None
    plan.chunks = plan_chunks(run, scenario.games, size)
    remove_stale_tmp(path)
    plan.done = done_chunks(path) & {c.index for c in plan.chunks}
    plan.manifest.chunks_done = len(plan.done)
    return plan


def new_manifest(scenario: Scenario, chunk_size: int, point: SweepPoint | None = None) -> Manifest:
    """The manifest of a run folder about to be filled (nothing done yet).

    ``scenario`` is the run's own (for a sweep point, the point's); tests build synthetic
    results folders with this same function, so they hold what the runner writes.
    """
    return Manifest(
        name=scenario.name,
        version=tool_version(),
        seed=scenario.seed,
        games=scenario.games,
        scenario_data=scenario.to_dict(),
        chunk_size=chunk_size,
        chunks=math.ceil(scenario.games / chunk_size),
        config_hash=config_hash(scenario, chunk_size),
        engine_hash=engine_hash(),
        created=_now(),
        sweep_label=point.label if point is not None else None,
        sweep_assignment=point.assignment if point is not None else None,
    )


def new_sweep_manifest(scenario: Scenario, points: list[SweepPoint]) -> SweepManifest:
    """The sweep (or tournament) folder's manifest; a tournament's axis is ``rotation``."""
    return SweepManifest(
        name=scenario.name,
        version=tool_version(),
        seed=scenario.seed,
        games=scenario.games,
        axes=scenario.sweep or {"rotation": [p.assignment["rotation"] for p in points]},
        points=[p.label for p in points],
        config_hash=config_hash(scenario, 0),
        tournament=list(scenario.tournament) if scenario.tournament else None,
    )


def _plan(
    scenario: Scenario, root: Path, chunk_size: int | None, workers: int
) -> tuple[list[RunPlan], SweepManifest | None]:
    """Every run folder of the scenario (one, or one per sweep point) and the sweep manifest.

    A tournament's rotations are sweep points whose manifests also name the ``tournament``.
    """
    points = scenario.sweep_points()
    if not points:
        return [_plan_run(0, scenario, root, chunk_size, workers)], None
    sweep = new_sweep_manifest(scenario, points)
    old = _existing_manifest(root)
    if old is not None and old.config_hash != sweep.config_hash:
        raise _mismatch(root)
    plans = [
        _plan_run(i, p.scenario, root / p.label, chunk_size, workers, point=p)
        for i, p in enumerate(points)
    ]
    if scenario.tournament:
        for plan in plans:
            plan.manifest.tournament = list(scenario.tournament)
    return plans, sweep


@dataclass
class _Progress:
    """Bookkeeping of one invocation: games computed, timing, the progress bar."""

    bar: Any
    started: float = field(default_factory=time.perf_counter)
    ended: float | None = None
    computed: int = 0

    def stop(self) -> None:
        """Close the bar and freeze the clock (once)."""
        if self.ended is None:
            self.ended = time.perf_counter()
            self.bar.close()

    @property
    def elapsed(self) -> float:
        return (self.ended or time.perf_counter()) - self.started

    @property
    def rate(self) -> float | None:
        """Games per second computed by this invocation (None when it computed nothing)."""
        return self.computed / self.elapsed if self.computed and self.elapsed > 0 else None


def _chunk_error(plan: RunPlan, chunk: Chunk, exc: BaseException) -> RunError:
    where = f"point {plan.label} " if plan.label else ""
    return RunError(
        f"{where}chunk {chunk.index} (games {chunk.first_game}-{chunk.last_game}, "
        f"seed {plan.scenario.seed}) failed: {type(exc).__name__}: {exc}"
    )


def _submit(backend: Backend, plans: list[RunPlan], chunk: Chunk) -> Any:
    """Start one chunk; ``run_chunk`` is looked up at call time (tests replace it).

    Workers on this machine write their own part; Dask workers, which may not share the
    disk, send the columns back for the parent to write.
    """
    plan = plans[chunk.run]
    if getattr(backend, "shares_disk", False):
        return backend.submit(
            run_and_write_chunk,
            plan.config,
            chunk.first_game,
            chunk.n_games,
            str(plan.path),
            chunk.index,
            plan.scenario.players,
        )
    return backend.submit(run_chunk, plan.config, chunk.first_game, chunk.n_games)


def _record_chunk(plan: RunPlan, rows: int) -> None:
    """Keep the manifest in step with the parts on disk (a killed run still tells its progress)."""
    plan.manifest.chunks_done = len(plan.done)
    plan.manifest.rows += rows
    write_manifest(plan.path, plan.manifest)


def _finish_manifests(
    plans: list[RunPlan], sweep: SweepManifest | None, root: Path, progress: _Progress
) -> None:
    """Write every manifest with the final counts; ``complete`` only when every chunk is on disk."""
    elapsed, rate = progress.elapsed, progress.rate
    for plan in plans:
        m = plan.manifest
        m.chunks_done = len(plan.done)
        m.rows = count_rows(plan.path)
        m.complete = len(plan.done) == len(plan.chunks)
        m.wall_time_s = round(m.wall_time_s + elapsed, 3)
        if rate is not None:
            m.games_per_s = round(rate, 1)
        write_manifest(plan.path, m)
    if sweep is not None:
        sweep.complete = all(p.manifest.complete for p in plans)
        sweep.wall_time_s = round(elapsed, 3)
        sweep.games_per_s = round(rate, 1) if rate is not None else None
        write_manifest(root, sweep)


def _start_manifests(plans: list[RunPlan], sweep: SweepManifest | None, root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    if sweep is not None:
        write_manifest(root, sweep)
    for plan in plans:
        plan.path.mkdir(parents=True, exist_ok=True)
        plan.manifest.rows = count_rows(plan.path)
        write_manifest(plan.path, plan.manifest)


def run_scenario(
    scenario: Scenario,
    out_dir: str | Path = "results",
    workers: int | None = None,
    progress: bool = True,
    scheduler: str | None = None,
    chunk_size: int | None = None,
    fresh: bool = False,
    games_limit: int | None = None,
) -> RunOutcome:
    """Simulate ``scenario`` into ``out_dir/<name>/`` (one sub-folder per sweep point).

    ``workers``: local processes (default: every core; 1 runs in this process).
    ``scheduler``: a Dask scheduler address, or ``"local"`` for an in-process LocalCluster.
    Chunks already on disk from an interrupted run of the same scenario are kept; a folder
    holding another scenario is an error unless ``fresh`` (which clears it first).
    ``games_limit``: play only the chunks that start below this game index (the run stays
    incomplete and a later call with a higher limit continues it; ``settle`` grows runs so).
    Raises :class:`RunError` when a chunk fails and :class:`RunInterrupted` on Ctrl-C.
    """
    workers = max(1, workers or os.cpu_count() or 1)
    if chunk_size is not None and chunk_size < 1:
        raise RunError(f"chunk size must be at least 1, not {chunk_size}")
    root = Path(out_dir) / scenario.name
    _prepare_folder(root, fresh)
    plans, sweep = _plan(scenario, root, chunk_size, workers)
    _start_manifests(plans, sweep, root)
    total = sum(p.scenario.games for p in plans)
    resumed = sum(len(p.done) for p in plans)
    already = sum(c.n_games for p in plans for c in p.chunks if c.index in p.done)
    todo = [c for p in plans for c in p.todo]
    if games_limit is not None:
        todo = [c for c in todo if c.first_game < games_limit]
    if todo and scheduler in (None, "local"):
        ensure_compiled()  # here, once, with a notice when cold: workers then load the cache
    bar = tqdm(
        total=total,
        initial=already,
        unit="game",
        unit_scale=True,
        desc=scenario.name,
        file=sys.stderr,
        disable=None if progress else True,  # None: quiet when stderr is not a terminal
        dynamic_ncols=True,
    )
    state = _Progress(bar)

    def on_done(chunk: Chunk, result: int | dict[str, np.ndarray]) -> None:
        plan = plans[chunk.run]
        if isinstance(result, dict):  # columns from a worker that does not share our disk
            write_part(plan.path, chunk.index, result, plan.scenario.players)
            result = len(result["game"])
        plan.done.add(chunk.index)
        _record_chunk(plan, result)
        state.computed += chunk.n_games
        bar.update(chunk.n_games)

    try:
        if todo:
            with make_backend(workers, scheduler) as backend:
                state.started = time.perf_counter()  # the speed excludes compile and start-up
                execute(backend, todo, lambda b, c: _submit(b, plans, c), on_done)
    except TaskFailed as failed:
        raise _chunk_error(plans[failed.task.run], failed.task, failed.error) from failed.error
    except KeyboardInterrupt:
        raise RunInterrupted(root, already + state.computed, total) from None
    finally:
        state.stop()
        _finish_manifests(plans, sweep, root, state)
    return RunOutcome(
        path=root,
        runs=[Run(p.path, p.manifest) for p in plans],
        games=total,
        wall_time_s=state.elapsed,
        games_per_s=state.rate or 0.0,
        resumed_chunks=resumed,
    )

"""Planning a run: the chunks, the fingerprints and manifests, and what is already on disk.

A run folder is planned without per-chunk objects (chunks are generated on demand, so a run
of billions of games plans at once); resuming keeps the folder's run id and chunk size and
keeps only the parts that pass verification (:mod:`uno_stats.store.verify`).
"""

from __future__ import annotations

import itertools
import math
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from uno_stats import engine
from uno_stats.engine import jit, numba_patches
from uno_stats.errors import ResultsError, RunError, shortened
from uno_stats.store.manifest import (
    MANIFEST,
    AnyManifest,
    Manifest,
    PointFoldersManifest,
    SweepManifest,
    field_digests,
    read_manifest,
    scenario_hash,
)
from uno_stats.store.parts import PartMeta, remove_stale_tmp, tool_version
from uno_stats.store.verify import check_run, part_paths, read_part_meta

if TYPE_CHECKING:
    from uno_stats.scenario.load import Scenario, SweepPoint

ROUND_CHUNK = 50_000
"""Default chunk of single rounds: ~0.5 s of engine time on one core (measured), ~8 MB."""
MATCH_CHUNK = 2_000
"""Default chunk of matches: a 500-point match is ~11 rounds, so ~22,000 rows."""
MIN_CHUNKS_PER_WORKER = 4
"""Small runs are cut finer so that every worker gets a few chunks."""


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


class PlannedChunks:
    """What the plans of a run and of a sweep share: the chunks still to play, generated
    lazily from :meth:`chunk`, and the record each part keeps of itself."""

    manifest: Manifest | SweepManifest
    done: set[int]

    @property
    def n_chunks(self) -> int:
        """Chunks planned for the whole dataset."""
        return self.manifest.chunks

    def chunk(self, index: int) -> Chunk:
        """Chunk ``index`` of the dataset."""
        raise NotImplementedError

    @property
    def todo(self) -> Iterator[Chunk]:
        """The chunks without a good part on disk, in order, generated lazily."""
        return (self.chunk(i) for i in range(self.n_chunks) if i not in self.done)

    def part_meta(self, chunk: Chunk) -> PartMeta:
        """What the part of ``chunk`` records about itself (its first game: the dataset's)."""
        m = self.manifest
        return PartMeta(
            m.run_id, m.seed, m.config_hash, chunk.index, chunk.first_game, chunk.n_games
        )


@dataclass
class RunPlan(PlannedChunks):
    """One run folder to fill: its scenario, engine config, manifest and chunks done.

    Chunks are generated on demand (:meth:`chunk`, :attr:`todo`): planning a run of
    billions of games creates no per-chunk objects.
    """

    run: int  # index of the run (sweep point) in the plan
    scenario: Scenario
    path: Path
    chunk_size: int
    config: Any
    manifest: Manifest
    label: str | None = None
    done: set[int] = field(default_factory=set)

    def chunk(self, index: int) -> Chunk:
        """Chunk ``index`` of this run."""
        first = index * self.chunk_size
        return Chunk(self.run, index, first, min(self.chunk_size, self.scenario.games - first))


def default_chunk_size(scenario: Scenario, workers: int) -> int:
    """Games per chunk: about a second of work, but at least a few chunks per worker."""
    target = MATCH_CHUNK if scenario.match_target else ROUND_CHUNK
    per_worker = math.ceil(scenario.games / (MIN_CHUNKS_PER_WORKER * max(1, workers)))
    return max(1, min(target, per_worker))


def plan_chunks(run: int, games: int, chunk_size: int) -> Iterator[Chunk]:
    """Cut ``games`` games into chunks of ``chunk_size`` (the last one may be shorter), lazily."""
    return (
        Chunk(run, index, first, min(chunk_size, games - first))
        for index, first in enumerate(range(0, games, chunk_size))
    )


def engine_hash() -> str:
    """Fingerprint of the engine's source and numba patches: parts played by different engine
    code never mix."""
    return jit.engine_hash()


def config_hash(scenario: Scenario, chunk_size: int) -> str:
    """Fingerprint of what a run folder holds: resolved scenario, chunk size, tool and engine
    (:func:`~uno_stats.store.manifest.scenario_hash`, which every manifest read recomputes)."""
    return scenario_hash(scenario.to_dict(), chunk_size, tool_version(), engine_hash())


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _existing_manifest(path: Path) -> AnyManifest | None:
    return read_manifest(path) if (path / MANIFEST).exists() else None


def _mismatch(path: Path) -> RunError:
    return RunError(
        f"{path} holds results of a different scenario (or chunk size, or another version of "
        "uno-stats or its engine); "
        "rerun with --fresh to replace them, or choose another --out"
    )


def _old_layout(path: Path) -> RunError:
    return RunError(
        f"{path} holds a sweep in the per-point layout of an earlier uno-stats (a folder per "
        "point), which this version reads but does not add to: rerun with --fresh to replace "
        "it, or choose another --out"
    )


Dataset = Manifest | SweepManifest
"""The manifest of one results dataset: a run's, or a whole sweep's."""


@dataclass(frozen=True)
class DatasetSpec:
    """What planning a results dataset needs to know of it, whichever kind it is."""

    kind: type  # Manifest or SweepManifest
    total_games: int
    default_size: int
    fresh: Callable[[int], Dataset]  # the manifest of an empty dataset at a chunk size
    digest: Callable[[int], str]  # its configuration hash at a chunk size


def _resumable_size(old: AnyManifest | None, spec: DatasetSpec) -> int | None:
    """The chunk size of an earlier run of this same scenario in the folder, if any.

    Results do not depend on chunking, so a resumed run keeps the folder's chunk size even
    when the worker count (and so the default chunk size) has changed.
    """
    if old is None or isinstance(old, PointFoldersManifest) or not isinstance(old, spec.kind):
        return None
    size = old.chunk_size
    return size if old.config_hash == spec.digest(size) else None


def plan_dataset(
    path: Path, spec: DatasetSpec, chunk_size: int | None, note: Callable[[str], None]
) -> tuple[Dataset, set[int]]:
    """Plan one results dataset (a run's or a sweep's) in ``path``: its manifest and the
    chunks already on disk, resuming when the scenario matches.

    Every part on disk is verified (readable, this run's, the planned games and rows, its
    digest); a part that fails is deleted (a folder or other non-file in its place is moved
    aside), with a note, and its chunk played again. A manifest that is missing, unreadable
    or edited is rebuilt from the parts' own records when they agree with the scenario
    (:func:`rebuilt_manifest`), so that no good part is discarded.
    """
    try:
        old = _existing_manifest(path)
        damaged = None
    except ResultsError as exc:  # unreadable, mistyped or edited: the parts may still tell
        old, damaged = None, exc
    if isinstance(old, PointFoldersManifest):
        raise _old_layout(path)
    if old is None:
        old = rebuilt_manifest(path, spec, chunk_size, note, damaged)
    size = chunk_size or _resumable_size(old, spec) or spec.default_size
    digest = spec.digest(size)
    if old is not None and (old.config_hash != digest or not isinstance(old, spec.kind)):
        raise _mismatch(path)
    manifest = spec.fresh(size)
    manifest.config_hash = digest
    if old is not None and old.run_id:
        manifest.run_id = old.run_id  # a resumed run keeps its id (and its parts)
        manifest.created = old.created
        manifest.wall_time_s = old.wall_time_s
        manifest.games_per_s = old.games_per_s
    remove_stale_tmp(path)
    check = check_run(path, manifest, deep=True)
    for bad in check.bad:
        if bad.path.is_file() or not bad.path.exists():
            note(f"redoing {bad.path}: {bad.reason}")
            bad.path.unlink(missing_ok=True)
        else:
            aside = move_aside(bad.path)
            note(f"redoing {bad.path}: {bad.reason}; moved aside to {aside.name}")
    manifest.chunks_done = len(check.good)
    manifest.rows = check.rows
    return manifest, set(check.good)


def run_spec(scenario: Scenario, workers: int, point: SweepPoint | None = None) -> DatasetSpec:
    """A single run's :class:`DatasetSpec`."""
    return DatasetSpec(
        Manifest,
        scenario.games,
        default_chunk_size(scenario, workers),
        lambda size: new_manifest(scenario, size, point),
        lambda size: config_hash(scenario, size),
    )


def plan_run(
    run: int,
    scenario: Scenario,
    path: Path,
    chunk_size: int | None,
    workers: int,
    note: Callable[[str], None],
    point: SweepPoint | None = None,
) -> RunPlan:
    """Plan one run folder (:func:`plan_dataset`)."""
    manifest, done = plan_dataset(path, run_spec(scenario, workers, point), chunk_size, note)
    assert isinstance(manifest, Manifest)
    config = engine.EngineConfig.from_scenario(scenario)
    plan = RunPlan(run, scenario, path, manifest.chunk_size, config, manifest)
    plan.label = point.label if point is not None else None
    plan.done = done
    return plan


def move_aside(path: Path) -> Path:
    """Rename ``path`` (a folder or other non-file where a part belongs) out of the way,
    beside it, under a name no part has; the new path."""
    for n in itertools.count(1):
        aside = path.with_name(f"{path.name}.moved-aside-{n}")
        if not aside.exists() and not aside.is_symlink():
            path.rename(aside)
            return aside
    raise AssertionError("unreachable")  # pragma: no cover


def _sizes_in(metas: list[PartMeta], games: int) -> list[int]:
    """Chunk sizes the parts' own records imply (a chunk after the first starts at its
    index times the size; the first holds the size, unless it is the whole run)."""
    sizes = [m.first_game // m.chunk for m in metas if m.chunk > 0 and m.first_game % m.chunk == 0]
    sizes += [m.n_games for m in metas if m.chunk == 0 and m.n_games < games]
    return [size for size, _ in Counter(s for s in sizes if s > 0).most_common()]


def rebuilt_manifest(
    path: Path,
    spec: DatasetSpec,
    chunk_size: int | None,
    note: Callable[[str], None],
    damaged: ResultsError | None = None,
) -> Dataset | None:
    """The manifest of a results folder whose ``manifest.json`` is missing or ``damaged``,
    from the parts' own records: when some part was played by this scenario (its
    configuration hash is the scenario's at a chunk size the parts imply, or the one asked
    for or the default), a manifest of that chunk size and that part's run id, so that
    verification keeps every good part. None when no part tells (a damaged manifest is then
    its error, unless the folder has no readable part at all)."""
    metas = []
    for _, part in part_paths(path):
        try:
            if part.is_file():
                metas.append(read_part_meta(part)[0])
        except (ValueError, OSError):  # unreadable parts are redone anyway
            continue
    why = "it was missing" if damaged is None else f"not usable: {str(damaged).split('; ')[0]}"
    candidates = [chunk_size, *_sizes_in(metas, spec.total_games), spec.default_size]
    seed = spec.fresh(1).seed
    for size in dict.fromkeys(s for s in candidates if s):
        digest = spec.digest(size)
        runs = Counter(m.run_id for m in metas if (m.config_hash, m.seed) == (digest, seed))
        if runs:
            run_id, parts = runs.most_common(1)[0]
            manifest = spec.fresh(size)
            manifest.run_id = run_id
            note(
                f"rebuilt {path / MANIFEST} from the parts' own records ({parts:,} of run "
                f"{run_id} match the scenario; {shortened(why, 200)})"
            )
            return manifest
    if damaged is not None and metas:
        raise damaged
    if damaged is not None:
        note(f"replacing {path / MANIFEST}, with no part to keep ({shortened(why, 200)})")
    return None


def new_manifest(scenario: Scenario, chunk_size: int, point: SweepPoint | None = None) -> Manifest:
    """The manifest of a run folder about to be filled (nothing done yet).

    ``scenario`` is the run's own (for a sweep point, the point's); tests build synthetic
    results folders with this same function, so they hold what the runner writes.
    """
    data = scenario.to_dict()
    return Manifest(
        name=scenario.name,
        version=tool_version(),
        seed=scenario.seed,
        games=scenario.games,
        scenario_data=data,
        chunk_size=chunk_size,
        chunks=math.ceil(scenario.games / chunk_size),
        config_hash=config_hash(scenario, chunk_size),
        engine_hash=engine_hash(),
        numba_patches=list(numba_patches.selected()),
        created=_now(),
        run_id=uuid.uuid4().hex[:16],
        sweep_label=point.label if point is not None else None,
        sweep_assignment=point.assignment if point is not None else None,
        scenario_fields=field_digests(data),
    )

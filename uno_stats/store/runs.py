"""Results read back: a :class:`Run` per run, and one per point of a sweep.

A sweep (or tournament) is one dataset with a ``point`` column (:mod:`uno_stats.store.layout`);
each of its points reads as a :class:`PointRun`, a :class:`Run` whose manifest is the point's
(its scenario, label and axis values) and whose rows are the point's alone, read from the
parts that hold them only (the layout names them, without an index). Everything downstream
sees runs, whichever layout wrote them; sweeps of the earlier per-point layout (a folder per
point) still read, each point folder as a :class:`Run`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, overload

from uno_stats.errors import ResultsError
from uno_stats.store.layout import Layout
from uno_stats.store.manifest import (
    Manifest,
    PointFoldersManifest,
    SweepManifest,
    read_manifest,
    read_run_manifest,
)
from uno_stats.store.parts import PARTS_DIR, POINT
from uno_stats.store.run_check import RunCheck

if TYPE_CHECKING:
    import polars as pl

    from uno_stats.scenario.load import Scenario


@dataclass(frozen=True)
class Run:
    """One finished (or partly finished) run: its folder, its manifest and, once verified,
    what :func:`uno_stats.store.verify.check_run` found on disk (only good parts are read)."""

    path: Path
    manifest: Manifest
    check: RunCheck | None = None

    @property
    def folder(self) -> Path:
        """The folder holding the run's parts and lock (a sweep point's: the sweep's)."""
        return self.path

    @property
    def complete(self) -> bool:
        """Every planned chunk is on disk (verified when ``check`` is set, else per manifest)."""
        return self.check.complete if self.check is not None else self.manifest.complete

    @property
    def progress(self) -> str:
        """How much of the run is done: ``3 of 8 chunks, 150,000 of 400,000 games``."""
        m = self.manifest
        if self.check is not None:
            return self.check.progress
        return f"{m.chunks_done:,} of {m.chunks:,} chunks of {m.games:,} games"

    @property
    def name(self) -> str:
        """The run's display name: scenario name, plus the sweep point label if any, plus
        ``(incomplete: n of m chunks ...)`` for a run that is not whole, so that no table,
        chart or report presents a partial run as a finished one."""
        if self.complete:
            return self.manifest.display_name
        return f"{self.manifest.display_name} (incomplete: {self.progress})"

    @property
    def scenario(self) -> Scenario:
        """The run's resolved scenario (for a sweep point, that point's scenario)."""
        return self.manifest.scenario

    @property
    def players(self) -> int:
        """Seats at the table in this run."""
        return self.scenario.players

    def part_files(self) -> list[Path]:
        """The Parquet parts written so far, in chunk order (only the good ones once verified)."""
        if self.check is not None:
            return [self.check.good[i] for i in sorted(self.check.good)]
        return sorted((self.path / PARTS_DIR).glob("part-*.parquet"))

    def scan(self) -> pl.LazyFrame:
        """A lazy frame over every part of this run (one row per round)."""
        parts = self.part_files()
        if not parts:
            raise ResultsError(f"{self.path}: no result parts (has the run finished a chunk?)")
        return self.scan_parts(parts)

    def scan_parts(self, parts: Sequence[Path]) -> pl.LazyFrame:
        """A lazy frame over this run's rows in ``parts`` (some of :meth:`part_files`)."""
        import polars as pl  # only readers need polars: a run writes its parts with pyarrow

        return pl.scan_parquet([str(p) for p in parts])

    def part_games(self) -> list[tuple[Path, int, int]] | None:
        """Each part with the run's games it holds, ``first`` up to ``stop`` (exclusive), in
        chunk order; None when a part's file name does not say its chunk."""
        return self._part_games(Layout(1, self.manifest.games, self.manifest.chunk_size), 0)

    def _part_games(self, layout: Layout, point: int) -> list[tuple[Path, int, int]] | None:
        out = []
        for path in self.part_files():
            index = _chunk_of(path)
            if index is None or index >= layout.chunks:
                return None
            for piece in layout.slices(index):
                if piece.point == point:
                    out.append((path, piece.first_game, piece.first_game + piece.n_games))
        return out


@dataclass(frozen=True)
class PointRun(Run):
    """Point ``point`` of the sweep dataset in ``dataset``, read as a run of its own.

    ``path`` is ``dataset / label`` (a name for the point, as the per-point layout's folder
    was; nothing is stored there). Its rows are the ``point`` rows of the parts that hold it,
    without the ``point`` column: the frame its own run would give.
    """

    dataset: Path = field(default=Path())
    point: int = 0
    parts: tuple[Path, ...] = ()
    dataset_points: int = 0  # points in the whole dataset

    @property
    def folder(self) -> Path:
        return self.dataset

    def part_files(self) -> list[Path]:
        return list(self.parts)

    def scan(self) -> pl.LazyFrame:
        if not self.parts:
            raise ResultsError(f"{self.path}: no result parts yet for this point")
        return self.scan_parts(self.parts)

    def scan_parts(self, parts: Sequence[Path]) -> pl.LazyFrame:
        import polars as pl

        frame = pl.scan_parquet([str(p) for p in parts])
        return frame.filter(pl.col(POINT) == self.point).drop(POINT)

    def part_games(self) -> list[tuple[Path, int, int]] | None:
        m = self.manifest
        return self._part_games(Layout(self.dataset_points, m.games, m.chunk_size), self.point)


def point_manifest(sweep: SweepManifest, point: int, check: RunCheck | None) -> Manifest:
    """The manifest point ``point`` of ``sweep`` would have as a run of its own (its own
    scenario, label, axis values; the sweep's run id, seed, configuration and timing)."""
    table = sweep.scenario.point_table()
    entry = table[point]
    layout = sweep.layout
    chunks = layout.point_chunks(point)
    done = len(check.good) if check is not None else 0
    manifest = Manifest(
        name=sweep.name,
        version=sweep.version,
        seed=sweep.seed,
        games=sweep.games,
        scenario_data=entry.scenario.to_dict(),
        chunk_size=sweep.chunk_size,
        chunks=len(chunks),
        config_hash=sweep.config_hash,
        engine_hash=sweep.engine_hash,
        created=sweep.created,
        run_id=sweep.run_id,
        sweep_label=entry.label,
        sweep_assignment=dict(entry.assignment),
        tournament=list(sweep.tournament) if sweep.tournament else None,
        chunks_done=done,
        rows=check.rows if check is not None else 0,
        complete=check.complete if check is not None else sweep.complete,
        wall_time_s=sweep.wall_time_s,
        games_per_s=sweep.games_per_s,
        numba_patches=sweep.numba_patches,
    )
    manifest.__dict__["scenario"] = entry.scenario  # the cached property, already checked
    return manifest


def point_check(sweep: SweepManifest, check: RunCheck, point: int) -> RunCheck:
    """What ``check`` (of the whole dataset) found for point ``point``: its chunks' good
    parts, its games among them and their rows."""
    layout = sweep.layout
    chunks = layout.point_chunks(point)
    out = RunCheck(chunks=len(chunks), games=sweep.games)
    out.bad = [b for b in check.bad if _chunk_of(b.path) in chunks]
    for index in chunks:
        if index in check.good:
            out.good[index] = check.good[index]
            games = layout.overlap(index, point)
            out.games_done += games
            by_point = check.point_rows.get(index)
            if by_point is None:  # single rounds: a row per game
                out.rows += games
            else:
                out.rows += by_point[point - layout.slices(index)[0].point]
    return out


def _chunk_of(path: Path) -> int | None:
    digits = path.name.removeprefix("part-").removesuffix(".parquet")
    return int(digits) if digits.isdigit() else None


class PointRuns(Sequence[Run]):
    """The points of the sweep dataset in ``folder`` as runs, each built when read (a sweep
    of 100,000 points holds no 100,000 manifests); ``check`` is the dataset's verification
    (None: unverified, its parts found by name)."""

    def __init__(self, folder: Path, sweep: SweepManifest, check: RunCheck) -> None:
        self.folder = folder
        self.sweep = sweep
        self.check = check

    def __len__(self) -> int:
        return self.sweep.points

    @overload
    def __getitem__(self, index: int) -> Run: ...

    @overload
    def __getitem__(self, index: slice) -> list[Run]: ...

    def __getitem__(self, index: int | slice) -> Run | list[Run]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        check = point_check(self.sweep, self.check, index)
        manifest = point_manifest(self.sweep, index, check)
        parts = tuple(check.good[i] for i in sorted(check.good))
        path = self.folder / (manifest.sweep_label or f"point-{index}")
        return PointRun(path, manifest, check, self.folder, index, parts, len(self))

    def __iter__(self) -> Iterator[Run]:
        return (self[i] for i in range(len(self)))


def points_scan(runs: Sequence[Run], columns: Sequence[str] | None = None) -> pl.LazyFrame:
    """Every row of ``runs`` in one frame, with a ``point`` column (u32): the run's position
    in ``runs``, so that one ``group_by("point")`` answers for every run at once.

    The points of one sweep dataset read with one scan of their parts (each part once, not
    once per point it holds); any other run (a single run, a point folder of the earlier
    layout) with a scan of its own. ``columns``: only these (and ``point``) are read.
    """
    import polars as pl

    return pl.concat(points_pieces(runs, columns, by_part=False), how="diagonal_relaxed")


def points_pieces(
    runs: Sequence[Run], columns: Sequence[str] | None = None, by_part: bool = True
) -> list[pl.LazyFrame]:
    """The frame of :func:`points_scan` as pieces that concatenate to it, in its row order:
    one per part of a sweep dataset (``by_part``; else one per dataset) and one per other
    run, so that a reader can reduce one piece at a time. A piece has only the columns its
    own parts have (:func:`points_scan` fills the others with nulls)."""
    import polars as pl

    def kept(frame: pl.LazyFrame) -> pl.LazyFrame:
        return frame if columns is None else frame.select(POINT, *columns)

    frames = []
    datasets: dict[Path, list[tuple[int, PointRun]]] = {}
    for position, run in enumerate(runs):
        if isinstance(run, PointRun):
            datasets.setdefault(run.dataset, []).append((position, run))
        else:
            frames.append(kept(run.scan().with_columns(pl.lit(position, pl.UInt32).alias(POINT))))
    for members in datasets.values():
        parts = sorted({part for _, run in members for part in run.parts})
        if not parts:
            raise ResultsError(f"{members[0][1].path}: no result parts yet for this point")
        index = {run.point: position for position, run in members}
        for group in [[p] for p in parts] if by_part else [parts]:
            frame = pl.scan_parquet([str(p) for p in group])
            if len(index) < members[0][1].dataset_points:
                frame = frame.filter(pl.col(POINT).is_in(list(index)))
            if any(point != position for point, position in index.items()):
                frame = frame.with_columns(
                    pl.col(POINT).replace_strict(index, return_dtype=pl.UInt32)
                )
            frames.append(kept(frame))
    return frames


def unverified_check(folder: Path, sweep: SweepManifest) -> RunCheck:
    """The parts of the dataset in ``folder`` by file name, unverified (for :func:`open_runs`)."""
    check = RunCheck(chunks=sweep.chunks, games=sweep.planned_games)
    for path in sorted((folder / PARTS_DIR).glob("part-*.parquet")):
        digits = path.stem.removeprefix("part-")
        if digits.isdigit() and int(digits) < sweep.chunks:
            index = int(digits)
            check.good[index] = path
            check.games_done += sweep.layout.chunk_range(index)[1]
    return check


def point_named(path: Path) -> tuple[Path, SweepManifest, int] | None:
    """``SWEEP/LABEL`` names point LABEL of the sweep dataset in SWEEP (as the per-point
    layout's folder did): the dataset, its manifest and the point's index; None when
    ``path`` is no such name."""
    parent = path.parent
    if path.exists() or not (parent / "manifest.json").is_file():
        return None
    try:
        sweep = read_manifest(parent)
    except ResultsError:
        return None
    if not isinstance(sweep, SweepManifest):
        return None
    for index, label in enumerate(sweep.scenario.point_labels()):
        if label == path.name:
            return parent, sweep, index
    return None


def open_runs(folder: str | Path) -> Sequence[Run]:
    """The runs in a results folder: the run itself, or every point of a sweep folder
    (``SWEEP/LABEL``: that point alone)."""
    folder = Path(folder)
    named = point_named(folder)
    if named is not None:
        root, sweep, index = named
        return [PointRuns(root, sweep, unverified_check(root, sweep))[index]]
    if not folder.exists():
        raise ResultsError(f"{folder}: no such results folder")
    manifest = read_manifest(folder)
    if isinstance(manifest, SweepManifest):
        check = unverified_check(folder, manifest)
        if not check.good:
            raise ResultsError(f"{folder}: empty results folder (no Parquet parts)")
        return PointRuns(folder, manifest, check)
    if isinstance(manifest, PointFoldersManifest):
        runs = [Run(folder / label, read_run_manifest(folder / label)) for label in manifest.points]
    else:
        runs = [Run(folder, manifest)]
    for run in runs:
        if not run.part_files():
            raise ResultsError(f"{run.path}: empty results folder (no Parquet parts)")
    return runs


def open_run(folder: str | Path) -> Run:
    """The single run in ``folder``; a sweep folder is an error here."""
    runs = open_runs(folder)
    if len(runs) != 1:
        raise ResultsError(f"{folder}: a sweep of {len(runs)} runs; name one point's folder")
    return runs[0]

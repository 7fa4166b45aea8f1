"""Verify, then trust: which Parquet parts of a run folder really belong to its run.

A part counts only when it is readable, its key-value metadata (:class:`PartMeta`) names the
manifest's run id, seed and configuration hash and the chunk its file name claims, its game
range and row count are the ones planned for that chunk, and (``deep``) the SHA-256 of its
data is the one recorded when it was written. The runner redoes the chunks whose part fails;
``summary``, ``report`` and ``compare`` read only the good parts and call a run with missing chunks
incomplete.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from uno_stats.errors import ResultsError
from uno_stats.limits import file_kind, load_json
from uno_stats.store.lock import is_locked
from uno_stats.store.manifest import (
    Manifest,
    PointFoldersManifest,
    SweepManifest,
    read_manifest,
    read_run_manifest,
)
from uno_stats.store.parts import (
    PART_DATA_KEY,
    PART_META_KEY,
    PARTS_DIR,
    POINT,
    PartMeta,
    data_digest,
    file_digest,
)
from uno_stats.store.run_check import BadPart, RunCheck
from uno_stats.store.runs import PointRuns, Run, point_named

if TYPE_CHECKING:
    import pyarrow.parquet as pq

PART_PREFIX, PART_SUFFIX = "part-", ".parquet"
MAX_PART_RECORD = 1_000_000
"""Bytes of a part's own record: a few hundred, but a sweep of matches lists the rows of
each point in the chunk (at most 100,000 points: well under this)."""


Dataset = Manifest | SweepManifest
"""The manifest of one results dataset: a run's, or a sweep's (every point in one)."""


def chunk_range(manifest: Dataset, index: int) -> tuple[int, int]:
    """The first game (of the dataset) and the number of games planned for chunk ``index``."""
    return manifest.layout.chunk_range(index)


def _chunk_index(path: Path) -> int | None:
    digits = path.name.removeprefix(PART_PREFIX).removesuffix(PART_SUFFIX)
    return int(digits) if digits.isdigit() else None


def read_part_meta(path: Path) -> tuple[PartMeta, pq.FileMetaData]:
    """A part's own record and its Parquet footer; ValueError (one line) when unreadable."""
    import pyarrow.parquet as pq  # here: planning a run with no parts yet needs no pyarrow

    try:
        footer = pq.read_metadata(path)
    except Exception as exc:  # pyarrow raises ArrowInvalid, OSError, ...: all mean unreadable
        raise ValueError(f"unreadable ({_first_line(exc)})") from None
    raw = (footer.metadata or {}).get(PART_META_KEY)
    if raw is None:
        raise ValueError("no uno-stats part record (written by another tool or version)")
    try:
        record = load_json(raw, limit=MAX_PART_RECORD, depth=2)
        if not isinstance(record, dict):
            raise TypeError("not a JSON object")
        return PartMeta(**record), footer
    except (ValueError, TypeError) as exc:
        raise ValueError(f"garbled part record ({_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def _game_bounds(footer: pq.FileMetaData, column: str = "game") -> tuple[int, int] | None:
    """Smallest and largest value of ``column`` from the footer's statistics (None if absent)."""
    names = footer.schema.names
    if column not in names:
        return None
    col = names.index(column)
    low = high = None
    for g in range(footer.num_row_groups):
        stats = footer.row_group(g).column(col).statistics
        if stats is None or not stats.has_min_max:
            return None
        low = stats.min if low is None else min(low, stats.min)
        high = stats.max if high is None else max(high, stats.max)
    return (low, high) if low is not None and high is not None else None


def check_part(path: Path, manifest: Dataset, index: int, deep: bool = True) -> int:
    """The rows of the part at ``path`` if it is chunk ``index`` of this run; else ValueError
    (:func:`checked_part_meta`)."""
    return checked_part_meta(path, manifest, index, deep).rows


def checked_part_meta(path: Path, manifest: Dataset, index: int, deep: bool = True) -> PartMeta:
    """The record of the part at ``path`` if it is chunk ``index`` of this run; else ValueError.

    A sweep's part must also hold exactly the points and point game indices its chunk
    covers (its ``point`` and ``game`` column statistics).

    ``deep`` also hashes the data before the footer and compares the digest the writer
    recorded, which finds a garbled part whose footer is intact; without it only the footer
    is read.
    """
    if index >= manifest.chunks:
        raise ValueError(f"chunk {index} is not planned (the run has {manifest.chunks})")
    meta, footer = read_part_meta(path)
    first, n_games = chunk_range(manifest, index)
    if meta.run_id != manifest.run_id:
        raise ValueError(f"written by another run (run id {meta.run_id}, not {manifest.run_id})")
    if (meta.seed, meta.config_hash) != (manifest.seed, manifest.config_hash):
        raise ValueError(
            f"another scenario's part (seed {meta.seed}, configuration {meta.config_hash})"
        )
    if meta.chunk != index:
        raise ValueError(f"a copy of chunk {meta.chunk}'s part under chunk {index}'s name")
    if (meta.first_game, meta.n_games) != (first, n_games):
        raise ValueError(
            f"games {meta.first_game}-{meta.first_game + meta.n_games - 1}, "
            f"not the planned {first}-{first + n_games - 1}"
        )
    rows = footer.num_rows
    if (
        rows != meta.rows
        or rows < n_games
        or ("match" not in manifest.scenario_data and rows != n_games)
    ):
        raise ValueError(f"{rows} rows where the part says {meta.rows} for {n_games} games")
    _check_bounds(footer, manifest, index)
    if meta.point_rows is not None and (
        len(meta.point_rows) != len(manifest.layout.slices(index)) or sum(meta.point_rows) != rows
    ):
        raise ValueError(f"its rows by point {meta.point_rows[:5]}... do not add up to {rows}")
    if deep:
        _check_digest(path, footer)
    return meta


def _check_bounds(footer: pq.FileMetaData, manifest: Dataset, index: int) -> None:
    """The part's ``game`` (and a sweep's ``point``) statistics are the chunk's."""
    points, games = manifest.layout.bounds(index)
    bounds = _game_bounds(footer)
    if bounds is not None and bounds != games:
        raise ValueError(f"games {bounds[0]}-{bounds[1]}, not {games[0]}-{games[1]}")
    if isinstance(manifest, SweepManifest):
        held = _game_bounds(footer, POINT)
        if held != points:
            shown = "no point column" if held is None else f"points {held[0]}-{held[1]}"
            raise ValueError(f"{shown}, not the planned points {points[0]}-{points[1]}")


def _check_digest(path: Path, footer: pq.FileMetaData) -> None:
    """The SHA-256 of the whole part, footer included, is the recorded one (for parts of
    earlier versions, which record only that of the data before the footer: that one)."""
    raw = (footer.metadata or {}).get(PART_DATA_KEY)
    try:
        record = load_json(raw if raw is not None else b"null", limit=10_000, depth=2)
        size, want = int(record["bytes"]), str(record["sha256"])
        whole = record.get("file")
    except (ValueError, TypeError, KeyError, AttributeError):
        raise ValueError("no data checksum (written by another tool or version)") from None
    if whole is not None:
        if not isinstance(whole, str) or file_digest(path, whole) != whole:
            raise ValueError("corrupt data (checksum mismatch: the file was changed after writing)")
    elif data_digest(path, size) != want:
        raise ValueError("corrupt data (checksum mismatch: the file was changed after writing)")


def part_paths(run_dir: Path) -> Iterator[tuple[int, Path]]:
    """``(chunk index, path)`` of every part file in ``run_dir`` (unverified)."""
    for path in sorted((Path(run_dir) / PARTS_DIR).glob(f"{PART_PREFIX}*{PART_SUFFIX}")):
        index = _chunk_index(path)
        if index is not None:
            yield index, path


def check_run(run_dir: Path, manifest: Dataset, deep: bool = True) -> RunCheck:
    """Verify every part of the run in ``run_dir`` against ``manifest`` (see module doc).

    A good part holds exactly the games planned for the chunk its name gives, and chunks'
    ranges are disjoint, so good parts never overlap (a copied part fails its range check).
    """
    result = RunCheck(chunks=manifest.chunks, games=manifest.planned_games)
    for index, path in part_paths(run_dir):
        try:
            kind = file_kind(path.stat().st_mode)
            if kind:  # never opened: a FIFO would hang the reader
                result.bad.append(BadPart(path, f"{kind}, not a part file"))
                continue
            meta = checked_part_meta(path, manifest, index, deep)
        except ValueError as exc:
            result.bad.append(BadPart(path, str(exc)))
            continue
        except OSError as exc:
            result.bad.append(BadPart(path, f"cannot read ({exc.strerror or exc})"))
            continue
        result.good[index] = path
        result.games_done += chunk_range(manifest, index)[1]
        result.rows += meta.rows
        if meta.point_rows is not None:
            result.point_rows[index] = list(meta.point_rows)
    return result


def verified_runs(folder: str | Path, deep: bool = True) -> Sequence[Run]:
    """The runs of a results folder (a run or a sweep), each with what verification found.

    Only good parts are read afterwards; a run without a single good part is an error.
    """
    folder = Path(folder)
    named = point_named(folder)
    if named is not None:  # SWEEP/LABEL: one point of a sweep dataset
        root, _, index = named
        return [_verified_sweep(root, read_sweep(root), deep)[index]]
    if folder.is_file():
        hint = (
            "; run it first (uno-stats run FILE) and give OUT/<name>"
            if folder.suffix
            in (
                ".yaml",
                ".yml",
            )
            else ""
        )
        raise ResultsError(f"{folder}: a file, not a results folder{hint}")
    if not folder.exists():
        raise ResultsError(f"{folder}: no such results folder")
    top = read_manifest(folder)
    if isinstance(top, SweepManifest):
        return _verified_sweep(folder, top, deep)
    if isinstance(top, PointFoldersManifest):
        manifests = [(folder / label, read_run_manifest(folder / label)) for label in top.points]
    else:
        manifests = [(folder, top)]
    runs: list[Run] = []
    for path, manifest in manifests:
        check = check_run(path, manifest, deep)
        _refuse_empty(path, check)
        # The manifest as the disk has it: a killed run's manifest may be stale.
        counted = replace(
            manifest, rows=check.rows, chunks_done=len(check.good), complete=check.complete
        )
        runs.append(Run(path, counted, check))
    return runs


def _refuse_empty(path: Path, check: RunCheck) -> None:
    """A run (or sweep) without a single good part cannot be read: say why and what to do."""
    if not check.good and check.bad:
        bad = check.bad[0]
        raise ResultsError(
            f"{path}: no valid result parts ({len(check.bad)} failed verification, first "
            f"{bad.path.name}: {bad.reason}); rerun the same run command to redo them"
        )
    if not check.good:
        raise ResultsError(
            f"{path}: no result parts yet ({check.progress}); run the same run command "
            "again to finish the run"
        )


def read_sweep(folder: Path) -> SweepManifest:
    """The sweep dataset manifest of ``folder`` (:func:`point_named` found one there)."""
    sweep = read_manifest(folder)
    assert isinstance(sweep, SweepManifest)
    return sweep


def _verified_sweep(folder: Path, sweep: SweepManifest, deep: bool) -> PointRuns:
    """The points of the sweep dataset in ``folder``, verified once as one dataset; a point
    without a single good part is an error, as a run folder without one is."""
    check = check_run(folder, sweep, deep)
    _refuse_empty(folder, check)
    layout = sweep.layout
    for index in range(sweep.chunks):  # the first missing chunk names the first empty point
        if index in check.good:
            continue
        for piece in layout.slices(index):
            if not any(c in check.good for c in layout.point_chunks(piece.point)):
                raise ResultsError(_empty_point(folder, sweep, check, piece.point))
    counted = replace(sweep, rows=check.rows, chunks_done=len(check.good), complete=check.complete)
    return PointRuns(folder, counted, check)


def _empty_point(folder: Path, sweep: SweepManifest, check: RunCheck, point: int) -> str:
    """Why point ``point`` of the dataset cannot be read: its parts failed verification, or
    were never written; and what to do (as for a run folder without a good part)."""
    label = next(itertools.islice(sweep.scenario.point_labels(), point, None))
    chunks = sweep.layout.point_chunks(point)
    bad = [b for b in check.bad if _chunk_index(b.path) in chunks]
    if bad:
        return (
            f"{folder}: point {label} has no valid result part ({len(bad)} failed "
            f"verification, first {bad[0].path.name}: {bad[0].reason}); rerun the same run "
            "command to redo them"
        )
    return (
        f"{folder}: point {label} has no result parts yet ({check.progress}); run the same "
        "run command again to finish the run"
    )


def incomplete_error(runs: Sequence[Run]) -> str | None:
    """Why ``runs`` cannot be reported or compared as they are (None when all are whole)."""
    incomplete = [r for r in runs if not r.complete]
    if not incomplete:
        return None
    first = incomplete[0]
    more = f" (and {len(incomplete) - 1} more)" if len(incomplete) > 1 else ""
    bad = first.check.bad if first.check is not None else []
    named = f" ({bad[0].path.name} failed verification: {bad[0].reason})" if bad else ""
    return (
        f"{first.path}: incomplete run, {first.progress}{more}{named}; finish it by running "
        "the same run command again, or pass --allow-incomplete"
    )


def run_notes(runs: Sequence[Run]) -> list[str]:
    """One line per part not counted and per incomplete run (saying how to finish it); a
    part of a sweep dataset that holds several points is named once."""
    notes: list[str] = []
    for run in runs:
        for bad in run.check.bad if run.check is not None else []:
            notes.append(f"{bad.path} not counted: {bad.reason}")
        if not run.complete:
            busy = " (a run is writing it now)" if is_locked(run.folder) else ""
            notes.append(
                f"{run.path} is incomplete{busy}: {run.progress}; run the same run command "
                "again to finish it"
            )
    return list(dict.fromkeys(notes))

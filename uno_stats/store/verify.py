"""Verify, then trust: which Parquet parts of a run folder really belong to its run.

A part counts only when it is readable, its key-value metadata (:class:`PartMeta`) names the
manifest's run id, seed and configuration hash and the chunk its file name claims, its game
range and row count are the ones planned for that chunk, and (``deep``) the SHA-256 of its
data is the one recorded when it was written. The runner redoes the chunks whose part fails; ``summary``, ``report`` and
``compare`` read only the good parts and call a run with missing chunks incomplete.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from uno_stats.errors import ResultsError
from uno_stats.limits import file_kind, load_json
from uno_stats.store.lock import is_locked
from uno_stats.store.manifest import Manifest, SweepManifest, read_manifest, read_run_manifest
from uno_stats.store.parts import (
    PART_DATA_KEY,
    PART_META_KEY,
    PARTS_DIR,
    PartMeta,
    Run,
    data_digest,
    file_digest,
)
from uno_stats.store.run_check import BadPart, RunCheck

if TYPE_CHECKING:
    import pyarrow.parquet as pq

PART_PREFIX, PART_SUFFIX = "part-", ".parquet"


def chunk_range(manifest: Manifest, index: int) -> tuple[int, int]:
    """The first game and the number of games planned for chunk ``index`` of the run."""
    first = index * manifest.chunk_size
    return first, min(manifest.chunk_size, manifest.games - first)


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
        record = load_json(raw, limit=10_000, depth=2)
        if not isinstance(record, dict):
            raise TypeError("not a JSON object")
        return PartMeta(**record), footer
    except (ValueError, TypeError) as exc:
        raise ValueError(f"garbled part record ({_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def _game_bounds(footer: pq.FileMetaData) -> tuple[int, int] | None:
    """Smallest and largest ``game`` from the footer's column statistics (None if absent)."""
    names = footer.schema.names
    if "game" not in names:
        return None
    col = names.index("game")
    low = high = None
    for g in range(footer.num_row_groups):
        stats = footer.row_group(g).column(col).statistics
        if stats is None or not stats.has_min_max:
            return None
        low = stats.min if low is None else min(low, stats.min)
        high = stats.max if high is None else max(high, stats.max)
    return (low, high) if low is not None and high is not None else None


def check_part(path: Path, manifest: Manifest, index: int, deep: bool = True) -> int:
    """The rows of the part at ``path`` if it is chunk ``index`` of this run; else ValueError.

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
    bounds = _game_bounds(footer)
    if bounds is not None and bounds != (first, first + n_games - 1):
        raise ValueError(f"games {bounds[0]}-{bounds[1]}, not {first}-{first + n_games - 1}")
    if deep:
        _check_digest(path, footer)
    return rows


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


def check_run(run_dir: Path, manifest: Manifest, deep: bool = True) -> RunCheck:
    """Verify every part of the run in ``run_dir`` against ``manifest`` (see module doc).

    A good part holds exactly the games planned for the chunk its name gives, and chunks'
    ranges are disjoint, so good parts never overlap (a copied part fails its range check).
    """
    result = RunCheck(chunks=manifest.chunks, games=manifest.games)
    for index, path in part_paths(run_dir):
        try:
            kind = file_kind(path.stat().st_mode)
            if kind:  # never opened: a FIFO would hang the reader
                result.bad.append(BadPart(path, f"{kind}, not a part file"))
                continue
            rows = check_part(path, manifest, index, deep)
        except ValueError as exc:
            result.bad.append(BadPart(path, str(exc)))
            continue
        except OSError as exc:
            result.bad.append(BadPart(path, f"cannot read ({exc.strerror or exc})"))
            continue
        result.good[index] = path
        result.games_done += chunk_range(manifest, index)[1]
        result.rows += rows
    return result


def verified_runs(folder: str | Path, deep: bool = True) -> list[Run]:
    """The runs of a results folder (a run or a sweep), each with what verification found.

    Only good parts are read afterwards; a run without a single good part is an error.
    """
    folder = Path(folder)
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
        manifests = [(folder / label, read_run_manifest(folder / label)) for label in top.points]
    else:
        manifests = [(folder, top)]
    runs = []
    for path, manifest in manifests:
        check = check_run(path, manifest, deep)
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
        # The manifest as the disk has it: a killed run's manifest may be stale.
        counted = replace(
            manifest, rows=check.rows, chunks_done=len(check.good), complete=check.complete
        )
        runs.append(Run(path, counted, check))
    return runs


def incomplete_error(runs: list[Run]) -> str | None:
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


def run_notes(runs: list[Run]) -> list[str]:
    """One line per part not counted and per incomplete run (saying how to finish it)."""
    notes = []
    for run in runs:
        for bad in run.check.bad if run.check is not None else []:
            notes.append(f"{bad.path} not counted: {bad.reason}")
        if not run.complete:
            busy = " (a run is writing it now)" if is_locked(run.path) else ""
            notes.append(
                f"{run.path} is incomplete{busy}: {run.progress}; run the same run command "
                "again to finish it"
            )
    return notes

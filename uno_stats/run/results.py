"""Results on disk: Parquet parts plus ``manifest.json`` per run, read back as polars frames.

A run folder ``DIR/<name>/`` holds ``manifest.json`` and ``parts/part-XXXXXX.parquet``.
A sweep folder holds a ``manifest.json`` with ``"sweep": true`` and one run folder per point.

The write side turns the engine's column arrays (see :mod:`uno_stats.engine.schema`) into one
Parquet part per chunk: integers keep their width, ``status`` becomes a string, per-seat
columns become ``list<uint8/uint16>`` and nullable columns are null where ``NAME__valid``
is false.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from uno_stats.engine.schema import COLUMNS, STATUS_NAMES, Column

if TYPE_CHECKING:
    from uno_stats.run.scenario import Scenario
from uno_stats.errors import ResultsError
from uno_stats.run.manifest import Manifest, SweepManifest, read_manifest, read_run_manifest

PARTS_DIR = "parts"
VALID_SUFFIX = "__valid"
COMPRESSION = "zstd"


@dataclass(frozen=True)
class Run:
    """One finished (or partly finished) run: its folder and its manifest."""

    path: Path
    manifest: Manifest

    @property
    def name(self) -> str:
        """The run's display name: scenario name, plus the sweep point label if any."""
        return self.manifest.display_name

    @property
    def scenario(self) -> Scenario:
        """The run's resolved scenario (for a sweep point, that point's scenario)."""
        return self.manifest.scenario

    @property
    def players(self) -> int:
        """Seats at the table in this run."""
        return self.scenario.players

    def part_files(self) -> list[Path]:
        """The Parquet parts written so far, in chunk order."""
        return sorted((self.path / PARTS_DIR).glob("part-*.parquet"))

    def scan(self) -> pl.LazyFrame:
        """A lazy frame over every part of this run (one row per round)."""
        parts = self.part_files()
        if not parts:
            raise ResultsError(f"{self.path}: no result parts (has the run finished a chunk?)")
        return pl.scan_parquet([str(p) for p in parts])


def open_runs(folder: str | Path) -> list[Run]:
    """The runs in a results folder: the run itself, or every point of a sweep folder."""
    folder = Path(folder)
    if not folder.exists():
        raise ResultsError(f"{folder}: no such results folder")
    manifest = read_manifest(folder)
    if isinstance(manifest, SweepManifest):
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


# --- write side --------------------------------------------------------------------------


def tool_version() -> str:
    """The installed uno-stats version (``0+unknown`` when run from an uninstalled tree)."""
    try:
        return metadata.version("uno-stats")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def part_path(run_dir: Path, chunk_index: int) -> Path:
    """Where chunk ``chunk_index`` of the run in ``run_dir`` is stored."""
    return Path(run_dir) / PARTS_DIR / f"part-{chunk_index:06d}.parquet"


def done_chunks(run_dir: Path) -> set[int]:
    """Indices of the chunks whose part file exists in ``run_dir``."""
    found = set()
    for path in (Path(run_dir) / PARTS_DIR).glob("part-*.parquet"):
        digits = path.stem.removeprefix("part-")
        if digits.isdigit():
            found.add(int(digits))
    return found


def count_rows(run_dir: Path) -> int:
    """Rows in every part of ``run_dir``, from the Parquet footers (no data read)."""
    return sum(
        pq.read_metadata(p).num_rows for p in (Path(run_dir) / PARTS_DIR).glob("part-*.parquet")
    )


def _validity(columns: dict[str, np.ndarray], column: Column, rows: int) -> np.ndarray | None:
    """The ``__valid`` mask of a nullable column, checked for shape; None when not nullable."""
    if not column.nullable:
        return None
    valid = np.asarray(columns[column.name + VALID_SUFFIX], dtype=bool)
    if valid.shape != (rows,):
        raise ResultsError(
            f"column {column.name}{VALID_SUFFIX}: shape {valid.shape}, want ({rows},)"
        )
    return valid


def _arrow_column(
    column: Column, data: np.ndarray, valid: np.ndarray | None, players: int
) -> pa.Array:
    """One engine array as the Arrow array stored on disk."""
    rows = data.shape[0]
    mask = None if valid is None else ~valid
    if column.name == "status":
        codes = pa.array(data.astype(np.int32, copy=False))
        return pc.take(pa.array(STATUS_NAMES, pa.string()), codes)
    if column.per_seat:
        if data.shape != (rows, players):
            raise ResultsError(
                f"column {column.name}: shape {data.shape}, want ({rows}, {players})"
            )
        flat = np.ascontiguousarray(data, dtype=column.dtype).reshape(-1)
        offsets = pa.array(np.arange(0, rows * players + 1, players, dtype=np.int32))
        list_mask = None if mask is None else pa.array(mask)
        return pa.ListArray.from_arrays(offsets, pa.array(flat), mask=list_mask)
    if data.ndim != 1:
        raise ResultsError(f"column {column.name}: shape {data.shape}, want ({rows},)")
    return pa.array(data.astype(column.dtype, copy=False), mask=mask)


def arrow_table(columns: dict[str, np.ndarray], players: int) -> pa.Table:
    """The engine's column arrays of one chunk as an Arrow table in schema order."""
    rows = len(columns["game"]) if "game" in columns else 0
    arrays, names = [], []
    for column in COLUMNS:
        if column.name not in columns:
            raise ResultsError(f"engine output has no column {column.name!r}")
        data = np.asarray(columns[column.name])
        if data.shape[0] != rows:
            raise ResultsError(f"column {column.name}: {data.shape[0]} rows, want {rows}")
        valid = _validity(columns, column, rows)
        arrays.append(_arrow_column(column, data, valid, players))
        names.append(column.name)
    return pa.Table.from_arrays(arrays, names=names)


def write_part(
    run_dir: Path, chunk_index: int, columns: dict[str, np.ndarray], players: int
) -> Path:
    """Write one chunk's columns as ``parts/part-{chunk:06d}.parquet``, atomically.

    The file appears under its final name only once complete (written to a hidden temporary
    name, then renamed), so a part file that exists is always a whole chunk.
    """
    table = arrow_table(columns, players)
    final = part_path(run_dir, chunk_index)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, tmp, compression=COMPRESSION)
        tmp.replace(final)
    finally:
        tmp.unlink(missing_ok=True)
    return final


def remove_stale_tmp(run_dir: Path) -> None:
    """Delete temporary part files left behind by a run that was killed mid-write."""
    for tmp in (Path(run_dir) / PARTS_DIR).glob(".part-*.tmp"):
        tmp.unlink(missing_ok=True)

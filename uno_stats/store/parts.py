"""Results on disk: the Parquet parts of a results folder, written and checked.

A run folder ``DIR/<name>/`` holds ``manifest.json`` and ``parts/part-XXXXXX.parquet``; so
does a sweep (or tournament) folder, whose manifest says ``"sweep": true`` and whose parts
hold a ``point`` column (:mod:`uno_stats.store.layout`); sweeps written before that hold one
run folder per point. Reading them back: :mod:`uno_stats.store.runs`.

The write side turns the engine's column arrays (see :mod:`uno_stats.engine.schema`) into one
Parquet part per chunk (one row group): integers keep their width, ``status`` becomes a
string, per-seat columns become ``list<uint8/uint16>`` and nullable columns are null where
``NAME__valid`` is false. The engine records the 20 hand-size checkpoints (after turns 5 ..
100) directly as the bytes of one fixed-width binary column, ``hand_checkpoints`` (see
:func:`checkpoint_array`); :func:`uno_stats.store.columns.checkpoint_hands` reads them back (and the
20 list columns ``hands_t5`` .. ``hands_t100`` of results written by earlier versions).

numpy and pyarrow are imported inside the functions that use them: a run plans its folder
(manifests, part metadata) and starts its workers before it needs either (README
"Performance", start-up).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from uno_stats.engine.schema import (
    CHECKPOINTS,
    COLUMNS,
    COLUMNS_BY_NAME,
    STATUS_NAMES,
    Column,
)
from uno_stats.errors import ResultsError
from uno_stats.store.columns import (
    POINT,
)

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa


PARTS_DIR = "parts"
VALID_SUFFIX = "__valid"
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 1
"""zstd at its fastest level: as fast to write as lz4 or snappy and smaller than both;
higher levels cost time and save nothing (docs/PERFORMANCE.md, "Parquet parts")."""
NO_DICTIONARY = ("game", CHECKPOINTS)
"""Columns whose values are (nearly) all distinct: a dictionary would be built and thrown
away for each, so they are written without one (``game``, a run of consecutive integers,
as deltas), which saves Parquet time and space (docs/PERFORMANCE.md, "Parquet parts")."""

WRITER_MODULES = ("pyarrow", "pyarrow.compute", "pyarrow.parquet")
"""What :func:`write_part` imports on first use, for a caller to import ahead (their cost:
docs/PERFORMANCE.md, "Parquet parts")."""

PART_META_KEY = b"uno_stats.part"
"""Key of a part's own record in its Parquet key-value metadata (see :class:`PartMeta`)."""
PART_DATA_KEY = b"uno_stats.data"
"""Key of ``{"bytes": n, "sha256": hex, "file": hex}``: the SHA-256 of the file's first n
bytes (everything before the footer) and of the whole file, footer included, as it reads
with the ``file`` digest itself written as 64 zeros (:func:`file_digest`); verifying a part
hashes it instead of decoding it. Parts of earlier versions have no ``file`` digest."""
_FILE_DIGEST_AT = b'"file": "'
"""What precedes the whole-file digest in the footer (the record is stored as JSON text)."""


@dataclass(frozen=True)
class PartMeta:
    """What a Parquet part says about itself: which run, seed, configuration and games.

    A part is counted only when all of these match the run folder's manifest and the chunk
    its file name claims, so a part copied, left by an older run or written by an orphaned
    worker is never taken for a chunk it is not.
    """

    run_id: str
    seed: int
    config_hash: str
    chunk: int
    first_game: int
    n_games: int
    rows: int = 0
    point_rows: list[int] | None = None  # a sweep of matches: rows of each point it holds

    def encode(self) -> bytes:
        """The JSON bytes stored under :data:`PART_META_KEY`."""
        return json.dumps(asdict(self), sort_keys=True).encode()


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
    import pyarrow.parquet as pq

    return sum(
        pq.read_metadata(p).num_rows for p in (Path(run_dir) / PARTS_DIR).glob("part-*.parquet")
    )


def _validity(columns: dict[str, np.ndarray], column: Column, rows: int) -> np.ndarray | None:
    """The ``__valid`` mask of a nullable column, checked for shape; None when not nullable."""
    if not column.nullable:
        return None
    import numpy as np

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
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

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


def _engine_array(columns: dict[str, np.ndarray], column: Column, rows: int) -> np.ndarray:
    import numpy as np

    if column.name not in columns:
        raise ResultsError(f"engine output has no column {column.name!r}")
    data = np.asarray(columns[column.name])
    if data.shape[0] != rows:
        raise ResultsError(f"column {column.name}: {data.shape[0]} rows, want {rows}")
    return data


def checkpoint_array(data: np.ndarray, rows: int, players: int) -> pa.Array:
    """The engine's ``hand_checkpoints`` bytes, ``(rows, turns, players)`` uint8, as the stored
    fixed-width binary column: one value of ``turns * players`` bytes per round, shared with
    the array rather than copied. Byte ``k * players + s`` is seat ``s``'s cards after turn
    ``CHECKPOINT_TURNS[k]``, or :data:`NOT_REACHED` when the round ended before that turn.
    """
    import numpy as np
    import pyarrow as pa

    shape = COLUMNS_BY_NAME[CHECKPOINTS].shape(rows, players)
    if data.shape != shape or data.dtype != np.uint8:
        raise ResultsError(f"column {CHECKPOINTS}: {data.dtype} {data.shape}, want uint8 {shape}")
    flat = np.ascontiguousarray(data).reshape(-1)
    width = shape[1] * shape[2]
    return pa.FixedSizeBinaryArray.from_buffers(pa.binary(width), rows, [None, pa.py_buffer(flat)])


def arrow_table(columns: dict[str, np.ndarray], players: int) -> pa.Table:
    """The engine's column arrays of one chunk as an Arrow table in schema order."""
    import pyarrow as pa

    rows = len(columns["game"]) if "game" in columns else 0
    arrays, names = [], []
    for column in COLUMNS:
        data = _engine_array(columns, column, rows)
        if column.per_checkpoint:
            arrays.append(checkpoint_array(data, rows, players))
        else:
            valid = _validity(columns, column, rows)
            arrays.append(_arrow_column(column, data, valid, players))
        names.append(column.name)
    return pa.Table.from_arrays(arrays, names=names)


def sweep_table(pieces: list[tuple[int, dict[str, np.ndarray], int]]) -> pa.Table:
    """One sweep chunk's pieces ``(point, engine columns, players)`` as one Arrow table: each
    piece's stored table (:func:`arrow_table`) with a ``point`` column (uint32) after it.

    ``hand_checkpoints`` is variable-width binary here (one point's rows have
    ``20 * players`` bytes each, and points may seat different numbers of players); polars
    reads it as Binary either way, so a point's frame is the one its own run would give.
    """
    import pyarrow as pa

    tables = []
    for point, columns, players in pieces:
        table = arrow_table(columns, players)
        at = table.schema.get_field_index(CHECKPOINTS)
        table = table.set_column(at, CHECKPOINTS, table.column(at).cast(pa.binary()))
        marks = pa.array([point] * table.num_rows, type=pa.uint32())
        tables.append(table.append_column(POINT, marks))
    return pa.concat_tables(tables)


class _HashingFile(io.RawIOBase):
    """A write-only file that hashes what passes through it (what pyarrow writes)."""

    def __init__(self, raw: io.BufferedWriter) -> None:
        super().__init__()
        self.raw = raw
        self.digest = hashlib.sha256()
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        chunk = bytes(data)
        self.digest.update(chunk)
        self.size += len(chunk)
        return self.raw.write(chunk)

    def tell(self) -> int:
        return self.size

    def flush(self) -> None:
        self.raw.flush()


def _hash_file(path: Path, zeroed: tuple[int, int] | None = None) -> str:
    """The SHA-256 of the file at ``path``, reading bytes ``zeroed = (start, end)`` as zeros."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        offset = 0
        while block := handle.read(1 << 20):
            if zeroed is not None and offset < zeroed[1] and offset + len(block) > zeroed[0]:
                cut = bytearray(block)
                low, high = max(zeroed[0] - offset, 0), min(zeroed[1] - offset, len(block))
                cut[low:high] = b"0" * (high - low)
                block = bytes(cut)
            digest.update(block)
            offset += len(block)
    return digest.hexdigest()


def _file_digest_span(path: Path, digest: str) -> tuple[int, int] | None:
    """Where the whole-file ``digest`` is written in the footer of ``path`` (None: nowhere)."""
    with Path(path).open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size < 12:
            return None
        handle.seek(size - 8)
        footer_len = int.from_bytes(handle.read(4), "little")
        start = max(0, size - 8 - footer_len)
        handle.seek(start)
        footer = handle.read(size - start)
    at = footer.rfind(_FILE_DIGEST_AT + digest.encode() + b'"')
    if at < 0:
        return None
    first = start + at + len(_FILE_DIGEST_AT)
    return first, first + len(digest)


def file_digest(path: Path, recorded: str) -> str | None:
    """The SHA-256 of the whole part at ``path`` with its ``recorded`` file digest read as
    zeros, as the writer computed it; None when the footer does not hold ``recorded``."""
    span = _file_digest_span(path, recorded)
    return None if span is None else _hash_file(path, span)


def data_digest(path: Path, size: int) -> str:
    """The SHA-256 of the first ``size`` bytes of ``path`` (a part's data, before its footer)."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        left = size
        while left > 0:
            block = handle.read(min(left, 1 << 20))
            if not block:
                break
            digest.update(block)
            left -= len(block)
    return digest.hexdigest()


_ZEROS = "0" * 64
"""The whole-file digest as it is hashed: 64 zeros in its place."""


def _write_parquet(
    table: pa.Table, path: Path, with_digest: bool, extra: dict[bytes, bytes] | None = None
) -> None:
    """Write ``table`` to ``path``; with ``with_digest`` record the data's and the whole
    file's digests (see :data:`PART_DATA_KEY`) in the footer: the file digest is written as
    zeros, hashed so with everything else, then put in place. Not fsynced: a part damaged by
    a crash of the machine fails verification and is redone."""
    import pyarrow.parquet as pq

    with path.open("wb") as raw:
        sink = _HashingFile(raw)
        writer = pq.ParquetWriter(
            sink,
            table.schema,
            compression=COMPRESSION,
            compression_level=COMPRESSION_LEVEL,
            use_dictionary=[n for n in table.schema.names if n not in NO_DICTIONARY],
            column_encoding={"game": "DELTA_BINARY_PACKED"}
            if "game" in table.schema.names
            else None,
            write_page_checksum=True,
        )
        try:
            writer.write_table(table, row_group_size=max(1, table.num_rows))
            if extra:  # in the footer, before the digests: the file digest covers them
                writer.add_key_value_metadata(extra)
            if with_digest:  # every row group is written: what came so far is the data
                record = {"bytes": sink.size, "sha256": sink.digest.hexdigest(), "file": _ZEROS}
                writer.add_key_value_metadata({PART_DATA_KEY: json.dumps(record)})
        finally:
            writer.close()
        if with_digest:  # the whole file is hashed (with zeros in place of its digest)
            raw.flush()
            span = _file_digest_span(path, _ZEROS)
            if span is None:  # pragma: no cover - pyarrow stores key-value pairs as given
                raise ResultsError(f"{path}: the part's digest record was not written")
            raw.seek(span[0])
            raw.write(sink.digest.hexdigest().encode())


def write_part(
    run_dir: Path,
    chunk_index: int,
    columns: dict[str, np.ndarray],
    players: int,
    meta: PartMeta | None = None,
    commit: Callable[[Callable[[], object]], bool] | None = None,
) -> Path | None:
    """Write one chunk's columns as ``parts/part-{chunk:06d}.parquet``, atomically; its path.

    The file appears under its final name only once complete (written to a hidden temporary
    name, then renamed); ``commit``, when given, makes that rename (and may refuse it: the
    run was stopped meanwhile; None is returned and nothing is left behind). ``meta`` (with
    ``rows`` filled in here) and the digest of the data go into the file's key-value metadata (every
    page also carries a checksum), so that verification can tell a part of this run from a stray,
    truncated or garbled one.
    """
    return write_table_part(run_dir, chunk_index, arrow_table(columns, players), meta, commit)


def write_table_part(
    run_dir: Path,
    chunk_index: int,
    table: pa.Table,
    meta: PartMeta | None = None,
    commit: Callable[[Callable[[], object]], bool] | None = None,
) -> Path | None:
    """Write an Arrow table in the stored layout (:func:`arrow_table`, or a sweep's
    :func:`sweep_table`) as chunk ``chunk_index``'s part, atomically, as :func:`write_part`
    does (``settle`` re-cuts the parts of a run folder with it).

    Every part of every run and sweep is written here, with its tallies (the counts and sums
    a summary reads instead of the rows: :mod:`uno_stats.store.tallies`) in its footer,
    covered by the whole-file digest.
    """
    extra = None
    if meta is not None:
        from uno_stats.store.tallies import TALLIES_KEY, encode_tallies, table_tallies

        extra = {TALLIES_KEY: encode_tallies(table_tallies(table))}
        meta = PartMeta(**{**asdict(meta), "rows": table.num_rows})
        table = table.replace_schema_metadata({PART_META_KEY: meta.encode()})
    final = part_path(run_dir, chunk_index)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    try:
        _write_parquet(table, tmp, with_digest=meta is not None, extra=extra)
        if commit is None:
            tmp.replace(final)
        elif not commit(lambda: tmp.replace(final)):
            return None
    finally:
        tmp.unlink(missing_ok=True)
    return final


def remove_stale_tmp(run_dir: Path) -> None:
    """Delete temporary part and manifest files left behind by a run killed mid-write.

    Call it only while holding the folder's lock (no other run can be writing them).
    """
    run_dir = Path(run_dir)
    stale = [*(run_dir / PARTS_DIR).glob(".part-*.tmp"), *run_dir.glob(".manifest.json.*.tmp")]
    for tmp in [*stale, run_dir / "manifest.json.tmp"]:  # the last: older versions' name
        tmp.unlink(missing_ok=True)

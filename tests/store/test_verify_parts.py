"""Verification of single parts against the plan, engine-free: parts written by the runner's
own ``write_part`` from synthetic columns, with a short last chunk, then damaged one field at
a time (each check of ``check_part`` fails for its own reason and only for it)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from helpers import engine_columns, run_manifest

from uno_stats.store.manifest import Manifest, scenario_hash
from uno_stats.store.parts import (
    PART_DATA_KEY,
    PART_META_KEY,
    PartMeta,
    arrow_table,
    part_path,
    write_part,
)
from uno_stats.store.run_check import RunCheck
from uno_stats.store.verify import (
    check_part,
    check_run,
    checked_part_meta,
    chunk_range,
    part_paths,
    read_part_meta,
)

PLAYERS = 3


def columns(first: int, n: int) -> dict[str, np.ndarray]:
    """Engine-shaped arrays for games ``first`` .. ``first + n - 1`` (values do not matter)."""
    return engine_columns(first, n, PLAYERS)


@pytest.fixture
def manifest() -> Manifest:
    """250 games in chunks of 100: chunks 0 and 1 hold 100 games, chunk 2 the last 50."""
    m = run_manifest("t", 250, PLAYERS)
    config = scenario_hash(m.scenario_data, 100, m.version, m.engine_hash)  # as read back
    return replace(m, chunk_size=100, chunks=3, run_id="r" * 16, config_hash=config)


def meta(m: Manifest, chunk: int, first: int | None = None, n: int | None = None) -> PartMeta:
    start, count = chunk_range(m, chunk)
    return PartMeta(
        m.run_id,
        m.seed,
        m.config_hash,
        chunk,
        start if first is None else first,
        count if n is None else n,
    )


def write(run_dir: Path, m: Manifest, chunk: int, **claims: int) -> Path:
    """The part of ``chunk`` as the runner writes it (``claims``: other first/n)."""
    record = meta(m, chunk, claims.get("first"), claims.get("n"))
    return write_part(
        run_dir, chunk, columns(record.first_game, record.n_games), PLAYERS, meta=record
    )


def test_chunk_range_plans_a_short_last_chunk(manifest: Manifest) -> None:
    assert [chunk_range(manifest, i) for i in range(3)] == [(0, 100), (100, 100), (200, 50)]
    whole = replace(manifest, games=300)
    assert chunk_range(whole, 2) == (200, 100)


def test_every_planned_part_passes_and_the_run_is_complete(
    tmp_path: Path, manifest: Manifest
) -> None:
    for chunk in range(3):
        path = write(tmp_path, manifest, chunk)
        assert check_part(path, manifest, chunk) == (50 if chunk == 2 else 100)
        assert check_part(path, manifest, chunk, deep=False) == (50 if chunk == 2 else 100)
    check = check_run(tmp_path, manifest)
    assert check.complete and check.bad == []
    assert (check.games_done, check.rows, sorted(check.good)) == (250, 250, [0, 1, 2])
    assert check.progress == "3 of 3 chunks, 250 of 250 games"


def test_a_chunk_past_the_plan_is_refused(tmp_path: Path, manifest: Manifest) -> None:
    path = write(tmp_path, manifest, 2)
    with pytest.raises(ValueError, match=r"^chunk 3 is not planned \(the run has 3\)$"):
        check_part(path, manifest, 3)


def test_a_full_last_chunk_is_not_the_planned_short_one(tmp_path: Path, manifest: Manifest) -> None:
    path = write(tmp_path, manifest, 2, n=100)  # games 200-299 of a run of 250
    with pytest.raises(ValueError, match=r"^games 200-299, not the planned 200-249$"):
        check_part(path, manifest, 2)


def test_a_part_claiming_other_games_is_refused(tmp_path: Path, manifest: Manifest) -> None:
    path = write(tmp_path, manifest, 1, first=0)
    with pytest.raises(ValueError, match=r"^games 0-99, not the planned 100-199$"):
        check_part(path, manifest, 1)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"run_id": "x" * 16}, f"written by another run (run id {'x' * 16}, not {'r' * 16})"),
        ({"seed": 99}, "another scenario's part (seed 99, configuration "),
        ({"config_hash": "abc"}, "another scenario's part (seed 1, configuration abc)"),
        ({"chunk": 0}, "a copy of chunk 0's part under chunk 1's name"),
    ],
)
def test_a_part_of_another_run_or_chunk_is_refused(
    tmp_path: Path, manifest: Manifest, change: dict, reason: str
) -> None:
    record = replace(meta(manifest, 1), **change)
    path = write_part(tmp_path, 1, columns(100, 100), PLAYERS, meta=record)
    with pytest.raises(ValueError) as info:
        check_part(path, manifest, 1)
    assert str(info.value).startswith(reason)


def _rewrite(path: Path, record: PartMeta, first_game: int) -> None:
    """The part again with ``record`` as written and games from ``first_game`` (no digest)."""
    table = arrow_table(columns(first_game, record.n_games), PLAYERS)
    pq.write_table(table.replace_schema_metadata({PART_META_KEY: record.encode()}), path)


def test_rows_must_match_the_record_and_the_games(tmp_path: Path, manifest: Manifest) -> None:
    path = write(tmp_path, manifest, 1)
    _rewrite(path, replace(meta(manifest, 1), rows=99), 100)
    with pytest.raises(ValueError, match=r"^100 rows where the part says 99 for 100 games$"):
        check_part(path, manifest, 1, deep=False)
    _rewrite(path, replace(meta(manifest, 1), rows=100), 100)
    assert check_part(path, manifest, 1, deep=False) == 100
    with pytest.raises(ValueError, match=r"^no data checksum"):
        check_part(path, manifest, 1)


def test_game_numbers_must_be_the_planned_ones(tmp_path: Path, manifest: Manifest) -> None:
    path = write(tmp_path, manifest, 1)
    _rewrite(path, replace(meta(manifest, 1), rows=100), 101)  # games 101-200, record says 100-199
    with pytest.raises(ValueError, match=r"^games 101-200, not 100-199$"):
        check_part(path, manifest, 1, deep=False)


def test_a_match_part_may_hold_more_rows_than_games(tmp_path: Path, manifest: Manifest) -> None:
    m = replace(manifest, scenario_data={**manifest.scenario_data, "match": {"target": 500}})
    record = replace(meta(m, 1), rows=150)
    cols = columns(100, 150)
    cols["game"] = np.repeat(np.arange(100, 200, dtype=np.uint64), [2] * 50 + [1] * 50)
    path = write_part(tmp_path, 1, cols, PLAYERS, meta=record)
    assert check_part(path, m, 1) == 150
    with pytest.raises(ValueError, match=r"^150 rows where the part says 150 for 100 games$"):
        check_part(path, manifest, 1)  # the same part in a run of single rounds


def test_a_garbled_byte_fails_the_deep_check_only(tmp_path: Path, manifest: Manifest) -> None:
    path = write(tmp_path, manifest, 0)
    data = bytearray(path.read_bytes())
    data[100] ^= 0xFF
    path.write_bytes(bytes(data))
    assert check_part(path, manifest, 0, deep=False) == 100
    with pytest.raises(ValueError, match=r"^corrupt data \(checksum mismatch"):
        check_part(path, manifest, 0)
    assert checked_part_meta(path, manifest, 0, deep=False).rows == 100
    with pytest.raises(ValueError, match=r"^corrupt data \(checksum mismatch"):
        checked_part_meta(path, manifest, 0)  # deep unless told otherwise, as check_part
    check = check_run(tmp_path, manifest)
    assert [b.path for b in check.bad] == [path] and check.good == {}
    assert check.bad[0].reason.startswith("corrupt data")
    assert check_run(tmp_path, manifest, deep=False).good == {0: path}


def test_unreadable_and_foreign_files(tmp_path: Path, manifest: Manifest) -> None:
    path = part_path(tmp_path, 0)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not parquet\nsecond line")
    with pytest.raises(ValueError, match=r"^unreadable \(") as info:
        read_part_meta(path)
    assert "\n" not in str(info.value) and "second line" not in str(info.value)
    pq.write_table(arrow_table(columns(0, 100), PLAYERS), path)
    with pytest.raises(ValueError, match=r"^no uno-stats part record"):
        check_part(path, manifest, 0)
    table = arrow_table(columns(0, 100), PLAYERS)
    pq.write_table(table.replace_schema_metadata({PART_META_KEY: b'{"run_id": 1}'}), path)
    with pytest.raises(ValueError, match=r"^garbled part record \("):
        check_part(path, manifest, 0)


def test_part_paths_take_only_numbered_parts_in_order(tmp_path: Path, manifest: Manifest) -> None:
    for chunk in (2, 0):
        write(tmp_path, manifest, chunk)
    parts = tmp_path / "parts"
    (parts / "part-abc.parquet").write_bytes(b"")
    (parts / "other-000001.parquet").write_bytes(b"")
    (parts / "part-000001.txt").write_bytes(b"")
    assert [(i, p.name) for i, p in part_paths(tmp_path)] == [
        (0, "part-000000.parquet"),
        (2, "part-000002.parquet"),
    ]
    check = check_run(tmp_path, manifest)
    assert not check.complete and check.progress == "2 of 3 chunks, 150 of 250 games"
    assert (check.games_done, check.rows) == (150, 150)


def test_run_check_progress_and_completeness() -> None:
    check = RunCheck(chunks=8, games=400_000, games_done=150_000)
    check.good = {i: Path(f"p{i}") for i in range(3)}
    assert check.progress == "3 of 8 chunks, 150,000 of 400,000 games"
    assert not check.complete
    check.good |= {i: Path(f"p{i}") for i in range(3, 8)}
    assert check.complete


def folder_with(tmp_path: Path, m: Manifest, chunks: list[int]) -> Path:
    from uno_stats.store.manifest import write_manifest

    tmp_path.mkdir(parents=True, exist_ok=True)
    write_manifest(tmp_path, m)
    for chunk in chunks:
        write(tmp_path, m, chunk)
    return tmp_path


def test_verified_runs_count_what_the_disk_holds(tmp_path: Path, manifest: Manifest) -> None:
    from uno_stats.store.verify import incomplete_error, run_notes, verified_runs

    folder = folder_with(tmp_path, replace(manifest, rows=999, complete=True), [0, 2])
    (run,) = verified_runs(folder)
    assert run.path == folder and run.check is not None
    # the manifest as the disk has it (a killed run's manifest may claim more)
    assert (run.manifest.rows, run.manifest.chunks_done, run.manifest.complete) == (150, 2, False)
    assert run.name == "t (incomplete: 2 of 3 chunks, 150 of 250 games)"
    assert incomplete_error([run]) == (
        f"{folder}: incomplete run, 2 of 3 chunks, 150 of 250 games; finish it by running "
        "the same run command again, or pass --allow-incomplete"
    )
    assert incomplete_error([run, run]) == (
        f"{folder}: incomplete run, 2 of 3 chunks, 150 of 250 games (and 1 more); finish it "
        "by running the same run command again, or pass --allow-incomplete"
    )
    assert run_notes([run]) == [
        f"{folder} is incomplete: 2 of 3 chunks, 150 of 250 games; run the same run command "
        "again to finish it"
    ]
    part_path(folder, 1).write_bytes(b"")
    (run,) = verified_runs(folder)
    assert run_notes([run])[0].startswith(f"{part_path(folder, 1)} not counted: unreadable (")
    write(folder, manifest, 1)
    (whole,) = verified_runs(folder)
    assert whole.complete and whole.manifest.complete and whole.manifest.rows == 250
    assert incomplete_error([whole]) is None and run_notes([whole]) == []


def test_verified_runs_refuse_folders_without_good_parts(
    tmp_path: Path, manifest: Manifest
) -> None:
    from uno_stats.errors import ResultsError
    from uno_stats.store.verify import verified_runs

    folder = folder_with(tmp_path / "bad", manifest, [0, 1])
    for chunk in (0, 1):
        part_path(folder, chunk).write_bytes(b"")
    with pytest.raises(ResultsError) as info:
        verified_runs(folder)
    assert str(info.value).startswith(
        f"{folder}: no valid result parts (2 failed verification, first part-000000.parquet: "
        "unreadable ("
    )
    assert str(info.value).endswith("); rerun the same run command to redo them")
    empty = folder_with(tmp_path / "empty", manifest, [])
    with pytest.raises(ResultsError) as info:
        verified_runs(empty)
    assert str(info.value) == (
        f"{empty}: no result parts yet (0 of 3 chunks, 0 of 250 games); run the same run "
        "command again to finish the run"
    )


def test_verified_runs_of_files_and_missing_folders(tmp_path: Path) -> None:
    from uno_stats.errors import ResultsError
    from uno_stats.store.verify import verified_runs

    for name, hint in (
        ("s.yaml", "; run it first (uno-stats run FILE) and give OUT/<name>"),
        ("s.yml", "; run it first (uno-stats run FILE) and give OUT/<name>"),
        ("notes.txt", ""),
    ):
        path = tmp_path / name
        path.write_text("x")
        with pytest.raises(ResultsError) as info:
            verified_runs(path)
        assert str(info.value) == f"{path}: a file, not a results folder{hint}"
    with pytest.raises(ResultsError) as info:
        verified_runs(tmp_path / "missing")
    assert str(info.value) == f"{tmp_path / 'missing'}: no such results folder"


def test_verified_runs_of_a_sweep_folder(tmp_path: Path, manifest: Manifest) -> None:
    from uno_stats.store.manifest import PointFoldersManifest, write_manifest
    from uno_stats.store.verify import verified_runs

    labels = ["players=2", "players=3"]
    write_manifest(
        tmp_path,
        PointFoldersManifest("t", "0.1.0", 1, 250, {"players": [2, 3]}, labels, "h" * 16),
    )
    for label, chunks in zip(labels, ([0, 1, 2], [1]), strict=True):
        folder_with(tmp_path / label, replace(manifest, sweep_label=label), chunks)
    runs = verified_runs(tmp_path)
    assert [r.path for r in runs] == [tmp_path / label for label in labels]
    assert [r.complete for r in runs] == [True, False]
    assert [r.manifest.rows for r in runs] == [250, 100]


def test_first_line_of_an_error() -> None:
    from uno_stats.store.verify import _first_line

    assert _first_line(ValueError("  one\ntwo  ")) == "one"
    assert _first_line(ValueError("x" * 300 + "\nmore")) == "x" * 200
    assert _first_line(KeyError()) == "KeyError"


def test_unreadable_parts_say_what_the_reader_said(tmp_path: Path, manifest: Manifest) -> None:
    path = part_path(tmp_path, 0)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not parquet")
    with pytest.raises(ValueError) as info:
        read_part_meta(path)
    assert "magic bytes" in str(info.value)
    table = arrow_table(columns(0, 100), PLAYERS)
    pq.write_table(table.replace_schema_metadata({PART_META_KEY: b'{"run_id": 1}'}), path)
    with pytest.raises(ValueError) as info:
        read_part_meta(path)
    assert "missing" in str(info.value) and "required positional argument" in str(info.value)


def test_game_bounds_span_every_row_group(tmp_path: Path) -> None:
    from uno_stats.store.verify import _game_bounds

    path = tmp_path / "p.parquet"
    table = arrow_table(columns(100, 100), PLAYERS)
    pq.write_table(table, path, row_group_size=30)
    assert pq.read_metadata(path).num_row_groups == 4
    assert _game_bounds(pq.read_metadata(path)) == (100, 199)
    reversed_games = table.take(list(range(99, -1, -1)))
    pq.write_table(reversed_games, path, row_group_size=30)
    assert _game_bounds(pq.read_metadata(path)) == (100, 199)
    pq.write_table(table, path, write_statistics=False)
    assert _game_bounds(pq.read_metadata(path)) is None
    pq.write_table(table.slice(0, 0), path)
    assert _game_bounds(pq.read_metadata(path)) is None
    pq.write_table(table.drop(["game"]), path)
    assert _game_bounds(pq.read_metadata(path)) is None


def test_a_bad_part_does_not_stop_the_check_of_the_next(
    tmp_path: Path, manifest: Manifest, monkeypatch: pytest.MonkeyPatch
) -> None:
    from uno_stats.store import verify

    for chunk in range(3):
        write(tmp_path, manifest, chunk)
    part_path(tmp_path, 0).write_bytes(b"")
    check = check_run(tmp_path, manifest)
    assert sorted(check.good) == [1, 2] and [b.path for b in check.bad] == [part_path(tmp_path, 0)]
    real = verify.file_digest  # parts of this version record the digest of the whole file

    def refuse_part_1(path: Path, recorded: str) -> str | None:
        if path == part_path(tmp_path, 1):
            raise PermissionError(13, "Permission denied")
        return real(path, recorded)

    monkeypatch.setattr(verify, "file_digest", refuse_part_1)
    check = check_run(tmp_path, manifest)
    assert sorted(check.good) == [2]
    assert [(b.path.name, b.reason) for b in check.bad] == [
        ("part-000000.parquet", check.bad[0].reason),
        ("part-000001.parquet", "cannot read (Permission denied)"),
    ]
    monkeypatch.setattr(verify, "file_digest", lambda path, rec: (_ for _ in ()).throw(OSError()))
    assert check_run(tmp_path, manifest).bad[-1].reason == "cannot read ()"


def test_verified_runs_check_digests_unless_told_not_to(tmp_path: Path, manifest: Manifest) -> None:
    from uno_stats.store.verify import verified_runs

    folder = folder_with(tmp_path, manifest, [0, 1])
    path = part_path(folder, 0)
    data = bytearray(path.read_bytes())
    data[100] ^= 0xFF
    path.write_bytes(bytes(data))
    (deep,) = verified_runs(folder)
    assert deep.check is not None and sorted(deep.check.good) == [1]
    (shallow,) = verified_runs(folder, deep=False)
    assert shallow.check is not None and sorted(shallow.check.good) == [0, 1]


def test_run_notes_of_unverified_and_locked_runs(tmp_path: Path, manifest: Manifest) -> None:
    from uno_stats.store.lock import folder_lock
    from uno_stats.store.runs import Run
    from uno_stats.store.verify import run_notes, verified_runs

    assert run_notes([Run(tmp_path, replace(manifest, complete=True))]) == []
    folder = folder_with(tmp_path, manifest, [0])
    (run,) = verified_runs(folder)
    with folder_lock(folder):
        assert run_notes([run]) == [
            f"{folder} is incomplete (a run is writing it now): 1 of 3 chunks, 100 of 250 "
            "games; run the same run command again to finish it"
        ]


def _footer_start(path: Path) -> int:
    """Where a Parquet file's footer begins: everything before it is the data."""
    raw = path.read_bytes()
    assert raw[-4:] == b"PAR1"
    return len(raw) - 8 - int.from_bytes(raw[-8:-4], "little")


def _with_records(path: Path, record: PartMeta, data: bytes, first_game: int) -> None:
    """The part again with ``record`` and the data record ``data`` as written."""
    table = arrow_table(columns(first_game, record.n_games), PLAYERS)
    metadata = {PART_META_KEY: record.encode(), PART_DATA_KEY: data}
    pq.write_table(table.replace_schema_metadata(metadata), path)


def test_a_part_of_an_earlier_version_is_checked_by_its_data_digest(
    tmp_path: Path, manifest: Manifest
) -> None:
    """Earlier versions recorded only the digest of the bytes before the footer."""
    path = write(tmp_path, manifest, 1)
    record = replace(meta(manifest, 1), rows=100)
    _with_records(path, record, b"{}", 100)
    size = _footer_start(path)
    digest = hashlib.sha256(path.read_bytes()[:size]).hexdigest()
    legacy = json.dumps({"bytes": size, "sha256": digest}).encode()
    _with_records(path, record, legacy, 100)
    assert _footer_start(path) == size  # the footer grew, the data stayed
    assert hashlib.sha256(path.read_bytes()[:size]).hexdigest() == digest
    assert check_part(path, manifest, 1) == 100
    data = bytearray(path.read_bytes())
    data[size // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError) as info:
        check_part(path, manifest, 1)
    assert str(info.value) == (
        "corrupt data (checksum mismatch: the file was changed after writing)"
    )
    assert check_part(path, manifest, 1, deep=False) == 100


def _padded(head: bytes, tail: bytes, size: int) -> bytes:
    """``head``, as many ``y`` as make ``size`` bytes, ``tail``."""
    return head + b"y" * (size - len(head) - len(tail)) + tail


@pytest.mark.parametrize(
    "data",
    [
        b"[1]",
        b'{"bytes": 1}',
        b'{"bytes": 1, "sha256": "ab", "file": null, "x": [[1]]}',  # nested 3 deep
        _padded(b'{"bytes": 1, "sha256": "ab", "file": null, "x": "', b'"}', 10_001),
    ],
)
def test_a_data_record_that_is_not_one_is_no_checksum(
    tmp_path: Path, manifest: Manifest, data: bytes
) -> None:
    path = write(tmp_path, manifest, 1)
    _with_records(path, replace(meta(manifest, 1), rows=100), data, 100)
    with pytest.raises(ValueError) as info:
        check_part(path, manifest, 1)
    assert str(info.value) == "no data checksum (written by another tool or version)"


def test_a_data_record_of_10_000_bytes_is_read(tmp_path: Path, manifest: Manifest) -> None:
    path = write(tmp_path, manifest, 1)
    data = _padded(b'{"bytes": 1, "sha256": "ab", "file": null, "x": "', b'"}', 10_000)
    _with_records(path, replace(meta(manifest, 1), rows=100), data, 100)
    with pytest.raises(ValueError, match=r"^corrupt data \(checksum mismatch"):
        check_part(path, manifest, 1)  # read, and "ab" is not the data's digest


def _part_record(size: int) -> bytes:
    """A valid part record of exactly ``size`` bytes (the run id padded)."""
    base = len(PartMeta("", 1, "h", 0, 0, 100, 100).encode())
    record = PartMeta("r" * (size - base), 1, "h", 0, 0, 100, 100).encode()
    assert len(record) == size
    return record


def test_a_part_record_is_read_within_its_limits(tmp_path: Path) -> None:
    path = tmp_path / "p.parquet"
    table = arrow_table(columns(0, 100), PLAYERS)
    for raw, reason in (
        (b"[1]", "not a JSON object"),
        (b'{"run_id": {"a": [1]}}', "nested more than 2 levels deep"),
        (_part_record(1_000_001), "larger than 1,000,000 bytes"),
    ):
        pq.write_table(table.replace_schema_metadata({PART_META_KEY: raw}), path)
        with pytest.raises(ValueError) as info:
            read_part_meta(path)
        assert str(info.value) == f"garbled part record ({reason})"
    pq.write_table(table.replace_schema_metadata({PART_META_KEY: _part_record(1_000_000)}), path)
    record, footer = read_part_meta(path)
    assert len(record.run_id) > 990_000 and footer.num_rows == 100


def test_game_bounds_of_a_part_without_row_groups(tmp_path: Path) -> None:
    from uno_stats.store.verify import _game_bounds

    path = tmp_path / "p.parquet"
    pq.ParquetWriter(path, arrow_table(columns(0, 1), PLAYERS).schema).close()
    footer = pq.read_metadata(path)
    assert footer.num_row_groups == 0 and "game" in footer.schema.names
    assert _game_bounds(footer) is None


def test_a_folder_or_a_fifo_under_a_part_name_is_never_opened(
    tmp_path: Path, manifest: Manifest
) -> None:
    good = write(tmp_path, manifest, 2)
    folder, fifo = part_path(tmp_path, 0), part_path(tmp_path, 1)
    folder.mkdir()
    os.mkfifo(fifo)  # opening it to read would hang
    check = check_run(tmp_path, manifest)
    assert [(b.path, b.reason) for b in check.bad] == [
        (folder, "a folder, not a part file"),
        (fifo, "a FIFO (named pipe), not a part file"),
    ]
    assert check.good == {2: good} and (check.games_done, check.rows) == (50, 50)


def test_an_incomplete_run_names_its_first_bad_part(tmp_path: Path, manifest: Manifest) -> None:
    from uno_stats.store.runs import Run
    from uno_stats.store.verify import incomplete_error, verified_runs

    folder = folder_with(tmp_path, manifest, [0, 1])
    part_path(folder, 1).write_bytes(b"")
    (part_path(folder, 2)).mkdir()
    (run,) = verified_runs(folder)
    assert run.check is not None and len(run.check.bad) == 2
    assert incomplete_error([run]) == (
        f"{folder}: incomplete run, 1 of 3 chunks, 100 of 250 games (part-000001.parquet "
        f"failed verification: {run.check.bad[0].reason}); finish it by running the same run "
        "command again, or pass --allow-incomplete"
    )
    assert run.check.bad[0].reason.startswith("unreadable (")
    unverified = Run(folder, replace(manifest, complete=False, chunks_done=1))
    assert incomplete_error([unverified]) == (
        f"{folder}: incomplete run, 1 of 3 chunks of 250 games; finish it by running the "
        "same run command again, or pass --allow-incomplete"
    )

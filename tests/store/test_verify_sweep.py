"""Verification of a sweep dataset, engine-free: the parts of a sweep of matches (six points of
10 matches, chunks of 25 games: chunk 0 holds points 0-2, chunk 1 points 2-4, chunk 2 point
5) written by the runner's own ``write_table_part`` from synthetic columns, then damaged or
left out one at a time."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pytest
from helpers import engine_columns, sweep_manifest

from uno_stats.errors import ResultsError
from uno_stats.store.manifest import SweepManifest, write_manifest
from uno_stats.store.parts import PartMeta, arrow_table, part_path, sweep_table, write_table_part
from uno_stats.store.runs import PointRuns
from uno_stats.store.verify import check_part, check_run, verified_runs

PLAYERS = 3


@pytest.fixture
def sweep() -> SweepManifest:
    m = sweep_manifest(25)
    assert (m.points, m.games, m.chunks) == (6, 10, 3)
    return m


def labels(m: SweepManifest) -> list[str]:
    return list(m.scenario.point_labels())


def pieces(m: SweepManifest, index: int, shift: int = 0) -> pa.Table:
    """Chunk ``index``'s table as the runner writes it (``shift``: point marks off by it)."""
    return sweep_table(
        [
            (s.point + shift, engine_columns(s.first_game, s.n_games, PLAYERS), PLAYERS)
            for s in m.layout.slices(index)
        ]
    )


def write(
    folder: Path,
    m: SweepManifest,
    index: int,
    table: pa.Table | None = None,
    point_rows: list[int] | None = None,
) -> Path:
    """The part of chunk ``index``; ``point_rows`` by default one row per match (the rows a
    sweep of matches records)."""
    first, n = m.layout.chunk_range(index)
    rows = [s.n_games for s in m.layout.slices(index)] if point_rows is None else point_rows
    meta = PartMeta(m.run_id, m.seed, m.config_hash, index, first, n, point_rows=rows)
    path = write_table_part(folder, index, pieces(m, index) if table is None else table, meta)
    assert path is not None
    return path


def folder_with(folder: Path, m: SweepManifest, chunks: list[int]) -> Path:
    write_manifest(folder, m)
    for index in chunks:
        write(folder, m, index)
    return folder


def garble(path: Path) -> None:
    """Flip a byte of the data before the footer (the footer stays readable)."""
    data = bytearray(path.read_bytes())
    data[100] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_whole_sweep_verifies_with_its_rows_by_point(
    tmp_path: Path, sweep: SweepManifest
) -> None:
    folder = folder_with(tmp_path, sweep, [0, 1, 2])
    check = check_run(folder, sweep)
    assert check.complete and not check.bad and (check.games_done, check.rows) == (60, 60)
    assert check.point_rows == {0: [10, 10, 5], 1: [5, 10, 10], 2: [10]}
    runs = verified_runs(folder)
    assert isinstance(runs, PointRuns) and len(runs) == 6
    assert (runs.sweep.rows, runs.sweep.chunks_done, runs.sweep.complete) == (60, 3, True)
    assert [r.path for r in runs] == [folder / label for label in labels(sweep)]


def test_the_manifest_counts_what_the_disk_holds(tmp_path: Path) -> None:
    """Chunks of 4 games: every point spans three chunks, so a missing or bad chunk empties
    no point and the sweep reads, incomplete; a killed run's manifest may be stale: the
    verified one counts the good parts."""
    m = sweep_manifest(4)
    stale = replace(m, rows=0, chunks_done=0, complete=True)
    folder = folder_with(tmp_path, stale, [c for c in range(m.chunks) if c not in (1, 2)])
    write(folder, m, 1, point_rows=[3])  # fails: its rows by point do not add up
    runs = verified_runs(folder)
    assert len(runs) == 6 and [bad.path for bad in runs.check.bad] == [part_path(folder, 1)]
    assert (runs.sweep.rows, runs.sweep.chunks_done, runs.sweep.complete) == (52, 13, False)
    assert sorted(runs.check.good) == [0, *range(3, 15)]


def test_one_point_of_a_sweep_is_read_by_its_label(tmp_path: Path, sweep: SweepManifest) -> None:
    folder = folder_with(tmp_path, sweep, [0, 1, 2])
    (run,) = verified_runs(folder / labels(sweep)[3])
    assert run.path == folder / labels(sweep)[3] and run.folder == folder
    assert run.manifest.sweep_label == labels(sweep)[3] and run.complete
    assert run.check is not None and sorted(run.check.good) == [1]


@pytest.mark.parametrize("point", [None, 2])
def test_a_garbled_part_is_found_unless_told_not_to_hash(
    tmp_path: Path, sweep: SweepManifest, point: int | None
) -> None:
    """``deep`` reaches the check of the dataset, read whole or one point of it."""
    folder = folder_with(tmp_path, sweep, [0, 1, 2])
    garble(part_path(folder, 1))
    where = folder if point is None else folder / labels(sweep)[point]
    assert verified_runs(where, deep=False)[0].complete
    with pytest.raises(ResultsError) as info:
        verified_runs(where)
    assert str(info.value) == (
        f"{folder}: point {labels(sweep)[3]} has no valid result part (1 failed verification, "
        "first part-000001.parquet: corrupt data (checksum mismatch: the file was changed "
        "after writing)); rerun the same run command to redo them"
    )


def test_the_first_point_without_a_part_is_named(tmp_path: Path, sweep: SweepManifest) -> None:
    """Chunk 1 missing: point 2 still has games in chunk 0, point 3 has none anywhere."""
    folder = folder_with(tmp_path, sweep, [0, 2])
    with pytest.raises(ResultsError) as info:
        verified_runs(folder)
    assert str(info.value) == (
        f"{folder}: point {labels(sweep)[3]} has no result parts yet (2 of 3 chunks, 35 of 60 "
        "games); run the same run command again to finish the run"
    )


def test_a_sweep_without_a_good_part_is_one_error(tmp_path: Path, sweep: SweepManifest) -> None:
    folder = folder_with(tmp_path, sweep, [])
    write(folder, sweep, 0, point_rows=[10, 10])
    with pytest.raises(ResultsError) as info:
        verified_runs(folder)
    assert str(info.value) == (
        f"{folder}: no valid result parts (1 failed verification, first part-000000.parquet: "
        "its rows by point [10, 10]... do not add up to 25); rerun the same run command to "
        "redo them"
    )


@pytest.mark.parametrize(
    ("point_rows", "said"),
    [
        ([10, 15], "its rows by point [10, 15]... do not add up to 25"),  # 2 points of 3
        ([10, 10, 4], "its rows by point [10, 10, 4]... do not add up to 25"),
        ([10, 10, 5, 0], "its rows by point [10, 10, 5, 0]... do not add up to 25"),
    ],
)
def test_rows_by_point_must_be_one_per_point_and_add_up(
    tmp_path: Path, sweep: SweepManifest, point_rows: list[int], said: str
) -> None:
    path = write(tmp_path, sweep, 0, point_rows=point_rows)
    with pytest.raises(ValueError) as info:
        check_part(path, sweep, 0)
    assert str(info.value) == said


def test_rows_by_point_are_shown_five_at_most(tmp_path: Path) -> None:
    m = sweep_manifest(60)  # one chunk of all six points
    path = write(tmp_path, m, 0, point_rows=[10, 10, 10, 10, 10, 9])
    with pytest.raises(ValueError) as info:
        check_part(path, m, 0)
    assert str(info.value) == "its rows by point [10, 10, 10, 10, 10]... do not add up to 60"
    assert check_part(write(tmp_path, m, 0), m, 0) == 60


def test_a_part_must_hold_the_planned_points(tmp_path: Path, sweep: SweepManifest) -> None:
    path = write(tmp_path, sweep, 0, table=pieces(sweep, 0, shift=1))
    with pytest.raises(ValueError) as info:
        check_part(path, sweep, 0)
    assert str(info.value) == "points 1-3, not the planned points 0-2"
    columns = engine_columns(0, 25, PLAYERS)
    columns["game"] = columns["game"] % 10  # each point's own game indices, no point column
    path = write(tmp_path, sweep, 0, table=arrow_table(columns, PLAYERS))
    with pytest.raises(ValueError) as info:
        check_part(path, sweep, 0)
    assert str(info.value) == "no point column, not the planned points 0-2"

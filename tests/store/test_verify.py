"""Verify, then trust: copied, truncated, garbled, empty and foreign parts are never counted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from uno_stats.errors import ResultsError
from uno_stats.run import tasks
from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import parse_scenario
from uno_stats.store.manifest import read_run_manifest
from uno_stats.store.parts import PART_DATA_KEY, PART_META_KEY, part_path
from uno_stats.store.verify import check_part, check_run, read_part_meta, verified_runs

TINY = "name: tiny\nplayers: 3\ngames: 900\nseed: 5\n"
CHUNK = 150  # six chunks


def run(out: Path, **overrides):
    text = TINY + "".join(f"{k}: {v}\n" for k, v in overrides.items())
    scenario = parse_scenario(text.replace("seed: 5\n", "") if "seed" in overrides else text)
    return run_scenario(scenario, out_dir=out, workers=1, progress=False, chunk_size=CHUNK)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> pl.DataFrame:
    out = tmp_path_factory.mktemp("ref")
    run(out)
    return frame(out / "tiny")


def frame(folder: Path) -> pl.DataFrame:
    return pl.concat([r.scan().collect() for r in verified_runs(folder)]).sort("game")


def test_parts_record_their_run(tmp_path):
    outcome = run(tmp_path)
    manifest = read_run_manifest(outcome.path)
    assert len(manifest.run_id) == 16
    meta, footer = read_part_meta(part_path(outcome.path, 2))
    assert (meta.run_id, meta.seed, meta.config_hash) == (
        manifest.run_id,
        5,
        manifest.config_hash,
    )
    assert (meta.chunk, meta.first_game, meta.n_games, meta.rows) == (2, 300, 150, 150)
    assert footer.num_rows == 150
    check = check_run(outcome.path, manifest)
    assert check.complete and not check.bad and check.games_done == 900


def test_copied_part_is_not_counted_and_is_redone(tmp_path, reference, monkeypatch):
    """The issue's case: part 2 copied over part 3 must neither count nor duplicate games."""
    outcome = run(tmp_path)
    shutil.copy(part_path(outcome.path, 2), part_path(outcome.path, 3))
    (got,) = verified_runs(outcome.path)
    assert not got.complete
    assert got.progress == "5 of 6 chunks, 750 of 900 games"
    assert "incomplete" in got.name
    assert [b.path.name for b in got.check.bad] == ["part-000003.parquet"]
    assert "copy of chunk 2" in got.check.bad[0].reason
    games = got.scan().select("game").collect()["game"]
    assert games.n_unique() == games.len() == 750
    assert got.manifest.rows == 750 and got.manifest.complete is False

    calls = []
    monkeypatch.setattr(tasks, "run_chunk", lambda c, f, n: calls.append(f) or REAL(c, f, n))
    notes = []
    again = run_scenario(
        parse_scenario(TINY), tmp_path, workers=1, progress=False, notify=notes.append
    )
    assert calls == [450]
    assert again.resumed_chunks == 5
    assert notes and "part-000003.parquet" in notes[0] and "copy of chunk 2" in notes[0]
    assert frame(outcome.path).equals(reference)


REAL = tasks.run_chunk


def garble(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(len(data) // 3, len(data) // 3 + 64):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]), "unreadable"),
        (lambda p: p.write_bytes(b""), "unreadable"),
        (garble, "corrupt data"),
    ],
    ids=["truncated", "empty", "garbled"],
)
def test_damaged_part_is_redone_and_good_parts_kept(
    tmp_path, reference, monkeypatch, damage, reason
):
    outcome = run(tmp_path)
    damage(part_path(outcome.path, 4))
    (got,) = verified_runs(outcome.path)
    assert not got.complete and reason in got.check.bad[0].reason
    calls = []
    monkeypatch.setattr(tasks, "run_chunk", lambda c, f, n: calls.append(f) or REAL(c, f, n))
    run_scenario(parse_scenario(TINY), tmp_path, workers=1, progress=False)
    assert calls == [600]
    assert frame(outcome.path).equals(reference)


def test_part_of_another_run_is_not_counted(tmp_path):
    """A --fresh run gets a new run id: a part left by the old run (an orphan's) is stray."""
    first = run(tmp_path)
    old_id = read_run_manifest(first.path).run_id
    old_part = tmp_path / "old.parquet"
    shutil.copy(part_path(first.path, 1), old_part)
    second = run_scenario(parse_scenario(TINY), tmp_path, workers=1, progress=False, fresh=True)
    shutil.copy(old_part, part_path(second.path, 1))
    (got,) = verified_runs(second.path)
    assert f"written by another run (run id {old_id}" in got.check.bad[0].reason
    assert not got.complete


def test_fresh_run_draws_a_new_id_and_resume_keeps_it(tmp_path):
    first = read_run_manifest(run(tmp_path).path).run_id
    assert read_run_manifest(run(tmp_path).path).run_id == first
    fresh = run_scenario(parse_scenario(TINY), tmp_path, workers=1, progress=False, fresh=True)
    assert read_run_manifest(fresh.path).run_id != first


def test_part_without_record_or_out_of_plan(tmp_path):
    outcome = run(tmp_path)
    stray = part_path(outcome.path, 99)
    shutil.copy(part_path(outcome.path, 0), stray)
    plain = part_path(outcome.path, 5)
    pl.read_parquet(plain).write_parquet(plain)  # same rows, no uno-stats record
    check = check_run(outcome.path, read_run_manifest(outcome.path))
    reasons = {b.path.name: b.reason for b in check.bad}
    assert "not planned" in reasons["part-000099.parquet"]
    assert "no uno-stats part record" in reasons["part-000005.parquet"]
    assert sorted(check.good) == [0, 1, 2, 3, 4]


def test_garbled_record_is_reported(tmp_path):
    import pyarrow.parquet as pq

    outcome = run(tmp_path)
    path = part_path(outcome.path, 0)
    table = pq.read_table(path)
    pq.write_table(table.replace_schema_metadata({PART_META_KEY: b"{not json"}), path)
    (bad,) = check_run(outcome.path, read_run_manifest(outcome.path)).bad
    assert "garbled part record" in bad.reason


def test_folder_of_only_bad_parts_is_one_error(tmp_path):
    outcome = run(tmp_path)
    for index in range(6):
        part_path(outcome.path, index).write_bytes(b"")
    with pytest.raises(ResultsError, match=r"no valid result parts .*rerun the same run command"):
        verified_runs(outcome.path)


def test_not_a_folder(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(TINY)
    with pytest.raises(ResultsError, match="a file, not a results folder; run it first"):
        verified_runs(scenario)
    for name, data in (("list", []), ("object", {})):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "manifest.json").write_text(json.dumps(data))
        with pytest.raises(ResultsError, match="manifest"):
            verified_runs(folder)


def test_folder_without_parts_yet(tmp_path):
    outcome = run(tmp_path)
    shutil.rmtree(outcome.path / "parts")
    with pytest.raises(
        ResultsError, match=r"no result parts yet \(0 of 6 chunks, 0 of 900 games\)"
    ):
        verified_runs(outcome.path)


def _footer_start(data: bytes) -> int:
    return len(data) - 8 - int.from_bytes(data[-8:-4], "little")


def test_every_sampled_bit_flip_in_the_footer_fails_verification(tmp_path):
    """The issue's case: 17 of 150 footer flips passed verification (which read the footer
    with pyarrow) and then broke polars. The digest now covers the whole file."""
    import random

    outcome = run(tmp_path)
    manifest = read_run_manifest(outcome.path)
    path = part_path(outcome.path, 1)
    data = path.read_bytes()
    rng = random.Random(24)
    flipped = tmp_path / "flipped.parquet"
    for _ in range(300):
        where = rng.randrange(_footer_start(data), len(data))
        damaged = bytearray(data)
        damaged[where] ^= 1 << rng.randrange(8)
        flipped.write_bytes(bytes(damaged))
        with pytest.raises(ValueError):
            check_part(flipped, manifest, 1)
    check_part(path, manifest, 1)  # the undamaged part passes


def test_a_part_of_an_earlier_version_is_checked_by_its_data_digest(tmp_path):
    """Parts written before the whole-file digest record only the data's: still verified."""
    outcome = run(tmp_path)
    path = part_path(outcome.path, 0)
    record = json.loads(pq.read_metadata(path).metadata[PART_DATA_KEY])
    assert set(record) == {"bytes", "sha256", "file"}
    old = {"bytes": record["bytes"], "sha256": record["sha256"]}
    _check_record(path, old)
    with pytest.raises(ValueError, match="corrupt data"):
        _check_record(path, {**old, "sha256": "0" * 64})
    with pytest.raises(ValueError, match="corrupt data"):
        _check_record(path, {**record, "file": "1" * 64})


def _check_record(path: Path, record: dict) -> None:
    """Verify the part at ``path`` as if its footer held the digest ``record``."""
    from uno_stats.store.verify import _check_digest

    footer = type("Footer", (), {"metadata": {PART_DATA_KEY: json.dumps(record).encode()}})
    _check_digest(path, footer())


def test_a_flipped_footer_bit_is_named_and_the_part_redone(tmp_path, reference):
    outcome = run(tmp_path)
    path = part_path(outcome.path, 4)
    data = bytearray(path.read_bytes())
    data[_footer_start(bytes(data)) + 40] ^= 0x04
    path.write_bytes(bytes(data))
    (checked,) = verified_runs(outcome.path)
    assert checked.check is not None and [b.path for b in checked.check.bad] == [path]
    assert not checked.complete
    again = run(tmp_path)
    assert any(f"redoing {path}" in note for note in again.notes)
    assert frame(again.path).equals(reference)


def test_report_and_compare_name_the_corrupt_part_in_their_error(tmp_path):
    from uno_stats.store.verify import incomplete_error

    outcome = run(tmp_path)
    path = part_path(outcome.path, 4)
    data = bytearray(path.read_bytes())
    data[_footer_start(bytes(data)) + 40] ^= 0x04
    path.write_bytes(bytes(data))
    message = incomplete_error(verified_runs(outcome.path))
    assert message is not None and "\n" not in message
    assert "incomplete run, 5 of 6 chunks" in message
    assert "part-000004.parquet failed verification: unreadable" in message

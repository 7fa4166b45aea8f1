"""Parquet parts and manifests: what the engine hands over is what polars reads back."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from helpers import run_manifest

from uno_stats.analysis.seats import deficit_win_table
from uno_stats.engine.schema import (
    CHECKPOINT_TURNS,
    CHECKPOINTS,
    COLUMNS,
    NOT_REACHED,
    STATUS_NAMES,
)
from uno_stats.errors import ResultsError
from uno_stats.store.columns import checkpoint_hands
from uno_stats.store.manifest import write_manifest
from uno_stats.store.parts import (
    arrow_table,
    count_rows,
    done_chunks,
    part_path,
    remove_stale_tmp,
    write_part,
)
from uno_stats.store.runs import open_run, open_runs

PLAYERS = 3
CHECKPOINT_NAMES = [f"hands_t{t}" for t in CHECKPOINT_TURNS]  # the list columns of old results
STORED = [c for c in COLUMNS if not c.per_checkpoint]


def fake_columns(rows: int, players: int, first_game: int = 0, seed: int = 0) -> dict:
    """Engine-shaped arrays with random values of each column's dtype and some nulls."""
    rng = np.random.default_rng(seed)
    out: dict[str, np.ndarray] = {}
    for col in COLUMNS:
        info = np.iinfo(col.dtype)  # checkpoints: hand sizes, and NOT_REACHED (255) as well
        out[col.name] = rng.integers(
            info.min, info.max, size=col.shape(rows, players), endpoint=True, dtype=col.dtype
        )
        if col.nullable:
            out[col.name + "__valid"] = rng.random(rows) < 0.6
    hands = out[CHECKPOINTS]  # a checkpoint is reached by every seat or by none
    hands[(hands[:, :, 0] == NOT_REACHED) | (rng.random(hands.shape[:2]) < 0.3)] = NOT_REACHED
    out["game"] = np.arange(first_game, first_game + rows, dtype=np.uint64)
    out["status"] = rng.integers(0, len(STATUS_NAMES), size=rows, dtype=np.uint8)
    return out


def make_run(tmp_path, columns_by_chunk: dict[int, dict]) -> None:
    for chunk, columns in columns_by_chunk.items():
        write_part(tmp_path, chunk, columns, PLAYERS)
    write_manifest(tmp_path, run_manifest("t", 50, PLAYERS))


def test_round_trip_exact_values(tmp_path):
    cols = fake_columns(50, PLAYERS, seed=1)
    make_run(tmp_path, {0: cols})
    frame = open_run(tmp_path).scan().collect()
    assert frame.columns == [*(c.name for c in STORED), CHECKPOINTS]
    assert frame.height == 50
    for col in STORED:
        got = frame[col.name]
        if col.name == "status":
            assert got.dtype == pl.String
            assert got.to_list() == [STATUS_NAMES[c] for c in cols["status"]]
            continue
        want = cols[col.name]
        if col.per_seat:
            assert got.dtype == pl.List(pl.Series(want[:, 0]).dtype)
        else:
            assert got.dtype == pl.Series(want).dtype
        valid = cols.get(col.name + "__valid", np.ones(50, dtype=bool))
        expected = [w.tolist() if v else None for w, v in zip(want, valid, strict=True)]
        assert got.to_list() == expected, col.name


def checkpoint_frame(frame: pl.DataFrame, players: int) -> pl.DataFrame:
    """Every (checkpoint, seat) read through the accessor, one column each."""
    hands = checkpoint_hands(frame.columns, players)
    return frame.select(
        h.alias(f"t{t}s{s}") for t, seats in hands.items() for s, h in enumerate(seats)
    )


def test_checkpoints_round_trip_through_one_column(tmp_path):
    cols = fake_columns(60, PLAYERS, seed=2)
    make_run(tmp_path, {0: cols})
    frame = open_run(tmp_path).scan().collect()
    assert frame.schema[CHECKPOINTS] == pl.Binary
    assert frame[CHECKPOINTS].bin.size().to_list() == [len(CHECKPOINT_TURNS) * PLAYERS] * 60
    assert (cols[CHECKPOINTS] == NOT_REACHED).any() and (cols[CHECKPOINTS] < NOT_REACHED).any()
    got = checkpoint_frame(frame, PLAYERS)
    for k, t in enumerate(CHECKPOINT_TURNS):
        reached = cols[CHECKPOINTS][:, k, 0] != NOT_REACHED
        for s in range(PLAYERS):
            held = cols[CHECKPOINTS][:, k, s]
            want = [int(h) if v else None for h, v in zip(held, reached, strict=True)]
            assert got[f"t{t}s{s}"].to_list() == want, (t, s)


def test_checkpoints_of_earlier_list_columns_read_the_same(tmp_path):
    """Results written with 20 ``hands_t*`` list columns give the same checkpoints and table."""
    cols = fake_columns(400, PLAYERS, seed=3)
    cols["winner"] = np.random.default_rng(4).integers(0, PLAYERS, 400).astype(np.int8)
    cols["status"] = np.zeros(400, dtype=np.uint8)
    packed = pl.from_arrow(arrow_table(cols, PLAYERS))
    assert isinstance(packed, pl.DataFrame)
    hands = cols[CHECKPOINTS]
    listed = packed.drop(CHECKPOINTS).with_columns(
        pl.Series(
            name,
            [row.tolist() if row[0] != NOT_REACHED else None for row in hands[:, k, :]],
            dtype=pl.List(pl.UInt8),
        )
        for k, name in enumerate(CHECKPOINT_NAMES)
    )
    assert checkpoint_frame(packed, PLAYERS).equals(checkpoint_frame(listed, PLAYERS))
    new, old = deficit_win_table(packed.lazy(), PLAYERS), deficit_win_table(listed.lazy(), PLAYERS)
    assert new.n.sum() > 0
    assert np.array_equal(new.turns, old.turns)
    assert np.array_equal(new.n, old.n) and np.array_equal(new.wins, old.wins)


def test_checkpoints_without_any_column_is_empty():
    assert checkpoint_hands(["game", "winner"], 4) == {}


def test_checkpoint_bytes_of_the_wrong_shape_or_type_rejected(tmp_path):
    cols = fake_columns(5, PLAYERS)
    cols[CHECKPOINTS] = cols[CHECKPOINTS].astype(np.uint16)  # would wrap a hand of 300
    with pytest.raises(ResultsError, match="hand_checkpoints: uint16"):
        write_part(tmp_path, 0, cols, PLAYERS)
    cols[CHECKPOINTS] = fake_columns(5, PLAYERS + 1)[CHECKPOINTS]
    with pytest.raises(ResultsError, match=r"hand_checkpoints: uint8 \(5, 20, 4\)"):
        write_part(tmp_path, 0, cols, PLAYERS)


def test_hand_above_a_byte_is_stored_in_the_u16_columns(tmp_path):
    # RULES.md S19: with several decks a hand can pass 255 cards; u16 columns hold it (the
    # checkpoint bytes cannot: the engine refuses such a round, tests/engine/test_simulate.py)
    cols = fake_columns(5, PLAYERS)
    assert cols["hand_sizes"].dtype == np.uint16
    cols["hand_sizes"][0, 0] = 300
    make_run(tmp_path, {0: cols})
    sizes = open_run(tmp_path).scan().select("hand_sizes").collect()["hand_sizes"]
    assert sizes[0][0] == 300


def test_parts_read_together_in_chunk_order(tmp_path):
    make_run(tmp_path, {1: fake_columns(7, PLAYERS, first_game=7), 0: fake_columns(7, PLAYERS)})
    run = open_run(tmp_path)
    assert [p.name for p in run.part_files()] == ["part-000000.parquet", "part-000001.parquet"]
    assert run.scan().select("game").collect()["game"].to_list() == list(range(14))
    assert done_chunks(tmp_path) == {0, 1}
    assert count_rows(tmp_path) == 14
    glob = pl.scan_parquet(str(tmp_path / "**/*.parquet")).select(pl.len()).collect().item()
    assert glob == 14


def test_write_is_atomic_and_stale_tmp_ignored(tmp_path):
    path = write_part(tmp_path, 3, fake_columns(5, PLAYERS), PLAYERS)
    assert path == part_path(tmp_path, 3)
    assert [p.name for p in path.parent.iterdir()] == ["part-000003.parquet"]
    stale = path.parent / ".part-000004.parquet.123.tmp"
    stale.write_bytes(b"half a file")
    assert done_chunks(tmp_path) == {3}
    remove_stale_tmp(tmp_path)
    assert not stale.exists()


def test_missing_column_and_bad_shape_rejected(tmp_path):
    cols = fake_columns(4, PLAYERS)
    del cols["turns"]
    with pytest.raises(ResultsError, match="turns"):
        write_part(tmp_path, 0, cols, PLAYERS)
    cols = fake_columns(4, PLAYERS)
    with pytest.raises(ResultsError, match="hand_sizes"):
        write_part(tmp_path, 0, cols, PLAYERS + 1)
    assert not (tmp_path / "parts").exists() or done_chunks(tmp_path) == set()


def test_open_runs_errors(tmp_path):
    with pytest.raises(ResultsError, match="no such results folder"):
        open_runs(tmp_path / "nope")
    with pytest.raises(ResultsError, match="not a results folder"):
        open_runs(tmp_path)
    write_manifest(tmp_path, run_manifest("t", 10, 2))
    with pytest.raises(ResultsError, match="empty results folder"):
        open_runs(tmp_path)


def test_deficit_table_does_not_depend_on_batch_size(monkeypatch):
    from uno_stats.analysis import seats

    cols = fake_columns(500, PLAYERS, seed=5)
    cols["winner"] = np.random.default_rng(6).integers(0, PLAYERS, 500).astype(np.int8)
    cols["status"] = np.zeros(500, dtype=np.uint8)
    frame = pl.from_arrow(arrow_table(cols, PLAYERS))
    assert isinstance(frame, pl.DataFrame)
    whole = deficit_win_table(frame.lazy(), PLAYERS)
    monkeypatch.setattr(seats, "CHECKPOINT_BATCH", 7)
    batched = deficit_win_table(frame.lazy(), PLAYERS)
    assert whole.n.sum() > 0
    for field in ("turns", "deficits", "n", "wins"):
        assert np.array_equal(getattr(whole, field), getattr(batched, field)), field


# --- the manifest checks its recorded scenario ---------------------------------------------


def _edited_manifest(tmp_path, edit) -> Path:
    """A run folder's manifest (as the planner writes it) after ``edit`` of its JSON."""
    import json

    from uno_stats.run.plan import new_manifest
    from uno_stats.scenario.load import parse_scenario

    manifest = new_manifest(parse_scenario("name: m\nplayers: 4\ngames: 1000\nseed: 7\n"), 250)
    write_manifest(tmp_path, manifest)
    data = json.loads((tmp_path / "manifest.json").read_text())
    edit(data)
    (tmp_path / "manifest.json").write_text(json.dumps(data))
    return tmp_path


def test_an_unedited_manifest_reads_back(tmp_path):
    from uno_stats.store.manifest import read_run_manifest

    folder = _edited_manifest(tmp_path, lambda d: None)
    assert read_run_manifest(folder).scenario.players == 4


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda d: d["scenario"].update(players=5), "scenario.players does not match"),
        (
            lambda d: d["scenario"]["rules"].update(stack_draw_two=True),
            "scenario.rules.stack_draw_two does not match",
        ),
        (lambda d: d["scenario"].update(seed=8, games=1000), "'seed' is 7 but the recorded"),
        (lambda d: d.update(chunks=3), "'chunks' 3 does not match 1,000 games in chunks of 250"),
        (lambda d: d.update(chunk_size=500, chunks=2), "'version' or 'engine_hash' does not"),
        (  # a manifest of an earlier version records no field digests: the check still holds
            lambda d: d.update(scenario_fields=None) or d["scenario"].update(players=5),
            "the recorded scenario, 'chunk_size', 'version' or 'engine_hash' does not match",
        ),
    ],
    ids=["players", "rule", "seed", "chunks", "chunk size", "no digests"],
)
def test_an_edited_manifest_is_one_line_naming_the_field(tmp_path, edit, named):
    """The issue's case: players 4 -> 5 in manifest.json made summary report 5 players."""
    from uno_stats.store.manifest import read_run_manifest

    folder = _edited_manifest(tmp_path, edit)
    with pytest.raises(ResultsError, match=re.escape(named)) as info:
        read_run_manifest(folder)
    assert "\n" not in str(info.value) and "rerun with --fresh" in str(info.value)


def test_manifest_key_types_follow_the_dataclasses():
    """The keys a manifest must have, and their JSON types, are the dataclass fields'."""
    from dataclasses import fields

    from uno_stats.store.manifest import Manifest, PointFoldersManifest, SweepManifest, json_types

    keys, optional = json_types(Manifest)
    expected = {f.name for f in fields(Manifest)} - {"source", "scenario_data"} | {"scenario"}
    assert set(keys) == expected and optional == {"scenario_fields", "numba_patches"}
    assert keys["games_per_s"] == (int, float, type(None)) and keys["complete"] == (bool,)
    keys, optional = json_types(PointFoldersManifest)
    assert set(keys) == {f.name for f in fields(PointFoldersManifest)} - {"source"}
    assert optional == {"design"}  # folders written before designs have none
    keys, optional = json_types(SweepManifest)
    expected = {f.name for f in fields(SweepManifest)} - {"source", "scenario_data"} | {"scenario"}
    assert set(keys) == expected and optional == frozenset()


def test_a_mistyped_manifest_key_is_refused(tmp_path):
    from uno_stats.store.manifest import read_run_manifest

    folder = _edited_manifest(tmp_path, lambda d: d.update(rows="many"))
    with pytest.raises(ResultsError, match="manifest key 'rows' must be int"):
        read_run_manifest(folder)
    folder = _edited_manifest(tmp_path, lambda d: d.pop("rows"))
    with pytest.raises(ResultsError, match="manifest has no 'rows'"):
        read_run_manifest(folder)

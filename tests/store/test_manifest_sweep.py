"""The manifest of a sweep dataset (:class:`SweepManifest`) written and read back exactly, and
every edit of it refused with its own one-line error; a recorded scenario that is not valid
(engine-free)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import pytest
from helpers import run_manifest, sweep_manifest

from uno_stats.errors import ResultsError
from uno_stats.store.manifest import (
    EDITED,
    MANIFEST,
    Manifest,
    SweepManifest,
    read_manifest,
    scenario_hash,
    write_manifest,
)

Dataset = TypeVar("Dataset", Manifest, SweepManifest)
ONE_POINT = "name: one\nplayers: 3\ngames: 4\nseed: 4\nsweep:\n  players: [3]\n"


def refused(folder: Path) -> str:
    with pytest.raises(ResultsError) as info:
        read_manifest(folder)
    return str(info.value)


def rehashed(m: Dataset, **changes: object) -> Dataset:
    """``m`` with ``changes`` and the configuration hash they give (no edit to be found)."""
    m = replace(m, **changes)  # type: ignore[arg-type]
    return replace(
        m, config_hash=scenario_hash(m.scenario_data, m.chunk_size, m.version, m.engine_hash)
    )


def test_a_sweep_dataset_manifest_round_trips(tmp_path: Path) -> None:
    m = replace(sweep_manifest(25), chunks_done=2, rows=35, wall_time_s=3, games_per_s=2)
    write_manifest(tmp_path, m)
    data = json.loads((tmp_path / MANIFEST).read_text())
    assert (data["sweep"], data["layout"]) == (True, "dataset")
    assert "source" not in data and "scenario_data" not in data
    assert data["scenario"] == m.scenario_data
    back = read_manifest(tmp_path)
    assert isinstance(back, SweepManifest) and back == m
    assert back.source == tmp_path / MANIFEST and isinstance(back.wall_time_s, float)
    assert back.scenario.point_count == 6


def test_a_one_point_sweep_in_chunks_of_one_game_is_a_valid_plan(tmp_path: Path) -> None:
    m = sweep_manifest(1, ONE_POINT)
    assert (m.points, m.chunk_size, m.chunks) == (1, 1, 4)
    write_manifest(tmp_path, m)
    assert read_manifest(tmp_path) == m


def test_a_missing_key_names_the_manifest(tmp_path: Path) -> None:
    data = sweep_manifest(25).to_json()
    del data["points"]
    (tmp_path / MANIFEST).write_text(json.dumps(data))
    assert (
        refused(tmp_path) == f"{tmp_path / MANIFEST}: manifest has no 'points'; rerun with --fresh"
    )


def test_an_edited_top_level_copy_names_the_manifest(tmp_path: Path) -> None:
    write_manifest(tmp_path, replace(sweep_manifest(25), seed=5))
    assert refused(tmp_path) == (
        f"{tmp_path / MANIFEST}: 'seed' is 5 but the recorded scenario says 4: the manifest "
        f"was edited; {EDITED}"
    )


@pytest.mark.parametrize(
    ("changes", "counts"),
    [
        ({"chunks": 4}, "'chunks' 4 does not match 6 points of 10 games in chunks of 25"),
        (
            {"chunks": 0, "points": 0},
            "'chunks' 0 does not match 0 points of 10 games in chunks of 25",
        ),
        ({"chunk_size": 0}, "'chunks' 3 does not match 6 points of 10 games in chunks of 0"),
    ],
)
def test_counts_that_do_not_plan_the_chunks_are_an_edit(
    tmp_path: Path, changes: dict[str, int], counts: str
) -> None:
    """Each is refused on its own (the configuration hash is the one the counts give)."""
    write_manifest(tmp_path, rehashed(sweep_manifest(25), **changes))
    assert (
        refused(tmp_path) == f"{tmp_path / MANIFEST}: {counts}: the manifest was edited; {EDITED}"
    )


def test_an_edited_recorded_scenario_is_refused(tmp_path: Path) -> None:
    m = sweep_manifest(25)
    write_manifest(tmp_path, replace(m, scenario_data={**m.scenario_data, "description": "x"}))
    assert refused(tmp_path) == (
        f"{tmp_path / MANIFEST}: the recorded scenario, 'chunk_size', 'version' or "
        f"'engine_hash' does not match the folder's config_hash {m.config_hash} (the parts "
        f"were played with other values): the manifest was edited; {EDITED}"
    )


def test_a_sweep_of_an_unknown_layout_is_refused(tmp_path: Path) -> None:
    data = sweep_manifest(25).to_json() | {"layout": "rows"}
    (tmp_path / MANIFEST).write_text(json.dumps(data))
    assert refused(tmp_path) == (
        f"{tmp_path / MANIFEST}: a sweep of layout 'rows', which this version of uno-stats does "
        "not know: read it with the version that wrote it, or rerun it"
    )


@pytest.mark.parametrize("kind", ["run", "sweep"])
def test_a_recorded_scenario_that_is_not_valid_names_the_manifest(
    tmp_path: Path, kind: str
) -> None:
    """Consistent with its hash (so read), but not a scenario the tool accepts: the error
    names the manifest, and the scenario's own error its part of it."""
    m = sweep_manifest(25) if kind == "sweep" else run_manifest("s", 10, seed=4)
    write_manifest(tmp_path, rehashed(m, scenario_data={**m.scenario_data, "players": 99}))
    back = read_manifest(tmp_path)
    path = tmp_path / MANIFEST
    for where, manifest in ((path, back), (MANIFEST, replace(back, source=None))):
        with pytest.raises(ResultsError) as info:
            _ = manifest.scenario
        text = str(info.value)
        assert text.startswith(f"{where}: the recorded scenario is not valid: {where} (scenario)")
        assert "players" in text and "\n" not in text

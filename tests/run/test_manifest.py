"""The run model: manifest.json written and read back exactly, and every malformed manifest
refused with its own one-line error (engine-free)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import run_manifest

from uno_stats.errors import ResultsError
from uno_stats.run.manifest import (
    MANIFEST,
    Manifest,
    SweepManifest,
    json_types,
    read_manifest,
    read_run_manifest,
    write_json,
    write_manifest,
)


def sweep() -> SweepManifest:
    return SweepManifest(
        "s", "0.1.0", 7, 300, {"players": [2, 3]}, ["players=2", "players=3"], "h" * 16
    )


def test_a_run_manifest_round_trips(tmp_path: Path) -> None:
    m = replace(run_manifest("t", 250), run_id="r" * 16, wall_time_s=2, games_per_s=125)
    write_manifest(tmp_path, m)
    text = (tmp_path / MANIFEST).read_text()
    assert text.endswith("}\n") and text.startswith('{\n  "name": "t",\n')
    data = json.loads(text)
    assert "scenario_data" not in data and "source" not in data
    assert data["scenario"] == m.scenario_data
    back = read_run_manifest(tmp_path)
    assert back == m and back.source == tmp_path / MANIFEST
    assert isinstance(back.wall_time_s, float) and back.wall_time_s == 2.0
    assert isinstance(back.games_per_s, float) and back.games_per_s == 125.0
    assert back.scenario.name == "t" and back.scenario.games == 250
    assert list(tmp_path.iterdir()) == [tmp_path / MANIFEST]  # no temporary file left


def test_a_sweep_manifest_round_trips(tmp_path: Path) -> None:
    s = sweep()
    write_manifest(tmp_path, s)
    data = json.loads((tmp_path / MANIFEST).read_text())
    assert data["sweep"] is True and "source" not in data
    back = read_manifest(tmp_path)
    assert isinstance(back, SweepManifest) and back == s and back.games_per_s is None
    assert isinstance(back.wall_time_s, float) and back.source == tmp_path / MANIFEST
    with pytest.raises(ResultsError, match=r": a sweep folder, not a single run$"):
        read_run_manifest(tmp_path)
    write_manifest(tmp_path, replace(s, games_per_s=5))
    rate = read_manifest(tmp_path)
    assert isinstance(rate, SweepManifest) and rate.games_per_s == 5.0
    assert isinstance(rate.games_per_s, float)
    del data["axes"]
    write_raw(tmp_path, data)
    with pytest.raises(ResultsError) as info:
        read_manifest(tmp_path)
    assert str(info.value) == f"{tmp_path / MANIFEST}: manifest has no 'axes'; rerun with --fresh"


def test_display_name() -> None:
    m = run_manifest("t", 10)
    assert m.display_name == "t"
    assert replace(m, sweep_label="players=2").display_name == "t[players=2]"


def write_raw(folder: Path, data: object) -> None:
    (folder / MANIFEST).write_text(json.dumps(data))


def _required_keys() -> list[str]:
    keys, optional = json_types(Manifest)
    return [k for k in keys if k not in optional]


@pytest.mark.parametrize("key", _required_keys())
def test_every_key_of_a_run_manifest_is_required(tmp_path: Path, key: str) -> None:
    data = run_manifest("t", 10).to_json()
    del data[key]
    write_raw(tmp_path, data)
    with pytest.raises(ResultsError) as info:
        read_manifest(tmp_path)
    assert str(info.value) == f"{tmp_path / MANIFEST}: manifest has no {key!r}; rerun with --fresh"


@pytest.mark.parametrize(
    ("key", "value", "kinds"),
    [
        ("seed", "1", "int"),
        ("seed", True, "int"),  # JSON true is no number
        ("name", True, "str"),  # nor a string
        ("name", None, "str"),
        ("sweep_label", 3, "str or null"),
        ("wall_time_s", "fast", "int or float"),
        ("games_per_s", [], "int or float or null"),
        ("complete", 1, "bool"),
    ],
)
def test_a_mistyped_key_is_refused(tmp_path: Path, key: str, value: object, kinds: str) -> None:
    data = run_manifest("t", 10).to_json()
    data[key] = value
    write_raw(tmp_path, data)
    with pytest.raises(ResultsError) as info:
        read_manifest(tmp_path)
    assert str(info.value) == (
        f"{tmp_path / MANIFEST}: manifest key {key!r} must be {kinds}; rerun with --fresh"
    )


def test_a_bool_is_kept_where_a_bool_is_allowed(tmp_path: Path) -> None:
    data = run_manifest("t", 10).to_json() | {"complete": True}
    write_raw(tmp_path, data)
    assert read_run_manifest(tmp_path).complete is True


@pytest.mark.parametrize("points", [["ok", ""], ["a/b"], [3]])
def test_sweep_points_must_be_folder_names(tmp_path: Path, points: list) -> None:
    write_raw(tmp_path, sweep().to_json() | {"points": points})
    with pytest.raises(ResultsError, match=r"manifest key 'points' must list folder names$"):
        read_manifest(tmp_path)


def test_a_sweep_flag_other_than_true_reads_as_a_run(tmp_path: Path) -> None:
    write_raw(tmp_path, sweep().to_json() | {"sweep": 1})
    with pytest.raises(ResultsError, match=r"manifest has no 'scenario'"):
        read_manifest(tmp_path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "{folder}: not a results folder (no manifest.json)"),
        (b"{not json", "{path}: unreadable manifest ("),
        (b"\xff\xfe", "{path}: unreadable manifest ("),
        (b"[1, 2]", "{path}: not a manifest (a JSON object was expected)"),
    ],
)
def test_unreadable_manifests(tmp_path: Path, content: bytes | None, message: str) -> None:
    if content is not None:
        (tmp_path / MANIFEST).write_bytes(content)
    with pytest.raises(ResultsError) as info:
        read_manifest(tmp_path)
    text = str(info.value)
    assert text.startswith(message.format(folder=tmp_path, path=tmp_path / MANIFEST))
    assert "\n" not in text
    if content is not None and content != b"[1, 2]":
        assert text.endswith(
            "); rerun the same run command to rebuild it from the parts, or rerun with --fresh"
        )


def test_a_manifest_that_cannot_be_read_names_the_os_error(tmp_path: Path) -> None:
    (tmp_path / MANIFEST).mkdir()
    with pytest.raises(ResultsError, match=r"manifest.json: unreadable manifest \(a folder\); "):
        read_manifest(tmp_path)


def test_an_edited_recorded_scenario_is_a_results_error_naming_the_field(tmp_path: Path) -> None:
    m = run_manifest("t", 10)
    write_manifest(tmp_path, replace(m, scenario_data={**m.scenario_data, "players": 99}))
    with pytest.raises(ResultsError) as info:
        _ = read_run_manifest(tmp_path).scenario
    assert str(info.value).startswith(f"{tmp_path / MANIFEST}: scenario.players does not match")
    assert str(info.value).endswith("rerun with --fresh to start over")


def test_write_json_is_atomic_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    write_json(path, {"b": 1, "a": Path("p")})
    assert path.read_text() == '{\n  "b": 1,\n  "a": "p"\n}\n'
    loop: dict = {}
    loop["self"] = loop
    with pytest.raises(ValueError, match="Circular reference"):
        write_json(path, loop)  # fails while writing the temporary file: nothing replaced
    assert json.loads(path.read_text()) == {"b": 1, "a": "p"}
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]

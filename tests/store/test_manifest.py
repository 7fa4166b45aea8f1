"""The run model: manifest.json written and read back exactly, and every malformed manifest
refused with its own one-line error (engine-free)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import run_manifest

from uno_stats.errors import ResultsError
from uno_stats.store import manifest as manifest_module
from uno_stats.store.manifest import (
    MANIFEST,
    Manifest,
    PointFoldersManifest,
    field_digests,
    json_types,
    read_manifest,
    read_run_manifest,
    scenario_hash,
    write_json,
    write_manifest,
)


def sweep() -> PointFoldersManifest:
    return PointFoldersManifest(
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
    assert isinstance(back, PointFoldersManifest) and back == s and back.games_per_s is None
    assert isinstance(back.wall_time_s, float) and back.source == tmp_path / MANIFEST
    with pytest.raises(ResultsError, match=r": a sweep folder, not a single run$"):
        read_run_manifest(tmp_path)
    write_manifest(tmp_path, replace(s, games_per_s=5))
    rate = read_manifest(tmp_path)
    assert isinstance(rate, PointFoldersManifest) and rate.games_per_s == 5.0
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


def test_the_config_hash_of_a_scenario_is_stable() -> None:
    """Folders on disk record this hash: the same scenario, chunk size, version and engine
    must always give the same 16 hex digits (else every earlier folder reads as edited)."""
    data = {"name": "t", "players": 3, "rules": {"preset": "x"}, "source": "t.yaml"}
    digest = scenario_hash(data, 100, "0.1.0", "e" * 16)
    assert digest == "540e91d6d425ce02"
    # the key order and the scenario file's path do not count
    shuffled = {"rules": {"preset": "x"}, "players": 3, "name": "t"}
    assert scenario_hash(shuffled, 100, "0.1.0", "e" * 16) == digest
    # each of the four inputs does
    others = [
        scenario_hash({**data, "players": 4}, 100, "0.1.0", "e" * 16),
        scenario_hash(data, 200, "0.1.0", "e" * 16),
        scenario_hash(data, 100, "0.2.0", "e" * 16),
        scenario_hash(data, 100, "0.1.0", "f" * 16),
    ]
    assert digest not in others and len(set(others)) == 4
    # a value JSON cannot hold (a path) hashes as its text
    with_path = scenario_hash({**data, "deck": Path("d.yaml")}, 100, "0.1.0", "e" * 16)
    assert with_path == scenario_hash({**data, "deck": "d.yaml"}, 100, "0.1.0", "e" * 16)


def test_field_digests_name_every_field_but_the_source() -> None:
    data = {"source": "t.yaml", "players": 3, "rules": {"preset": "x", "hand": 7}, "seats": [1]}
    digests = field_digests(data)
    assert sorted(digests) == ["players", "rules.hand", "rules.preset", "seats"]
    assert all(len(d) == 8 and int(d, 16) >= 0 for d in digests.values())
    assert digests["players"] == hashlib.sha256(b"3").hexdigest()[:8]
    assert field_digests({**data, "players": 4})["players"] != digests["players"]


def test_json_types_are_derived_from_the_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """Computed afresh (the cache emptied), not as an earlier call left them."""
    monkeypatch.setattr(manifest_module, "_KEY_TYPES", {})
    keys, optional = json_types(Manifest)
    assert "scenario" in keys and "scenario_data" not in keys and "source" not in keys
    assert keys["wall_time_s"] == (int, float)  # a float field takes any JSON number
    assert keys["games_per_s"] == (int, float, type(None))
    assert keys["sweep_label"] == (str, type(None)) and keys["seed"] == (int,)
    assert optional == {"scenario_fields", "numba_patches"}
    assert list(keys)[-2:] == ["scenario_fields", "numba_patches"]
    sweep_keys, sweep_optional = json_types(PointFoldersManifest)
    assert sweep_optional == {"design"} and "source" not in sweep_keys
    assert json_types(Manifest) is manifest_module._KEY_TYPES[Manifest]  # cached now


def test_a_whole_number_of_seconds_reads_back_as_a_float(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(manifest_module, "_KEY_TYPES", {})
    write_manifest(tmp_path, replace(run_manifest("t", 10), wall_time_s=3, games_per_s=2))
    back = read_run_manifest(tmp_path)
    assert (back.wall_time_s, back.games_per_s) == (3.0, 2.0)
    assert isinstance(back.wall_time_s, float) and isinstance(back.games_per_s, float)


@pytest.mark.parametrize("patches", [[1], ["no-negative-index-wrap", None]])
def test_numba_patches_must_list_names(tmp_path: Path, patches: object) -> None:
    write_raw(tmp_path, run_manifest("t", 10).to_json() | {"numba_patches": patches})
    with pytest.raises(ResultsError) as info:
        read_manifest(tmp_path)
    assert str(info.value) == (
        f"{tmp_path / MANIFEST}: manifest key 'numba_patches' must list patch names"
    )


def test_a_manifest_without_numba_patches_or_field_digests_reads(tmp_path: Path) -> None:
    """Manifests of earlier versions have neither key."""
    data = run_manifest("t", 10).to_json()
    assert data["numba_patches"]
    write_raw(tmp_path, data)
    assert read_run_manifest(tmp_path).numba_patches == data["numba_patches"]
    del data["numba_patches"], data["scenario_fields"]
    write_raw(tmp_path, data)
    back = read_run_manifest(tmp_path)
    assert back.numba_patches is None and back.scenario_fields is None
    write_raw(tmp_path, data | {"numba_patches": None})
    assert read_run_manifest(tmp_path).numba_patches is None


def test_a_missing_optional_key_does_not_skip_the_check_of_the_next(tmp_path: Path) -> None:
    data = run_manifest("t", 10).to_json() | {"numba_patches": "no-negative-index-wrap"}
    del data["scenario_fields"]
    write_raw(tmp_path, data)
    with pytest.raises(ResultsError) as info:
        read_manifest(tmp_path)
    assert str(info.value) == (
        f"{tmp_path / MANIFEST}: manifest key 'numba_patches' must be list or null; rerun with "
        "--fresh"
    )


def test_an_edited_top_level_copy_names_both_values(tmp_path: Path) -> None:
    write_manifest(tmp_path, replace(run_manifest("t", 10), seed=2))
    with pytest.raises(ResultsError) as info:
        read_manifest(tmp_path)
    assert str(info.value) == (
        f"{tmp_path / MANIFEST}: 'seed' is 2 but the recorded scenario says 1: the manifest "
        "was edited; restore it, or rerun with --fresh to start over"
    )


def test_a_chunk_size_of_one_is_a_valid_plan(tmp_path: Path) -> None:
    m = run_manifest("t", 3)
    config = scenario_hash(m.scenario_data, 1, m.version, m.engine_hash)
    write_manifest(tmp_path, replace(m, chunk_size=1, chunks=3, config_hash=config))
    assert read_run_manifest(tmp_path).chunk_size == 1
    write_manifest(tmp_path, replace(m, chunk_size=0, chunks=3, config_hash=config))
    with pytest.raises(ResultsError, match=r": 'chunks' 3 does not match 3 games in chunks of 0"):
        read_manifest(tmp_path)


@pytest.mark.parametrize(
    ("edits", "named"),
    [
        ({"extra": 1}, "scenario.extra"),  # a field the recorded scenario did not have
        (
            {"description": "x", "extra": 1, "more": 2},
            "scenario.description, scenario.extra, scenario.more",
        ),
        (
            {"description": "x", "extra": 1, "more": 2, "players": 9},
            "scenario.description, scenario.extra, scenario.more (and 1 more)",
        ),
        (
            {"description": "x", "extra": 1, "more": 2, "other": 3, "players": 9},
            "scenario.description, scenario.extra, scenario.more (and 2 more)",
        ),
    ],
)
def test_the_edited_fields_are_named_three_at_most(tmp_path: Path, edits: dict, named: str) -> None:
    m = run_manifest("t", 10)
    write_manifest(tmp_path, replace(m, scenario_data={**m.scenario_data, **edits}))
    with pytest.raises(ResultsError) as info:
        read_manifest(tmp_path)
    assert str(info.value) == (
        f"{tmp_path / MANIFEST}: {named} does not match the folder's config_hash "
        f"{m.config_hash} (the parts were played with other values): the manifest was edited; "
        "restore it, or rerun with --fresh to start over"
    )


@pytest.mark.parametrize(
    ("error", "said"),
    [(PermissionError(13, "Permission denied"), "Permission denied"), (OSError("boom"), "boom")],
)
def test_a_manifest_the_os_cannot_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: OSError, said: str
) -> None:
    write_manifest(tmp_path, run_manifest("t", 10))

    def refuse(path: object, limit: int) -> bytes:
        raise error

    monkeypatch.setattr(manifest_module, "read_bounded", refuse)
    with pytest.raises(ResultsError) as info:
        read_manifest(tmp_path)
    assert str(info.value) == f"{tmp_path / MANIFEST}: cannot read ({said})"


def test_a_full_disk_rewrites_the_manifest_in_place(tmp_path, monkeypatch):
    """No room for the temporary file: the old manifest's own blocks take the new text
    (a run's manifest then still counts the parts a full disk left, tests/run/test_faults)."""
    import errno

    from uno_stats.store.manifest import write_json

    path = tmp_path / "manifest.json"
    write_json(path, {"chunks_done": 2, "pad": "x" * 100})
    opened = Path.open

    def full(self, mode="r", *args, **kwargs):
        if self.name.endswith(".tmp"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return opened(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", full)
    write_json(path, {"chunks_done": 4, "pad": "x" * 100})
    assert json.loads(path.read_text()) == {"chunks_done": 4, "pad": "x" * 100}
    with pytest.raises(OSError, match="No space"):  # no old file to reuse
        write_json(tmp_path / "other.json", {"chunks_done": 1})
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))


def test_a_full_disk_rewrites_in_place_only_what_fits_the_old_blocks(tmp_path, monkeypatch):
    """Exactly the old file's blocks (``st_blocks`` of 512 bytes) are reused; one byte more is
    the full disk's error, the old manifest left as it was."""
    import errno

    path = tmp_path / "manifest.json"
    write_json(path, {"pad": "x" * 100})
    held = path.stat().st_blocks * 512
    empty = len(json.dumps({"pad": ""}, indent=2) + "\n")
    opened = Path.open

    def full(self, mode="r", *args, **kwargs):
        if self.name.endswith(".tmp"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return opened(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", full)
    fits = {"pad": "y" * (held - empty)}
    write_json(path, fits)
    assert json.loads(path.read_text()) == fits and path.stat().st_size == held
    with pytest.raises(OSError, match="No space"):
        write_json(path, {"pad": "z" * (held - empty + 1)})
    assert json.loads(path.read_text()) == fits

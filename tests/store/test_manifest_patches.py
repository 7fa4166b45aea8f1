"""A run's manifest records the numba patches its engine compiled with; the engine hash too."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_stats.engine import numba_patches
from uno_stats.errors import ResultsError
from uno_stats.run.plan import engine_hash, new_manifest
from uno_stats.scenario.load import load_scenario
from uno_stats.store.manifest import Manifest

ROOT = Path(__file__).resolve().parents[2]


def _manifest() -> Manifest:
    return new_manifest(load_scenario(ROOT / "scenarios" / "mattel-2022-4p.yaml"), 1000)


def test_the_manifest_records_the_selected_patches(monkeypatch, tmp_path):
    monkeypatch.delenv(numba_patches.SWITCH, raising=False)
    manifest = _manifest()
    assert manifest.numba_patches == list(numba_patches.PATCHES)
    data = manifest.to_json()
    assert data["numba_patches"] == list(numba_patches.PATCHES)
    assert Manifest.from_json(data, tmp_path / "manifest.json") == manifest


def test_patches_off_are_recorded_and_change_the_engine_hash(monkeypatch):
    monkeypatch.delenv(numba_patches.SWITCH, raising=False)
    on = engine_hash()
    monkeypatch.setenv(numba_patches.SWITCH, "0")
    manifest = _manifest()
    assert manifest.numba_patches == [] and manifest.engine_hash == engine_hash() != on


def test_an_older_manifest_without_the_key_reads_as_not_recorded(tmp_path):
    data = _manifest().to_json()
    del data["numba_patches"]
    assert Manifest.from_json(data, tmp_path / "manifest.json").numba_patches is None


@pytest.mark.parametrize("value", ["no-negative-index-wrap", [1], {"a": 1}])
def test_a_mistyped_patch_list_is_refused(tmp_path, value):
    data = {**_manifest().to_json(), "numba_patches": value}
    with pytest.raises(
        ResultsError, match=r"'numba_patches' must (be list or null|list patch names)"
    ):
        Manifest.from_json(data, tmp_path / "manifest.json")

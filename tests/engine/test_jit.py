"""The compile notice: said once on a cold cache with the last measured time and the time it
took, never when warm; the cache folder follows the engine hash."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from uno_stats import engine
from uno_stats.cli import app
from uno_stats.engine import jit, numba_patches


@pytest.fixture
def fake_cache(monkeypatch, tmp_path) -> Path:
    """A cache folder of our own and an engine whose warm-up does nothing (no compile)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    calls: list[int] = []
    monkeypatch.setattr(engine, "warm_up", lambda: calls.append(1))
    return tmp_path / "cache"


def test_cold_cache_notice_then_remembered_time(fake_cache):
    heard: list[str] = []
    assert not jit.engine_is_cached()
    seconds = jit.ensure_compiled(heard.append)
    assert seconds is not None and seconds >= 0
    assert heard == [
        f"Compiling the engine once (about {jit.COMPILE_ESTIMATE_S} s) ...",
        f"... done in {round(seconds)} s",
    ]
    recorded = float((fake_cache / "last-compile-seconds").read_text())
    assert recorded == pytest.approx(seconds, abs=0.05)
    assert jit.compile_estimate_s() == max(1, round(recorded))


def test_estimate_quotes_the_last_compile(fake_cache):
    (fake_cache / "last-compile-seconds").write_text("41.6\n")
    heard: list[str] = []
    jit.ensure_compiled(heard.append)
    assert heard[0] == "Compiling the engine once (about 42 s) ..."
    assert heard[1].startswith("... done in ") and len(heard) == 2


def test_warm_cache_says_nothing(fake_cache):
    index = jit.engine_cache_dir() / "engine_abc" / f"{jit.ENTRY_POINT}-180.py311.nbi"
    index.parent.mkdir(parents=True)
    index.write_bytes(b"")
    assert jit.engine_is_cached()
    heard: list[str] = []
    assert jit.ensure_compiled(heard.append) is None
    assert heard == []


def test_run_prints_the_notice_on_stderr_when_cold(monkeypatch, tmp_path):
    """`uno-stats run` on a cold cache: the notice first, on stderr, once; stdout untouched."""
    engine.warm_up()  # the engine's code from the real cache: only the notice's record moves
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(jit, "engine_is_cached", lambda: False)
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nplayers: 3\ngames: 300\nseed: 1\nrules:\n  preset: mattel-2022\n")
    result = CliRunner().invoke(app, ["run", str(scenario), "-o", str(tmp_path), "-w", "1", "-q"])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("Compiling the engine once") == 1
    assert result.stderr.count("... done in ") == 1
    assert "Compiling" not in result.stdout


def test_cache_folder_follows_the_patches(monkeypatch, tmp_path):
    """Code compiled with the numba patches off never loads where code with them on lives."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(numba_patches.SWITCH, raising=False)
    on = jit.engine_cache_dir()
    monkeypatch.setenv(numba_patches.SWITCH, "0")
    off = jit.engine_cache_dir()
    assert on != off and on.parent == off.parent == tmp_path
    assert jit.engine_hash() == off.name and len(off.name) == 16

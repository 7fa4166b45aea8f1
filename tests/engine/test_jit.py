"""The compile notice: said once on a cold cache with the last measured time, never when warm."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from uno_stats import engine
from uno_stats.cli import app
from uno_stats.engine import jit


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
    assert heard == [f"Compiling the engine once (about {jit.COMPILE_ESTIMATE_S} s) ..."]
    recorded = float((fake_cache / "last-compile-seconds").read_text())
    assert recorded == pytest.approx(seconds, abs=0.05)
    assert jit.compile_estimate_s() == max(1, round(recorded))


def test_estimate_quotes_the_last_compile(fake_cache):
    (fake_cache / "last-compile-seconds").write_text("41.6\n")
    heard: list[str] = []
    jit.ensure_compiled(heard.append)
    assert heard == ["Compiling the engine once (about 42 s) ..."]


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
    assert "Compiling" not in result.stdout


def test_signed_index_compiles_without_wrap_around():
    """Once the engine prepares to compile, a negative signed index is out of bounds (bounds
    checks on: IndexError) instead of counting from the end; an unsigned index and slices
    behave as before, and the patch is applied once."""
    import numba
    import numpy as np
    from numba.np import arrayobj

    jit._prepare_to_compile()
    patched = arrayobj.fix_integer_index
    assert getattr(patched, "_uno_stats_no_wrap", False)
    jit._no_negative_index_wrap()
    assert arrayobj.fix_integer_index is patched

    @numba.njit(boundscheck=True)
    def item(a, i):
        return a[i]

    @numba.njit
    def tail(a, i):
        return a[i:]

    values = np.arange(5)
    assert item(values, np.int64(3)) == 3 and item(values, np.uint64(4)) == 4
    with pytest.raises(IndexError):
        item(values, np.int64(-1))  # numba's own rule would give values[4]
    assert list(tail(values, np.int64(-2))) == [3, 4]


_CACHED_MODULE = """
import numpy as np
from uno_stats.engine.jit import engine_jit


@engine_jit
def item(a, i):
    return a[i]
"""

_LOAD = (
    "import sys\n"
    "import numpy as np\n"
    "import cached_item\n"
    "from uno_stats.engine import jit\n"
    "value = int(cached_item.item(np.arange(5), np.int64(3)))\n"
    "prepared = jit._prepare_to_compile.cache_info().currsize == 1\n"
    "print(value, prepared,\n"
    "      'numba.np.arraymath' in sys.modules, 'numba.np.arrayobj' in sys.modules)\n"
)


def _load_in_new_process(folder: Path) -> list[str]:
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache"), "PYTHONPATH": str(folder)}
    done = subprocess.run(
        [sys.executable, "-c", _LOAD], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.split()


def test_cached_code_loads_without_numba_registries(tmp_path):
    """A miss prepares the compile (the patches are applied) and compiles; a process that then
    finds the code in the cache runs it without numba's registries or array maths imported."""
    (tmp_path / "cached_item.py").write_text(_CACHED_MODULE)
    assert _load_in_new_process(tmp_path) == ["3", "True", "True", "True"]
    assert _load_in_new_process(tmp_path) == ["3", "False", "False", "False"]

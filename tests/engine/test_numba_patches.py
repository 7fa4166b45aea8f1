"""The numba patches: applied to the engine's own code only, undone after its compile, checked
against the installed numba, recorded, and switched off by UNO_STATS_NUMBA_PATCHES=0 with the
same golden games."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from uno_stats.engine import numba_patches as patches

ROOT = Path(__file__).resolve().parents[2]

# A library of the user's (or numba's): an overload that reads the last item the numba way.
_LIBRARY = """
from numba.extending import overload


def last(a):
    return a[-1]


@overload(last)
def _last(a):
    def impl(a):
        return a[-1]

    return impl
"""

# Engine-decorated functions: compiling them (a cold cache) is an engine compile.
_ENGINE_MODULE = """
from uno_stats.engine.jit import engine_inline, engine_jit
from user_library import last


@engine_inline
def _inlined(a, i):
    return a[i]


@engine_jit
def item(a, i):
    return _inlined(a, i)


@engine_jit
def item_plus_ten_last(a, i):
    return a[i] + 10 * last(a)


@engine_jit
def first_of_tail(a, i):
    return a[i:][0]
"""

# Bounds checks on (NUMBA_BOUNDSCHECK=1): a negative index used as it is raises IndexError;
# numba's own rule first counts it from the end.
_PROGRAM = """
import copy
import sys

import numba
import numpy as np

import engine_module
from user_library import last
from uno_stats.engine import numba_patches

values = np.arange(5)
try:
    engine = str(engine_module.item(values, np.int64(-1)))
except IndexError:
    engine = "IndexError"
library_in_engine = int(engine_module.item_plus_ten_last(values, np.int64(1)))
unsigned = int(engine_module.item(values, np.uint64(4)))
tail = int(engine_module.first_of_tail(values, np.int64(-2)))
loaded_only = "numba.np.arrayobj" not in sys.modules


@numba.njit
def user(a, i):
    return a[i]


@numba.njit
def user_last(a):
    return last(a)


from numba.core import inline_closurecall, ir
from numba.np import arrayobj

numba_own = (
    arrayobj.fix_integer_index.__module__ == "numba.np.arrayobj"
    and ir.FunctionIR.copy.__module__ == "numba.core.ir"
    and inline_closurecall.copy is copy
)
print(engine, library_in_engine, unsigned, tail, int(user(values, -1)), int(user_last(values)),
      loaded_only, numba_own, ",".join(numba_patches.active()) or "-")
"""


def _run(folder: Path, program: str, **env: str) -> list[str]:
    """``program`` in a new process, a cache of its own in ``folder``; its output's words."""
    full = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(folder / "cache"),
        "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT / "tests" / "engine")]),
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=full, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.fixture
def program_folder(tmp_path: Path) -> Path:
    (tmp_path / "user_library.py").write_text(_LIBRARY)
    (tmp_path / "engine_module.py").write_text(_ENGINE_MODULE)
    return tmp_path


def test_patches_reach_the_engine_only_and_are_undone(program_folder):
    """After a cold engine compile: the engine's signed index is used as it is (IndexError with
    bounds checks on; an unsigned index and a slice's start as before), while a library overload the engine compiled, the same overload called by user
    code and a user function compiled afterwards count -1 from the end (4 of arange(5)); numba's
    functions are its own again. A second process loads the engine from the cache, without
    numba's array code, and gets the same."""
    first = _run(program_folder, _PROGRAM, NUMBA_BOUNDSCHECK="1")
    assert first == ["IndexError", "41", "4", "3", "4", "4", "False", "True", "-"]
    second = _run(program_folder, _PROGRAM, NUMBA_BOUNDSCHECK="1")
    assert second == ["IndexError", "41", "4", "3", "4", "4", "True", "True", "-"]


def test_switch_off_compiles_the_engine_the_numba_way(program_folder):
    words = _run(program_folder, _PROGRAM, NUMBA_BOUNDSCHECK="1", UNO_STATS_NUMBA_PATCHES="0")
    assert words == ["4", "41", "4", "3", "4", "4", "False", "True", "-"]


@pytest.fixture
def fresh_checks():
    """Forget which patches were checked and which warnings were given, before and after."""
    patches._usable.cache_clear()
    patches._warned.clear()
    yield
    patches._usable.cache_clear()
    patches._warned.clear()


def test_every_patch_is_selected_on_a_checked_numba(monkeypatch):
    monkeypatch.delenv(patches.SWITCH, raising=False)
    low, high = patches.CHECKED_NUMBA
    assert low <= patches.numba_version() < high, "the installed numba is not a checked one"
    assert patches.selected() == patches.PATCHES


def test_switch_zero_selects_none_without_a_warning(monkeypatch, recwarn, fresh_checks):
    monkeypatch.setenv(patches.SWITCH, "0")
    assert patches.selected() == ()
    assert not [w for w in recwarn if issubclass(w.category, patches.NumbaPatchWarning)]


@pytest.mark.parametrize("version", [(0, 67), (0, 69), (1, 0)])
def test_numba_outside_the_checked_range_warns_and_selects_none(monkeypatch, fresh_checks, version):
    monkeypatch.delenv(patches.SWITCH, raising=False)
    monkeypatch.setattr(patches, "numba_version", lambda: version)
    shown = f"numba {version[0]}.{version[1]} is outside the versions"
    with pytest.warns(patches.NumbaPatchWarning, match=shown):
        assert patches.selected() == ()


def test_the_patched_code_is_the_code_the_patches_were_written_against():
    """On the installed numba every patch finds the functions it replaces as it expects."""
    assert patches._check_index() is None
    assert patches._check_inline() is None


def test_a_patch_that_cannot_apply_is_warned_and_skipped(monkeypatch, fresh_checks):
    from numba.np import arrayobj

    monkeypatch.setattr(arrayobj, "fix_integer_index", lambda *args: None)
    with pytest.warns(patches.NumbaPatchWarning, match="no-negative-index-wrap could not apply"):
        assert not patches._usable(patches.NO_NEGATIVE_INDEX_WRAP)
    assert patches._usable(patches.SHARED_INLINE_SCOPE)


def _cached_dispatcher():
    import numba

    def double(x):
        return 2 * x

    return numba.njit(cache=True)(double)  # nothing compiles until it is called


def test_the_load_patch_replaces_the_dispatchers_load_only(recwarn, fresh_checks):
    from numba.core.caching import Cache

    dispatcher = _cached_dispatcher()
    patches._load_without_refresh(dispatcher)
    assert "load_overload" in vars(dispatcher._cache)
    assert Cache.load_overload.__module__ == "numba.core.caching"
    assert not [w for w in recwarn if issubclass(w.category, patches.NumbaPatchWarning)]


def test_a_load_patch_that_cannot_apply_is_warned(monkeypatch, fresh_checks):
    from numba.core.caching import Cache

    def load_overload(self, sig, target_context):  # numba's, were it to change
        return self._load_overload(sig, target_context)

    dispatcher = _cached_dispatcher()
    monkeypatch.setattr(Cache, "load_overload", load_overload)
    with pytest.warns(patches.NumbaPatchWarning, match="cached-load-without-refresh"):
        patches._load_without_refresh(dispatcher)
    assert "load_overload" not in vars(dispatcher._cache)


def test_pyproject_states_the_checked_range():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (low_major, low_minor), (high_major, high_minor) = patches.CHECKED_NUMBA
    checked = f">={low_major}.{low_minor},<{high_major}.{high_minor}"
    assert pyproject["tool"]["uno-stats"]["numba-patches-checked"] == checked


_GOLDEN = """
from pathlib import Path

from golden_cases import CASES
from uno_stats.check.golden import GOLDEN_DIR, golden_text
from uno_stats.engine import numba_patches

assert numba_patches.selected() == ()
changed = [c.name for c in CASES if golden_text(c).encode() != (Path(GOLDEN_DIR) / f"{c.name}.txt").read_bytes()]
print(len(CASES), ",".join(changed) or "-")
"""


@pytest.mark.slow
def test_golden_games_are_the_same_without_the_patches(tmp_path):
    """Every golden game, compiled afresh with the numba patches off, plays the stored trace."""
    from golden_cases import CASES

    words = _run(tmp_path, _GOLDEN, UNO_STATS_NUMBA_PATCHES="0")
    assert words == [str(len(CASES)), "-"]

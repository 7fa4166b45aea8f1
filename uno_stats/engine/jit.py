"""The compilation settings every engine function shares, and where compiled code is cached.

The engine allocates nothing inside its loop, so it runs without numba's reference-
counting runtime (``_nrt=False``): passing work arrays between helpers then costs no
atomic increments. ``error_model="numpy"`` drops Python's division checks (the engine
never divides by zero: seat counts are at least 2).

numba keys a cached function on its own file only, so a caller compiled against an older
version of a callee in another file would be loaded stale. The cache therefore lives in a
folder named after a hash of every engine source file: any change compiles afresh.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

import numba
from numba import njit

_PACKAGE = Path(__file__).resolve().parents[1]
ENGINE_SOURCES = ("engine/*.py",)
"""The package files whose code decides how a game plays out."""


def source_hash(package: Path) -> str:
    """Fingerprint (16 hex digits) of the ``ENGINE_SOURCES`` files below ``package``."""
    digest = hashlib.sha256()
    for pattern in ENGINE_SOURCES:
        for path in sorted(package.glob(pattern)):
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def engine_source_hash() -> str:
    """Fingerprint of the engine's source files (16 hex digits)."""
    return source_hash(_PACKAGE)


def engine_cache_dir() -> Path:
    """Where compiled engine code is cached: ``$NUMBA_CACHE_DIR`` (or ~/.cache/uno-stats)
    plus the engine's source hash."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "uno-stats", "numba"
    )
    return Path(base) / engine_source_hash()


# Read by numba when each decorated function sets up its cache (at import of the module).
numba.config.CACHE_DIR = str(engine_cache_dir())  # type: ignore[attr-defined]

engine_jit = njit(cache=True, nogil=True, error_model="numpy", _nrt=False)  # type: ignore[call-overload]

# Inlined at numba's IR level: tiny helpers returning a tuple of arrays (``state.views``),
# so the tuple never exists at run time, and the per-turn functions that have a single call
# site (inlining them costs no compile time and saves a call per turn).
engine_inline = njit(  # type: ignore[call-overload]
    cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always"
)

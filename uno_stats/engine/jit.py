"""The two decorators of every compiled engine function, and where compiled code is cached.

The engine allocates nothing inside its loop, so it runs without numba's reference-
counting runtime (``_nrt=False``): passing work arrays between helpers then costs no
atomic increments. ``error_model="numpy"`` drops Python's division checks (the engine
never divides by zero: seat counts are at least 2). Each decorated function is marked as
the engine's, so the numba patches of :mod:`uno_stats.engine.numba_patches` apply to it and
to nothing else.

numba keys a cached function on its own file only, so a caller compiled against an older
version of a callee in another file would be loaded stale. The cache therefore lives in a
folder named after :func:`engine_hash`: a hash of every engine source file and of the numba
patches selected, so any change compiles afresh (and code compiled with the patches off
never mixes with code compiled with them on).

A cold compile takes minutes, so :func:`ensure_compiled` (called before a run, a benchmark
and by ``make install``) says so on stderr when the cache is cold, says when it is done and
records how long it took, which the next cold start quotes.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from uno_stats.engine import numba_patches

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


def engine_hash() -> str:
    """Fingerprint (16 hex digits) of the engine as it compiles: its source files and the
    numba patches selected (:func:`uno_stats.engine.numba_patches.selected`)."""
    patches = ",".join(numba_patches.selected())
    return hashlib.sha256(f"{engine_source_hash()} {patches}".encode()).hexdigest()[:16]


def _cache_base() -> Path:
    return Path(
        os.environ.get("NUMBA_CACHE_DIR")
        or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "uno-stats", "numba"
        )
    )


def engine_cache_dir() -> Path:
    """Where compiled engine code is cached: ``$NUMBA_CACHE_DIR`` (or ~/.cache/uno-stats)
    plus :func:`engine_hash`."""
    return _cache_base() / engine_hash()


ENTRY_POINT = "chunk.run_chunk"
"""The function every run calls first; numba saves its cache index after all it calls."""
COMPILE_ESTIMATE_S = 90
"""Seconds quoted before the first compile on a machine (docs/PERFORMANCE.md, "Compiling");
later cold starts quote the last compile's time."""
_LAST_COMPILE = "last-compile-seconds"


def engine_is_cached() -> bool:
    """Whether the compiled engine of these sources is in the cache (a run starts at once)."""
    return any(engine_cache_dir().glob(f"*/{ENTRY_POINT}-*.nbi"))


def compile_estimate_s() -> int:
    """Seconds the last compile on this machine took, or :data:`COMPILE_ESTIMATE_S`."""
    try:
        return max(1, round(float((_cache_base() / _LAST_COMPILE).read_text())))
    except (OSError, ValueError):
        return COMPILE_ESTIMATE_S


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def ensure_compiled(notice: Callable[[str], None] = _stderr) -> float | None:
    """Compile the engine, or load it from the cache, in this process.

    When the cache is cold, first tells ``notice`` (stderr) that the engine is being compiled
    once and about how long it takes, then that it is done and how long it took; returns the
    seconds the compile took (None when the cache was warm) and remembers them for the next
    notice.
    """
    from uno_stats import engine

    if engine_is_cached():
        engine.warm_up()
        return None
    notice(f"Compiling the engine once (about {compile_estimate_s()} s) ...")
    started = time.perf_counter()
    engine.warm_up()
    seconds = time.perf_counter() - started
    notice(f"... done in {round(seconds)} s")
    with contextlib.suppress(OSError):  # a read-only cache folder only loses the estimate
        (_cache_base() / _LAST_COMPILE).write_text(f"{seconds:.1f}\n")
    return seconds


@cache
def _compile_settings(inline: str = "never") -> Any:
    """numba's ``njit`` with the engine's settings, the cache folder set before its first use
    (numba reads it when each decorated function sets up its cache, at import of its
    module). numba is imported here: the cache helpers above, used by processes that never
    play a game, do without it."""
    import numba

    numba.config.CACHE_DIR = str(engine_cache_dir())  # type: ignore[attr-defined]
    return numba.njit(  # type: ignore[call-overload]
        cache=True, nogil=True, error_model="numpy", _nrt=False, inline=inline
    )


def engine_jit(func: Callable[..., Any]) -> Any:
    """Compile ``func`` as an engine function: cached, no reference counting, numpy's
    division rules, and the engine's numba patches (see the module docstring)."""
    return numba_patches.engine_dispatcher(_compile_settings()(func))


def engine_inline(func: Callable[..., Any]) -> Any:
    """Like :func:`engine_jit`, inlined at numba's IR level into every caller.

    For tiny helpers returning a tuple of arrays, so the tuple never exists at run time, and
    for the per-turn functions that have a single call site (inlining them costs no compile
    time and saves a call per turn).
    """
    return numba_patches.engine_dispatcher(_compile_settings(inline="always")(func))

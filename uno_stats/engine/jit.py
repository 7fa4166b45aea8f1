"""The compilation settings every engine function shares, and where compiled code is cached.

The engine allocates nothing inside its loop, so it runs without numba's reference-
counting runtime (``_nrt=False``): passing work arrays between helpers then costs no
atomic increments. ``error_model="numpy"`` drops Python's division checks (the engine
never divides by zero: seat counts are at least 2).

numba keys a cached function on its own file only, so a caller compiled against an older
version of a callee in another file would be loaded stale. The cache therefore lives in a
folder named after a hash of every engine source file: any change compiles afresh.

Compiling takes one to two minutes, so :func:`ensure_compiled` (called before a run, a
benchmark and by ``make install``) says so on stderr when the cache is cold and records how
long it took, which the next cold start quotes.
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
from typing import TYPE_CHECKING, Any

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


def _cache_base() -> Path:
    return Path(
        os.environ.get("NUMBA_CACHE_DIR")
        or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "uno-stats", "numba"
        )
    )


def engine_cache_dir() -> Path:
    """Where compiled engine code is cached: ``$NUMBA_CACHE_DIR`` (or ~/.cache/uno-stats)
    plus the engine's source hash."""
    return _cache_base() / engine_source_hash()


ENTRY_POINT = "chunk.run_chunk"
"""The function every run calls first; numba saves its cache index after all it calls."""
COMPILE_ESTIMATE_S = 90
"""Quoted before the first compile on a machine (measured: 85-130 s of wall time on this
project's shared 2-core VM); later cold starts quote the last compile's measured time."""
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
    once and about how long it takes; returns the seconds the compile took (None when the
    cache was warm) and remembers them for the next notice.
    """
    from uno_stats import engine

    if engine_is_cached():
        engine.warm_up()
        return None
    notice(f"Compiling the engine once (about {compile_estimate_s()} s) ...")
    started = time.perf_counter()
    engine.warm_up()
    seconds = time.perf_counter() - started
    with contextlib.suppress(OSError):  # a read-only cache folder only loses the estimate
        (_cache_base() / _LAST_COMPILE).write_text(f"{seconds:.1f}\n")
    return seconds


_DECORATORS: dict[str, Any] = {}

if TYPE_CHECKING:  # made by _decorators() on first use, through the module's __getattr__
    engine_jit: Any
    engine_inline: Any


def _share_scope_when_inlining() -> None:
    """Make numba copy an inlined function's IR once per inline site, not once per block.

    numba's inliner (``inline_closurecall.InlineWorker.inline_ir``, numba 0.68) deep-copies
    the callee's IR block by block, each block with a fresh memo, so every block drags along
    its own copy of the function's whole variable scope: blocks x variables objects per
    inline site, which made the deep copies about half of compiling this engine (whose
    per-turn functions are inlined). Here the blocks of one copy share one memo, as a deep
    copy of the whole IR at once would (the copy starts with ``FunctionIR.copy``, which
    resets it). Measured on an empty cache: 67 s of CPU instead of 155 s, same machine code
    and same results (README "Performance"). Without the expected numba internals, nothing
    changes.
    """
    import copy

    from numba.core import inline_closurecall, ir

    if getattr(inline_closurecall, "copy", None) is not copy or not hasattr(ir.FunctionIR, "copy"):
        return
    memo: dict[int, Any] = {}

    class _SharedBlockMemo:
        """``copy`` as inline_closurecall sees it: blocks deep-copied with the shared memo."""

        def __getattr__(self, name: str) -> Any:
            return getattr(copy, name)

        @staticmethod
        def deepcopy(x: Any, memo_: dict[int, Any] | None = None) -> Any:
            if memo_ is None and isinstance(x, ir.Block):
                return copy.deepcopy(x, memo)
            return copy.deepcopy(x, memo_)

    function_ir_copy = ir.FunctionIR.copy

    def _copy(self: Any) -> Any:
        memo.clear()  # a new copy of some IR starts: nothing of an earlier one is shared
        return function_ir_copy(self)

    ir.FunctionIR.copy = _copy  # type: ignore[method-assign]
    inline_closurecall.copy = _SharedBlockMemo()  # type: ignore[assignment]


def _skip_blas_probe() -> None:
    """Import numba's array maths without its BLAS probe, which imports ``scipy.linalg``.

    ``numba.np.arraymath`` asks at import whether scipy's BLAS exists, by importing
    ``scipy.linalg`` (about 0.3 s of a process that compiles; one that loads the cached
    engine imports neither, see :func:`_load_cached_quickly`). Its answer only chooses how
    ``np.convolve`` and ``np.correlate`` of floats are compiled, which the engine never
    calls, so here it is answered "no" without the import;
    numba's ``ensure_blas`` is put back at once for anything else that asks (``np.dot``,
    ``np.linalg``). Same machine code and results; without the expected numba internals, or
    once either module is loaded, nothing changes.
    """
    if "numba.np.arraymath" in sys.modules or "scipy.linalg.cython_blas" in sys.modules:
        return
    from numba.np import linalg

    ensure_blas = getattr(linalg, "ensure_blas", None)
    if ensure_blas is None:
        return

    def _no_blas() -> None:
        raise ImportError("BLAS not probed: the engine does no linear algebra")

    linalg.ensure_blas = _no_blas
    try:
        from numba.np import arraymath
    finally:
        linalg.ensure_blas = ensure_blas
    if getattr(arraymath, "ensure_blas", None) is _no_blas:
        arraymath.ensure_blas = ensure_blas


def _no_negative_index_wrap() -> None:
    """Compile an array index of a signed integer type without Python's negative wrap-around.

    numba turns every ``a[i]`` whose ``i`` is a signed integer it cannot prove non-negative
    (a seat, a card or a count loaded from the table) into ``i + len(a) if i < 0 else i``:
    three instructions on almost every access of the engine. The engine never indexes from
    the end (``make boundscheck`` replays the fast tests, the scripted-deck, property and
    golden-game tests among them, with numba's bounds checks on, where a negative index
    raises), so here a signed index is used as it is, as an unsigned one always is. Slices
    keep their wrap-around. Without the expected numba internal, nothing changes.
    """
    from numba.core import types
    from numba.np import arrayobj

    original = getattr(arrayobj, "fix_integer_index", None)
    if original is None or getattr(original, "_uno_stats_no_wrap", False):
        return

    def fix_integer_index(context: Any, builder: Any, idxty: Any, idx: Any, size: Any) -> Any:
        if idxty.signed:
            return context.cast(builder, idx, idxty, types.intp)
        return original(context, builder, idxty, idx, size)

    fix_integer_index._uno_stats_no_wrap = True  # type: ignore[attr-defined]
    arrayobj.fix_integer_index = fix_integer_index


@cache
def _prepare_to_compile() -> None:
    """Apply the compile-time changes above, once, before numba compiles an engine function.

    They change how numba compiles, not how cached code runs, and two of them import numba's
    array maths (about 0.1 s), so a process that only loads the cached engine skips them:
    :func:`_load_cached_quickly` calls this when the cache misses, before numba compiles.
    """
    _share_scope_when_inlining()
    _skip_blas_probe()
    _no_negative_index_wrap()


def _load_cached_quickly(dispatcher: Any) -> Any:
    """Make ``dispatcher`` load its cached machine code without refreshing numba's registries.

    numba's ``Cache.load_overload`` first refreshes the target context: it imports and installs
    every typing and lowering registry (all of numba's numpy and Python built-ins, 0.15-0.3 s),
    which only typing and lowering new code use. Loading cached code needs none of it (the
    code is already machine code, linked), and numba's compiler refreshes both contexts itself
    before it compiles (``CompilerBase.__init__``), so here the refresh is left to it; on a miss
    the compile-time changes are applied first (:func:`_prepare_to_compile`). Same code, same
    results. Without the expected numba internals, the dispatcher is left as it is.
    """
    cache: Any = getattr(dispatcher, "_cache", None)
    load = getattr(cache, "_load_overload", None)
    guard = getattr(cache, "_guard_against_spurious_io_errors", None)
    if load is None or guard is None:
        _prepare_to_compile()  # numba loads (and compiles) its own way: prepare now
        return dispatcher

    def load_overload(sig: Any, target_context: Any) -> Any:
        with guard():
            loaded = load(sig, target_context)
            if loaded is not None:
                return loaded
        _prepare_to_compile()  # a miss: numba compiles next
        return None

    cache.load_overload = load_overload
    return dispatcher


def _decorators() -> dict[str, Any]:
    """The two decorators, made on first use: importing numba costs about 0.3 s, which the
    cache helpers above (used by processes that never play a game) do without."""
    if not _DECORATORS:
        import numba
        from numba import njit

        # Read by numba when each decorated function sets up its cache (at import of the module).
        numba.config.CACHE_DIR = str(engine_cache_dir())  # type: ignore[attr-defined]
        engine_jit = njit(  # type: ignore[call-overload]
            cache=True, nogil=True, error_model="numpy", _nrt=False
        )
        # Inlined at numba's IR level: tiny helpers returning a tuple of arrays
        # (``state.views``), so the tuple never exists at run time, and the per-turn functions
        # that have a single call site (inlining them costs no compile time and saves a call
        # per turn).
        engine_inline = njit(  # type: ignore[call-overload]
            cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always"
        )
        _DECORATORS["engine_jit"] = lambda func: _load_cached_quickly(engine_jit(func))
        _DECORATORS["engine_inline"] = lambda func: _load_cached_quickly(engine_inline(func))
    return _DECORATORS


def __getattr__(name: str) -> Any:
    """``engine_jit`` and ``engine_inline``, the decorators of every compiled engine function."""
    if name in ("engine_jit", "engine_inline"):
        return _decorators()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Every change this project makes to numba's internals, confined to the engine's own code.

Three patches, each written against numba's code as :data:`CHECKED_NUMBA` ships it:

- ``no-negative-index-wrap`` (compile time): a signed array index in an engine function is
  used as it is, without Python's wrap-around from the end (the engine never indexes from
  the end; ``make boundscheck`` replays the fast tests with numba's bounds checks on, where
  a negative index raises). Only functions of the engine's modules are lowered this way.
- ``shared-inline-scope`` (compile time): when an engine function is inlined, the blocks of
  one copy of its IR share one deep-copy memo, so its variable scope is copied once per
  inline site instead of once per block (the same IR, much sooner).
- ``cached-load-without-refresh`` (load time): an engine function found in the cache loads
  without refreshing numba's typing and lowering registries first (numba's compiler
  refreshes them itself before it compiles anything).

The compile-time patches are applied when numba starts compiling an engine function and
undone when that compile ends, or when it compiles anything else inside it (numba's own
library functions compiled on the engine's behalf, which numba keeps and reuses for later
callers, are compiled unpatched); they follow numba's ``numba:compile`` events. The load-time
patch changes the engine's dispatchers only. Outside the checked numba versions, or when a
patched function's code is not the one the patch was written against, nothing is patched and
a :class:`NumbaPatchWarning` says so; ``UNO_STATS_NUMBA_PATCHES=0`` turns every patch off.
Results are the same either way (a test plays the golden games without them); compiling and
playing are slower (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from typing import Any

SWITCH = "UNO_STATS_NUMBA_PATCHES"
"""Environment variable: ``0`` compiles and loads the engine with numba unchanged."""
CHECKED_NUMBA = ((0, 68), (0, 69))
"""numba versions (from, up to but excluding) the patches were checked on; pyproject.toml's
``[tool.uno-stats] numba-patches-checked`` says the same (a test compares them)."""

NO_NEGATIVE_INDEX_WRAP = "no-negative-index-wrap"
SHARED_INLINE_SCOPE = "shared-inline-scope"
CACHED_LOAD_WITHOUT_REFRESH = "cached-load-without-refresh"
PATCHES = (NO_NEGATIVE_INDEX_WRAP, SHARED_INLINE_SCOPE, CACHED_LOAD_WITHOUT_REFRESH)


class NumbaPatchWarning(UserWarning):
    """The engine compiles without (some of) its numba patches: same results, slower."""


_warned: set[str] = set()


def _warn(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        warnings.warn(f"uno-stats: {message}", NumbaPatchWarning, stacklevel=3)


@cache
def numba_version() -> tuple[int, int]:
    """The installed numba's (major, minor), read without importing numba."""
    major, minor = metadata.version("numba").split(".")[:2]
    return int(major), int(minor)


def selected() -> tuple[str, ...]:
    """The patches the engine compiles and loads with: all of :data:`PATCHES`, or none when
    :data:`SWITCH` is ``0`` or numba lies outside :data:`CHECKED_NUMBA` (warned)."""
    if os.environ.get(SWITCH, "1").strip() == "0":
        return ()
    low, high = CHECKED_NUMBA
    if not low <= numba_version() < high:
        shown = ".".join(map(str, numba_version()))
        _warn(
            f"numba {shown} is outside the versions the engine's numba patches were checked "
            f"on (>={low[0]}.{low[1]},<{high[0]}.{high[1]}): compiling without them "
            "(same results, slower)"
        )
        return ()
    return PATCHES


def _code_names(func: Any) -> frozenset[str]:
    return frozenset(getattr(getattr(func, "__code__", None), "co_names", ()))


def _nested_code_names(func: Any, name: str) -> frozenset[str]:
    consts = getattr(getattr(func, "__code__", None), "co_consts", ())
    found = [c for c in consts if getattr(c, "co_name", None) == name]
    return frozenset(found[0].co_names) if found else frozenset()


@dataclass
class _Patch:
    """One compile-time patch: ``check`` returns why it cannot apply (None: it can)."""

    name: str
    check: Callable[[], str | None]
    apply: Callable[[], None]
    undo: Callable[[], None]


# -- which functions are the engine's ------------------------------------------------------

_engine_dispatchers: dict[int, Any] = {}  # by id: numba's compile events carry the dispatcher
_engine_modules: set[str] = set()
_engine_prefixes: set[str] = set()


def _mangled_prefix(module: str) -> str:
    """The start of the mangled name of every function numba compiles from ``module``
    (numba's Itanium mangling: ``_ZN`` then each dotted part, length first; an ASCII
    identifier is kept as it is, and a module whose name numba escapes never matches, so
    its code is lowered the numba way)."""
    return "_ZN" + "".join(f"{len(part)}{part}" for part in module.split("."))


def lowering_engine_code(builder: Any) -> bool:
    """Whether ``builder`` writes a function of one of the engine's modules (inlined engine
    functions included, numba's library functions not)."""
    name = getattr(getattr(builder, "function", None), "name", "")
    return any(name.startswith(prefix) for prefix in _engine_prefixes)


# -- no-negative-index-wrap ----------------------------------------------------------------

_FIX_INDEX_NAMES = frozenset({"cast", "fix_index", "intp", "signed", "slicing", "types", "uintp"})
_fix_integer_index: list[Any] = []  # numba's, while the patch is applied


def _check_index() -> str | None:
    from numba.np import arrayobj

    if _code_names(arrayobj.fix_integer_index) != _FIX_INDEX_NAMES:
        return "numba.np.arrayobj.fix_integer_index is not the code it was written against"
    if "fix_integer_index" not in _code_names(arrayobj.basic_indexing):
        return "numba.np.arrayobj.basic_indexing no longer calls fix_integer_index"
    return None


def _apply_index() -> None:
    from numba.core import types
    from numba.np import arrayobj

    original = arrayobj.fix_integer_index
    _fix_integer_index.append(original)

    def fix_integer_index(context: Any, builder: Any, idxty: Any, idx: Any, size: Any) -> Any:
        if idxty.signed and lowering_engine_code(builder):
            return context.cast(builder, idx, idxty, types.intp)
        return original(context, builder, idxty, idx, size)

    arrayobj.fix_integer_index = fix_integer_index


def _undo_index() -> None:
    from numba.np import arrayobj

    arrayobj.fix_integer_index = _fix_integer_index.pop()


# -- shared-inline-scope -------------------------------------------------------------------

_COPY_IR_NAMES = frozenset({"blocks", "copy", "deepcopy", "items"})
_FUNCTION_IR_COPY_NAMES = frozenset({"block_entry_vars", "blocks", "copy", "items"})
_inline_saved: list[Any] = []  # numba's FunctionIR.copy and the inliner's copy module


def _check_inline() -> str | None:
    import copy

    from numba.core import inline_closurecall, ir

    if getattr(inline_closurecall, "copy", None) is not copy:
        return "numba.core.inline_closurecall no longer copies with the copy module"
    inline_ir = inline_closurecall.InlineWorker.inline_ir
    if _nested_code_names(inline_ir, "copy_ir") != _COPY_IR_NAMES:
        return "numba's InlineWorker.inline_ir does not copy IR the way it was written against"
    if _code_names(ir.FunctionIR.copy) != _FUNCTION_IR_COPY_NAMES:
        return "numba.core.ir.FunctionIR.copy is not the code it was written against"
    return None


def _apply_inline() -> None:
    import copy

    from numba.core import inline_closurecall, ir

    memo: dict[int, Any] = {}
    sharing = [False]  # the IR being copied is an engine function's

    class _SharedBlockMemo:
        """``copy`` as the inliner sees it: an engine function's blocks share one memo."""

        def __getattr__(self, name: str) -> Any:
            return getattr(copy, name)

        @staticmethod
        def deepcopy(x: Any, memo_: dict[int, Any] | None = None) -> Any:
            if memo_ is None and sharing[0] and isinstance(x, ir.Block):
                return copy.deepcopy(x, memo)
            return copy.deepcopy(x, memo_)

    function_ir_copy = ir.FunctionIR.copy

    def _copy(self: Any) -> Any:
        memo.clear()  # a new copy of some IR starts: nothing of an earlier one is shared
        sharing[0] = getattr(getattr(self, "func_id", None), "modname", None) in _engine_modules
        return function_ir_copy(self)

    _inline_saved.extend((function_ir_copy, inline_closurecall.copy))
    ir.FunctionIR.copy = _copy  # type: ignore[method-assign]
    inline_closurecall.copy = _SharedBlockMemo()  # type: ignore[assignment]


def _undo_inline() -> None:
    from numba.core import inline_closurecall, ir

    inline_closurecall.copy = _inline_saved.pop()
    ir.FunctionIR.copy = _inline_saved.pop()  # type: ignore[method-assign]


_COMPILE_PATCHES = (
    _Patch(NO_NEGATIVE_INDEX_WRAP, _check_index, _apply_index, _undo_index),
    _Patch(SHARED_INLINE_SCOPE, _check_inline, _apply_inline, _undo_inline),
)


@cache
def _usable(name: str) -> bool:
    """Whether patch ``name`` may apply in this process (checked once; warned when not)."""
    patch = next(p for p in _COMPILE_PATCHES if p.name == name)
    reason = patch.check()
    if reason is not None:
        _warn(f"numba patch {name} could not apply ({reason}): compiling without it")
    return reason is None


# -- following numba's compiles ------------------------------------------------------------

_compiling: list[bool] = []  # one entry per compile in progress: is it an engine function's
_active: list[_Patch] = []


def _sync() -> None:
    """Apply the compile-time patches while the innermost compile is the engine's, else
    undo them."""
    wanted = bool(_compiling) and _compiling[-1]
    if wanted and not _active:
        chosen = selected()
        for patch in _COMPILE_PATCHES:
            if patch.name in chosen and _usable(patch.name):
                patch.apply()
                _active.append(patch)
    elif not wanted:
        while _active:
            _active.pop().undo()


def active() -> tuple[str, ...]:
    """The compile-time patches applied at this moment (none outside an engine compile)."""
    return tuple(p.name for p in _active)


@cache
def _follow_compiles() -> None:
    """Listen to numba's compile events (numba compiles one function at a time, under its
    compiler lock, so a stack of the compiles in progress is exact); without numba's event
    API, warn and patch no compile."""
    event: Any = import_module_or_none("numba.core.event")
    if not (hasattr(event, "register") and hasattr(event, "Listener")):
        _warn("numba's compile events are missing: compiling without the numba patches")
        return

    class _EngineCompiles(event.Listener):
        def on_start(self, ev: Any) -> None:
            dispatcher = (ev.data or {}).get("dispatcher")
            _compiling.append(id(dispatcher) in _engine_dispatchers)
            _sync()

        def on_end(self, ev: Any) -> None:
            if _compiling:
                _compiling.pop()
            _sync()

    event.register("numba:compile", _EngineCompiles())


# -- cached-load-without-refresh -----------------------------------------------------------

_LOAD_NAMES = frozenset({"_guard_against_spurious_io_errors", "_load_overload", "refresh"})


def import_module_or_none(name: str) -> Any:
    """The module ``name``, or None when this numba has none of that name."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _load_without_refresh(dispatcher: Any) -> None:
    """Make ``dispatcher`` load cached machine code without numba's registry refresh
    (``Cache.load_overload`` refreshes the target context, then loads under an I/O guard;
    here only the guarded load runs)."""
    cache_class: Any = getattr(import_module_or_none("numba.core.caching"), "Cache", None)
    cache_: Any = getattr(dispatcher, "_cache", None)
    if (
        cache_class is None
        or not isinstance(cache_, cache_class)
        or _code_names(cache_class.load_overload) != _LOAD_NAMES
    ):
        _warn(
            f"numba patch {CACHED_LOAD_WITHOUT_REFRESH} could not apply (numba's "
            "Cache.load_overload is not the code it was written against): loading numba's way"
        )
        return
    load = cache_._load_overload
    guard = cache_._guard_against_spurious_io_errors

    def load_overload(sig: Any, target_context: Any) -> Any:
        with guard():
            return load(sig, target_context)
        return None  # the guard swallowed a spurious I/O error: compile instead

    cache_.load_overload = load_overload


def engine_dispatcher(dispatcher: Any) -> Any:
    """Mark ``dispatcher`` (of an engine function) as the engine's, so the selected patches
    apply to its compile and its load; returns it. Under ``NUMBA_DISABLE_JIT=1`` the
    decorators hand back plain functions: nothing compiles or loads, so one passes through."""
    if not hasattr(dispatcher, "py_func"):
        return dispatcher
    _engine_dispatchers[id(dispatcher)] = dispatcher
    module = dispatcher.py_func.__module__
    if module not in _engine_modules:
        _engine_modules.add(module)
        _engine_prefixes.add(_mangled_prefix(module))
    chosen = selected()
    if chosen:
        _follow_compiles()
    if CACHED_LOAD_WITHOUT_REFRESH in chosen:
        _load_without_refresh(dispatcher)
    return dispatcher

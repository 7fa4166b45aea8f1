"""The one compilation setting every engine function shares.

The engine allocates nothing inside its loop, so it runs without numba's reference-
counting runtime (``_nrt=False``): passing a dozen work arrays between helpers then
costs no atomic increments. ``error_model="numpy"`` drops Python's division checks
(the engine never divides by zero: seat counts are at least 2).
"""

from __future__ import annotations

from numba import njit

engine_jit = njit(cache=True, nogil=True, error_model="numpy", _nrt=False)

# For tiny helpers whose result is a tuple of arrays (``state.views``): inlined at numba's
# IR level so the tuple never exists at run time.
engine_inline = njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")

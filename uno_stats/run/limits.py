"""Input limits: what a scenario file and the command line may ask for (docs/SCENARIO.md).

Each limit keeps a mistaken or hostile input from hanging the tool or eating memory; every
one is far above what a real scenario needs and is reported as a one-line error.
"""

from __future__ import annotations

import os
from decimal import Decimal, InvalidOperation

MAX_FILE_BYTES = 100_000
"""A scenario file is a few hundred bytes; a larger one than this is refused unparsed."""
MAX_DEPTH = 12
"""YAML nesting levels (a scenario needs 4: top level, section, list, entry)."""
MAX_NAME = 64
"""Characters in a scenario name (it names a folder)."""
MAX_DESCRIPTION = 2_000
"""Characters in a description (it is copied into every manifest)."""
MAX_PLAYERS = 20
"""Seats at a table (the engine's ``state.MAX_SEATS``); the deal must still fit the deck."""
MAX_GAMES = 10_000_000_000
"""Games (rounds or matches) per run: about 17 hours at 160,000 rounds/s."""
MAX_SEED = 2**64 - 1
"""Largest seed (the engine's key is 64 bits)."""
MAX_AXIS_VALUES = 1_000
"""Values of one sweep axis."""
MAX_SWEEP_POINTS = 1_000
"""Sweep points (the product of the axes' lengths): one folder each."""
WORKERS_PER_CORE = 4
"""``--workers`` above this many per core is capped (with a warning): more only costs memory."""


def max_workers() -> int:
    """The largest worker count a run uses on this machine."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def cap_workers(requested: int) -> tuple[int, str | None]:
    """``requested`` workers capped at :func:`max_workers`, and the warning when capped."""
    top = max_workers()
    if requested <= top:
        return requested, None
    cores = os.cpu_count() or 1
    return top, (
        f"--workers {requested:,} is more than {WORKERS_PER_CORE} per core "
        f"({cores} cores): using {top}"
    )


def parse_count(option: str, text: str, low: int, high: int) -> int:
    """The whole number ``text`` from ``low`` to ``high``, or ValueError with a one-line reason.

    Reading chosen here (the spec is silent): exponent forms that are whole numbers, such as
    ``1e6`` or ``2.5e5``, are accepted, as are ``_`` separators; ``1e20`` and ``-5`` are
    out of range, ``1.5`` is not a whole number.
    """
    allowed = f"a whole number from {low:,} to {high:,}"
    cleaned = text.strip().replace("_", "")
    try:
        # Decimal parses '1e20' exactly; bound the exponent so '1e999999999' stays cheap.
        value = Decimal(cleaned) if len(cleaned) <= 40 else None
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite() or value != value.to_integral_value():
        raise ValueError(f"{option}: {text!r} is not allowed: {allowed}")
    if not low <= value <= high:
        raise ValueError(f"{option}: {text} is out of range: {allowed}")
    return int(value)

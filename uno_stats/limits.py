"""Input limits: what a scenario file and the command line may ask for (docs/SCENARIO.md).

Each limit keeps a mistaken or hostile input from hanging the tool or eating memory; every
one is far above what a real scenario needs and is reported as a one-line error.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import stat
from decimal import Decimal, InvalidOperation
from typing import Any

from uno_stats.errors import quoted, shortened

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
MAX_AXIS_VALUES = 10_000
"""Values of one sweep axis."""
MAX_SWEEP_POINTS = 100_000
"""Sweep points (the product of the axes' lengths, or a design's points): a sweep is one
results dataset with a point column, its points built one at a time (docs/PERFORMANCE.md,
"Sweeps")."""
MAX_JSON_BYTES = 10_000_000
"""A manifest (or a part's record) is a few kilobytes; a larger one is refused unparsed."""
MAX_JSON_DEPTH = 32
"""JSON nesting levels (a manifest needs 5): deeper is refused before parsing."""
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
        raise ValueError(f"{option}: {quoted(text)} is not allowed: {allowed}")
    if not low <= value <= high:
        raise ValueError(f"{option}: {shortened(text)} is out of range: {allowed}")
    return int(value)


class NotRegularFile(ValueError):
    """A path that is not a regular file; the message says what it is (``a FIFO ...``)."""


class TooLarge(ValueError):
    """A file above the byte limit it was read with."""


def file_kind(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    kinds = {
        stat.S_ISDIR: "a folder",
        stat.S_ISFIFO: "a FIFO (named pipe)",
        stat.S_ISCHR: "a character device",
        stat.S_ISBLK: "a block device",
        stat.S_ISSOCK: "a socket",
    }
    return next((name for test, name in kinds.items() if test(mode)), "not a regular file")


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    The file is opened non-blocking and checked before any read, so a FIFO or a device
    never hangs the reader (:class:`NotRegularFile`); a file above ``limit`` bytes is
    :class:`TooLarge`, the rest unread. OS errors pass through.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        kind = file_kind(os.fstat(fd).st_mode)
        if kind:
            raise NotRegularFile(kind)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise TooLarge(f"larger than {limit:,} bytes")
    return raw


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in the JSON ``text`` (strings skipped)."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    steps = (1 if c in "[{" else -1 for c in brackets)
    return max(itertools.accumulate(steps, initial=0))


def load_json(text: str | bytes, limit: int = MAX_JSON_BYTES, depth: int = MAX_JSON_DEPTH) -> Any:
    """``text`` parsed as JSON within a size and a nesting limit; ValueError (one line) when
    it is too large, nested too deep or not JSON (never a RecursionError)."""
    if len(text) > limit:
        raise ValueError(f"larger than {limit:,} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("not UTF-8 text") from None
    if json_depth(text) > depth:
        raise ValueError(f"nested more than {depth} levels deep")
    try:
        return json.loads(text)
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise ValueError(f"nested more than {depth} levels deep") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc})") from None

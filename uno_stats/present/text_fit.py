"""Terminal text that fits a width: paragraphs wrapped, tables wrapped cell by cell and, if
still too wide, split into column blocks that repeat the first column.

A line breaks only between words: never inside a number, an interval in brackets
(``[48.60, 50.70]``), numbers in parentheses (``(3.10% [2.43, 3.95])``, ``(df 3)``), a unit
after a number (``+1.20 pp``) or a p-value (``p = 1.8e-66``, ``< 1e-300``), so a value is
always read whole. The HTML report keeps the same pieces together with no-break spaces.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from tabulate import tabulate

GAP = 2
"""Spaces between two columns of a ``simple`` tabulate table."""
PAD = 2
"""Spaces tabulate adds to the widest header line of a column."""
PACKED = 30
"""Width a wide column is counted at when columns are split into blocks (it wraps)."""
_KEEP = "\u00a0"  # a space that textwrap does not break at (it splits on ASCII whitespace)
_BRACKETED = re.compile(r"\[[^\[\]]*\]|\((?:df )?[\d\s.,:%+\-\[\]e]*\)")
_GLUED = re.compile(r"(?<=\d) (?=pp\b|%)|(?<=\bp) (?==)|(?<==) (?=[\d<.-])|(?<=<) (?=\d)")


def keep_together(text: str) -> str:
    """``text`` with a no-break space (U+00A0) wherever a line must not break (see the module
    doc): for textwrap here, and for a browser in the HTML report."""
    text = _BRACKETED.sub(lambda m: m.group(0).replace(" ", _KEEP), text)
    return _GLUED.sub(_KEEP, text)


def wrap_lines(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters where it can break (see module doc);
    an unbreakable piece longer than ``width`` keeps its own line. Existing line breaks stay."""
    out: list[str] = []
    for line in text.split("\n"):
        pieces = textwrap.wrap(
            keep_together(line), width, break_long_words=False, break_on_hyphens=False
        )
        out.extend(p.replace(_KEEP, " ") for p in pieces or [""])
    return out


def fill(text: str, width: int | None) -> str:
    """A paragraph wrapped to ``width`` (unchanged when ``width`` is None)."""
    return text if width is None else "\n".join(wrap_lines(text, width))


def _width(cell: str) -> int:
    return max((len(line) for line in cell.split("\n")), default=0)


def _narrowest(cell: str) -> int:
    """The width of the longest piece of ``cell`` that cannot be broken."""
    return max((len(piece) for piece in wrap_lines(cell, 1)), default=0)


def _total(widths: Sequence[int]) -> int:
    return sum(widths) + GAP * (len(widths) - 1)


class _Column:
    """One column: its header (which tabulate pads by :data:`PAD`) and its cells."""

    def __init__(self, header: str, cells: list[str]) -> None:
        self.header, self.cells = header, cells
        self.natural = max([_width(header) + PAD, *(_width(c) for c in cells)])
        self.floor = max([_narrowest(header) + PAD, *(_narrowest(c) for c in cells)])

    def wrapped(self, limit: int) -> tuple[str, list[str]]:
        """Header and cells wrapped so that the column is at most ``limit`` wide."""
        header = "\n".join(wrap_lines(self.header, limit - PAD))
        return header, ["\n".join(wrap_lines(c, limit)) for c in self.cells]


def _limits(columns: Sequence[_Column], width: int) -> list[int]:
    """Per-column widths that fit ``width`` wrapping as few columns as it can: the column
    that gains most by wrapping is wrapped first, each down to its unbreakable pieces."""
    limits = [c.natural for c in columns]
    excess = _total(limits) - width
    for i in sorted(range(len(columns)), key=lambda i: columns[i].floor - limits[i]):
        if excess <= 0:
            break
        cut = min(limits[i] - columns[i].floor, excess)
        limits[i] -= cut
        excess -= cut
    return limits


def _render(columns: Sequence[_Column], limits: Sequence[int]) -> str:
    wrapped = [c.wrapped(lim) for c, lim in zip(columns, limits, strict=True)]
    headers = [h for h, _ in wrapped]
    rows = [list(r) for r in zip(*(cells for _, cells in wrapped), strict=True)]
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


def _blocks(columns: Sequence[_Column], width: int) -> list[list[int]]:
    """Column indices per block: each block starts with column 0, then as many columns as
    fit at their natural widths, a wide column counted at :data:`PACKED` (at least one)."""
    blocks: list[list[int]] = []
    current = [0]
    for i in range(1, len(columns)):
        packed = [max(columns[j].floor, min(columns[j].natural, PACKED)) for j in [*current, i]]
        if len(current) > 1 and _total(packed) > width:
            blocks.append(current)
            current = [0]
        current.append(i)
    blocks.append(current)
    return blocks


def fit_table(headers: Sequence[str], rows: Sequence[Sequence[object]], width: int | None) -> str:
    """A ``simple`` table at most ``width`` columns wide where the cells allow it (every
    value whole): cells wrapped at spaces, then, if that is not enough, the columns split
    into blocks, each block repeating the first column. ``width`` None: one line per row."""
    columns = [_Column(str(h), [str(r[i]) for r in rows]) for i, h in enumerate(headers)]
    if width is None or _total([c.natural for c in columns]) <= width:
        return tabulate(rows, headers=list(headers), tablefmt="simple", disable_numparse=True)
    limits = _limits(columns, width)
    if _total(limits) <= width or len(columns) < 3:
        return _render(columns, limits)
    parts = []
    for block in _blocks(columns, width):
        cols = [columns[i] for i in block]
        parts.append(_render(cols, _limits(cols, width)))
    return "\n\n".join(parts)

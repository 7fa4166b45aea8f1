"""A sweep's design in words (``validate``, reports): its points, resolution, generators,
defining relation and alias table, wrapped to a width. Plain Python: no numpy."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import Any

from uno_stats.scenario.designs import (
    LETTERS,
    alias_table_of,
    defining_words,
    fractional_plan,
    resolution_of,
    word_length_pattern,
)

ROMAN = {3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII"}
MAX_WORDS = 63
"""A longer defining relation is shown by its shortest words and word-length pattern."""


def _wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    return textwrap.wrap(
        text,
        width,
        initial_indent=indent,
        subsequent_indent=indent + "    ",
        break_on_hyphens=False,
    )


def _wrap_items(
    head: str, items: Sequence[str], sep: str, width: int, indent: str = "  "
) -> list[str]:
    """``head`` then ``items`` joined by ``sep``, broken only between items."""
    lines, line = [], indent + head
    for index, item in enumerate(items):
        piece = item + (sep.rstrip() if index < len(items) - 1 else "")
        glue = "" if index == 0 else " "
        if index and len(line) + len(glue) + len(piece) > width:
            lines.append(line)
            line, glue = indent + "    ", ""
        line += glue + piece
    return [*lines, line]


def design_lines(
    sweep: dict[str, list], design: dict[str, Any] | None, width: int = 100
) -> list[str]:
    """The lines describing a sweep's design ([] for the full factorial, the default)."""
    if design is None:
        return []
    total = math.prod(len(values) for values in sweep.values())
    if design["type"] == "random":
        head = (
            f"design: random (Latin hypercube), {design['points']:,} of the {total:,} points, "
            f"drawn from seed {design['seed']}"
        )
        return _wrap(head, width, "")
    return fractional_lines(list(sweep), design["resolution"], width)


def fractional_lines(factors: Sequence[str], resolution: int, width: int = 100) -> list[str]:
    """The fractional design of ``factors`` for ``resolution``: what it is and its aliases."""
    k = len(factors)
    runs, generators, _ = fractional_plan(k, resolution)
    words = defining_words(generators)
    achieved = resolution_of(words)
    p = len(generators)
    name = f"2^({k}-{p})" if p else f"2^{k} (the full factorial: no fraction needed)"
    reached = f"resolution {ROMAN.get(achieved, achieved)}" if achieved else "every effect clear"
    head = f"design: {name} fractional factorial, {runs} of the {2**k:,} points"
    lines = _wrap(f"{head}, {reached} (asked: {resolution})", width, "")
    legend = [f"{LETTERS[i]} = {f}" for i, f in enumerate(factors)]
    lines += _wrap_items("factors: ", legend, ", ", width)
    if not generators:
        return lines
    lines += _wrap_items("generators: ", generators, ", ", width)
    if len(words) <= MAX_WORDS:
        lines += _wrap_items("defining relation: I = ", words, " =", width)
    else:
        shortest = [w for w in words if len(w) == achieved]
        pattern = ", ".join(
            f"{n} of length {length}"
            for length, n in enumerate(word_length_pattern(words, k), start=3)
            if n
        )
        lines += _wrap(f"defining relation: {len(words)} words ({pattern})", width)
        lines += _wrap_items("the shortest: I = ", shortest, " =", width, "    ")
    return lines + alias_lines(factors, words, width)


def alias_lines(factors: Sequence[str], words: Sequence[str], width: int = 100) -> list[str]:
    """Main effects and two-factor interactions with their aliases (three-factor and higher
    terms ignored): the clear ones named together, each alias chain once."""
    table = alias_table_of(factors, words, 2)
    clear_main = [term for term, found in table if not found and ":" not in term]
    clear_two = sum(1 for term, found in table if not found and ":" in term)
    lines = ["  aliases (main effects and two-factor interactions; 3-factor and higher ignored):"]
    if len(clear_main) == len(factors):
        lines += _wrap(
            "every main effect is clear of main effects and two-factor interactions", width, "    "
        )
    elif clear_main:
        lines += _wrap(f"clear main effects: {', '.join(clear_main)}", width, "    ")
    pairs = len(factors) * (len(factors) - 1) // 2
    if pairs and clear_two == pairs:
        lines += _wrap(
            "every two-factor interaction is clear of main effects and the other "
            "two-factor interactions",
            width,
            "    ",
        )
    elif clear_two:
        lines += _wrap(
            f"{clear_two} of the {pairs} two-factor interactions are clear", width, "    "
        )
    seen: set[str] = set()
    for term, found in table:
        if not found or term in seen:
            continue
        seen.update([term, *found])
        lines += _wrap_items("", [term, *found], " =", width, "    ")
    return lines

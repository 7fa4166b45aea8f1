"""Experimental designs for sweeps (SCENARIO.md ``design:``): which points a sweep has.

``full`` is the cartesian product of the axes (first axis slowest). ``fractional`` is a
regular two-level 2^(k-p) fractional factorial, looked up in :data:`TABLE`: the fewest runs
that reach the requested resolution, with the tables' (minimum-aberration) generators. ``random`` is
a Latin hypercube over the listed values of each axis, drawn from a seed.

Coding: an axis's first listed value is level 0 (coded -1), its second level 1 (+1). The
factors are lettered A, B, ... in file order (I is skipped: it names the identity); the
first k-p are the base factors, whose runs are in standard (Yates) order (A changes fastest),
and each generated factor's column is the product of its generator's base columns.

The table (:data:`TABLE`) is D. C. Montgomery, *Design and Analysis of Experiments*, Table
8.14 ("Selected 2^(k-p) fractional factorial designs"; cf. Box, Hunter & Hunter,
*Statistics for Experimenters*, 2nd ed., Table 6.22) for k <= 11 and the 16-run
resolution III designs up to 15 factors; the 32-run resolution IV designs for 12 to 16
factors are NIST/SEMATECH Dataplot's table DEXRES4 (after Box, Hunter & Hunter). Those
tables stop at 128 runs: the 256-run resolution V/VI designs for 12 to 15 factors were found
here by a search for the smallest word-length pattern. Every row, tabulated or found, is
proved minimum aberration among the regular designs of its size and resolution by
``scripts/minimum_aberration.py``, an exhaustive branch and bound over all of them up to
relabelling of the factors, which also finds each row's pattern again from no bound (tested).

Everything but the ``Design.levels`` array is plain Python, so that reading a scenario
(``validate``) needs no numpy.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
"""Factor letters in file order; I is skipped (it names the identity, I = ABCE = ...)."""

MONTGOMERY = "Montgomery, Design and Analysis of Experiments, Table 8.14"
NIST = "NIST/SEMATECH Dataplot DEXRES4 (after Box, Hunter & Hunter)"
SEARCHED = "found here, proved minimum aberration by scripts/minimum_aberration.py"


@dataclass(frozen=True)
class TableRow:
    """One tabulated 2^(k-p) design: its runs, the table's resolution, generators, source."""

    k: int
    runs: int
    resolution: int
    generators: tuple[str, ...]
    source: str


def _rows(source: str, *rows: tuple[int, int, int, str]) -> list[TableRow]:
    return [TableRow(k, n, r, tuple(g.split()), source) for k, n, r, g in rows]


_III16 = "E=ABC F=BCD G=ACD H=ABD J=ABCD K=AB L=AC M=AD N=BC O=BD P=CD"
_IV32 = "F=ABC G=ABD H=ABE J=ACD K=ACE L=ADE M=BCD N=BCE O=BDE P=CDE Q=ABCDE"
_NIST32 = {  # DEXRES4 numbers the factors 1-9, 0, A-F: here in letters A..Q
    k: " ".join(_IV32.split()[: k - 5]) for k in range(12, 17)
}

TABLE: tuple[TableRow, ...] = tuple(
    _rows(
        MONTGOMERY,
        (3, 4, 3, "C=AB"),
        (4, 8, 4, "D=ABC"),
        (5, 8, 3, "D=AB E=AC"),
        (5, 16, 5, "E=ABCD"),
        (6, 8, 3, "D=AB E=AC F=BC"),
        (6, 16, 4, "E=ABC F=BCD"),
        (6, 32, 6, "F=ABCDE"),
        (7, 8, 3, "D=AB E=AC F=BC G=ABC"),
        (7, 16, 4, "E=ABC F=BCD G=ACD"),
        (7, 32, 4, "F=ABCD G=ABDE"),
        (7, 64, 7, "G=ABCDEF"),
        (8, 16, 4, "E=BCD F=ACD G=ABC H=ABD"),
        (8, 32, 4, "F=ABC G=ABD H=BCDE"),
        (8, 64, 5, "G=ABCD H=ABEF"),
        (8, 128, 8, "H=ABCDEFG"),
        (9, 16, 3, "E=ABC F=BCD G=ACD H=ABD J=ABCD"),
        (9, 32, 4, "F=BCDE G=ACDE H=ABDE J=ABCE"),
        (9, 64, 4, "G=ABCD H=ACEF J=CDEF"),
        (9, 128, 6, "H=ACDFG J=BCEFG"),
        (10, 16, 3, "E=ABC F=BCD G=ACD H=ABD J=ABCD K=AB"),
        (10, 32, 4, "F=ABCD G=ABCE H=ABDE J=ACDE K=BCDE"),
        (10, 64, 4, "G=BCDF H=ACDF J=ABDE K=ABCE"),
        (10, 128, 5, "H=ABCG J=BCDE K=ACDF"),
        (11, 16, 3, "E=ABC F=BCD G=ACD H=ABD J=ABCD K=AB L=AC"),
        (11, 32, 4, "F=ABC G=BCD H=CDE J=ACD K=ADE L=BDE"),
        (11, 64, 4, "G=CDE H=ABCD J=ABF K=BDEF L=ADEF"),
        (11, 128, 5, "H=ABCG J=BCDE K=ACDF L=ABCDEFG"),
        *((k, 16, 3, " ".join(_III16.split()[: k - 4])) for k in range(12, 16)),
    )
    + _rows(NIST, *((k, 32, 4, _NIST32[k]) for k in range(12, 17)))
    + _rows(
        SEARCHED,
        (12, 256, 6, "J=ACDEF K=ABEGH L=ABCDH M=BDEFG"),
        (13, 256, 5, "J=ABDFG K=BCDEH L=ADEFH M=CEFG N=ABCGH"),
        (14, 256, 5, "J=ADEGH K=BCDGH L=BCDE M=ABCDFH N=BDEFG O=ACDEF"),
        (15, 256, 5, "J=ABDEF K=BCEFH L=ACEFG M=ABCDEGH N=CDEF O=ABCDFG P=BDEFGH"),
    )
)
RESOLUTIONS = (3, 4, 5)


class DesignError(ValueError):
    """A design that cannot be built; the message says what is possible."""


@dataclass(frozen=True)
class Design:
    """The points of a sweep: one row of level indices per point, in the sweep's order."""

    kind: str  # "full" | "fractional" | "random"
    factors: tuple[str, ...]  # the sweep's axis names in file order, e.g. "rules.jump_in"
    levels: np.ndarray  # (points, k) int32 of level indices (0 = first value)
    generators: tuple[str, ...]  # fractional: e.g. ("E=ABC", "F=BCD"); letters A.. in order
    words: tuple[str, ...]  # fractional: the defining relation's words, e.g. ("ABCE", ...)
    resolution: int | None  # fractional: the shortest word's length (None: no words)

    @property
    def points(self) -> int:
        """The number of points (rows)."""
        return int(self.levels.shape[0])

    def record(self) -> dict[str, Any]:
        """What a sweep manifest keeps to rebuild this design (:func:`design_from_record`)."""
        return {
            "kind": self.kind,
            "resolution": self.resolution,
            "generators": list(self.generators),
            "points": self.points,
        }


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


def _mask(letters: str) -> int:
    return sum(1 << LETTERS.index(letter) for letter in letters)


def _letters(mask: int) -> str:
    return "".join(LETTERS[i] for i in range(mask.bit_length()) if mask >> i & 1)


def generator_words(generators: Sequence[str]) -> list[int]:
    """Each generator ``X=ABC`` as its word's mask (the letters of ABCX)."""
    return [_mask(g.replace("=", "")) for g in generators]


def defining_words(generators: Sequence[str]) -> tuple[str, ...]:
    """Every word of the defining relation (all products of the generators' words), sorted
    by length, then letter order."""
    masks = generator_words(generators)
    words = set()
    for r in range(1, len(masks) + 1):
        for combo in itertools.combinations(masks, r):
            word = 0
            for mask in combo:
                word ^= mask
            words.add(word)
    ordered = sorted(words, key=lambda w: (_popcount(w), [i for i in range(25) if w >> i & 1]))
    return tuple(_letters(w) for w in ordered)


def word_length_pattern(words: Sequence[str], k: int) -> tuple[int, ...]:
    """(A3, A4, ..., Ak): the number of words of each length from 3 to k."""
    return tuple(sum(len(w) == n for w in words) for n in range(3, k + 1))


def resolution_of(words: Sequence[str]) -> int | None:
    """The resolution: the length of the shortest word (None for a full factorial)."""
    return min((len(w) for w in words), default=None)


def _candidates(k: int) -> list[tuple[int, tuple[str, ...], int | None]]:
    """(runs, generators, resolution) for k factors: the full factorial and the table's."""
    rows = [(row.runs, row.generators, row.resolution) for row in TABLE if row.k == k]
    return [(2**k, (), None), *rows]


def max_factors(resolution: int) -> int:
    """The most two-level factors a tabulated design of at least ``resolution`` holds."""
    return max(row.k for row in TABLE if row.resolution >= resolution)


def fractional_plan(k: int, resolution: int) -> tuple[int, tuple[str, ...], int | None]:
    """(runs, generators, resolution) of the fewest-run design of ``k`` factors reaching
    ``resolution``; :class:`DesignError` saying what is possible if none is tabulated."""
    if resolution not in RESOLUTIONS:
        raise DesignError(f"resolution {resolution} is not tabulated: 3, 4 or 5")
    fits = [c for c in _candidates(k) if c[2] is None or c[2] >= resolution]
    if not 1 <= k <= max_factors(resolution):
        limits = ", ".join(f"{max_factors(r)} at resolution {r}" for r in RESOLUTIONS)
        raise DesignError(
            f"{k} two-level axes at resolution {resolution}: the tabulated designs hold at "
            f"most {limits} (or use type: random)"
        )
    return min(fits, key=lambda c: c[0])


def fractional_rows(k: int, resolution: int) -> list[tuple[int, ...]]:
    """The level indices (0/1) of :func:`fractional_plan`'s design, run by run."""
    return regular_rows(k, fractional_plan(k, resolution)[1])


def regular_rows(k: int, generators: Sequence[str]) -> list[tuple[int, ...]]:
    """The 2^(k-p) runs of ``generators`` (``X=ABC``, base letters only): the base factors in
    Yates order (A fastest), each generated factor the product of its letters' columns."""
    base = k - len(generators)
    columns = [_mask(g.partition("=")[2]) for g in generators]
    named = [g.partition("=")[0] for g in generators]
    if named != list(LETTERS[base:k]) or any(column >> base for column in columns):
        raise DesignError(
            f"generators {list(generators)}: {LETTERS[base:k]} from base letters {LETTERS[:base]}"
        )
    rows = []
    for run in range(2**base):
        base_levels = tuple(run >> j & 1 for j in range(base))
        # a product of +-1 codes is +1 when an even number of them are -1 (level 0)
        added = tuple(1 - _popcount(~run & column) % 2 for column in columns)
        rows.append(base_levels + added)
    return rows


def random_rows(sizes: Sequence[int], points: int, seed: int) -> list[tuple[int, ...]]:
    """A Latin hypercube of ``points`` distinct rows: each axis's values equally often (to
    within one), the columns shuffled independently from ``seed``."""
    total = math.prod(sizes)
    if not 2 <= points <= total:
        raise DesignError(f"{points} points: from 2 to {total:,} (the full product)")
    stream = random.Random(f"uno-stats design {seed}")  # a text seed: the same everywhere
    for _ in range(1000):
        columns = []
        for size in sizes:
            column = [i * size // points for i in range(points)]
            stream.shuffle(column)
            columns.append(column)
        rows = list(zip(*columns, strict=True))
        if len(set(rows)) == points:
            return [tuple(row) for row in rows]
    raise DesignError(f"no Latin hypercube of {points} distinct points found: ask for fewer")


def _array(rows: list[tuple[int, ...]], k: int) -> np.ndarray:
    import numpy as np

    return np.array(rows, dtype=np.int32).reshape(len(rows), k)


def full_design(factors: Sequence[str], sizes: Sequence[int]) -> Design:
    """The cartesian product of the axes (``sizes`` values each), first axis slowest; its
    levels built as one array (100,000 points: 0.8 MB, no tuple per point)."""
    import numpy as np

    levels = np.indices(tuple(sizes), dtype=np.int32).reshape(len(sizes), -1).T
    return Design("full", tuple(factors), np.ascontiguousarray(levels), (), (), None)


def fractional_design(factors: Sequence[str], resolution: int) -> Design:
    """The tabulated 2^(k-p) design of ``factors`` (two values each) for ``resolution``."""
    return regular_design(factors, fractional_plan(len(factors), resolution)[1])


def regular_design(factors: Sequence[str], generators: Sequence[str]) -> Design:
    """The regular 2^(k-p) design of ``factors`` with these ``generators`` (see
    :func:`regular_rows`): a recorded design rebuilt as it was run."""
    words = defining_words(generators)
    rows = regular_rows(len(factors), generators)
    resolution = resolution_of(words)
    array = _array(rows, len(factors))
    return Design("fractional", tuple(factors), array, tuple(generators), words, resolution)


def random_design(factors: Sequence[str], sizes: Sequence[int], points: int, seed: int) -> Design:
    """A Latin hypercube of ``points`` distinct points over the axes' values."""
    rows = random_rows(sizes, points, seed)
    return Design("random", tuple(factors), _array(rows, len(factors)), (), (), None)


def design_from_record(
    factors: Sequence[str], sizes: Sequence[int], record: dict[str, Any] | None
) -> Design:
    """Rebuild a full or fractional design from :meth:`Design.record` (None: full).

    A random design's points are its sweep points' assignments; rebuild it from those.
    """
    if record is None or record.get("kind") == "full":
        return full_design(factors, sizes)
    if record.get("kind") == "fractional":
        design = regular_design(factors, [str(g) for g in record.get("generators", [])])
        if (design.resolution, design.points) != (record.get("resolution"), record.get("points")):
            raise DesignError(f"generators {record.get('generators')} do not give this design")
        return design
    raise DesignError(f"a {record.get('kind')} design is rebuilt from its points' assignments")


def aliases(design: Design, term: Sequence[str], max_order: int = 3) -> tuple[tuple[str, ...], ...]:
    """The terms (factor-name tuples, shortest first) confounded with ``term`` up to
    ``max_order`` factors: ``term`` times each word of the defining relation."""
    return _aliases(design.factors, design.words, term, max_order)


def _aliases(
    factors: Sequence[str], words: Sequence[str], term: Sequence[str], max_order: int
) -> tuple[tuple[str, ...], ...]:
    mask = sum(1 << factors.index(name) for name in term)
    found = {mask ^ _mask(word) for word in words}
    found = {m for m in found if m and _popcount(m) <= max_order}
    ordered = sorted(found, key=lambda m: (_popcount(m), [i for i in range(25) if m >> i & 1]))
    k = len(factors)
    return tuple(tuple(factors[i] for i in range(k) if m >> i & 1) for m in ordered)


def alias_table(design: Design, max_order: int = 2) -> list[tuple[str, list[str]]]:
    """Every main effect and interaction up to ``max_order`` factors (factor names joined by
    ':'), each with the terms up to ``max_order`` it is aliased with ([] when clear)."""
    return alias_table_of(design.factors, design.words, max_order)


def alias_table_of(
    factors: Sequence[str], words: Sequence[str], max_order: int
) -> list[tuple[str, list[str]]]:
    out = []
    for order in range(1, max_order + 1):
        for term in itertools.combinations(factors, order):
            confounded = _aliases(factors, words, term, max_order)
            out.append((":".join(term), [":".join(alias) for alias in confounded]))
    return out


def letter_legend(factors: Sequence[str]) -> list[str]:
    """``A = rules.jump_in`` for each factor, in order."""
    return [f"{LETTERS[i]} = {name}" for i, name in enumerate(factors)]

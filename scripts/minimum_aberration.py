"""Exhaustive check that a regular 2^(k-p) design has minimum aberration (Fries & Hunter 1980).

A branch and bound over every regular design of k two-level factors in 2^base runs whose
words are all at least ``resolution`` long, up to relabelling of the factors: the first
generator is taken as one of least weight and mapped to the first base factors, the
second (one of least weight among the rest) is reduced by the relabellings that keep the
first, and the rest are every set of columns of at least that weight. A partial design's
word-length pattern only grows as generators are added, so a branch is cut as soon as its
pattern is, in dictionary order, no smaller than the best one known. Starting from the
tabulated design's pattern, the search either proves that no design has a smaller one
(the tabulated design has minimum aberration) or returns one that has.

    .venv/bin/python scripts/minimum_aberration.py [K ...]    # default: the 256-run rows

prints, for each tabulated row of ``uno_stats.scenario.designs.TABLE`` with those k (and, as a
check of the search, the pattern it finds from no starting bound), the verdict and the
nodes searched. tests/scenario/test_designs.py runs it on the 256-run rows (marked slow).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numba as nb
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from uno_stats.scenario.designs import (
    LETTERS,
    TABLE,
    TableRow,
    defining_words,
    word_length_pattern,
)


@nb.njit(cache=True)
def _popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@nb.njit(cache=True)
def _compare(a: np.ndarray, b: np.ndarray) -> int:
    """-1, 0 or 1 as pattern ``a`` is smaller than, equal to or larger than ``b``."""
    for j in range(a.shape[0]):
        if a[j] < b[j]:
            return -1
        if a[j] > b[j]:
            return 1
    return 0


@nb.njit(cache=True)
def _search(p, shortest, best, columns, firsts, seconds):
    """The branch and bound; ``best`` (A_0..A_k) is lowered in place; returns the generators
    of a strictly better design (all -1 if none) and the number of nodes searched."""
    k = best.shape[0] - 1
    words_base = np.zeros(1 << p, np.int64)  # each word: its base letters ...
    words_added = np.zeros(1 << p, np.int64)  # ... and its generated letters, as bit masks
    pattern = np.zeros((p + 1, k + 1), np.int64)  # pattern[d]: the words of d generators
    chosen = np.zeros(p, np.int64)
    found = np.full(p, -1, np.int64)
    start = np.zeros(p + 1, np.int64)
    nodes = 0
    for f in range(firsts.shape[0]):
        for s in range(seconds.shape[1] if p > 1 else 1):
            depth = 0
            lowest = 0  # weight of the second generator: the rest are at least as heavy
            while True:  # depth 0 and 1: the first generator, then the reduced second
                if depth == 0:
                    g = firsts[f]
                elif depth == 1:
                    g = seconds[f, s]
                    if g < 0:
                        break
                    lowest = _popcount(g)
                else:
                    break
                half = 1 << depth
                pattern[depth + 1, :] = pattern[depth, :]
                legal = True
                for w in range(half):
                    base, added = words_base[w] ^ g, words_added[w] | (1 << depth)
                    length = _popcount(base) + _popcount(added)
                    legal &= length >= shortest
                    pattern[depth + 1, length] += 1
                    words_base[half + w], words_added[half + w] = base, added
                if not legal:
                    break
                chosen[depth] = g
                depth += 1
                if depth == p:
                    break
            if depth < min(p, 2):
                continue
            if p <= 2:
                if _compare(pattern[p], best) < 0:
                    best[:] = pattern[p]
                    found[:] = chosen
                continue
            start[depth] = 0
            while depth >= 2:
                if depth == p:
                    if _compare(pattern[p], best) < 0:
                        best[:] = pattern[p]
                        found[:] = chosen
                    depth -= 1
                    continue
                i = start[depth]
                if i >= columns.shape[0]:
                    depth -= 1
                    continue
                start[depth] = i + 1
                g = columns[i]
                if _popcount(g) < lowest or g == chosen[0] or g == chosen[1]:
                    continue
                nodes += 1
                half = 1 << depth
                pattern[depth + 1, :] = pattern[depth, :]
                legal = True
                for w in range(half):
                    base, added = words_base[w] ^ g, words_added[w] | (1 << depth)
                    length = _popcount(base) + _popcount(added)
                    if length < shortest:
                        legal = False
                        break
                    pattern[depth + 1, length] += 1
                    words_base[half + w], words_added[half + w] = base, added
                if not legal:
                    continue
                order = _compare(pattern[depth + 1], best)
                if order > 0 or (order == 0 and depth + 1 < p):
                    continue  # no completion of this branch can be smaller
                chosen[depth] = g
                depth += 1
                start[depth] = i + 1  # the rest in increasing order: each set once
    return found, nodes


def search(
    k: int, base: int, shortest: int, bound: list[int] | None = None
) -> tuple[tuple[int, ...], tuple[str, ...] | None, int]:
    """The smallest word-length pattern (A_shortest..A_k) of a regular design of ``k``
    factors in 2^``base`` runs with no word shorter than ``shortest``, searched below
    ``bound`` (a pattern from A_shortest; None: no bound); with the generators of a design
    that beats the bound (None if none does) and the nodes searched."""
    p = k - base
    pad = [0] * shortest
    best = np.array(pad + (bound if bound is not None else [1 << 40] * (k + 1 - shortest)))
    columns = np.array(
        sorted(
            (m for m in range(1 << base) if _popcount(m) >= shortest - 1),
            key=lambda m: (_popcount(m), m),
        ),
        np.int64,
    )
    firsts, seconds = [], []
    for w in range(max(2, shortest - 1), base + 1):
        firsts.append((1 << w) - 1)  # a lightest generator, relabelled onto the first w
        # the second, reduced by the relabellings that keep the first: a letters of the first
        # w and b of the others, of weight at least w (the first is a lightest)
        seconds.append(
            [
                ((1 << a) - 1) | (((1 << b) - 1) << w)
                for a in range(w + 1)
                for b in range(base - w + 1)
                if a + b >= w and not (a == w and b == 0)
            ]
        )
    table = np.full((len(firsts), max(len(s) for s in seconds)), -1, np.int64)
    for i, row in enumerate(seconds):
        table[i, : len(row)] = row
    found, nodes = _search(p, shortest, best, columns, np.array(firsts, np.int64), table)
    generators = None
    if found[0] >= 0:
        generators = tuple(
            LETTERS[base + j] + "=" + "".join(LETTERS[i] for i in range(base) if int(g) >> i & 1)
            for j, g in enumerate(found)
        )
    return tuple(int(a) for a in best[shortest:]), generators, int(nodes)


def check(row: TableRow) -> tuple[tuple[str, ...] | None, int]:
    """A design strictly better than the tabulated ``row`` (None: the row has minimum
    aberration among regular designs of its resolution), and the nodes searched."""
    base = row.k - len(row.generators)
    pattern = list(word_length_pattern(defining_words(row.generators), row.k))
    bound = pattern[row.resolution - 3 :]
    _, better, nodes = search(row.k, base, row.resolution, bound)
    return better, nodes


def main(argv: list[str]) -> int:
    """Check the tabulated rows with the given k (default: the 256-run rows)."""
    ks = {int(a) for a in argv}
    rows = [r for r in TABLE if (r.k in ks if ks else r.runs == 256)]
    failed = 0
    for row in rows:
        began = time.perf_counter()
        better, nodes = check(row)
        base = row.k - len(row.generators)
        unbounded, _, _ = search(row.k, base, row.resolution)
        seconds = time.perf_counter() - began
        tabulated = word_length_pattern(defining_words(row.generators), row.k)
        verdict = "minimum aberration" if better is None else f"beaten by {' '.join(better)}"
        agrees = unbounded == tabulated[row.resolution - 3 :]
        failed += better is not None or not agrees
        print(
            f"{row.k} factors, {row.runs} runs, resolution {row.resolution}: {verdict}; "
            f"pattern from A{row.resolution} {unbounded} found unbounded "
            f"({'the table' if agrees else 'NOT the table'}'s); {nodes:,} nodes, {seconds:.1f} s"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Histograms of result columns, from a frame of rows or from a run's summed part tallies.

The questions that need only how often each value (or combination of values) occurs take a
:class:`RowCounts`: :class:`FrameCounts` counts them from a polars ``LazyFrame`` (one
group-by each), :class:`TallyCounts` reads them from the tallies written with the parts
(:mod:`uno_stats.store.tally_sums`). Both give the same counts, so the answers built on them
are the same figures.
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import Protocol

import numpy as np
import polars as pl

from uno_stats.analysis.estimates import value_counts
from uno_stats.errors import ResultsError
from uno_stats.store.tallies import JOINTS
from uno_stats.store.tally_sums import Tallies


class RowCounts(Protocol):
    """What a histogram question reads: rows, columns present, histograms."""

    @property
    def rows(self) -> int:
        """Rows (rounds) in all."""
        ...

    def has(self, column: str) -> bool:
        """Whether the results carry ``column``."""
        ...

    def counts(self, column: str) -> tuple[np.ndarray, np.ndarray]:
        """The distinct set values of ``column`` (ascending, float64) and their counts."""
        ...

    def joint(self, *columns: str) -> tuple[np.ndarray, np.ndarray]:
        """The distinct rows of ``columns`` (int64, ascending, rows where all are set) and
        their counts."""
        ...


class FrameCounts:
    """:class:`RowCounts` of the rows of a lazy frame."""

    def __init__(self, lf: pl.LazyFrame) -> None:
        self.lf = lf
        self.names = set(lf.collect_schema().names())

    @cached_property
    def rows(self) -> int:
        return int(self.lf.select(pl.len()).collect().item())

    def has(self, column: str) -> bool:
        return column in self.names

    def counts(self, column: str) -> tuple[np.ndarray, np.ndarray]:
        return value_counts(self.lf, column)

    def joint(self, *columns: str) -> tuple[np.ndarray, np.ndarray]:
        names = list(columns)
        table = (
            self.lf.select(pl.col(c).cast(pl.Int64) for c in names)
            .drop_nulls()
            .group_by(names)
            .agg(pl.len().alias("k"))
            .sort(names)
            .collect()
        )
        keys = np.stack([table[c].to_numpy() for c in names], axis=1).astype(np.int64)
        return keys.reshape(-1, len(names)), table["k"].to_numpy().astype(np.int64)


class TallyCounts:
    """:class:`RowCounts` of a run's summed part tallies."""

    def __init__(self, tallies: Tallies) -> None:
        self.tallies = tallies

    @property
    def rows(self) -> int:
        return self.tallies.rows

    def has(self, column: str) -> bool:
        return column in self.tallies.columns

    def counts(self, column: str) -> tuple[np.ndarray, np.ndarray]:
        found = self.tallies.counted(column)
        if found is None:
            raise ResultsError(f"the part tallies count no column {column!r}")
        return found

    def joint(self, *columns: str) -> tuple[np.ndarray, np.ndarray]:
        for key, names in JOINTS.items():
            if names == columns:
                found = self.tallies.joint(key)
                if found is None:
                    return np.zeros((0, len(columns)), np.int64), np.zeros(0, np.int64)
                return found
        raise ResultsError(f"the part tallies hold no joint histogram of {', '.join(columns)}")


def counts_mean_sd(values: np.ndarray, counts: np.ndarray) -> tuple[int, float, float]:
    """n, mean and sample sd of integer ``values`` occurring ``counts`` times, from exact
    integer sums (NaN where undefined)."""
    v, c = values.astype(np.int64), counts.astype(np.int64)
    n = int(c.sum())
    if n == 0:
        return 0, math.nan, math.nan
    total, squares = int((v * c).sum()), int((v * v * c).sum())
    mean = total / n
    if n < 2:
        return n, mean, math.nan
    var = (squares - total * total / n) / (n - 1)
    return n, mean, math.sqrt(max(var, 0.0))

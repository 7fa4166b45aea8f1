"""Two paired runs read a window of games at a time, down to the joint counts of a metric.

Paired runs (same seed and game count: game k of each starts from the same deal) are
compared game by game, and every paired method needs only how often each pair of values
occurs: the paired t its moments, McNemar its 2x2 table, the Wilcoxon signed-rank test the
differences' histogram, the paired bootstrap the distinct pairs
(:mod:`uno_stats.analysis.quantile_diff`), the comeback rate's delta method the distinct
per-game count vectors. So the rows are read one window at a time (one part of run a, with
the rows of run b holding the same games), each window is joined on ``game`` (and
``round``) and reduced to its distinct pairs and their counts, and the counts are added:
memory grows with the distinct pairs (a few thousand for integer columns), not the games.
The counts are those of the joined rows of the whole runs, so every figure is the one the
rows would give (tested).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from uno_stats.analysis.estimates import status_expr
from uno_stats.analysis.metrics import MetricSpec
from uno_stats.analysis.ratios import game_counts
from uno_stats.store.runs import Run

COUNT = "k"
RATIO_COLUMNS = ("num", "den", "num_b", "den_b")  # a ratio metric's per-game counts
_COMPACT = 32  # windows' counts kept before they are added up


@dataclass(frozen=True)
class Joint:
    """Distinct rows of paired values (columns ``a``, ``b``; for a ratio metric ``num``,
    ``den``, ``num_b``, ``den_b``) and how many paired rows show each (``k``), sorted."""

    frame: pl.DataFrame

    @classmethod
    def of_rows(cls, rows: np.ndarray, names: tuple[str, ...] = RATIO_COLUMNS) -> Joint:
        """The joint counts of the rows of a (rows, columns) array, one row per paired game
        (or round), columns named ``names``."""
        frame = pl.DataFrame(np.asarray(rows, dtype=np.float64), schema=list(names), orient="row")
        return cls(_count(frame, list(names)).sort(list(names)))

    @property
    def counts(self) -> np.ndarray:
        """How many paired rows show each distinct row (int64)."""
        return self.frame[COUNT].to_numpy().astype(np.int64)

    @property
    def n(self) -> int:
        """Paired rows in all."""
        return int(self.frame[COUNT].sum())

    def column(self, name: str) -> np.ndarray:
        """One column of the distinct rows, as float64."""
        return self.frame[name].cast(pl.Float64).to_numpy()

    def values(self, names: tuple[str, ...]) -> np.ndarray:
        """The distinct rows' ``names`` columns as a (rows, columns) float64 array."""
        return np.column_stack([self.column(n) for n in names])


class PairedWindows:
    """The rows of runs ``a`` and ``b`` as aligned windows of games: each part of ``a``
    (``a_parts``, lazy) with the rows of ``b`` holding the same games (:meth:`b_rows`), and
    all of ``b`` (``b_all``) to check that every row of ``b`` was met once.

    Runs whose parts do not say their games (and plain frames, :meth:`whole`) are one window.
    """

    def __init__(
        self,
        a_parts: list[pl.LazyFrame],
        b_all: pl.LazyFrame,
        b_parts: list[tuple[pl.LazyFrame, int, int]] | None = None,
    ):
        self.a_parts = a_parts
        self.b_all = b_all
        self.b_parts = b_parts  # b's parts with the games each holds; None: b read whole

    @classmethod
    def whole(cls, a_lf: pl.LazyFrame, b_lf: pl.LazyFrame) -> PairedWindows:
        """Every row of each frame as one window."""
        return cls([a_lf], b_lf)

    @classmethod
    def of_runs(cls, a: Run, b: Run) -> PairedWindows:
        """Windows by the parts of ``a`` (see the class doc)."""
        games_a, games_b = a.part_games(), b.part_games()
        if games_a is None or games_b is None or not games_a:
            return cls.whole(a.scan(), b.scan())
        a_parts = [a.scan_parts([path]) for path in dict.fromkeys(p for p, _, _ in games_a)]
        b_parts = [(b.scan_parts([path]), first, stop) for path, first, stop in games_b]
        return cls(a_parts, b.scan(), b_parts)

    def b_rows(self, low: int, high: int) -> pl.LazyFrame:
        """The rows of ``b`` whose game is ``low`` to ``high``: from the parts that, by the
        run's layout, hold them (a part holding others is read by the count check)."""
        window = pl.col("game").is_between(low, high)
        if self.b_parts is None:
            return (
                self.b_all if self.a_parts and len(self.a_parts) == 1 else self.b_all.filter(window)
            )
        frames = [lf for lf, first, stop in self.b_parts if first <= high and stop > low]
        if not frames:
            return self.b_all.clear()
        return pl.concat(frames).filter(window)


def _keys(spec: MetricSpec) -> list[str]:
    return ["game"] if spec.column == "match_rounds" else ["game", "round"]


def value_expr(lf: pl.LazyFrame, spec: MetricSpec) -> pl.Expr:
    """The metric's value in each row of ``lf`` (null where the row does not count)."""
    if spec.kind == "seat":
        won = status_expr(lf) == "won"
        return pl.when(won).then((pl.col("winner").cast(pl.Int64) == spec.seat).cast(pl.Int8))
    if spec.kind in ("first_mover", "first_mover_edge"):
        won = status_expr(lf) == "won"
        first = pl.col("first_player").cast(pl.Int64)
        return pl.when(won).then((pl.col("winner").cast(pl.Int64) == first).cast(pl.Int8))
    if spec.kind == "rate":
        return (status_expr(lf) == spec.status).cast(pl.Int8)
    if spec.kind == "chain":
        return (pl.col("longest_stack") >= int(spec.behind or 0)).cast(pl.Int8)
    return pl.col(str(spec.column))


def _selected(lf: pl.LazyFrame, spec: MetricSpec) -> pl.LazyFrame:
    """The rows of ``lf`` the metric pairs (match length: the rows that end a match)."""
    if spec.column == "match_rounds":
        return lf.filter(pl.col("match_rounds").is_not_null())
    return lf


def _values(lf: pl.LazyFrame, spec: MetricSpec, name: str) -> pl.DataFrame:
    return _selected(lf, spec).select(*_keys(spec), value_expr(lf, spec).alias(name)).collect()


def _game_counts(lf: pl.LazyFrame, spec: MetricSpec, name: str) -> pl.DataFrame:
    counts = game_counts(lf, spec)
    return counts if name == "a" else counts.rename({"num": "num_b", "den": "den_b"})


def _rows_of_b(windows: PairedWindows, spec: MetricSpec) -> int:
    """The rows of all of ``b`` that a window may meet: its games for a ratio metric."""
    lf = _selected(windows.b_all, spec)
    count = pl.col("game").n_unique() if spec.kind == "comeback" else pl.len()
    return int(lf.select(count).collect().item())


def paired_joint(windows: PairedWindows, spec: MetricSpec) -> Joint | None:
    """The joint counts of ``spec``'s value in the paired rows of the two runs (columns
    ``a``, ``b``, rows with a null dropped; for a comeback rate the per-game counts ``num``,
    ``den``, ``num_b``, ``den_b``); None when the rows do not line up one to one."""
    ratio = spec.kind == "comeback"
    keys, names = (["game"], list(RATIO_COLUMNS)) if ratio else (_keys(spec), ["a", "b"])
    read = _game_counts if ratio else _values
    pieces: list[pl.DataFrame] = []
    met = 0
    for a_lf in windows.a_parts:
        fa = read(a_lf, spec, "a")
        if fa.height == 0:
            continue
        low, high = fa["game"].min(), fa["game"].max()
        fb = read(windows.b_rows(int(low), int(high)), spec, "b")  # type: ignore[arg-type]
        joined = fa.join(fb, on=keys, how="inner")
        if not (joined.height == fa.height == fb.height):
            return None
        met += fb.height
        pieces.append(_count(joined.drop_nulls(names), names))
        if len(pieces) >= _COMPACT:
            pieces = [_add(pieces, names)]
    if met != _rows_of_b(windows, spec):  # b holds games that a lacks
        return None
    if not pieces:
        empty = pl.DataFrame(schema={**{n: pl.Float64 for n in names}, COUNT: pl.Int64})
        return Joint(empty)
    return Joint(_add(pieces, names).sort(names))


def paired_values(a_lf: pl.LazyFrame, b_lf: pl.LazyFrame, spec: MetricSpec) -> Joint | None:
    """:func:`paired_joint` of two frames read whole."""
    return paired_joint(PairedWindows.whole(a_lf, b_lf), spec)


def _count(rows: pl.DataFrame, names: list[str]) -> pl.DataFrame:
    return rows.group_by(names).agg(pl.len().cast(pl.Int64).alias(COUNT))


def _add(pieces: list[pl.DataFrame], names: list[str]) -> pl.DataFrame:
    return pl.concat(pieces).group_by(names).agg(pl.col(COUNT).sum())

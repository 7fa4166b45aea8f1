"""A run's tallies summed part by part: what a summary reads instead of the rows.

:func:`run_tallies` reads each part's tallies from its footer (:mod:`uno_stats.store.tallies`;
for a sweep point, that point's entry) and adds them up; a part written before parts carried
tallies (or with another version of them) is read row by row, one part at a time, and counted
by the same code, so both give the same figures and memory never holds more than a part.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from uno_stats.errors import ResultsError
from uno_stats.store.parts import POINT
from uno_stats.store.runs import PointRun, Run
from uno_stats.store.tallies import (
    LEVELS,
    SCORINGS,
    TALLIES_KEY,
    WHOLE,
    decode_tallies,
    table_tallies,
)

if TYPE_CHECKING:
    import numpy as np


def sum_counts(pieces: Iterable[list[list[int]]], width: int) -> tuple[np.ndarray, np.ndarray]:
    """Encoded histograms (``[[key column]..., counts]``) summed: the distinct key rows
    ``(m, width)`` int64 in ascending order and their total counts (int64, exact)."""
    import numpy as np

    keys, counts = [], []
    for piece in pieces:
        keys.append(np.array(piece[:width], dtype=np.int64).reshape(width, -1).T)
        counts.append(np.array(piece[width], dtype=np.int64))
    if not keys:
        return np.zeros((0, width), dtype=np.int64), np.zeros(0, dtype=np.int64)
    key, count = np.concatenate(keys), np.concatenate(counts)
    order = np.lexsort(key.T[::-1])
    key, count = key[order], count[order]
    if key.shape[0] == 0:
        return key, count
    starts = np.flatnonzero(np.r_[True, (np.diff(key, axis=0) != 0).any(axis=1)])
    return key[starts], np.add.reduceat(count, starts)


def _add(into: list[Any], more: list[Any]) -> list[Any]:
    """Nested lists of ints added element by element (Python ints: exact)."""
    return [_add(a, b) if isinstance(a, list) else a + b for a, b in zip(into, more, strict=True)]


class Tallies:
    """The tallies of a run's parts, added up (see the module doc)."""

    def __init__(self) -> None:
        self.rows = 0
        self.status = [0, 0, 0, 0]
        self.columns: set[str] = set()
        self._counted: dict[str, list[Any]] = {}
        self._joints: dict[str, list[Any]] = {}
        self._won: dict[str, list[Any]] = {}
        self.won_rounds = 0
        self.players: int | None = None
        self._moments: dict[str, list[Any]] = {}
        self.deficit_turns: list[int] | None = None
        self._deficit: np.ndarray | None = None

    def add(self, entry: dict[str, Any]) -> None:
        """Add one part's (one point's) tallies."""
        self.rows += entry["rows"]
        self.status = _add(self.status, entry["status"])
        self.columns.update(entry["columns"])
        for name, piece in entry["counted"].items():
            self._counted.setdefault(name, []).append(piece)
        for name, piece in entry["joints"].items():
            self._joints.setdefault(name, []).append(piece)
        won = entry.get("won")
        if won is None:
            return
        self.won_rounds += won["rounds"]
        for name in ("start", "max_deficit", "max_deficit_won"):
            if name in won:
                self._won.setdefault(name, []).append(won[name])
        if "players" in won:
            if self.players not in (None, won["players"]):
                raise ResultsError("parts of one run seat different numbers of players")
            self.players = won["players"]
            for name in (
                "sitters",
                "left",
                *(f"{k}_{s}" for k in ("edge", "scored") for s in SCORINGS),
            ):
                have = self._moments.get(name)
                self._moments[name] = won[name] if have is None else _add(have, won[name])
        if "deficit" in won:
            import numpy as np

            turns, cells, n, wins = won["deficit"]
            if self.deficit_turns not in (None, turns):
                raise ResultsError("parts of one run hold different checkpoint turns")
            if self._deficit is None:
                self.deficit_turns = turns
                self._deficit = np.zeros((2, len(turns) * LEVELS), dtype=np.int64)
            np.add.at(self._deficit[0], cells, n)
            np.add.at(self._deficit[1], cells, wins)

    def counted(self, name: str) -> tuple[np.ndarray, np.ndarray] | None:
        """The distinct set values of column ``name`` (ascending, float64) and their counts;
        None when the results lack the column."""
        if name not in self._counted:
            return None
        keys, counts = sum_counts(self._counted[name], 1)
        return keys[:, 0].astype(float), counts

    def joint(self, name: str) -> tuple[np.ndarray, np.ndarray] | None:
        """The joint histogram ``name`` (:data:`~uno_stats.store.tallies.JOINTS`): distinct
        key rows and counts; None when the results lack a column of it."""
        if name not in self._joints:
            return None
        return sum_counts(self._joints[name], len(self._joints[name][0]) - 1)

    def won(self, name: str) -> tuple[np.ndarray, np.ndarray] | None:
        """A histogram over the won rounds: ``start`` (dealer, first player, winner),
        ``max_deficit`` (every seat-round) or ``max_deficit_won`` (the winners')."""
        pieces = self._won.get(name)
        if not pieces:
            return None
        return sum_counts(pieces, len(pieces[0]) - 1)

    def moments(self, name: str) -> list[Any] | None:
        """Per-seat counts or moments of the won rounds: ``sitters`` ([seat-rounds, wins] per
        scenario seat), ``left``, ``scored_<scoring>`` ([n, sum, sum of squares] per scenario
        seat), ``edge_<scoring>`` (the first player's, the others' and the difference's)."""
        return self._moments.get(name)

    def deficit(self) -> tuple[list[int], np.ndarray] | None:
        """The checkpoint turns and the deficit counts, ``(2, turns * LEVELS)``: seat-rounds
        and wins by (turn index, deficit) cell; None without checkpoints."""
        if self.deficit_turns is None or self._deficit is None:
            return None
        return self.deficit_turns, self._deficit


@functools.lru_cache(maxsize=8)
def _footer_tallies(path: str, size: int, mtime_ns: int) -> dict[str, Any] | None:
    """The decoded tallies of the part at ``path`` (cached by its size and time, so the
    points of one sweep part decode it once); None when it has none of this version."""
    import pyarrow.parquet as pq

    metadata = pq.read_metadata(path).metadata or {}
    data = metadata.get(TALLIES_KEY)
    return None if data is None else decode_tallies(data)


def part_tallies(path: Path) -> dict[str, Any]:
    """The per-point tallies of the part at ``path``: from its footer, or counted from its
    rows when it has none (a part of an earlier version)."""
    stat = Path(path).stat()
    found = _footer_tallies(str(path), stat.st_size, stat.st_mtime_ns)
    if found is not None:
        return found
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except OSError as exc:
        raise ResultsError(f"{path}: a results part cannot be read ({exc})") from exc
    return table_tallies(table)


def run_tallies(run: Run) -> Tallies:
    """Every part's tallies of ``run`` (a sweep point: its entries) added up."""
    parts = run.part_files()
    if not parts:
        raise ResultsError(f"{run.path}: no result parts (has the run finished a chunk?)")
    key = str(run.point) if isinstance(run, PointRun) else WHOLE
    out = Tallies()
    for path in parts:
        entries = part_tallies(path)
        if key not in entries and WHOLE in entries and key != WHOLE:
            raise ResultsError(f"{path}: a part without a {POINT} column in a sweep")
        entry = entries.get(key)
        if entry is not None:
            out.add(entry)
    return out

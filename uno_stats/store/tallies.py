"""A part's tallies: the sufficient statistics of a summary, counted when the part is written.

Every question ``summary`` answers for a run (:func:`uno_stats.analysis.questions.answer_run`)
needs only exact integer counts and sums of its rows: how many rounds of each status, how
often each value of an integer column occurs (mean, sd, quantiles and shares all come from
that histogram), joint histograms of a few columns, and, over the won rounds, per-seat counts
and sums. :func:`table_tallies` counts them from a part's Arrow table as it is written (one
entry per point of a sweep's part); they are stored as zlib-compressed JSON (base64) in the part's
Parquet key-value metadata (:data:`TALLIES_KEY`), so the part's whole-file digest covers them
(docs/PERFORMANCE.md "Summaries in flat memory"). Summing them is
:mod:`uno_stats.store.tally_sums`.

A new integer column that a summary answers with its mean, quantiles or a share is one entry
in :data:`COUNTED` (or :data:`JOINTS` for a histogram of several columns together).
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import zlib
from typing import TYPE_CHECKING, Any

from uno_stats.engine.schema import CHECKPOINT_TURNS, CHECKPOINTS, NOT_REACHED, STATUS_NAMES
from uno_stats.errors import ResultsError
from uno_stats.store.tally_kernels import (
    LEVELS,
    deficit_sums,
    max_deficit_counts,
    points_sums,
    won_kernel,
)

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

TALLIES_KEY = b"uno_stats.tallies"
"""Key of a part's tallies in its Parquet key-value metadata (zlib-compressed JSON in base64)."""
TALLIES_VERSION = 1
"""Bumped when what a tally holds changes: parts with another version are read row by row."""
WHOLE = "all"
"""The entry of a part without a ``point`` column (a single run's)."""
COUNTED: tuple[str, ...] = (
    "turns",
    "longest_stack",
    "reshuffles",
    "largest_hand",
    "match_rounds",
    "eliminated",
    "last_standing",
    "roulette_draws",
)
"""Integer columns counted value by value over every round (nulls left out)."""
JOINTS: dict[str, tuple[str, ...]] = {
    "draws": ("turn_draws", "turn_draw_cards"),
    "match_wins": ("match_rounds", "match_winner"),
}
"""Joint histograms over every round where all their columns are set."""
DIRECTION_COLUMN = "first_direction"
"""The first mover's starting direction (+1 / -1), used when present."""
SCORINGS: tuple[str, ...] = ("points", "partners")
"""The two ways a won round's points are credited (:func:`seat_scores`)."""
WON_COLUMNS = frozenset(
    {"dealer", "first_player", "winner", "max_deficit", "points", "seating", CHECKPOINTS}
    | {DIRECTION_COLUMN}
    | {f"hands_t{t}" for t in CHECKPOINT_TURNS}
)
"""The columns the won rounds' tallies read."""


def seat_scores(points: np.ndarray, winner: np.ndarray, scoring: str) -> np.ndarray:
    """(rows, seats): the points each seat scored; the winner (under ``partners`` the
    winner's pair, both partners) collects the other hands' (pair's) remaining points."""
    import numpy as np

    n, players = points.shape
    total = points.sum(axis=1)
    if scoring == "partners":
        mine = np.arange(players)[None, :] % 2 == winner[:, None] % 2
        side = total - np.where(mine, points, 0).sum(axis=1)
        return np.where(mine, side[:, None], 0)
    rows = np.arange(n)
    out = np.zeros((n, players), dtype=np.int64)
    out[rows, winner] = total - points[rows, winner]
    return out


def deficit_counts(
    hands: np.ndarray, winner: np.ndarray, levels: int = LEVELS
) -> tuple[np.ndarray, np.ndarray]:
    """Seat-rounds and wins per (turn, deficit) bin, ``turn index * levels + deficit``, of
    ``(rows, turns, seats)`` checkpoint hands of won rounds (deficit: own hand minus the
    smallest); checkpoints not reached (:data:`NOT_REACHED`) are not counted.

    A round that did not reach a checkpoint reaches none after it, so with the rows in order
    of checkpoints reached, those still running at each checkpoint are a prefix: each
    checkpoint counts only them (about half the bytes of a classic round's checkpoints).
    """
    import numpy as np

    rows, n_turns, players = hands.shape
    by_turn = np.ascontiguousarray(hands.transpose(1, 0, 2))  # each checkpoint's bytes together
    n = np.zeros(n_turns * levels, dtype=np.int64)
    wins = np.zeros(n_turns * levels, dtype=np.int64)
    reached = np.zeros(rows, dtype=np.int64)
    for k in range(n_turns):  # every seat reached the checkpoint, or none
        reached += by_turn[k, :, 0] != NOT_REACHED
    order = np.argsort(-reached, kind="stable")
    by_turn, winner, reached = by_turn[:, order], winner[order], reached[order]
    running = np.searchsorted(-reached, -np.arange(1, n_turns + 1), side="right")
    for k in range(n_turns):
        m = int(running[k])
        if m == 0:
            break
        at = by_turn[k, :m]
        low = at[:, 0].copy()
        for seat in range(1, players):
            np.minimum(low, at[:, seat], out=low)
        deficit = at - low[:, None]
        n[k * levels : (k + 1) * levels] = np.bincount(deficit.ravel(), minlength=levels)
        mine = deficit[np.arange(m), winner[:m]]
        wins[k * levels : (k + 1) * levels] = np.bincount(mine, minlength=levels)
    return n, wins


def count_rows(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of the equally long integer ``columns`` taken together, in
    ascending (lexicographic) order, ``(m, len(columns))`` int64, and how often each occurs
    (int64)."""
    import numpy as np

    width = len(columns)
    if columns[0].size == 0:
        return np.zeros((0, width), dtype=np.int64), np.zeros(0, dtype=np.int64)
    lows = [int(c.min()) for c in columns]
    spans = [int(c.max()) - low + 1 for c, low in zip(columns, lows, strict=True)]
    size = 1
    for span in spans:
        size *= span
    if size > 1 << 22:  # too many cells for a dense count: sort instead
        keys, counts = np.unique(np.stack(columns, axis=1), axis=0, return_counts=True)
        return keys.astype(np.int64), counts.astype(np.int64)
    flat = columns[0].astype(np.int64)
    flat -= lows[0]
    for column, low, span in zip(columns[1:], lows[1:], spans[1:], strict=True):
        flat *= span
        flat += column
        flat -= low
    counts = np.bincount(flat, minlength=size)
    cells = np.flatnonzero(counts)
    keys = np.empty((cells.size, width), dtype=np.int64)
    rest = cells
    for j in range(width - 1, -1, -1):  # the last column varies fastest
        keys[:, j] = rest % spans[j] + lows[j]
        rest = rest // spans[j]
    return keys, counts[cells].astype(np.int64)


def _encode_counts(columns: list[np.ndarray]) -> list[list[int]]:
    """:func:`count_rows` of ``columns`` as ``[[key column]..., counts]`` lists for JSON."""
    keys, counts = count_rows(columns)
    return [*(keys[:, j].tolist() for j in range(keys.shape[1])), counts.tolist()]


def _moments(values: np.ndarray) -> list[int]:
    """``[n, sum, sum of squares]`` of integer ``values`` (int64 sums, exact)."""
    import numpy as np

    values = values.astype(np.int64, copy=False)
    return [int(values.size), int(values.sum()), int(np.square(values).sum())]


def _status_codes(table: pa.Table) -> np.ndarray:
    """Each row's status as its code 0..3 (stored as a name, or by older versions as a code)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if "status" not in table.column_names:
        raise ResultsError("results have no status column")
    column = table.column("status")
    if pa.types.is_integer(column.type):
        codes = column.to_numpy().astype(np.int64)
    else:
        codes = pc.index_in(column.cast(pa.string()), pa.array(STATUS_NAMES)).to_numpy(
            zero_copy_only=False
        )
    if codes.size and (np.isnan(codes.astype(float)).any() or codes.min() < 0 or codes.max() > 3):
        raise ResultsError(f"status holds a value other than {', '.join(STATUS_NAMES)}")
    return codes.astype(np.int64)


def _set_values(
    table: pa.Table, names: tuple[str, ...], present: frozenset[str]
) -> list[np.ndarray] | None:
    """The columns ``names`` of ``table`` as numpy arrays, only the rows where every one is
    set; None when a column is missing (``present``: the table's column names, read once:
    ``pa.Table.column_names`` builds a new list at every call)."""
    import numpy as np
    import pyarrow.compute as pc

    if any(n not in present for n in names):
        return None
    columns = [table.column(n) for n in names]
    if not any(c.null_count for c in columns):
        return [np.asarray(c.to_numpy()) for c in columns]
    keep = np.ones(table.num_rows, dtype=bool)
    for column in columns:
        if column.null_count:
            keep &= pc.is_valid(column).to_numpy(zero_copy_only=False)
    return [c.fill_null(0).to_numpy()[keep] for c in columns]


def seat_matrix(table: pa.Table, name: str) -> np.ndarray:
    """A per-seat list column of ``table`` (every list as long) as a (rows, seats) int64 matrix."""
    import numpy as np
    import pyarrow.compute as pc

    rows = table.num_rows
    flat = pc.list_flatten(table.column(name)).to_numpy().astype(np.int64)
    if rows == 0 or flat.size % rows:
        raise ResultsError(f"{name}: per-seat lists of unequal lengths in won rounds")
    return flat.reshape(rows, flat.size // rows)


def checkpoint_hands_of(table: pa.Table, players: int) -> tuple[list[int], np.ndarray] | None:
    """The checkpoint turns and hands ``(rows, turns, players)`` uint8 of ``table`` (either
    layout: :func:`uno_stats.store.parts.checkpoint_arrays`); None without checkpoints."""
    from uno_stats.store.columns import checkpoint_arrays, checkpoint_columns_in

    names = checkpoint_columns_in(table.column_names)
    if not names:
        return None
    if names == [CHECKPOINTS]:
        from uno_stats.store.columns import checkpoint_bytes

        turns, hands = checkpoint_bytes(table.column(CHECKPOINTS), table.num_rows, players)
    else:  # the list columns of earlier versions: read through polars, as summaries did
        import polars as pl

        turns, hands = checkpoint_arrays(
            pl.from_arrow(table.select(names)),  # type: ignore[arg-type]
            players,
        )
    return [int(t) for t in turns], hands


def _checkpoint_seats(table: pa.Table) -> int:
    """Seats in the hand-size checkpoints of ``table`` (its first row's); 0 without any."""
    import pyarrow.compute as pc

    from uno_stats.store.columns import checkpoint_columns_in

    names = checkpoint_columns_in(table.column_names)
    if not names or table.num_rows == 0:
        return 0
    if names == [CHECKPOINTS]:
        return len(table.column(CHECKPOINTS)[0].as_py()) // len(CHECKPOINT_TURNS)
    lengths = pc.drop_null(pc.list_value_length(table.column(names[0])))
    return int(lengths[0].as_py()) if len(lengths) else 0


def _direction(names: list[str]) -> tuple[str, ...]:
    """The starting direction column, when the results carry one (the engine does not yet:
    :mod:`uno_stats.analysis.first_mover`)."""
    return (DIRECTION_COLUMN,) if DIRECTION_COLUMN in names else ()


def _won_tallies(won: pa.Table) -> dict[str, Any]:
    """What the per-seat questions need from the won rounds ``won`` of one point."""
    import numpy as np

    names = won.column_names
    winner = won.column("winner").to_numpy().astype(np.int64)
    out: dict[str, Any] = {"rounds": won.num_rows}
    start = _set_values(
        won, ("dealer", "first_player", "winner", *_direction(names)), frozenset(names)
    )
    if start is not None:
        out["start"] = _encode_counts(start)
    if "max_deficit" in names:
        md = seat_matrix(won, "max_deficit")
        if won_kernel("md") is not None and md.size:
            for key, counts in zip(
                ("max_deficit", "max_deficit_won"), max_deficit_counts(md, winner), strict=True
            ):
                cells = np.flatnonzero(counts)
                out[key] = [cells.tolist(), counts[cells].tolist()]
        else:
            win = np.arange(md.shape[1])[None, :] == winner[:, None]
            out["max_deficit"] = _encode_counts([md.ravel()])
            out["max_deficit_won"] = _encode_counts([md[win]])
    if "points" in names:
        out.update(_points_tallies(won, winner))
    players = _checkpoint_seats(won)
    if players:
        hands = checkpoint_hands_of(won, players)
        if hands is not None:
            turns, data = hands
            if won_kernel("deficit") is None:
                n, wins = deficit_counts(data, winner)
            else:
                n, wins = (np.zeros(len(turns) * LEVELS, dtype=np.int64) for _ in range(2))
                deficit_sums(data, winner, n, wins)
            cells = np.flatnonzero(n)
            out["deficit"] = [turns, cells.tolist(), n[cells].tolist(), wins[cells].tolist()]
    return out


def _per_sitter(values: np.ndarray, sitter: np.ndarray | None) -> list[list[int]]:
    """``[n, sum, sum of squares]`` of the ``(rows, seats)`` integer ``values`` by scenario
    seat: by column without a seating (``sitter`` None), else by ``sitter``'s value."""
    import numpy as np

    values = values.astype(np.int64, copy=False)
    rows, players = values.shape
    if sitter is None:
        sums, squares = values.sum(axis=0), np.square(values).sum(axis=0)
        return [[rows, int(sums[s]), int(squares[s])] for s in range(players)]
    return [_moments(values[sitter == s]) for s in range(players)]


def _points_tallies(won: pa.Table, winner: np.ndarray) -> dict[str, Any]:
    """The points edge's moments and each scenario seat's (the sitter's) seat-rounds, wins
    and points moments, for both scorings."""
    import numpy as np

    points = seat_matrix(won, "points")
    rows, players = points.shape
    index = np.arange(rows)
    first = won.column("first_player").to_numpy().astype(np.int64)
    # RULES.md S16: the scenario seat at each position (identity without a seating column)
    sitter = seat_matrix(won, "seating") if "seating" in won.column_names else None
    out: dict[str, Any] = {"players": players}
    if won_kernel("points") is not None:
        seats = np.tile(np.arange(players), (rows, 1)) if sitter is None else sitter
        sums = points_sums(points, winner, first, seats)
        for v, scoring in enumerate(SCORINGS):  # in the compiled loop's order
            out[f"edge_{scoring}"] = sums["edge"][v].tolist()
            out[f"scored_{scoring}"] = sums["scored"][v].tolist()
        out["sitters"], out["left"] = sums["seated"].tolist(), sums["left"].tolist()
        return out
    winning = winner if sitter is None else sitter[index, winner]
    seated = [rows] * players if sitter is None else np.bincount(sitter.ravel(), minlength=players)
    wins = np.bincount(winning, minlength=players)
    out["sitters"] = [[int(seated[s]), int(wins[s])] for s in range(players)]
    out["left"] = _per_sitter(points, sitter)
    k = players - 1
    for scoring in SCORINGS:
        scores = seat_scores(points, winner, scoring)
        mine = scores[index, first]
        rest = scores.sum(axis=1) - mine  # the others' mean is rest / (players - 1)
        out[f"edge_{scoring}"] = [_moments(mine), _moments(rest), _moments(k * mine - rest)]
        out[f"scored_{scoring}"] = _per_sitter(scores, sitter)
    return out


def point_tallies(table: pa.Table) -> dict[str, Any]:
    """Every tally of ``table``, the rows of one run or one sweep point."""
    import numpy as np
    import pyarrow as pa

    codes = _status_codes(table)
    present = frozenset(table.column_names)
    out: dict[str, Any] = {
        "rows": table.num_rows,
        "status": np.bincount(codes, minlength=len(STATUS_NAMES)).tolist(),
        "columns": [
            c
            for c in dict.fromkeys((*COUNTED, *(n for j in JOINTS.values() for n in j)))
            if c in present
        ],
        "counted": {},
        "joints": {},
    }
    for name in COUNTED:
        values = _set_values(table, (name,), present)
        if values is not None:
            out["counted"][name] = _encode_counts(values)
    for key, names in JOINTS.items():
        values = _set_values(table, names, present)
        if values is not None:
            out["joints"][key] = _encode_counts(values)
    won = codes == STATUS_NAMES.index("won")
    if won.any():
        kept = table.select([n for n in table.column_names if n in WON_COLUMNS])
        out["won"] = _won_tallies(kept if won.all() else kept.filter(pa.array(won)))
    return out


def table_tallies(table: pa.Table) -> dict[str, dict[str, Any]]:
    """The tallies of a part's ``table``: ``{WHOLE: ...}``, or one entry per point (its
    index as a string) for a sweep's part."""
    import numpy as np

    from uno_stats.store.columns import POINT

    if POINT not in table.column_names:
        return {WHOLE: point_tallies(table)}
    points = table.column(POINT).to_numpy()
    if points.size and (np.diff(points.astype(np.int64)) < 0).any():  # not in point order
        order = np.argsort(points, kind="stable")
        table, points = table.take(order), points[order]
    starts = np.flatnonzero(np.diff(points.astype(np.int64))) + 1
    bounds = [0, *starts.tolist(), points.size]
    out = {}
    for low, high in itertools.pairwise(bounds):
        if high > low:
            piece = table.slice(low, high - low).drop_columns([POINT])
            out[str(int(points[low]))] = point_tallies(piece)
    return out


def encode_tallies(tallies: dict[str, Any]) -> bytes:
    """The bytes stored under :data:`TALLIES_KEY`."""
    record = {"version": TALLIES_VERSION, "points": tallies}
    packed = zlib.compress(json.dumps(record, separators=(",", ":")).encode(), 1)
    return base64.b64encode(packed)  # text: polars refuses a footer value that is not UTF-8


def decode_tallies(data: bytes) -> dict[str, Any] | None:
    """The per-point tallies stored as ``data``; None when they are of another version."""
    try:
        record = json.loads(zlib.decompress(base64.b64decode(data, validate=True)))
    except (zlib.error, binascii.Error, ValueError) as exc:
        raise ResultsError(f"unreadable part tallies ({exc})") from exc
    if not isinstance(record, dict) or record.get("version") != TALLIES_VERSION:
        return None
    points = record.get("points")
    return points if isinstance(points, dict) else None

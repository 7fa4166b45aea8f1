"""How stored columns read back: a sweep part's ``point`` column and the hand-size checkpoints.

The 20 checkpoints are one fixed-width binary column, ``hand_checkpoints`` (see
:func:`uno_stats.store.parts.checkpoint_array`); results of earlier versions hold 20 list
columns ``hands_t5`` .. ``hands_t100`` instead, which these readers accept too. numpy,
pyarrow and polars are imported inside the functions that use them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_stats.engine.schema import CHECKPOINT_TURNS, CHECKPOINTS, NOT_REACHED
from uno_stats.errors import ResultsError

if TYPE_CHECKING:
    import numpy as np
    import polars as pl
    import pyarrow as pa

POINT = "point"
"""The column of a sweep's parts naming each row's point (its index in the sweep's order)."""
_LISTED_CHECKPOINTS = frozenset(f"hands_t{t}" for t in CHECKPOINT_TURNS)
"""The 20 list columns that held the checkpoints in results of earlier versions."""


def checkpoint_columns_in(names: list[str]) -> list[str]:
    """The columns of ``names`` that hold hand-size checkpoints (either layout)."""
    if CHECKPOINTS in names:
        return [CHECKPOINTS]
    return sorted((c for c in names if c in _LISTED_CHECKPOINTS), key=lambda c: int(c[7:]))


def checkpoint_arrays(frame: pl.DataFrame, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Every checkpoint of ``frame`` as numpy arrays: the turns (5, 10, ...) and the hands,
    ``(rows, turns, players)`` uint8 with :data:`NOT_REACHED` where the round ended earlier.

    Reads the ``hand_checkpoints`` column without copying it row by row, or the ``hands_t<T>``
    list columns of earlier results.
    """
    import numpy as np

    rows = frame.height
    if CHECKPOINTS in frame.columns:
        return checkpoint_bytes(frame[CHECKPOINTS].to_arrow(), rows, players)
    names = checkpoint_columns_in(frame.columns)
    hands = np.full((rows, len(names), players), NOT_REACHED, dtype=np.uint8)
    for k, name in enumerate(names):
        series = frame[name]
        valid = series.is_not_null().to_numpy()
        values = series.drop_nulls().explode().to_numpy()
        hands[valid, k, :] = values.reshape(-1, players)
    return np.array([int(n[7:]) for n in names], dtype=np.int64), hands


def checkpoint_bytes(
    arr: pa.Array | pa.ChunkedArray, rows: int, players: int
) -> tuple[np.ndarray, np.ndarray]:
    """The ``hand_checkpoints`` column ``arr`` of ``rows`` rounds as :func:`checkpoint_arrays`
    gives it: the turns and a ``(rows, turns, players)`` uint8 view of its bytes."""
    import numpy as np
    import pyarrow as pa

    width = len(CHECKPOINT_TURNS) * players
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.chunk(0) if arr.num_chunks == 1 else arr.combine_chunks()
    turns = np.array(CHECKPOINT_TURNS)
    if pa.types.is_fixed_size_binary(arr.type) and arr.type.byte_width == width:
        if arr.null_count:
            raise ResultsError(f"{CHECKPOINTS}: null rows")
        first = arr.offset * width  # the bytes as written, not copied
        data = np.frombuffer(arr.buffers()[1], dtype=np.uint8)[first : first + rows * width]
        return turns, data.reshape(rows, len(CHECKPOINT_TURNS), players)
    arr = arr.cast(pa.large_binary())
    offsets = np.frombuffer(arr.buffers()[1], dtype=np.int64)[arr.offset : arr.offset + rows + 1]
    if arr.null_count or (np.diff(offsets) != width).any():
        raise ResultsError(f"{CHECKPOINTS}: rows of other than {width} bytes")
    data = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[offsets[0] : offsets[-1]]
    return turns, data.reshape(rows, len(CHECKPOINT_TURNS), players)


def checkpoint_hands(names: list[str], players: int) -> dict[int, list[pl.Expr]]:
    """Per checkpoint turn present in a frame with columns ``names``: one expression per seat,
    that seat's cards after that turn (UInt8), null when the round ended earlier.

    Reads the ``hand_checkpoints`` column, or the ``hands_t<T>`` list columns of results
    written by earlier versions; ``{}`` when the frame has neither.
    """
    import polars as pl

    if CHECKPOINTS in names:
        out: dict[int, list[pl.Expr]] = {}
        for k, turn in enumerate(CHECKPOINT_TURNS):
            first = k * players
            reached = pl.col(CHECKPOINTS).bin.get(first) != NOT_REACHED
            out[turn] = [
                pl.when(reached).then(pl.col(CHECKPOINTS).bin.get(first + s))
                for s in range(players)
            ]
        return out
    listed = sorted(int(c.removeprefix("hands_t")) for c in names if c in _LISTED_CHECKPOINTS)
    return {t: [pl.col(f"hands_t{t}").list.get(s) for s in range(players)] for t in listed}

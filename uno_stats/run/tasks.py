"""What a worker does with one chunk: play it (a run's games, or a sweep's slices of several
points, one engine config each) and, where it shares the results folder's disk, write its part.

Every game's random stream depends only on its point's seed and its own game index, so a
sweep's point plays the same games here as in a run of its own, whichever chunks hold them.
"""

from __future__ import annotations

import os
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from uno_stats import engine
from uno_stats.scenario.checks import ErrorContext
from uno_stats.scenario.points import build_point
from uno_stats.store.parts import PartMeta, sweep_table, write_part, write_table_part

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

    from uno_stats.run.backends import PipelinedBackend


def run_chunk(config: Any, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    """Play one chunk (runs in a worker process): the engine's column arrays."""
    return engine.simulate(config, first_game, n_games)


def _orphaned(parent_pid: int) -> bool:
    """True in a worker whose parent (the run) is gone; never in the run's own process."""
    return os.getpid() != parent_pid and os.getppid() != parent_pid


class ChunkNotPlayed(RuntimeError):
    """An in-process chunk left unplayed because an earlier chunk failed or the run stopped."""


@dataclass(frozen=True)
class PointConfigs:
    """How a worker gets a sweep point's engine config: built from the sweep's ``template``
    and the point's axis values (a sweep's points are checked when the file loads), or
    handed over ready (a tournament's few rotations)."""

    template: dict[str, Any] | None
    source: str

    def config(self, maker: Any) -> Any:
        """The engine config of ``maker``: an ``EngineConfig`` as is, or axis values."""
        if isinstance(maker, engine.EngineConfig):
            return maker
        assert self.template is not None
        scenario = build_point(self.template, maker, ErrorContext(self.source), "")
        return engine.EngineConfig.from_scenario(scenario)


SweepSlices = list[tuple[int, Any, int, int]]
"""A sweep chunk's work: ``(point, config maker, first game, games)`` per point it touches."""


def play_sweep_chunk(points: PointConfigs, slices: SweepSlices) -> tuple[pa.Table, list[int]]:
    """Play a sweep chunk's slices one after another with the one compiled engine: the part's
    table (:func:`~uno_stats.store.parts.sweep_table`) and its rows per point."""
    pieces = []
    for point, maker, first, n in slices:
        config = points.config(maker)
        pieces.append((point, run_chunk(config, first, n), config.players))
    return sweep_table(pieces), [len(columns["game"]) for _, columns, _ in pieces]


def run_and_write_chunk(
    config: Any,
    run_dir: str,
    players: int,
    meta: PartMeta,
    parent_pid: int,
    turns: PipelinedBackend | None = None,
) -> int:
    """Play one chunk and write its Parquet part in the worker; the rows written.

    Used where workers share the results folder's disk (in-process and the local pool):
    the parent then neither receives nor encodes the columns, which would otherwise make it
    the bottleneck once every core simulates. A worker whose parent has died (``parent_pid``
    is no longer its parent) exits at once, before playing and before writing. ``turns``
    (in-process runs): the chunk plays only in its turn, one at a time, and not at all once
    an earlier chunk failed; its part is then written while the next chunk plays.
    """
    return _play_and_write(
        lambda: write_part_args(run_chunk(config, meta.first_game, meta.n_games), players),
        run_dir,
        meta,
        parent_pid,
        turns,
    )


def write_part_args(columns: dict[str, np.ndarray], players: int) -> tuple[Any, None]:
    """A run chunk's columns as what :func:`_play_and_write` writes."""
    return (columns, players), None


def sweep_and_write_chunk(
    points: PointConfigs,
    slices: SweepSlices,
    matches: bool,
    run_dir: str,
    meta: PartMeta,
    parent_pid: int,
    turns: PipelinedBackend | None = None,
) -> int:
    """:func:`run_and_write_chunk` for a sweep's chunk (:func:`play_sweep_chunk`)."""

    def play() -> tuple[Any, list[int] | None]:
        table, rows = play_sweep_chunk(points, slices)
        return table, rows if matches else None

    return _play_and_write(play, run_dir, meta, parent_pid, turns)


def _play_and_write(
    play: Any, run_dir: str, meta: PartMeta, parent_pid: int, turns: PipelinedBackend | None
) -> int:
    """Play (``play()``: the table or a run's columns, and a sweep's rows per point), then
    write the part; the rows written. See :func:`run_and_write_chunk`."""
    if _orphaned(parent_pid):
        os._exit(1)
    if turns is None:
        data, point_rows = play()
    else:
        data, point_rows = _play_in_turn(turns, play, meta)
    if _orphaned(parent_pid):
        os._exit(1)
    if point_rows is not None:
        meta = PartMeta(**{**meta.__dict__, "point_rows": point_rows})
    commit = None if turns is None else turns.commit
    with turns.writing() if turns is not None else nullcontext():
        if isinstance(data, tuple):  # a run's columns and players
            columns, players = data
            written = write_part(Path(run_dir), meta.chunk, columns, players, meta, commit)
            rows = len(columns["game"])
        else:
            written = write_table_part(Path(run_dir), meta.chunk, data, meta, commit)
            rows = data.num_rows
        if written is None:
            raise ChunkNotPlayed(f"chunk {meta.chunk} not saved: the run stopped")
    return rows


def _play_in_turn(turns: PipelinedBackend, play: Any, meta: PartMeta) -> Any:
    with turns.playing:
        if turns.stopped.is_set():
            raise ChunkNotPlayed(f"chunk {meta.chunk} not played: the run stopped")
        try:
            return play()
        except BaseException:
            turns.stopped.set()  # later chunks do not start: the run ends with this error
            raise

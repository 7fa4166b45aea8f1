"""Planning a sweep (or a tournament) as one run: one dataset, its chunks across points.

The points' games are laid out point after point and cut into chunks of one size
(:mod:`uno_stats.store.layout`), so a chunk may hold the end of one point and the start of
the next, or many small points whole: the workers play a sweep as they play one run, the
engine taking each point's rules as data. Nothing here grows with the points: the plan
is the sweep's scenario (its points built on demand), three numbers and the set of chunks
done; the manifest regenerates the points from the scenario it records.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from uno_stats import engine
from uno_stats.engine import numba_patches
from uno_stats.run.plan import (
    MATCH_CHUNK,
    MIN_CHUNKS_PER_WORKER,
    ROUND_CHUNK,
    Chunk,
    DatasetSpec,
    PlannedChunks,
    _now,
    config_hash,
    engine_hash,
    plan_dataset,
)
from uno_stats.run.tasks import PointConfigs, SweepSlices
from uno_stats.scenario.points import PointTable
from uno_stats.store.layout import Layout
from uno_stats.store.manifest import SweepManifest
from uno_stats.store.parts import tool_version

if TYPE_CHECKING:
    from uno_stats.scenario.load import Scenario


def sweep_chunk_size(scenario: Scenario, workers: int) -> int:
    """Games per chunk of a sweep: about a second of work (as a run's), but at least a few
    chunks per worker, counting every point's games."""
    target = MATCH_CHUNK if scenario.match_target else ROUND_CHUNK
    total = scenario.games * scenario.point_count
    per_worker = math.ceil(total / (MIN_CHUNKS_PER_WORKER * max(1, workers)))
    return max(1, min(target, per_worker))


def new_sweep_manifest(scenario: Scenario, chunk_size: int) -> SweepManifest:
    """The manifest of a sweep (or tournament) dataset about to be filled (nothing done yet);
    a tournament's axis is ``rotation``."""
    count = scenario.point_count
    design = scenario.sweep_design()
    return SweepManifest(
        name=scenario.name,
        version=tool_version(),
        seed=scenario.seed,
        games=scenario.games,
        points=count,
        axes=scenario.sweep or {"rotation": list(range(count))},
        scenario_data=scenario.to_dict(),
        chunk_size=chunk_size,
        chunks=math.ceil(count * scenario.games / chunk_size),
        config_hash=config_hash(scenario, chunk_size),
        engine_hash=engine_hash(),
        created=_now(),
        run_id=uuid.uuid4().hex[:16],
        tournament=list(scenario.tournament) if scenario.tournament else None,
        design=design.record() if design is not None else None,
        numba_patches=list(numba_patches.selected()),
    )


@dataclass
class SweepPlan(PlannedChunks):
    """A sweep's one dataset to fill: its scenario, manifest, layout and the chunks done.

    Chunks and their slices are generated on demand; each point's engine config is built by
    the worker that plays it (a tournament's few rotations: here, once).
    """

    scenario: Scenario
    path: Path
    manifest: SweepManifest
    done: set[int] = field(default_factory=set)
    label: str | None = None  # a sweep's chunks name no single point
    _configs: dict[int, Any] = field(default_factory=dict, repr=False)

    @property
    def layout(self) -> Layout:
        """How the points' games are cut into chunks."""
        return self.manifest.layout

    @property
    def chunk_size(self) -> int:
        """Games per chunk."""
        return self.manifest.chunk_size

    @property
    def games(self) -> int:
        """Games of every point."""
        return self.manifest.planned_games

    @property
    def matches(self) -> bool:
        """Each game is a match (several rows); parts then record their rows per point."""
        return self.scenario.match_target is not None

    def chunk(self, index: int) -> Chunk:
        """Chunk ``index`` of the dataset (its first game counts every point's games)."""
        first, n = self.layout.chunk_range(index)
        return Chunk(0, index, first, n)

    def point_configs(self) -> PointConfigs:
        """What a worker needs to build the points' engine configs."""
        table = self.scenario.point_table()
        template = table.template if isinstance(table, PointTable) else None
        return PointConfigs(template, self.scenario.source or "<scenario>")

    def slices(self, chunk: Chunk) -> SweepSlices:
        """The work of ``chunk``: each point's slice with how to build its config."""
        table = self.scenario.point_table()
        out: SweepSlices = []
        for piece in self.layout.slices(chunk.index):
            if isinstance(table, PointTable):
                maker: Any = table.assignment(piece.point)
            else:  # a tournament's rotation: its config, built once
                if piece.point not in self._configs:
                    scenario = table[piece.point].scenario
                    self._configs[piece.point] = engine.EngineConfig.from_scenario(scenario)
                maker = self._configs[piece.point]
            out.append((piece.point, maker, piece.first_game, piece.n_games))
        return out

    def where(self, chunk: Chunk) -> str:
        """``chunk`` in words for an error: its points and their games."""
        pieces = self.layout.slices(chunk.index)
        table = self.scenario.point_table()
        first, last = pieces[0], pieces[-1]
        if len(pieces) == 1:
            return (
                f"point {table[first.point].label} chunk {chunk.index} (games "
                f"{first.first_game}-{first.first_game + first.n_games - 1}"
            )
        return (
            f"chunk {chunk.index} (points {table[first.point].label} game {first.first_game} "
            f"to {table[last.point].label} game {last.first_game + last.n_games - 1}"
        )


def plan_sweep(
    scenario: Scenario,
    root: Path,
    chunk_size: int | None,
    workers: int,
    note: Callable[[str], None],
) -> SweepPlan:
    """The sweep's dataset in ``root``, resuming the chunks already on disk (as a run's: see
    :func:`~uno_stats.run.plan.plan_dataset`)."""
    spec = DatasetSpec(
        SweepManifest,
        scenario.games * scenario.point_count,
        sweep_chunk_size(scenario, workers),
        lambda size: new_sweep_manifest(scenario, size),
        lambda size: config_hash(scenario, size),
    )
    manifest, done = plan_dataset(root, spec, chunk_size, note)
    assert isinstance(manifest, SweepManifest)
    return SweepPlan(scenario, root, manifest, done)

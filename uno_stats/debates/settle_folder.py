"""Re-cutting a run folder of ``settle`` to another plan of the same games.

A settle run is planned for ``--max-games`` games in chunks of ``--batch`` (the manifest's
``games`` and ``chunk_size``, both part of the folder's configuration hash). A settle that
stops early is sealed (:func:`recut` to the games it played), so that the folder is a
complete run of exactly those games for ``summary``, ``compare`` and ``report``; a later
settle with another ``--max-games`` or ``--batch`` re-cuts the folder to its own plan
first, keeping every game on disk. Re-cutting is allowed only when the games agree: the
folder's configuration hash, recomputed for the same scenario (seed included) with the
folder's game count and chunk size, must be the recorded one, so scenario, seed, tool
version and engine are all the same (every game's random stream depends only on the seed
and the game's index, so game k is the same game under either plan).

The new parts are written (with the new plan's part records and checksums) into a hidden
staging folder, the manifest is rewritten, and the staging folder then replaces
``parts/``, all under the folder's lock. A crash in between leaves parts that fail
verification against the new manifest, which the runner redoes: nothing wrong is counted.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from uno_stats.run.plan import config_hash, new_manifest
from uno_stats.scenario.load import Scenario, with_overrides
from uno_stats.store.lock import folder_lock
from uno_stats.store.manifest import MANIFEST, Manifest, read_manifest, write_manifest
from uno_stats.store.parts import PARTS_DIR, PartMeta, write_table_part
from uno_stats.store.verify import check_run

STAGING = ".parts-recut.tmp"
"""The hidden staging folder of a re-cut (a hidden ``.tmp`` entry counts as the run's own)."""


def same_games(old: Manifest, scenario: Scenario) -> bool:
    """Whether ``old`` holds games of ``scenario`` (same scenario, seed, version and engine,
    whatever the game count and chunk size)."""
    if scenario.point_count:
        return False
    same = with_overrides(scenario, games=old.games)
    return config_hash(same, old.chunk_size) == old.config_hash


def _prefix(check_good: dict[int, Path], old: Manifest) -> int:
    """Games 0 .. g - 1 held by consecutive good parts from chunk 0: g."""
    games, index = 0, 0
    while index in check_good:
        games = min(old.games, (index + 1) * old.chunk_size)
        index += 1
    return games


def recut(root: Path, scenario: Scenario, chunk_size: int) -> int | None:
    """Re-plan the run folder ``root`` for ``scenario`` in chunks of ``chunk_size``,
    keeping the games it holds when they are the same games (see the module doc).

    Returns the games kept, or None when there was nothing to do: no folder, a folder
    already planned so, or a folder of other games (left as it is: the runner then refuses
    it unless ``--fresh``).
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    if not (root / MANIFEST).exists():
        return None
    old = read_manifest(root)
    if not isinstance(old, Manifest) or not same_games(old, scenario):
        return None
    if old.config_hash == config_hash(scenario, chunk_size):
        return None
    with folder_lock(root):
        check = check_run(root, old, deep=True)
        held = _prefix(check.good, old)
        manifest = new_manifest(scenario, chunk_size)
        manifest.run_id, manifest.created = old.run_id or manifest.run_id, old.created
        manifest.wall_time_s, manifest.games_per_s = old.wall_time_s, old.games_per_s
        staging = root / STAGING
        shutil.rmtree(staging, ignore_errors=True)
        (staging / PARTS_DIR).mkdir(parents=True)
        kept = rows = games = 0
        for index in range(manifest.chunks):
            first = index * chunk_size
            n = min(chunk_size, scenario.games - first)
            if first + n > held:
                break
            sources = range(first // old.chunk_size, (first + n - 1) // old.chunk_size + 1)
            table = pa.concat_tables(pq.read_table(check.good[i]) for i in sources)
            game = table.column("game")
            inside = pc.and_(pc.greater_equal(game, first), pc.less(game, first + n))
            part = table.filter(inside).replace_schema_metadata(None)
            meta = PartMeta(manifest.run_id, manifest.seed, manifest.config_hash, index, first, n)
            write_table_part(staging, index, part, meta)
            kept, rows, games = kept + 1, rows + part.num_rows, games + n
        manifest.chunks_done, manifest.rows = kept, rows
        manifest.complete = kept == manifest.chunks
        write_manifest(root, manifest)
        shutil.rmtree(root / PARTS_DIR, ignore_errors=True)
        (staging / PARTS_DIR).rename(root / PARTS_DIR)
        shutil.rmtree(staging, ignore_errors=True)
    return games

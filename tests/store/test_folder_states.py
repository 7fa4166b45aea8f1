"""A hypothesis state machine of one results folder: runs stopped after k chunks, parts
deleted, truncated or garbled, stale temporary files, and resumes, in any order and with a
random chunk size. Whatever happened, the good parts hold exactly the rows an uninterrupted
run stores for their games, and a resume ends with the uninterrupted run's table. The same
machine runs a sweep's one dataset (three points of different player counts, whose chunks
hold games of several points): its good parts hold exactly each point's rows.

Note: bytes are garbled only in a part's data, which its SHA-256 covers. A garbled byte in the
Parquet footer (after the data) can leave a part that passes verification but reads other
values or fails to read (found by this machine before it was restricted); the digest does not
cover the footer.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import parse_scenario
from uno_stats.store.manifest import PointFoldersManifest
from uno_stats.store.parts import part_path
from uno_stats.store.verify import check_run, chunk_range, verified_runs

GAMES = 360
SCENARIO = parse_scenario(f"name: states\nplayers: 3\ngames: {GAMES}\nseed: 17\n")
SWEEP = parse_scenario(
    f"name: sweep-states\ngames: {GAMES // 3}\nseed: 17\nsweep:\n  players: [2, 3, 4]\n"
)
"""Three points of 120 games: 360 games in all, as the single run, in chunks across points."""


def _data_bytes(path: Path) -> int:
    """How many bytes of the part come before its footer (0 if it is no readable part)."""
    import json

    import pyarrow.parquet as pq

    from uno_stats.store.parts import PART_DATA_KEY

    try:
        record = (pq.read_metadata(path).metadata or {}).get(PART_DATA_KEY)
        return int(json.loads(record)["bytes"]) if record else 0
    except Exception:  # truncated or garbled already: nothing to aim at
        return 0


def stored(folder: Path) -> pl.DataFrame:
    """Every verified row of the run (or of every sweep point) in ``folder``, in the
    dataset's game order, with its ``point`` (0 for a run)."""
    frames = [
        run.scan().collect().with_columns(pl.lit(i, pl.UInt32).alias("point"))
        for i, run in enumerate(verified_runs(folder))
    ]
    return pl.concat(frames).sort("point", "game", "round")


def _reference(scenario, tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    """The table of one uninterrupted run (its own chunk size: results do not depend on it)."""
    out = tmp_path_factory.mktemp("reference")
    outcome = run_scenario(scenario, out_dir=out, workers=1, progress=False)
    return stored(outcome.path)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    return _reference(SCENARIO, tmp_path_factory)


@pytest.fixture(scope="module")
def sweep_reference(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    return _reference(SWEEP, tmp_path_factory)


class ResultsFolder(RuleBasedStateMachine):
    """One folder, one chunk size, a random history of runs, faults and resumes."""

    reference: pl.DataFrame
    scenario = SCENARIO

    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="uno-states-"))
        self.folder = self.root / self.scenario.name
        self.chunk_size = 0
        self.started = False

    def teardown(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    @initialize(chunk_size=st.sampled_from([40, 70, 100, 360]))
    def choose_chunk_size(self, chunk_size: int) -> None:
        self.chunk_size = chunk_size

    @property
    def chunks(self) -> int:
        return -(-GAMES // self.chunk_size)

    def _run(self, limit: int | None) -> None:
        run_scenario(
            self.scenario,
            out_dir=self.root,
            workers=1,
            progress=False,
            chunk_size=self.chunk_size,
            games_limit=limit,
        )
        self.started = True

    @rule(k=st.integers(min_value=1, max_value=4))
    def stop_after_k_chunks(self, k: int) -> None:
        """A run killed once k chunks are written (a later run continues from them)."""
        self._run(k * self.chunk_size)

    @rule()
    def resume(self) -> None:
        self._run(None)
        assert all(run.complete for run in verified_runs(self.folder))
        assert stored(self.folder).equals(self.reference)

    def _part(self, index: int) -> Path | None:
        """One of the part files on disk (None when there is none yet)."""
        parts = sorted((self.folder / "parts").glob("part-*.parquet"))
        return parts[index % len(parts)] if parts else None

    @rule(index=st.integers(min_value=0, max_value=8))
    def delete_part(self, index: int) -> None:
        if (path := self._part(index)) is not None:
            path.unlink()

    @rule(index=st.integers(min_value=0, max_value=8), keep=st.floats(0.0, 0.99))
    def truncate_part(self, index: int, keep: float) -> None:
        if (path := self._part(index)) is not None:
            data = path.read_bytes()
            path.write_bytes(data[: int(len(data) * keep)])

    @rule(index=st.integers(min_value=0, max_value=8), where=st.floats(0.0, 0.999))
    def garble_a_byte(self, index: int, where: float) -> None:
        """One byte of the data (the bytes before the footer, which the part's digest covers;
        a garbled footer is not always caught, see the module's note)."""
        if (path := self._part(index)) is not None and (size := _data_bytes(path)):
            data = bytearray(path.read_bytes())
            data[int(size * where)] ^= 0x5A
            path.write_bytes(bytes(data))

    @rule(source=st.integers(min_value=0, max_value=8), onto=st.integers(0, 8))
    def copy_a_part_over_another(self, source: int, onto: int) -> None:
        """A part copied under another chunk's name (the case of the issue that added ids)."""
        path, other = self._part(source), part_path(self.folder, onto % self.chunks)
        if path is not None and path != other:
            shutil.copy(path, other)

    @rule()
    def leave_stale_temporary_files(self) -> None:
        if self.started:
            (self.folder / ".manifest.json.999999.tmp").write_text("{")
            (self.folder / "parts" / ".part-000000.parquet.999999.tmp").write_bytes(b"PAR1")

    @invariant()
    def good_parts_hold_the_uninterrupted_rows(self) -> None:
        if not self.started:
            return
        from uno_stats.store.manifest import read_manifest

        manifest = read_manifest(self.folder)
        assert not isinstance(manifest, PointFoldersManifest)
        assert manifest.chunks == self.chunks
        check = check_run(self.folder, manifest)
        assert check.games_done == sum(chunk_range(manifest, i)[1] for i in check.good)
        games = manifest.games  # per point
        dataset_game = pl.col("point").cast(pl.Int64) * games + pl.col("game").cast(pl.Int64)
        for index, path in check.good.items():
            first, n = chunk_range(manifest, index)
            rows = pl.read_parquet(path)
            if "point" not in rows.columns:  # a single run's part
                rows = rows.with_columns(pl.lit(0, pl.UInt32).alias("point"))
            rows = rows.select(self.reference.columns).sort("point", "game", "round")
            want = self.reference.filter(dataset_game.is_between(first, first + n - 1))
            assert rows.equals(want), (index, path)


class SweepFolder(ResultsFolder):
    """The same machine on a sweep's one dataset."""

    scenario = SWEEP


def _settings() -> settings:
    return settings(
        max_examples=30,
        stateful_step_count=10,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


@pytest.mark.slow
def test_results_folder_state_machine(reference: pl.DataFrame) -> None:
    ResultsFolder.reference = reference
    machine = ResultsFolder.TestCase
    machine.settings = _settings()
    machine().runTest()


@pytest.mark.slow
def test_sweep_dataset_state_machine(sweep_reference: pl.DataFrame) -> None:
    SweepFolder.reference = sweep_reference
    machine = SweepFolder.TestCase
    machine.settings = _settings()
    machine().runTest()

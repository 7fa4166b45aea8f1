"""Part tallies: what a part's footer holds is its rows counted (compiled and numpy loops
alike), a run's answers from them equal those counted from the rows of parts without them,
and a changed tally fails verification like a changed row."""

from __future__ import annotations

import base64
import json
import shutil
import zlib
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from helpers import engine_columns, run_manifest
from typer.testing import CliRunner

from uno_stats.analysis.questions import answer_run, sweep_groups
from uno_stats.cli import app
from uno_stats.errors import ResultsError
from uno_stats.present.records import records
from uno_stats.present.report import summary_text, write_report
from uno_stats.store import tallies, tally_kernels, tally_sums
from uno_stats.store.parts import PartMeta, write_part
from uno_stats.store.runs import Run, open_runs
from uno_stats.store.tallies import (
    TALLIES_KEY,
    decode_tallies,
    encode_tallies,
    table_tallies,
)
from uno_stats.store.verify import check_part

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = {  # seatings, partners and matches, mixed strategies, a sweep, No Mercy
    "seating-random": 200,
    "match-partners": 60,
    "strategies-mixed": 200,
    "house-rules-five": 30,
    "no-mercy-rules": 150,
    "tournament": 20,
}


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The results folder of each of :data:`SCENARIOS`, played small in this process (so the
    parts' tallies come from the compiled loops), cut into chunks of 64 games."""
    out = tmp_path_factory.mktemp("tallies")
    cli = CliRunner()
    found = []
    for name, games in SCENARIOS.items():
        scenario = ROOT / "scenarios" / f"{name}.yaml"
        args = ["run", str(scenario), "--games", str(games), "--out", str(out / name)]
        result = cli.invoke(app, [*args, "--workers", "1", "--chunk-size", "64", "--quiet"])
        assert result.exit_code == 0, result.output
        found.extend(p.parent for p in (out / name).glob("*/manifest.json"))
    return sorted(found)


def _parts(folders: list[Path]) -> list[Path]:
    return sorted(p for f in folders for p in f.glob("**/part-*.parquet"))


def test_footer_tallies_are_the_rows_counted_either_way(
    folders: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every part's stored tallies equal its rows counted again, by the compiled loops and
    by the numpy code (no numba), one entry per point of a sweep's part."""
    parts = _parts(folders)
    assert len(parts) > len(folders)
    assert any(len(decode_tallies(pq.read_metadata(p).metadata[TALLIES_KEY])) > 1 for p in parts)
    for path in parts:
        stored = decode_tallies(pq.read_metadata(path).metadata[TALLIES_KEY])
        table = pq.read_table(path)
        compiled = json.loads(json.dumps(table_tallies(table)))
        assert tally_kernels.won_kernel("deficit") is not None
        monkeypatch.setattr(tallies, "won_kernel", lambda name: None)  # as without numba
        counted = json.loads(json.dumps(table_tallies(table)))
        monkeypatch.undo()
        assert stored == compiled == counted, path


def _strip(folder: Path, into: Path) -> Path:
    """A copy of the results ``folder`` whose parts hold the same rows and records but no
    tallies (as an earlier version wrote them)."""
    shutil.copytree(folder, into)
    for path in into.glob("**/part-*.parquet"):
        table = pq.read_table(path)
        pq.write_table(table, path)
        assert TALLIES_KEY not in (pq.read_metadata(path).metadata or {})
    return into


def _answers(runs: list[Run]) -> str:
    groups = sweep_groups(runs)
    rows = [row for run in runs for row in records(answer_run(run), groups)]
    return json.dumps(rows, sort_keys=True, default=str)


def test_answers_from_tallies_equal_answers_from_rows(folders: list[Path], tmp_path: Path) -> None:
    """Every record of every run and sweep point: identical from the tallies and from the
    rows of parts without them (the same code counts both)."""
    for folder in folders:
        runs = list(open_runs(folder))
        bare = list(open_runs(_strip(folder, tmp_path / folder.parent.name / folder.name)))
        assert _answers(runs).replace(str(folder), "") == _answers(bare).replace(
            str(tmp_path / folder.parent.name / folder.name), ""
        ), folder


def test_tallies_of_another_version_are_counted_again(tmp_path: Path) -> None:
    """A footer whose tallies are of another version is read as if it had none."""
    columns = engine_columns(0, 40, 3)
    m = run_manifest("t", 40, 3)
    meta = PartMeta(m.run_id, m.seed, m.config_hash, 0, 0, 40)
    path = write_part(tmp_path, 0, columns, 3, meta)
    assert path is not None
    stored = pq.read_metadata(path).metadata[TALLIES_KEY]
    assert decode_tallies(stored) == tally_sums.part_tallies(path)
    assert decode_tallies(encode_tallies({})) == {}
    older = {"version": 0, "points": {}}
    data = base64.b64encode(zlib.compress(json.dumps(older).encode()))
    assert decode_tallies(data) is None
    with pytest.raises(ResultsError, match="unreadable part tallies"):
        decode_tallies(b"not base64 at all!")


def test_a_changed_tally_fails_verification(tmp_path: Path) -> None:
    """One character of the stored tallies changed: the part's digest no longer matches."""
    m = run_manifest("t", 50, 3)
    meta = PartMeta(m.run_id, m.seed, m.config_hash, 0, 0, 50)
    path = write_part(tmp_path, 0, engine_columns(0, 50, 3), 3, meta)
    assert path is not None
    stored = pq.read_metadata(path).metadata[TALLIES_KEY]
    data = path.read_bytes()
    at = data.index(stored) + len(stored) // 2
    swapped = b"A" if data[at : at + 1] != b"A" else b"B"
    path.write_bytes(data[:at] + swapped + data[at + 1 :])
    with pytest.raises(ValueError, match=r"^corrupt data \(checksum mismatch"):
        check_part(path, m, 0)


def test_compiled_loops_refuse_seats_out_of_range() -> None:
    """The compiled loops index with seat numbers unchecked: out-of-range ones are refused."""
    import numba  # noqa: F401  (the compiled loops run where numba is loaded)

    points = np.ones((3, 2), dtype=np.int64)
    winner = np.array([0, 1, 2])
    with pytest.raises(ResultsError, match=r"winner holds a seat outside 0\.\.1"):
        tally_kernels.points_sums(points, winner, np.zeros(3, np.int64), np.zeros((3, 2), np.int64))
    with pytest.raises(ResultsError, match=r"winner holds a seat outside 0\.\.1"):
        tally_kernels.max_deficit_counts(points, winner)


def _summary_json(folder: Path) -> str:
    return summary_text(open_runs(folder), "json").replace(str(folder), "FOLDER")


@pytest.mark.slow
def test_every_shipped_scenario_reads_the_same_from_tallies_and_from_rows(tmp_path: Path) -> None:
    """Every shipped scenario at a few games (a point): ``summary --format json`` identical
    from the part tallies and from the same parts stripped of them (read row by row), and
    ``report.md`` too for two of them."""
    cli = CliRunner()
    scenarios = sorted((ROOT / "scenarios").glob("*.yaml"))
    assert len(scenarios) > 40
    for scenario in scenarios:
        games = "4" if "skill" in scenario.stem else "40"  # search plays slowly
        out = tmp_path / scenario.stem
        args = ["run", str(scenario), "--games", games, "--out", str(out), "--quiet"]
        result = cli.invoke(app, [*args, "--workers", "1", "--chunk-size", "16"])
        assert result.exit_code == 0, (scenario, result.output)
        for folder in sorted(p.parent for p in out.glob("*/manifest.json")):
            bare = _strip(folder, tmp_path / "bare" / scenario.stem / folder.name)
            assert _summary_json(folder) == _summary_json(bare), scenario
            if scenario.stem in ("mattel-2022-4p", "tournament"):
                texts = []
                for side, source in enumerate((folder, bare)):
                    report = tmp_path / "reports" / str(side) / source.name
                    write_report(list(open_runs(source)), report)  # unverified, as read
                    texts.append((report / "report.md").read_text().replace(str(source), ""))
                assert texts[0] == texts[1], scenario

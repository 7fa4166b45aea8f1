"""A sweep is one run: one dataset whose every point holds exactly the games its own run
would (for any worker count, chunk size and backend), read back point by point."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from uno_stats import engine
from uno_stats.errors import ResultsError, RunError
from uno_stats.run import tasks
from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import Scenario, parse_scenario
from uno_stats.store.layout import Layout, Slice
from uno_stats.store.manifest import SweepManifest, read_manifest
from uno_stats.store.parts import arrow_table
from uno_stats.store.runs import PointRun, open_runs
from uno_stats.store.verify import verified_runs

SWEEP = """\
name: mixed
games: 300
seed: 11
rules: {preset: classic-house}
sweep:
  players: [2, 4]
  rules.stack_draw_two: [false, true]
"""
MATCHES = """\
name: matches
games: 12
seed: 5
players: 3
rules: {preset: mattel-2022, scoring: points}
match: {target: 200}
sweep:
  rules.hand_size: [5, 7]
"""


def alone(scenario: Scenario) -> pl.DataFrame:
    """The rows a run of ``scenario`` alone stores, as polars reads them."""
    config = engine.EngineConfig.from_scenario(scenario)
    columns = engine.simulate(config, 0, scenario.games)
    return pl.from_arrow(arrow_table(columns, scenario.players)).sort("game", "round")


def assert_points_play_their_own_games(folder: Path, s: Scenario) -> None:
    runs = verified_runs(folder)
    points = s.sweep_points()
    assert len(runs) == len(points)
    for run, point in zip(runs, points, strict=True):
        assert isinstance(run, PointRun) and run.complete
        assert run.manifest.sweep_label == point.label
        assert run.manifest.sweep_assignment == point.assignment
        assert run.scenario.to_dict() == point.scenario.to_dict()
        got = run.scan().collect().sort("game", "round")
        assert got.equals(alone(point.scenario)), point.label
        assert run.manifest.rows == got.height


@pytest.mark.parametrize(("workers", "chunk_size"), [(1, None), (1, 7), (2, 250), (2, 1200)])
def test_every_point_holds_its_own_games(tmp_path: Path, workers: int, chunk_size: int) -> None:
    s = parse_scenario(SWEEP)
    out = run_scenario(s, tmp_path, workers=workers, chunk_size=chunk_size, progress=False)
    assert_points_play_their_own_games(out.path, s)
    m = read_manifest(out.path)
    assert isinstance(m, SweepManifest) and m.points == 4 and m.complete
    assert m.rows == sum(r.manifest.rows for r in out.runs)


def test_a_sweep_of_matches_records_its_rows_per_point(tmp_path: Path) -> None:
    s = parse_scenario(MATCHES)
    out = run_scenario(s, tmp_path, workers=1, chunk_size=5, progress=False)
    assert_points_play_their_own_games(out.path, s)


def test_one_point_is_named_by_its_label(tmp_path: Path) -> None:
    s = parse_scenario(SWEEP)
    out = run_scenario(s, tmp_path, workers=1, progress=False)
    label = s.sweep_points()[2].label
    (run,) = verified_runs(out.path / label)
    assert run.manifest.sweep_label == label
    (again,) = open_runs(out.path / label)
    assert again.scan().collect().equals(run.scan().collect())
    with pytest.raises(ResultsError, match="no such results folder"):
        verified_runs(out.path / "players-9")


def test_a_point_reads_only_the_parts_that_hold_it(tmp_path: Path) -> None:
    s = parse_scenario(SWEEP)
    out = run_scenario(s, tmp_path, workers=1, chunk_size=250, progress=False)
    runs = verified_runs(out.path)
    # 4 points of 300 games in chunks of 250: point 1 is games 300..599, chunks 1 and 2
    assert [p.name for p in runs[1].part_files()] == ["part-000001.parquet", "part-000002.parquet"]


def test_the_layout_cuts_points_into_chunks() -> None:
    layout = Layout(points=3, games=5, chunk_size=4)
    assert layout.chunks == 4
    assert layout.slices(1) == [Slice(0, 4, 1), Slice(1, 0, 3)]
    assert layout.slices(3) == [Slice(2, 2, 3)]  # the short last chunk
    assert list(layout.point_chunks(1)) == [1, 2]
    assert [layout.overlap(i, 1) for i in range(4)] == [0, 3, 2, 0]
    assert layout.bounds(1) == ((0, 1), (0, 4))
    assert sum(s.n_games for i in range(layout.chunks) for s in layout.slices(i)) == 15


def test_a_failing_point_names_its_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tasks.run_chunk

    def failing(config, first, n):  # type: ignore[no-untyped-def]
        if config.players == 4:
            raise ValueError("boom")
        return real(config, first, n)

    monkeypatch.setattr(tasks, "run_chunk", failing)
    with pytest.raises(RunError) as info:
        run_scenario(parse_scenario(SWEEP), tmp_path, workers=1, chunk_size=300, progress=False)
    text = str(info.value)
    assert "point players-4_stack_draw_two-false chunk 2 (games 0-299, seed 11) failed" in text
    assert "ValueError: boom" in text and "run the same command again to resume" in text
    monkeypatch.undo()
    out = run_scenario(parse_scenario(SWEEP), tmp_path, workers=1, chunk_size=300, progress=False)
    assert out.resumed_chunks == 2
    assert_points_play_their_own_games(out.path, parse_scenario(SWEEP))


def test_a_point_without_a_good_part_is_one_line_naming_it(tmp_path: Path) -> None:
    """Chunks of 300 games are the 4 points: a point whose part is missing or damaged
    cannot be read, and the line says which point, which part and what to do."""
    s = parse_scenario(SWEEP)
    out = run_scenario(s, tmp_path, workers=1, chunk_size=300, progress=False)
    part = out.path / "parts" / "part-000002.parquet"
    data = part.read_bytes()
    part.write_bytes(data[: len(data) // 2])
    with pytest.raises(ResultsError) as info:
        verified_runs(out.path)
    assert str(info.value) == (
        f"{out.path}: point players-4_stack_draw_two-false has no valid result part (1 failed "
        f"verification, first part-000002.parquet: {verified_reason(out.path, part)}); rerun "
        "the same run command to redo them"
    )
    part.unlink()
    with pytest.raises(
        ResultsError,
        match=r"point players-4_stack_draw_two-false has no result "
        r"parts yet \(3 of 4 chunks, 900 of 1,200 games\); run the same run",
    ):
        verified_runs(out.path)
    again = run_scenario(s, tmp_path, workers=1, chunk_size=300, progress=False)
    assert again.resumed_chunks == 3
    assert_points_play_their_own_games(out.path, s)


def verified_reason(folder: Path, part: Path) -> str:
    """Why verification refuses ``part`` of the dataset in ``folder``."""
    from uno_stats.store.verify import check_run

    (bad,) = check_run(folder, read_manifest(folder)).bad
    assert bad.path == part
    return bad.reason


def test_a_damaged_part_of_two_points_is_noted_once_and_both_are_incomplete(
    tmp_path: Path,
) -> None:
    """Chunks of 250 across points of 300 games: part 1 holds the end of point 0 and the
    start of point 1, each with another good part; both read as incomplete, the part is
    named once."""
    from uno_stats.store.verify import incomplete_error, run_notes

    s = parse_scenario(SWEEP)
    out = run_scenario(s, tmp_path, workers=1, chunk_size=250, progress=False)
    part = out.path / "parts" / "part-000001.parquet"
    part.write_bytes(part.read_bytes()[:-100])
    runs = verified_runs(out.path)
    assert [r.complete for r in runs] == [False, False, True, True]
    assert [r.manifest.rows for r in runs] == [250, 100, 300, 300]
    notes = run_notes(runs)
    assert len(notes) == 3 and notes[0].startswith(f"{part} not counted: ")
    assert notes[1].startswith(f"{runs[0].path} is incomplete: 1 of 2 chunks, 250 of 300 games")
    assert notes[2].startswith(f"{runs[1].path} is incomplete: 1 of 2 chunks, 100 of 300 games")
    problem = incomplete_error(runs)
    assert problem is not None and "(and 1 more)" in problem and "--allow-incomplete" in problem

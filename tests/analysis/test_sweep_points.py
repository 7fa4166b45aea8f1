"""A sweep as the effects analysis reads it, engine-free: sweep folders written from synthetic
rows (tests/helpers.py), their axes in the file's order, each point's values, deal and rows,
and the one-line errors of runs that are not the points of one sweep."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest
from helpers import run_manifest, write_run, write_sweep

from uno_stats.analysis.sweep_points import DEAL_AXES, by_point, sweep_of
from uno_stats.errors import ResultsError
from uno_stats.store.manifest import MANIFEST
from uno_stats.store.parts import POINT
from uno_stats.store.runs import open_runs


def test_points_carry_their_values_deal_and_rows(tmp_path: Path) -> None:
    folder = write_sweep(tmp_path, "s", {"players": [3, 2], "mean_turns": [20, 30]}, games=50)
    runs = open_runs(folder)
    sweep = sweep_of(runs)
    assert sweep.name == "s" and sweep.design is None
    assert sweep.axes == {"players": (3, 2), "mean_turns": (20, 30)}  # the file's order
    labels = ["players=3,mean_turns=20", "players=3,mean_turns=30"]
    labels += ["players=2,mean_turns=20", "players=2,mean_turns=30"]
    assert [p.label for p in sweep.points] == labels
    assert [p.values for p in sweep.points] == [
        {"players": 3, "mean_turns": 20},
        {"players": 3, "mean_turns": 30},
        {"players": 2, "mean_turns": 20},
        {"players": 2, "mean_turns": 30},
    ]
    assert [(p.seed, p.games, p.players) for p in sweep.points] == [
        (7, 50, 3),
        (8, 50, 3),
        (9, 50, 2),
        (10, 50, 2),
    ]
    assert [p.deal for p in sweep.points] == [
        (7, 50, 3, 1, 7),
        (8, 50, 3, 1, 7),
        (9, 50, 2, 1, 7),
        (10, 50, 2, 1, 7),
    ]
    assert sweep.seed == 7
    for point, run in zip(sweep.points, runs, strict=True):
        assert point.rows.collect().equals(run.scan().collect())
    assert DEAL_AXES == ("players", "deck.decks", "rules.hand_size")


def test_the_sweep_manifest_orders_the_values(tmp_path: Path) -> None:
    """Points read in another order: the values come in the order the sweep file lists
    them (the first is the baseline level); without the sweep manifest, as first seen."""
    folder = write_sweep(tmp_path, "s", {"mean_turns": [30, 20, 25]}, games=20)
    runs = open_runs(folder)
    backwards = list(reversed(runs))
    assert sweep_of(backwards).axes == {"mean_turns": (30, 20, 25)}
    top = json.loads((folder / MANIFEST).read_text())
    top["design"] = {"kind": "fractional", "resolution": 3, "generators": [], "points": 3}
    (folder / MANIFEST).write_text(json.dumps(top))
    assert sweep_of(backwards).design == top["design"]
    (folder / MANIFEST).write_text("{not json")
    unreadable = sweep_of(backwards)
    assert unreadable.axes == {"mean_turns": (25, 20, 30)} and unreadable.design is None
    (folder / MANIFEST).unlink()
    assert sweep_of(backwards).axes == {"mean_turns": (25, 20, 30)}
    top["axes"] = {"other": [1, 2]}  # a sweep manifest naming other axes: order as seen
    (folder / MANIFEST).write_text(json.dumps(top))
    assert sweep_of(backwards).axes == {"mean_turns": (25, 20, 30)}


def test_a_run_manifest_above_the_points_is_not_a_sweep_manifest(tmp_path: Path) -> None:
    folder = write_sweep(tmp_path, "s", {"mean_turns": [30, 20]}, games=20)
    runs = open_runs(folder)
    write_run(tmp_path, "s", games=20)  # the folder's manifest.json is now a run's
    assert sweep_of(list(reversed(runs))).axes == {"mean_turns": (20, 30)}


def test_decks_and_hand_size_are_part_of_the_deal(tmp_path: Path) -> None:
    meta = run_manifest(
        "d",
        20,
        3,
        5,
        rules={"hand_size": 5},
        deck={"decks": 2},
        sweep_label="rules.hand_size=5",
        sweep_assignment={"rules.hand_size": 5},
    )
    run = open_runs(write_run(tmp_path, "p", 20, 3, 5, manifest=meta))
    (point,) = sweep_of(run).points
    assert point.deal == (5, 20, 3, 2, 5)


def test_runs_that_are_not_one_sweep_are_refused(tmp_path: Path) -> None:
    a = open_runs(write_sweep(tmp_path, "a", {"mean_turns": [20, 30]}, games=20))
    b = open_runs(write_sweep(tmp_path, "b", {"mean_turns": [20, 30]}, games=20))
    with pytest.raises(ResultsError, match=r"^no runs: effects needs the results folder"):
        sweep_of([])
    with pytest.raises(ResultsError, match=r"^effects reads one sweep at a time; .* a, b$"):
        sweep_of([b[0], a[0]])
    single = open_runs(write_run(tmp_path, "one", games=20))
    with pytest.raises(ResultsError, match="one: not a sweep point"):
        sweep_of(single)
    rotation = replace(a[0].manifest, tournament=["random", "smart"])
    with pytest.raises(ResultsError, match=r"^a: a tournament, not a sweep"):
        sweep_of([replace(a[0], manifest=rotation)])
    other = replace(a[1].manifest, sweep_assignment={"mean_turns": 30, "players": 4})
    with pytest.raises(ResultsError, match=r"^a: the points do not all name the same sweep axes"):
        sweep_of([a[0], replace(a[1], manifest=other)])
    unnamed = replace(a[0].manifest, sweep_label=None)
    assert sweep_of([replace(a[0], manifest=unnamed)]).points[0].label == a[0].path.name
    assert isinstance(sweep_of(a).points[0].rows, pl.LazyFrame)


def test_effects_read_every_point_of_a_dataset_at_once(tmp_path: Path) -> None:
    """A sweep dataset's points in one frame (a ``point`` column): each point's rows are
    those its own run reads, and the effects come from that frame alone (points whose own
    rows are blanked give the same effects)."""
    from uno_stats.analysis.effects import _fingerprints, sweep_effects
    from uno_stats.run.runner import run_scenario
    from uno_stats.scenario.load import parse_scenario
    from uno_stats.store.verify import verified_runs

    text = "name: e\ngames: 120\nseed: 2\nsweep:\n  players: [2, 3]\n  rules.stack_draw_two: [false, true]\n"
    outcome = run_scenario(
        parse_scenario(text), tmp_path, workers=1, progress=False, chunk_size=100
    )
    sweep = sweep_of(verified_runs(outcome.path))
    assert sweep.frame is not None
    whole = sweep.point_rows().collect()
    for i, point in enumerate(sweep.points):
        mine = whole.filter(pl.col("point") == i).drop("point").sort("game", "round")
        assert mine.equals(point.rows.collect().sort("game", "round"))
        assert point.column_names == frozenset(mine.columns)
    nothing = pl.LazyFrame({"nothing": []})
    blind = replace(sweep, points=tuple(replace(p, rows=nothing) for p in sweep.points))
    found, again = sweep_effects(sweep), sweep_effects(blind)
    assert repr(again.effects) == repr(found.effects) and len(found.effects) > 10
    assert again.unchanged_axes == found.unchanged_axes == ()
    pieces = sweep.row_pieces()  # a part each, in the frame's row order
    assert len(pieces) == 5 and pl.concat([p.collect() for p in pieces]).equals(whole)
    at_once = sweep_effects(replace(sweep, pieces=None))  # the frame read as one piece
    assert repr(at_once.effects) == repr(found.effects)
    assert _fingerprints(sweep) == _fingerprints(replace(sweep, pieces=None))
    assert [n for n, _, _ in _fingerprints(sweep)] == [120] * 4


def test_a_sweep_built_by_hand_reads_its_points_as_a_scan_of_their_runs_does(
    tmp_path: Path,
) -> None:
    """Sweep.point_rows without a frame (a Sweep built by hand) stacks the points' own rows
    with a u32 ``point`` column: the frame the runs' scan gives; points whose columns or
    dtypes differ read together, null where a point lacks a column."""
    sweep = sweep_of(open_runs(write_sweep(tmp_path, "s", {"players": [3, 2]}, games=30)))
    built = replace(sweep, frame=None).point_rows().collect()
    assert built.schema[POINT] == pl.UInt32
    assert built.equals(sweep.point_rows().collect())
    older = pl.LazyFrame({"game": [0, 1], "turns": pl.Series([5, 6], dtype=pl.Int32)})
    newer = pl.LazyFrame({"game": [0], "turns": [7], "cards_drawn": [2]})
    points = tuple(replace(p, rows=r) for p, r in zip(sweep.points, (older, newer), strict=True))
    mixed = replace(sweep, points=points, frame=None).point_rows().collect()
    assert mixed.to_dict(as_series=False) == {
        "game": [0, 1, 0],
        "turns": [5, 6, 7],
        POINT: [0, 0, 1],
        "cards_drawn": [None, None, 2],
    }
    assert mixed.schema["turns"] == pl.Int64
    by_hand = replace(sweep, points=points, frame=None).row_pieces()  # a point each
    assert pl.concat([p.collect() for p in by_hand]).equals(mixed)


def test_by_point_gives_each_point_its_rows_in_order_without_the_point_column() -> None:
    frame = pl.DataFrame(
        {POINT: pl.Series([2, 0, 2, 0], dtype=pl.UInt32), "game": [5, 1, 4, 3], "v": [1.0] * 4}
    )
    parts = by_point(frame, 4)
    assert [p.to_dict(as_series=False) for p in parts] == [
        {"game": [1, 3], "v": [1.0, 1.0]},
        {"game": [], "v": []},  # a point without a row: empty, the same columns
        {"game": [5, 4], "v": [1.0, 1.0]},
        {"game": [], "v": []},
    ]
    assert all(p.schema == parts[0].schema for p in parts)

"""Paired runs read a window of games at a time: the same comparisons as the rows read whole,
on shipped scenarios cut into several parts (single runs, matches, sweep points; marked
``engine``: they play them), and the same joint counts on synthetic rows written as parts
(engine-free, in ``make mutation``); the rank tests from counts against scipy on the
expanded samples; rows that do not line up; and compare's peak memory against its rows
(slow)."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from helpers import run_manifest, synthetic_rows
from scipy import stats as st
from test_flat_memory import _peak_rss_kb
from typer.testing import CliRunner

from uno_stats.analysis import methods as mt
from uno_stats.analysis.compare import DEFAULT_METRICS, compare_metric, compare_runs
from uno_stats.analysis.estimates import has_matches
from uno_stats.analysis.metrics import metric_spec
from uno_stats.analysis.paired_rows import RATIO_COLUMNS, Joint, PairedWindows, paired_joint
from uno_stats.cli import app
from uno_stats.store.parts import PARTS_DIR
from uno_stats.store.runs import Run, open_runs

ROOT = Path(__file__).resolve().parents[2]
METRICS = [
    *DEFAULT_METRICS,
    "won_rate",
    "first_mover_win_rate",
    "first_mover_edge",
    "comeback2_rate",
    "p25_cards_drawn",
    "dist_cards_drawn",
]


def _play(out: Path, name: str, games: int, chunk: int) -> list[Run]:
    scenario = ROOT / "scenarios" / f"{name}.yaml"
    args = ["run", str(scenario), "--games", str(games), "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--chunk-size", str(chunk), "-w", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    return list(open_runs(out / name))


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Run, Run]]:
    """Paired runs of shipped scenarios, cut into parts of unequal sizes on each side."""
    out = tmp_path_factory.mktemp("paired")
    mattel = _play(out / "a", "mattel-2022-4p", 900, 250)[0]
    house = _play(out / "b", "classic-house-4p", 900, 400)[0]
    points = _play(out / "c", "jump-in", 500, 170)  # a sweep: its two points pair up
    low = _play(out / "d", "match-low-score", 60, 25)[0]
    points_scored = _play(out / "e", "match-points", 60, 16)[0]
    return [(mattel, house), (points[0], points[1]), (low, points_scored)]


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-14) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if hasattr(a, "__dataclass_fields__") and type(a) is type(b):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))  # type: ignore[arg-type]
    return a == b


@pytest.mark.engine
def test_windows_give_the_comparisons_of_the_whole_rows(pairs: list[tuple[Run, Run]]) -> None:
    """Every metric of every pair: read part by part, the comparison the rows read whole
    give (floats to 12 digits: a weighted sum adds in another order), paired wherever the
    rows line up."""
    for a, b in pairs:
        windows = PairedWindows.of_runs(a, b)
        assert len(windows.a_parts) >= 3 and windows.b_parts is not None  # really in windows
        metrics = [*METRICS, *(["mean_match_rounds"] if has_matches(a.scan()) else [])]
        paired = set()
        for metric in metrics:
            whole = compare_metric(a.scan(), b.scan(), metric, paired=True)
            cut = compare_metric(a.scan(), b.scan(), metric, paired=True, windows=windows)
            assert _same(cut, whole), (a.name, metric, cut, whole)
            if cut.paired:
                paired.add(metric)
        # a match's rounds line up only where both matches last as long: by game alone
        lined_up = {"mean_match_rounds", "comeback2_rate"} if has_matches(a.scan()) else metrics
        assert paired == set(lined_up), a.name


@pytest.mark.engine
def test_windows_count_every_paired_row_once(pairs: list[tuple[Run, Run]]) -> None:
    a, b = pairs[0]
    joint = paired_joint(PairedWindows.of_runs(a, b), metric_spec("mean_turns"))
    assert joint is not None and joint.n == 900
    assert joint.frame.select("a", "b").is_duplicated().sum() == 0  # distinct pairs, sorted
    assert joint.frame.sort("a", "b").equals(joint.frame)


@pytest.mark.engine
def test_a_run_missing_a_part_is_not_paired(pairs: list[tuple[Run, Run]], tmp_path: Path) -> None:
    a, b = pairs[0]
    cut = tmp_path / "cut"
    shutil.copytree(b.path, cut)
    sorted((cut / "parts").glob("part-*.parquet"))[1].unlink()
    shorter = open_runs(cut)[0]
    for first, second in ((a, shorter), (shorter, a)):
        assert paired_joint(PairedWindows.of_runs(first, second), metric_spec("void_rate")) is None
        (found,), _ = compare_runs([first, second], ["mean_turns"])
        assert not found.comparison.paired and "independent" in found.comparison.note


def test_rank_tests_from_counts_are_scipys_on_the_expanded_samples() -> None:
    rng = np.random.default_rng(11)
    for _ in range(60):
        n = int(rng.integers(5, 2000))
        a = rng.integers(0, int(rng.integers(2, 40)), n)
        b = rng.integers(0, int(rng.integers(2, 40)), n)
        d = (b - a).astype(float)
        values, counts = np.unique(d, return_counts=True)
        if np.any(d != 0):
            want = st.wilcoxon(d[d != 0], zero_method="wilcox", method="asymptotic")
            stat, p, plus, minus = mt.wilcoxon_counts(values, counts)
            assert (stat, p) == (float(want.statistic), float(want.pvalue))
            assert plus + minus == np.count_nonzero(d) * (np.count_nonzero(d) + 1) / 2
        (va, ca), (vb, cb) = (np.unique(x, return_counts=True) for x in (a, b))
        want = st.mannwhitneyu(np.repeat(vb, cb), np.repeat(va, ca), method="asymptotic")
        assert mt.mann_whitney_counts(vb, cb, va, ca) == (float(want.statistic), want.pvalue)
    assert all(math.isnan(x) for x in mt.wilcoxon_counts(np.array([0.0]), np.array([3])))


def test_joint_of_rows_counts_distinct_rows() -> None:
    joint = Joint.of_rows(np.array([[1, 2, 1, 2], [0, 1, 0, 1], [1, 2, 1, 2]]))
    assert joint.frame.rows() == [(0.0, 1.0, 0.0, 1.0, 1), (1.0, 2.0, 1.0, 2.0, 2)]
    assert joint.n == 3 and joint.counts.dtype == np.int64
    assert joint.frame.schema == {**dict.fromkeys(RATIO_COLUMNS, pl.Float64), "k": pl.Int64}
    # as many rows as columns, in column-major memory (the transpose of the columns): still
    # one row per game, never read as columns
    columns = np.array([[0, 1, 2, 0], [1, 3, 4, 1], [0, 0, 1, 0], [2, 3, 5, 2]])
    square = Joint.of_rows(columns.T)
    assert square.frame.rows() == [
        (0.0, 1.0, 0.0, 2.0, 2),
        (1.0, 3.0, 0.0, 3.0, 1),
        (2.0, 4.0, 1.0, 5.0, 1),
    ]


def test_an_empty_window_is_skipped() -> None:
    """A window of ``a`` without a row is passed over; the windows after it are read."""
    rows = synthetic_rows(30, 2, 1)
    a = rows.lazy()
    windows = PairedWindows(
        [
            a.filter(pl.col("game") < 0),
            a.filter(pl.col("game") < 10),
            a.filter(pl.col("game") >= 10),
        ],
        rows.lazy(),
    )
    joint = paired_joint(windows, metric_spec("mean_turns"))
    whole = paired_joint(PairedWindows.whole(a, a), metric_spec("mean_turns"))
    assert joint is not None and whole is not None and joint.n == 30
    assert joint.frame.equals(whole.frame)


def _chunked(root: Path, name: str, rows: pl.DataFrame, chunk: int, games: int = 0) -> Run:
    """A run of ``rows`` written as parts of ``chunk`` games each (its manifest says so), no
    engine played: ``games`` in the manifest (default: the rows' games)."""
    folder = root / name
    (folder / PARTS_DIR).mkdir(parents=True)
    games = games or int(rows["game"].max()) + 1
    for index, first in enumerate(range(0, games, chunk)):
        part = rows.filter(pl.col("game").is_between(first, first + chunk - 1))
        part.write_parquet(folder / PARTS_DIR / f"part-{index:06d}.parquet")
    meta = replace(run_manifest(name, games), chunk_size=chunk, chunks=-(-games // chunk))
    return Run(folder, meta)


def _matches(seed: int) -> pl.DataFrame:
    """Matches of 2 to 12 rounds (seed 1's), other rounds' values by ``seed``: paired runs
    whose matches last as long."""
    values = synthetic_rows(200, 2, seed).drop("game", "round", "match_rounds", "match_winner")
    shape = synthetic_rows(200, 2, 1, match=True).select(
        "game", "round", "match_rounds", "match_winner"
    )
    return values.hstack(shape).select(synthetic_rows(1, 2, 1).columns)  # the schema's order


@pytest.mark.parametrize(
    ("rows", "chunks"),
    [((lambda s: synthetic_rows(100, 2, s)), (30, 45)), (_matches, (7, 3))],
    ids=["rounds", "matches"],
)
def test_windows_of_parts_give_the_joint_counts_of_the_rows_read_whole(
    tmp_path: Path, rows: Any, chunks: tuple[int, int]
) -> None:
    """Engine-free: two runs of synthetic rows cut into parts of other sizes on each side
    (matches: windows cut between matches of 2 to 12 rounds), every metric's joint counts
    read window by window equal those of the rows read whole, row for row."""
    a_rows, b_rows = rows(1), rows(2)
    a = _chunked(tmp_path, "a", a_rows, chunks[0])
    b = _chunked(tmp_path, "b", b_rows, chunks[1])
    windows = PairedWindows.of_runs(a, b)
    games = int(a_rows["game"].max()) + 1
    assert len(windows.a_parts) == -(-games // chunks[0]) >= 3
    assert windows.b_parts is not None
    assert [(first, stop) for _, first, stop in windows.b_parts] == [
        (first, min(first + chunks[1], games)) for first in range(0, games, chunks[1])
    ]
    metrics = [*METRICS, *(["mean_match_rounds"] if has_matches(a.scan()) else [])]
    for metric in metrics:
        spec = metric_spec(metric)
        whole = paired_joint(PairedWindows.whole(a.scan(), b.scan()), spec)
        cut = paired_joint(windows, spec)
        assert whole is not None and cut is not None, metric
        assert cut.frame.equals(whole.frame), metric
    joint = paired_joint(windows, metric_spec("mean_turns"))
    assert joint is not None and joint.n == a_rows.height


def test_b_rows_are_those_of_the_window_games(tmp_path: Path) -> None:
    rows = synthetic_rows(100, 2, 1)
    a, b = _chunked(tmp_path, "a", rows, 30), _chunked(tmp_path, "b", rows, 45)
    windows = PairedWindows.of_runs(a, b)
    assert windows.b_rows(40, 50).collect()["game"].to_list() == list(range(40, 51))
    assert windows.b_rows(44, 45).collect()["game"].to_list() == [44, 45]  # two parts
    assert windows.b_rows(90, 99).collect()["game"].to_list() == list(range(90, 100))
    past = windows.b_rows(100, 120).collect()
    assert past.height == 0 and past.columns == rows.columns
    # b read whole: every row for one window of a, the window's rows for several
    whole = PairedWindows([a.scan()], b.scan())
    assert whole.b_rows(40, 50).collect().height == 100
    parts = PairedWindows([a.scan(), a.scan()], b.scan())
    assert parts.b_rows(40, 50).collect()["game"].to_list() == list(range(40, 51))


def test_many_windows_are_added_up_as_they_go(tmp_path: Path) -> None:
    """40 windows (more than the 32 kept before they are added): the same counts."""
    a_rows, b_rows = synthetic_rows(120, 2, 1), synthetic_rows(120, 2, 2)
    windows = PairedWindows.of_runs(
        _chunked(tmp_path, "a", a_rows, 3), _chunked(tmp_path, "b", b_rows, 7)
    )
    assert len(windows.a_parts) == 40
    for metric in ("mean_turns", "comeback2_rate"):
        whole = paired_joint(PairedWindows.whole(a_rows.lazy(), b_rows.lazy()), metric_spec(metric))
        cut = paired_joint(windows, metric_spec(metric))
        assert whole is not None and cut is not None and cut.frame.equals(whole.frame)
        assert cut.n == 120  # rounds, or games (one round each)


def test_runs_whose_games_do_not_line_up_are_not_paired(tmp_path: Path) -> None:
    rows = synthetic_rows(100, 2, 1)
    a = _chunked(tmp_path, "a", rows, 30)
    b = _chunked(tmp_path, "b", rows, 45)
    (b.path / PARTS_DIR / "part-000001.parquet").unlink()  # games 45 to 89 lost
    (a.path / PARTS_DIR / "part-000003.parquet").unlink()  # a: games 90 to 99 lost
    for metric in ("void_rate", "comeback2_rate"):
        spec = metric_spec(metric)
        assert paired_joint(PairedWindows.of_runs(a, b), spec) is None
        assert paired_joint(PairedWindows.of_runs(b, a), spec) is None
    c = _chunked(tmp_path, "c", rows, 45)
    for metric in ("void_rate", "comeback2_rate"):  # b holds games 90 to 99 that a lacks
        assert paired_joint(PairedWindows.of_runs(a, c), metric_spec(metric)) is None


def test_parts_not_named_by_chunk_are_one_window(tmp_path: Path) -> None:
    rows = synthetic_rows(60, 2, 1)
    a, b = _chunked(tmp_path, "a", rows, 20), _chunked(tmp_path, "b", rows, 20)
    (b.path / PARTS_DIR / "part-000002.parquet").rename(b.path / PARTS_DIR / "part-last.parquet")
    for first, second in ((a, b), (b, a)):
        windows = PairedWindows.of_runs(first, second)
        assert len(windows.a_parts) == 1 and windows.b_parts is None
        joint = paired_joint(windows, metric_spec("mean_turns"))
        assert joint is not None and joint.n == 60


@pytest.mark.slow
def test_compare_memory_does_not_grow_with_rows(tmp_path: Path) -> None:
    """``compare`` of two paired runs of 2,000,000 rounds peaks at most 1.3x the memory of
    two runs of 200,000 rounds."""
    peaks = {}
    for games in (200_000, 2_000_000):
        out = tmp_path / str(games)
        folders = []
        for name in ("mattel-2022-4p", "classic-house-4p"):
            scenario = str(ROOT / "scenarios" / f"{name}.yaml")
            args = ["run", scenario, "--games", str(games), "--out", str(out), "--quiet"]
            subprocess.run(
                [sys.executable, "-m", "uno_stats.cli", *args],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            folders.append(str(out / name))
        peaks[games] = _peak_rss_kb("compare", *folders, "--format", "json")
    assert peaks[2_000_000] <= 1.3 * peaks[200_000], peaks

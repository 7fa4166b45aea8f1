"""Summaries in flat memory: the batched questions against the in-memory computations they
replaced (kept here as the reference), the answers from part tallies against the batched
questions, on shipped scenarios, and a summary's peak memory against its rows (slow)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from scipy import special
from typer.testing import CliRunner

from uno_stats.analysis import seats
from uno_stats.analysis.estimates import (
    Estimate,
    cluster_ratio,
    cluster_ratio_counts,
    mean_estimate,
    proportion,
)
from uno_stats.analysis.first_mover import first_mover
from uno_stats.analysis.questions import (
    answer_run,
    match_length,
    round_length,
    run_rules,
    run_scoring,
    run_seats,
    status_counts,
)
from uno_stats.analysis.round_events import round_events, turn_draws
from uno_stats.analysis.row_counts import FrameCounts
from uno_stats.analysis.seats import (
    comeback_counts,
    comeback_curve,
    deficit_win_table,
    first_seat_points_edge,
    seat_label,
    seat_matrix,
    seat_scores,
    seat_win_rates,
    strategy_strength,
    won_frame,
)
from uno_stats.cli import app
from uno_stats.store.runs import Run, open_runs

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = {
    # shipped scenario: games (sweeps and tournaments: per point)
    "mattel-2022-4p": 500,
    "stacking-all": 400,
    "match-partners": 200,
    "seating-random": 400,
    "strategies-mixed": 300,
    "draw-until-playable": 300,
    "tournament": 40,
}


@pytest.fixture(scope="module")
def shipped_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Run]:
    """Every run (sweep points and seatings included) of :data:`SCENARIOS`, played small."""
    out = tmp_path_factory.mktemp("flat")
    cli = CliRunner()
    runs: list[Run] = []
    for name, games in SCENARIOS.items():
        scenario = ROOT / "scenarios" / f"{name}.yaml"
        args = ["run", str(scenario), "--games", str(games), "--out", str(out / name)]
        result = cli.invoke(app, [*args, "--workers", "1", "--quiet"])
        assert result.exit_code == 0, result.output
        (folder,) = (out / name).iterdir()
        runs.extend(open_runs(folder))
    return runs


# --- the in-memory computations the batched ones replaced ----------------------------------


def _mean_sd(values: np.ndarray, scale: float = 1.0) -> tuple[float, float]:
    n = values.size
    total, squares = int(values.sum(dtype=np.int64)), int(np.square(values).sum(dtype=np.int64))
    mean = total / n / scale
    if n < 2:
        return mean, math.nan
    var = (squares - total * total / n) / (n - 1) / (scale * scale)
    return mean, math.sqrt(max(var, 0.0))


def reference_edge(lf: pl.LazyFrame, players: int, scoring: str) -> tuple[Any, ...]:
    df = won_frame(lf, pl.col("first_player").cast(pl.Int64), "points")
    n = df.height
    scores = seat_scores(seat_matrix(df, "points"), df["winner"].to_numpy(), scoring)
    first = scores[np.arange(n), df["first_player"].to_numpy()]
    rest = scores.sum(axis=1) - first
    k = players - 1
    est = [
        mean_estimate(*_mean_sd(x, scale), n)
        for x, scale in ((first, 1), (rest, k), (k * first - rest, k))
    ]
    d_mean, sd = _mean_sd(k * first - rest, k)
    if n < 2 or not sd > 0:
        return (*est, *((0.0, 1.0) if d_mean == 0 else (math.nan, math.nan)))
    t_stat = d_mean / (sd / math.sqrt(n))
    return (*est, t_stat, float(2 * special.stdtr(n - 1, -abs(t_stat))))


def reference_comeback(lf: pl.LazyFrame, ks: list[int]) -> tuple[Any, ...]:
    df = won_frame(lf, "max_deficit")
    md = seat_matrix(df, "max_deficit")
    win = np.arange(md.shape[1])[None, :] == df["winner"].to_numpy()[:, None]
    top = max(int(md.max()), *ks) + 1
    every = np.bincount(md.ravel(), minlength=top)[::-1].cumsum()[::-1]
    won = np.bincount(md[win], minlength=top)[::-1].cumsum()[::-1]
    n_k = [int(every[k]) if k >= 0 else md.size for k in ks]
    w_k = [int(won[k]) if k >= 0 else int(win.sum()) for k in ks]
    return int(md.size), n_k, w_k, df.height


def reference_strategies(
    lf: pl.LazyFrame, seat_list: list[dict[str, Any]], scoring: str
) -> list[tuple[Any, ...]]:
    seating = "seating" in lf.collect_schema().names()
    df = won_frame(lf, "points", *(("seating",) if seating else ()))
    points = seat_matrix(df, "points")
    winner = df["winner"].to_numpy()
    scores = seat_scores(points, winner, scoring)
    players = points.shape[1]
    labels = [seat_label(seat_list[i if len(seat_list) > 1 else 0]) for i in range(players)]
    order = list(dict.fromkeys(labels))
    sitter = seat_matrix(df, "seating") if seating else np.arange(players)[None, :]
    label_at = np.broadcast_to(np.array([order.index(x) for x in labels])[sitter], points.shape)
    out = []
    for k, label in enumerate(order):
        mask = label_at == k
        n = int(mask.sum())
        wins = int(mask[np.arange(df.height), winner].sum())
        out.append(
            (
                label,
                proportion(wins, n),
                mean_estimate(*_mean_sd(scores[mask]), n),
                mean_estimate(*_mean_sd(points[mask]), n),
            )
        )
    return out


def reference_turn_draws(lf: pl.LazyFrame) -> tuple[Any, ...]:
    df = lf.select(
        pl.col("turn_draws").cast(pl.Float64), pl.col("turn_draw_cards").cast(pl.Float64)
    ).collect()
    draws, cards = df["turn_draws"].to_numpy(), df["turn_draw_cards"].to_numpy()
    per_draw, _ = cluster_ratio(cards, draws)
    n = int(draws.size)
    sd = float(np.std(draws, ddof=1))
    return (
        n,
        int(draws.sum()),
        int(cards.sum()),
        per_draw,
        mean_estimate(float(draws.mean()), sd, n),
    )


# --- the tests ------------------------------------------------------------------------------


def _close(a: Estimate, b: Estimate) -> bool:
    return a.n == b.n and all(
        math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-15) or (math.isnan(x) and math.isnan(y))
        for x, y in ((a.value, b.value), (a.low, b.low), (a.high, b.high))
    )


def test_batched_questions_match_the_in_memory_ones(
    shipped_runs: list[Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every shipped run of :data:`SCENARIOS` (partners scoring, seatings, mixed strategies,
    sweep points, tournament seatings): identical numbers, read in batches of 37 rows."""
    monkeypatch.setattr(seats, "WON_BATCH", 37)
    monkeypatch.setattr(seats, "CHECKPOINT_BATCH", 53)
    assert len(shipped_runs) > len(SCENARIOS)
    for run in shipped_runs:
        lf, scoring = run.scan(), run_scoring(run)
        edge = first_seat_points_edge(lf, run.players, scoring)
        want = reference_edge(lf, run.players, scoring)
        assert (edge.first, edge.others, edge.edge) == want[:3], run.name
        assert np.allclose([edge.t, edge.p], want[3:], rtol=1e-12, equal_nan=True), run.name
        ks = [-1, 0, 1, 3, 10, 300]
        size, n_k, w_k, rounds = comeback_counts(lf, ks)
        assert (size, list(n_k), list(w_k), rounds) == reference_comeback(lf, ks), run.name
        rows = strategy_strength(lf, run_seats(run), scoring)
        want_rows = reference_strategies(lf, run_seats(run), scoring)
        got = [(r.label, r.win, r.points_scored, r.points_left) for r in rows]
        assert got == want_rows, run.name
        n, draws, cards, per_draw, per_round = reference_turn_draws(lf)
        d = turn_draws(FrameCounts(lf))
        assert (d.n, d.draws, d.cards) == (n, draws, cards), run.name
        assert _close(d.per_draw, per_draw) and _close(d.per_round, per_round), run.name


def test_deficit_table_does_not_depend_on_the_batches(
    shipped_runs: list[Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deficit table in one batch and in batches of 29 rows: the same counts."""
    for run in shipped_runs[:3]:
        whole = deficit_win_table(run.scan(), run.players)
        monkeypatch.setattr(seats, "CHECKPOINT_BATCH", 29)
        cut = deficit_win_table(run.scan(), run.players)
        monkeypatch.undo()
        assert np.array_equal(whole.n, cut.n) and np.array_equal(whole.wins, cut.wins)
        assert whole.n.sum() > 0


def test_cluster_ratio_counts_is_cluster_ratio_of_the_rows() -> None:
    """The ratio and interval from a joint histogram equal those from one entry per cluster."""
    rng = np.random.default_rng(5)
    d = rng.integers(0, 4, 5000)
    x = d * rng.integers(1, 3, 5000)
    joint = pl.DataFrame({"d": d, "x": x}).group_by("d", "x").len()
    got = cluster_ratio_counts(joint["x"].to_numpy(), joint["d"].to_numpy(), joint["len"])
    want, _ = cluster_ratio(x, d)
    assert _close(got, want)
    assert cluster_ratio_counts(np.zeros(2), np.zeros(2), np.ones(2, dtype=np.int64)).n == 0


def _same(a: Any, b: Any) -> bool:
    """Equal JSON values, floats to 12 significant digits (a float sum's order may differ)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return bool(a == b) and type(a) is type(b)


def test_summary_json_with_the_in_memory_engine(shipped_runs: list[Run]) -> None:
    """``summary --format json`` reads the same whether polars streams or not (a subprocess
    with ``POLARS_ENGINE_AFFINITY=in-memory`` against the default, streaming engine): the
    same records, numbers equal but for the last bits of a float aggregate (polars' ``std``
    sums in another order in each engine)."""
    folders = sorted({str(r.path) for r in shipped_runs[:4]})
    out = {}
    for engine in ("streaming", "in-memory"):
        done = subprocess.run(
            [sys.executable, "-m", "uno_stats.cli", "summary", *folders, "--format", "json"],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "POLARS_ENGINE_AFFINITY": engine},
        )
        out[engine] = json.loads(done.stdout)
    assert _same(out["streaming"], out["in-memory"])
    assert len(out["streaming"]["answers"]) > 100


def _peak_rss_kb(*args: str) -> int:
    """Peak resident memory (kB on Linux) of ``uno-stats ARGS`` in a fresh child process (a
    probe process waits for it, so no other child counts in its ``RUSAGE_CHILDREN``)."""
    probe = (
        "import resource, subprocess, sys\n"
        "subprocess.run([sys.executable, '-m', 'uno_stats.cli', *sys.argv[1:]], check=True,"
        " stdout=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], capture_output=True, text=True, check=True
    )
    return int(done.stdout.split()[-1])


@pytest.mark.slow
def test_summary_memory_does_not_grow_with_rows(tmp_path: Path) -> None:
    """``summary`` of 2,000,000 rounds peaks at most 1.3x the memory of 200,000 rounds."""
    peaks = {}
    for games in (200_000, 2_000_000):
        out = tmp_path / str(games)
        scenario = str(ROOT / "scenarios" / "mattel-2022-4p.yaml")
        args = ["run", scenario, "--games", str(games), "--out", str(out), "--quiet"]
        subprocess.run(
            [sys.executable, "-m", "uno_stats.cli", *args],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        peaks[games] = _peak_rss_kb("summary", str(out / "mattel-2022-4p"), "--format", "json")
    assert peaks[2_000_000] <= 1.3 * peaks[200_000], peaks


def test_answers_from_part_tallies_equal_the_row_reading_questions(
    shipped_runs: list[Run],
) -> None:
    """``answer_run`` (from the parts' tallies) against each question asked of the rows: the
    same figures for every shipped run of :data:`SCENARIOS` (the row-reading questions sum
    the same exact integers; the deficit table's counts are compared cell by cell)."""
    for run in shipped_runs:
        got = answer_run(run)
        lf, players, scoring = run.scan(), run.players, run_scoring(run)
        assert got.status == status_counts(lf), run.name
        assert got.length == round_length(lf), run.name
        assert got.seats == seat_win_rates(lf, players), run.name
        assert got.first_mover == first_mover(lf, players, run_rules(run)), run.name
        assert got.edge == first_seat_points_edge(lf, players, scoring), run.name
        assert got.comeback == comeback_curve(lf, players), run.name
        assert got.strategies == strategy_strength(lf, run_seats(run), scoring), run.name
        assert got.events == round_events(lf), run.name
        if got.match is not None:
            assert got.match == match_length(lf, 2 if scoring == "partners" else players)
        rows = deficit_win_table(lf, players)
        assert got.deficit is not None, run.name
        assert np.array_equal(got.deficit.n, rows.n) and np.array_equal(got.deficit.wins, rows.wins)
        assert np.array_equal(got.deficit.turns, rows.turns), run.name

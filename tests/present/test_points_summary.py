"""The short summary of a sweep after ``run``: one table of its points, at most 40 rows."""

from __future__ import annotations

from helpers import write_sweep

from uno_stats.present.points_summary import MAX_ROWS, points_summary_text
from uno_stats.run.results import open_runs


def test_a_large_sweep_shows_40_points_and_says_where_the_rest_is(tmp_path) -> None:
    axes = {"players": [3, 4, 5], "mean_turns": list(range(20, 35))}
    folder = write_sweep(tmp_path, "big", axes, games=60)
    runs = open_runs(folder)
    assert len(runs) == 45
    text = points_summary_text(runs, folder)
    assert text.startswith("Answers\n")  # the sweep's answers first, then its points
    assert "\nbig: 45 points, 2,700 rounds in all, seed 7\n" in text
    for block in text.split("\n\n"):  # a table too wide is split into column blocks
        rows = [line for line in block.splitlines() if line.startswith(("3 ", "4 ", "5 "))]
        assert len(rows) in (0, MAX_ROWS) and MAX_ROWS == 40
    assert "5          20 " in text and "5          29 " in text and "5          30 " not in text
    flat = " ".join(text.split())
    assert "(40 of 45 rows shown; all of them in the summary, report, JSON and CSV" in flat
    assert f"uno-stats summary {folder} (one row per number: --format json or csv)" in flat
    assert f"uno-stats report {folder} --out reports/big" in flat
    assert max(len(line) for line in text.splitlines()) <= 100

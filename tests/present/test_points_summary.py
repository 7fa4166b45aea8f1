"""The short summary of a sweep after ``run``: one table of its points, at most 40 rows."""

from __future__ import annotations

import re

from helpers import write_sweep

from uno_stats.present.points_summary import MAX_ROWS, points_summary_text
from uno_stats.store.runs import open_runs


def test_a_large_sweep_shows_40_points_and_says_where_the_rest_is(tmp_path) -> None:
    axes = {"players": [3, 4, 5], "mean_turns": list(range(20, 35))}
    folder = write_sweep(tmp_path, "big", axes, games=60)
    runs = open_runs(folder)
    assert len(runs) == 45
    text = points_summary_text(runs, folder)
    assert text.startswith("Answers\n")  # the sweep's answers first, then its points
    assert "\nbig: 45 points, 2,700 rounds in all, seed 7\n" in text
    for block in text.split("\n\n"):  # a table too wide is split into column blocks
        rows = [line for line in block.splitlines() if re.match(r"\d+ +[345] ", line)]
        assert len(rows) in (0, MAX_ROWS) and MAX_ROWS == 40
        # every block is keyed by the point's number, 1 to 40 in order
        assert [int(r.split()[0]) for r in rows] in ([], list(range(1, MAX_ROWS + 1)))
    points = re.findall(r"^(\d+) +([345]) +(\d\d) ", text, re.MULTILINE)
    assert points[0] == ("1", "3", "20") and points[-1] == ("40", "5", "29")
    flat = " ".join(text.split())
    assert "(40 of 45 rows shown; all of them in the report and in the JSON and CSV" in flat
    assert f"uno-stats summary {folder} --format json or csv (one row per number)" in flat
    assert f"uno-stats report {folder} --out reports/big" in flat
    assert f"every effect and interaction: uno-stats effects {folder}." in flat
    # the main effects follow the points: every level of both axes against its first
    effects = text[text.index("Main effects: big") :]
    assert effects.count("mean_turns 34 (vs 20)") == 2 and "players 5 (vs 3)" in effects
    assert "Effects in big: players 5 (vs 3) lowers comebacks from 3+ cards behind" in flat
    assert max(len(line) for line in text.splitlines()) <= 100

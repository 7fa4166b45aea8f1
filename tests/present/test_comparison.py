"""The comparison section says why a metric of paired runs is compared as independent."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_runs import engine_runs

from uno_stats.present.document import text_width
from uno_stats.present.report import compare_text
from uno_stats.run.results import open_runs


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    return engine_runs(tmp_path_factory.getbasetemp())


def test_a_comeback_metric_of_single_round_runs_gives_the_real_reason(runs) -> None:
    pair = open_runs(runs["stacking-off"]) + open_runs(runs["stacking-all"])
    with text_width(None):
        text = compare_text(pair, metrics=["comeback3_rate", "mean_turns"])
    assert "matches of different lengths" not in text
    (note,) = [line for line in text.splitlines() if line.startswith("Note:")]
    assert note.startswith("Note: stacking-all and stacking-off deal the same games, but ")
    assert (
        "P(win | 3+ cards behind) is a share of the seat-rounds that fell that far behind" in note
    )
    assert "it is compared as independent samples of seat-rounds" in note

"""The comparison section notes a metric of paired runs compared as independent only when it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_runs import engine_runs

from uno_stats.present.document import text_width
from uno_stats.present.report import compare_text
from uno_stats.store.runs import open_runs


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    return engine_runs(tmp_path_factory.getbasetemp())


def test_a_comeback_metric_of_single_round_runs_is_paired_with_no_note(runs) -> None:
    pair = open_runs(runs["stacking-off"]) + open_runs(runs["stacking-all"])
    with text_width(None):
        text = compare_text(pair, metrics=["comeback3_rate", "mean_turns"])
    assert "matches of different lengths" not in text
    assert not [line for line in text.splitlines() if line.startswith("Note:")]
    assert "paired" in text

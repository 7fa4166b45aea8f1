"""A sweep's points' main answers in one grouped read (uno_stats/analysis/point_answers.py)
are exactly those answer_run gives each point, and the short summary built on them is the
text it was when every point was answered on its own."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from uno_stats.analysis import point_answers as module
from uno_stats.analysis.estimates import Estimate
from uno_stats.analysis.point_answers import point_answers
from uno_stats.analysis.questions import answer_run
from uno_stats.present import points_summary
from uno_stats.present.points_summary import MAX_ROWS, points_summary_text
from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import parse_scenario
from uno_stats.store.runs import open_runs
from uno_stats.store.verify import verified_runs

SWEEPS = {
    # several player counts, rounds capped at 60 turns, stacking on and off
    "mixed": (
        "name: mixed\ngames: 300\nseed: 3\nrules: {preset: classic-house, max_turns: 60}\n"
        "sweep:\n  players: [2, 3, 5]\n  rules.stack_draw_two: [false, true]\n"
    ),
    # matches: several rows a game, a match length
    "matches": (
        "name: matches\ngames: 40\nseed: 4\nrules: {scoring: points}\nmatch: {target: 150}\n"
        "sweep:\n  players: [2, 4]\n"
    ),
    # exhausted rounds: no reshuffle at 8 players, the pile runs out
    "exhausted": (
        "name: exhausted\ngames: 200\nseed: 5\nplayers: 8\nrules: {preset: classic-house}\n"
        "sweep:\n  rules.reshuffle: [true, false]\n  rules.draw: [one, until-playable]\n"
    ),
}
OLD = Path(__file__).parents[1] / "store" / "data" / "per-point-sweep" / "old-sweep"


@pytest.fixture(scope="module", params=sorted(SWEEPS))
def sweep(request, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp(request.param)
    scenario = parse_scenario(SWEEPS[request.param])
    return run_scenario(scenario, out, workers=1, progress=False, chunk_size=170).path


def _close(a: Estimate | None, b: Estimate | None) -> bool:
    """Equal, but for the last bits of a mean's interval: polars' standard deviation
    depends in its last bits on how the rows are cut into parts (so does answer_run's)."""
    if a is None or b is None:
        return a is b
    pairs = zip((a.value, a.low, a.high), (b.value, b.low, b.high), strict=True)
    return a.n == b.n and all(math.isclose(x, y, rel_tol=1e-12) for x, y in pairs)


def _same_as_answer_run(runs) -> None:
    for got, run in zip(point_answers(runs), runs, strict=True):
        want = answer_run(run)
        assert got.run is run
        assert got.status == want.status  # counts: exact
        assert got.length.n == want.length.n and _close(got.length.mean, want.length.mean)
        assert got.length.median == want.length.median and got.length.p90 == want.length.p90
        assert got.seat0 == want.seat0 and got.first_mover_edge == want.first_mover_edge
        assert _close(got.mean_match_rounds, want.mean_match_rounds)


def test_every_point_gets_the_answers_of_answer_run(sweep: Path) -> None:
    runs = list(verified_runs(sweep))
    _same_as_answer_run(runs)
    assert any(a.mean_match_rounds is not None for a in point_answers(runs)) == (
        "matches" in sweep.name
    )


def test_a_choice_of_points_in_another_order_and_the_old_layout(sweep: Path) -> None:
    runs = list(open_runs(sweep))
    _same_as_answer_run([runs[-1], runs[0]])  # two points of one dataset, out of order
    _same_as_answer_run(list(verified_runs(OLD)))  # a folder per point: a scan each


def test_capped_and_exhausted_rounds_are_counted(sweep: Path) -> None:
    answers = point_answers(list(verified_runs(sweep)))
    if sweep.name == "exhausted":
        assert [a.status.counts[3] > 0 for a in answers] == [False, False, True, True]
    if sweep.name == "mixed":
        assert any(a.status.counts[2] > 0 for a in answers)


def test_the_short_summary_is_the_text_of_one_answer_run_per_point(
    sweep: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = verified_runs(sweep)
    grouped = points_summary_text(runs, sweep)
    monkeypatch.setattr(points_summary, "point_answers", lambda rs: [answer_run(r) for r in rs])
    assert points_summary_text(runs, sweep) == grouped


def test_the_short_summary_bootstraps_only_the_rows_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    values = ", ".join(str(1000 + i) for i in range(MAX_ROWS + 20))
    text = f"name: many\ngames: 30\nseed: 6\nsweep:\n  rules.max_turns: [{values}]\n"
    outcome = run_scenario(parse_scenario(text), tmp_path, workers=1, progress=False)
    calls: list[int] = []
    real = module.quantile_estimates
    monkeypatch.setattr(
        module, "quantile_estimates", lambda v, c, qs: calls.append(1) or real(v, c, qs)
    )
    shown = points_summary_text(verified_runs(outcome.path), outcome.path)
    assert f"({MAX_ROWS} of {MAX_ROWS + 20} rows shown;" in shown
    assert len(calls) == MAX_ROWS

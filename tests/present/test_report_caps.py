"""A report of many runs (a large sweep) draws no per-run charts and compares no pairs."""

from __future__ import annotations

from typer.testing import CliRunner

from uno_stats.cli import app
from uno_stats.present.report import PAIRWISE_RUNS, PER_RUN_CHARTS

MANY = """\
name: many
players: 3
games: 40
seed: 4
rules:
  preset: classic-house
sweep:
  rules.max_turns: [{values}]
"""


def test_a_sweep_of_more_points_than_the_chart_limit_draws_no_per_run_chart(tmp_path) -> None:
    points = max(PER_RUN_CHARTS, PAIRWISE_RUNS) + 1
    values = ", ".join(str(1000 + k) for k in range(points))
    scenario = tmp_path / "many.yaml"
    scenario.write_text(MANY.format(values=values))
    cli = CliRunner()
    out = tmp_path / "results"
    ran = cli.invoke(app, ["run", str(scenario), "--out", str(out), "--workers", "1", "--quiet"])
    assert ran.exit_code == 0, ran.output
    report = tmp_path / "report"
    made = cli.invoke(app, ["report", str(out / "many"), "--out", str(report)])
    assert made.exit_code == 0, made.output
    pngs = sorted(p.name for p in report.glob("*.png"))
    for per_run in ("deficit_", "seat_win_rates", "comeback", "survival", "turns_histogram"):
        assert not [p for p in pngs if p.startswith(per_run)], pngs
    assert "sweep_many.png" in pngs
    md = (report / "report.md").read_text()
    assert f"of the {points} runs are not drawn" in md
    assert "## Rule effect" not in md  # no 12 pairwise comparisons with the first point

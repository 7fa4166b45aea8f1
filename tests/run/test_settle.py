"""settle end to end on real scenarios (small), and its input errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from uno_stats.analysis.compare import compare_runs
from uno_stats.analysis.metrics import parse_margin
from uno_stats.cli import app
from uno_stats.errors import RunError
from uno_stats.run.results import open_runs
from uno_stats.run.scenario import load_scenario
from uno_stats.run.settle import settle

BASE = """\
name: {name}
players: 4
games: 100
seed: {seed}
rules:
  preset: classic-house
{extra}"""


def scenario(tmp_path: Path, name: str, seed: int = 3, extra: str = "") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(BASE.format(name=name, seed=seed, extra=extra))
    return path


def test_settle_runs_paired_batches_and_keeps_the_runs(tmp_path: Path) -> None:
    a = load_scenario(scenario(tmp_path, "off"))
    b = load_scenario(scenario(tmp_path, "on", seed=99, extra="  stack_draw_two: true\n"))
    out = tmp_path / "res"
    r = settle(
        a, b, "mean_turns", max_games=3000, batch=1000, out_dir=out, workers=1, progress=False
    )
    assert r.outcome in ("different", "undecided") and r.games in (1000, 2000, 3000)
    assert r.low <= r.estimate <= r.high
    runs = open_runs(out / "off") + open_runs(out / "on")
    assert runs[1].manifest.seed == 3  # b plays a's deals
    assert sum(len(x.scan().collect()) for x in runs) == 2 * r.games
    results, _ = compare_runs(runs, ["mean_turns"])
    c = results[0].comparison
    assert c.paired and c.difference.value == pytest.approx(r.estimate)
    # the same rules: never different, and a wide margin settles "same"
    same = load_scenario(scenario(tmp_path, "off-again"))
    with pytest.raises(RunError, match="--fresh"):  # other max games: never overwritten
        settle(a, same, max_games=2000, batch=1000, out_dir=out, workers=1, progress=False)
    r2 = settle(
        a,
        same,
        max_games=2000,
        batch=1000,
        out_dir=out,
        workers=1,
        progress=False,
        margin=parse_margin("50%"),
        fresh=True,
    )
    assert r2.outcome == "undecided" and r2.changed_games == 0 and r2.games == 2000
    again = settle(a, same, max_games=2000, batch=1000, out_dir=out, workers=1, progress=False)
    assert (again.games, again.estimate, again.changed_games) == (2000, 0.0, 0)


def test_settle_decides_a_quantile(tmp_path: Path) -> None:
    """median_turns: the time-uniform mid-quantile band. The same rules settle "same" within
    a wide margin; a rule change gives the estimate compare reports for the same games."""
    a = load_scenario(scenario(tmp_path, "q-off"))
    twin = load_scenario(scenario(tmp_path, "q-twin"))
    out = tmp_path / "res"
    r = settle(
        a, twin, "median_turns", parse_margin("50%"), 2000, 1000, out_dir=out, workers=1,
        progress=False,
    )  # fmt: skip
    assert (r.outcome, r.games, r.estimate) == ("same", 1000, 0.0)
    assert r.low < 0 < r.high and r.mean_a == r.mean_b > 0
    b = load_scenario(scenario(tmp_path, "q-on", extra="  stack_draw_two: true\n"))
    r = settle(a, b, "p90_turns", None, 2000, 1000, out_dir=out, workers=1, progress=False)
    assert r.low <= r.estimate <= r.high and r.outcome in ("different", "undecided")
    runs = open_runs(out / "q-off") + open_runs(out / "q-on")
    c = compare_runs(runs, ["p90_turns"])[0][0].comparison
    assert c.paired and c.difference.value == pytest.approx(r.estimate)
    assert r.high - r.low > c.difference.high - c.difference.low  # anytime-valid: wider


def test_settle_cli_prints_one_verdict_line(tmp_path: Path) -> None:
    a = scenario(tmp_path, "cli-off")
    b = scenario(tmp_path, "cli-on", extra="  stack_draw_two: true\n")
    args = [
        "settle",
        str(a),
        str(b),
        "--max-games",
        "2000",
        "--batch",
        "1000",
        "--margin",
        "30%",
        "--workers",
        "1",
        "--quiet",
        "--out",
        str(tmp_path / "res"),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 and "paired games in" in lines[0] and "confidence sequence" in lines[0]
    assert "cli-on vs cli-off: " in lines[0]


def test_settle_rejects_what_it_cannot_decide(tmp_path: Path) -> None:
    a = load_scenario(scenario(tmp_path, "x"))
    with pytest.raises(RunError, match="two names"):
        settle(a, a, out_dir=tmp_path)
    with pytest.raises(RunError, match="means, rates and quantiles"):
        settle(a, load_scenario(scenario(tmp_path, "y")), "dist_turns", out_dir=tmp_path)
    result = CliRunner().invoke(
        app,
        ["settle", str(scenario(tmp_path, "z")), str(scenario(tmp_path, "w")), "--margin", "abc"],
    )
    assert result.exit_code == 1 and "margin" in result.stderr

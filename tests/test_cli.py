"""The command line, through typer's CliRunner: outputs, exit codes and the one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from uno_stats.cli import app
from uno_stats.engine.rules import PRESET_NAMES, RULES
from uno_stats.engine.strategy_table import KNOBS, STRATEGIES
from uno_stats.store.manifest import read_run_manifest
from uno_stats.store.parts import tool_version

TINY = """\
name: tiny-cli
description: a quick table
players: 3
games: 50000
seed: 5
rules:
  preset: mattel-2022
"""
TYPO = """\
name: typo
players: 4
rules:
  preset: mattel-2022
  stak_draw_two: true
"""
SWEEP = """\
name: tiny-sweep
players: 4
games: 500
seed: 1
rules:
  preset: mattel-2022
sweep:
  rules.stack_draw_two: [false, true]
"""

cli = CliRunner()


@pytest.fixture
def tiny(tmp_path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY)
    return path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def error_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


def test_version():
    result = cli.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"uno-stats {tool_version()}"


def test_rules_lists_every_key_and_preset():
    result = cli.invoke(app, ["rules"])
    assert result.exit_code == 0, result.output
    for spec in RULES:
        assert re.search(rf"^\s*{spec.key}\s", result.stdout, re.M), spec.key
    md = cli.invoke(app, ["rules", "--format", "md"])
    assert md.exit_code == 0
    assert md.stdout.startswith("| key")
    header = md.stdout.splitlines()[0]
    for preset in PRESET_NAMES:
        assert preset in header
    assert sum(line.startswith("| ") for line in md.stdout.splitlines()) == len(RULES) + 1


def test_strategies_lists_names_and_knobs():
    result = cli.invoke(app, ["strategies"])
    assert result.exit_code == 0, result.output
    for info in STRATEGIES:
        assert info.name in result.stdout
    for knob in KNOBS:
        assert knob.key in result.stdout


def test_validate_ok(tiny, tmp_path):
    sweep = write(tmp_path, "sweep.yaml", SWEEP)
    result = cli.invoke(app, ["validate", str(tiny), str(sweep)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"ok: {tiny}: tiny-cli, 3 players, preset mattel-2022, deck 1 x 112 cards, no sweep",
        f"ok: {sweep}: tiny-sweep, 4 players, preset mattel-2022, deck 1 x 112 cards, "
        "2 sweep points",
    ]


def test_validate_error_is_one_line_with_file_line_and_key(tmp_path):
    typo = write(tmp_path, "typo.yaml", TYPO)
    result = cli.invoke(app, ["validate", str(typo)])
    assert result.exit_code == 1
    lines = error_lines(result)
    assert len(lines) == 1
    assert lines[0].startswith(f"Error: {typo}:5: rules.stak_draw_two:")
    assert "stack_draw_two" in lines[0]
    assert result.stdout == ""


def test_run_bad_scenario_writes_nothing(tmp_path):
    typo = write(tmp_path, "typo.yaml", TYPO)
    out = tmp_path / "out"
    result = cli.invoke(app, ["run", str(typo), "--out", str(out), "--quiet"])
    assert result.exit_code == 1
    assert len(error_lines(result)) == 1 and error_lines(result)[0].startswith("Error: ")
    assert not out.exists()


def test_run_missing_file_is_one_error_line(tmp_path):
    missing = tmp_path / "nope.yaml"
    result = cli.invoke(app, ["run", str(missing), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    lines = error_lines(result)
    assert len(lines) == 1 and lines[0].startswith("Error: ") and str(missing) in lines[0]


def test_usage_errors_exit_2(tiny):
    assert cli.invoke(app, ["run"]).exit_code == 2
    assert cli.invoke(app, ["run", str(tiny), "--workers", "0"]).exit_code == 2
    assert cli.invoke(app, ["compare", "only-one"]).exit_code == 2
    assert cli.invoke(app, ["nonsense"]).exit_code == 2


def test_run_writes_parts_and_manifest_and_prints_summary(tiny, tmp_path):
    out = tmp_path / "out"
    args = ["run", str(tiny), "--games", "2000", "--out", str(out), "--workers", "1", "--quiet"]
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    run_dir = out / "tiny-cli"
    manifest = read_run_manifest(run_dir)
    assert manifest.games == 2000 and manifest.complete is True
    assert manifest.rows == 2000
    assert list((run_dir / "parts").glob("part-*.parquet"))
    assert result.stdout.strip()
    assert "2,000 games" in result.stderr

    again = cli.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "chunks resumed from disk" in again.stderr

    other = cli.invoke(app, [*args[:-1], "--seed", "6"])
    assert other.exit_code == 1
    assert "--fresh" in error_lines(other)[0]
    fresh = cli.invoke(app, [*args, "--seed", "6", "--fresh"])
    assert fresh.exit_code == 0, fresh.output
    assert read_run_manifest(run_dir).seed == 6


def test_run_sweep_and_summary(tmp_path):
    sweep = write(tmp_path, "sweep.yaml", SWEEP)
    out = tmp_path / "out"
    result = cli.invoke(app, ["run", str(sweep), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "tiny-sweep" / "manifest.json").read_text())["sweep"] is True
    summary = cli.invoke(app, ["summary", str(out / "tiny-sweep"), "--format", "json"])
    assert summary.exit_code == 0, summary.output
    json.loads(summary.stdout)


def test_summary_of_missing_folder_is_one_error_line(tmp_path):
    result = cli.invoke(app, ["summary", str(tmp_path / "nope")])
    assert result.exit_code == 1
    assert len(error_lines(result)) == 1


def test_compare_runs_scenarios_first(tiny, tmp_path):
    other = write(tmp_path, "other.yaml", TINY.replace("tiny-cli", "tiny-other").replace("5", "9"))
    out = tmp_path / "out"
    args = ["compare", str(tiny), str(other), "--games", "1000", "--out", str(out), "--quiet"]
    result = cli.invoke(app, [*args, "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert (out / "tiny-cli" / "manifest.json").exists()
    assert (out / "tiny-other" / "manifest.json").exists()
    assert result.stdout.strip()


def test_trace_prints_lines(tiny):
    result = cli.invoke(app, ["trace", str(tiny), "--game", "3"])
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) > 5


def test_deck_in_validate_and_trace(tmp_path):
    """RULES.md S19: validate names each point's deck; trace states a deck other than the
    classic one first, then deals from it."""
    text = "name: big\nplayers: 12\nsweep:\n  deck.decks: [1, 2]\n"
    big = write(tmp_path, "big.yaml", text)
    result = cli.invoke(app, ["validate", str(big)])
    assert result.exit_code == 0, result.output
    assert "deck 1 x 112 cards; 2 x 112 = 224 cards, 2 sweep points" in result.stdout
    result = cli.invoke(app, ["trace", str(big), "--game", "0", "--point", "decks-2"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "deck: 2 x 112 = 224 cards"
    assert [line.count(",") + 1 for line in lines[2:14]] == [7] * 12  # 12 hands of 7
    result = cli.invoke(app, ["trace", str(big), "--game", "0", "--point", "decks-1"])
    assert not result.stdout.startswith("deck:")  # the classic deck's trace is unchanged


def test_trace_sweep_needs_point(tmp_path):
    sweep = write(tmp_path, "sweep.yaml", SWEEP)
    result = cli.invoke(app, ["trace", str(sweep), "--game", "0"])
    assert result.exit_code == 1
    assert "--point" in error_lines(result)[0]


def test_validate_and_trace_of_a_big_sweep_build_few_points(tmp_path, monkeypatch):
    """A sweep of 20,000 points: validate counts them and names their player counts from
    one point per player count; trace lists a few labels and finds the last point, and
    neither builds every point's scenario."""
    from uno_stats.scenario.points import PointTable

    values = ", ".join(str(1000 + i) for i in range(10_000))
    text = f"name: big\nsweep:\n  players: [2, 5]\n  rules.max_turns: [{values}]\n"
    big = write(tmp_path, "big.yaml", text)
    built: list[int] = []
    real = PointTable.scenario
    monkeypatch.setattr(PointTable, "scenario", lambda self, i: built.append(i) or real(self, i))
    result = cli.invoke(app, ["validate", str(big)])
    assert result.exit_code == 0, result.output
    assert "big, 2, 5 players, preset mattel-2022" in result.stdout
    assert result.stdout.rstrip().endswith("20,000 sweep points")
    result = cli.invoke(app, ["trace", str(big), "--game", "0"])
    (line,) = error_lines(result)
    assert "a sweep of 20,000 points: pick one with --point (players-2_max_turns-1000, " in line
    assert line.endswith("players-2_max_turns-1011, ... (19,988 more))") and len(line) < 500
    result = cli.invoke(
        app, ["trace", str(big), "--game", "0", "--point", "players-5_max_turns-10999"]
    )
    assert result.exit_code == 0, result.output
    assert len(built) < 20  # two points checked a load (one per player count), one traced


def test_bench_prints_rates(tiny):
    result = cli.invoke(
        app, ["bench", "--games", "2000", "--workers", "1", "--scenario", str(tiny)]
    )
    assert result.exit_code == 0, result.output
    assert "games/s" in result.stdout and "rounds/s" in result.stdout


# --- edges: numbers, folders, incomplete runs -------------------------------------------------


@pytest.mark.parametrize("value", ["1e20", "-5", "0", "1.5", "ten", "100000000000000000000"])
def test_bad_games_is_one_error_line(tiny, tmp_path, value):
    out = tmp_path / "out"
    result = cli.invoke(app, ["run", str(tiny), "--games", value, "--out", str(out), "-q"])
    assert result.exit_code == 2
    lines = error_lines(result)
    assert len(lines) == 1 and lines[0].startswith("Error: --games: ")
    assert "a whole number from 1 to 10,000,000,000" in lines[0]
    assert not out.exists()


@pytest.mark.parametrize("value", ["1e20", "-1", "10000000000"])
def test_bad_trace_game_is_one_error_line(tiny, value):
    result = cli.invoke(app, ["trace", str(tiny), "--game", value])
    assert result.exit_code == 2
    lines = error_lines(result)
    assert len(lines) == 1 and lines[0].startswith("Error: --game: ")


def test_games_in_exponent_form(tiny, tmp_path):
    out = tmp_path / "out"
    args = ["run", str(tiny), "--games", "2e3", "--out", str(out), "-q", "--workers", "1"]
    assert cli.invoke(app, args).exit_code == 0
    assert read_run_manifest(out / "tiny-cli").games == 2000


def test_too_many_workers_is_capped_with_a_warning(tiny, tmp_path, monkeypatch):
    import uno_stats.limits as limits

    monkeypatch.setattr(limits.os, "cpu_count", lambda: 1)
    args = ["run", str(tiny), "--games", "200", "--out", str(tmp_path), "-q", "--workers", "1000"]
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Warning: --workers 1,000 is more than 4 per core (1 cores): using 4" in result.stderr


def test_out_on_a_file_is_one_error_line(tiny, tmp_path):
    result = cli.invoke(app, ["run", str(tiny), "--out", str(tiny), "-q"])
    assert result.exit_code == 1
    assert error_lines(result) == [f"Error: {tiny} is a file, not a folder: choose another --out"]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: (d / "manifest.json").write_text("[]"), "not a manifest"),
        (lambda d: (d / "manifest.json").write_text("{}"), "manifest has no 'name'"),
        (lambda d: (d / "manifest.json").write_text("{"), "unreadable manifest"),
        (lambda d: None, "not a results folder (no manifest.json)"),
    ],
)
def test_summary_of_broken_folders_is_one_error_line(tmp_path, make, message):
    folder = tmp_path / "broken"
    folder.mkdir()
    make(folder)
    result = cli.invoke(app, ["summary", str(folder)])
    assert result.exit_code == 1
    lines = error_lines(result)
    assert len(lines) == 1 and message in lines[0]


def test_summary_of_a_scenario_file(tiny):
    result = cli.invoke(app, ["summary", str(tiny)])
    assert result.exit_code == 1
    assert error_lines(result) == [
        f"Error: {tiny}: a file, not a results folder; run it first (uno-stats run FILE) "
        "and give OUT/<name>"
    ]


@pytest.fixture
def damaged(tiny, tmp_path) -> Path:
    """A finished run of 4 chunks whose chunk 1 part is 0 bytes long."""
    out = tmp_path / "out"
    args = ["run", str(tiny), "--games", "2000", "--chunk-size", "500", "--out", str(out)]
    assert cli.invoke(app, [*args, "-q", "--workers", "1"]).exit_code == 0
    (out / "tiny-cli" / "parts" / "part-000001.parquet").write_bytes(b"")
    return out / "tiny-cli"


def test_summary_names_an_incomplete_run(damaged):
    result = cli.invoke(app, ["summary", str(damaged), "--format", "json"])
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.stdout)["runs"]
    assert run["run"] == "tiny-cli (incomplete: 3 of 4 chunks, 1,500 of 2,000 games)"
    assert "part-000001.parquet not counted: unreadable" in result.stderr
    assert "is incomplete: 3 of 4 chunks" in result.stderr


def test_report_and_compare_refuse_incomplete_runs_unless_asked(damaged, tmp_path):
    report = cli.invoke(app, ["report", str(damaged), "--out", str(tmp_path / "rep")])
    assert report.exit_code == 1
    lines = error_lines(report)
    assert len(lines) == 1 and "incomplete run, 3 of 4 chunks" in lines[0]
    assert "--allow-incomplete" in lines[0]
    assert not (tmp_path / "rep").exists()
    compare = cli.invoke(app, ["compare", str(damaged), str(damaged)])
    assert compare.exit_code == 1 and "--allow-incomplete" in error_lines(compare)[0]
    allowed = cli.invoke(
        app, ["report", str(damaged), "--out", str(tmp_path / "rep"), "--allow-incomplete"]
    )
    assert allowed.exit_code == 0, allowed.output
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "tiny-cli (incomplete: 3 of 4 chunks, 1,500 of 2,000 games)" in text


def test_rerun_redoes_the_bad_part(damaged, tiny):
    out = damaged.parent
    args = ["run", str(tiny), "--games", "2000", "--out", str(out), "-q", "--workers", "1"]
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Note: redoing" in result.stderr and "part-000001.parquet" in result.stderr
    assert "3 verified chunks resumed from disk" in result.stderr
    summary = cli.invoke(app, ["summary", str(damaged), "--format", "json"])
    assert json.loads(summary.stdout)["runs"][0]["run"] == "tiny-cli"
    assert summary.stderr == ""


def test_compare_metric_and_margin_options(tiny, tmp_path):
    out = tmp_path / "out"
    other = write(tmp_path, "same-seed.yaml", TINY.replace("tiny-cli", "tiny-same"))
    args = ["compare", str(tiny), str(other), "--games", "1000", "--out", str(out), "--quiet"]
    result = cli.invoke(app, [*args, "--workers", "1", "-m", "mean_turns", "--margin", "2%"])
    assert result.exit_code == 0, result.output
    assert "paired (same seed" in result.stdout and "never changed a game" in result.stdout
    assert "void rate" not in result.stdout
    for bad in (["--margin", "two"], ["-m", "fastest_turns"]):
        failed = cli.invoke(app, [*args, *bad])
        assert failed.exit_code == 1 and len(error_lines(failed)) == 1


def test_validate_prints_a_fractional_design_and_its_aliases(tmp_path):
    axes = "".join(f"  rules.{k}: [false, true]\n" for k in ("jump_in", "seven_zero", "deflect"))
    text = f"name: frac\nsweep:\n{axes}  rules.draw: [one, until-playable]\n"
    path = write(tmp_path, "frac.yaml", text + "design: {type: fractional, resolution: 3}\n")
    result = cli.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith(", 8 sweep points")
    assert lines[1] == (
        "design: 2^(4-1) fractional factorial, 8 of the 16 points, resolution IV (asked: 3)"
    )
    assert "  generators: D=ABC" in lines
    assert "    rules.jump_in:rules.seven_zero = rules.deflect:rules.draw" in lines


EFFECTS_SWEEP = """\
name: effects-sweep
players: 4
games: 200
seed: 3
rules:
  preset: classic-house
sweep:
  rules.jump_in: [false, true]
  rules.max_turns: [5000, 6000]
"""


def test_effects_runs_a_sweep_scenario_then_reads_its_folder(tmp_path):
    import csv
    import io
    import json

    scenario = write(tmp_path, "effects-sweep.yaml", EFFECTS_SWEEP)
    out = tmp_path / "results"
    args = ["--out", str(out), "--workers", "1", "--quiet"]
    result = cli.invoke(app, ["effects", str(scenario), *args])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.splitlines()[0].startswith("effects-sweep: effects of 2 axes over 4 points")
    assert text.split("\n\n")[1].startswith("Answers: ")
    assert "round length (mean turns)" in text and "never changed a game" in text
    assert max(len(line) for line in text.splitlines()) <= 100
    folder = out / "effects-sweep"
    as_json = cli.invoke(app, ["effects", str(folder), "--format", "json"])
    assert as_json.exit_code == 0, as_json.output
    rows = json.loads(as_json.stdout)["effects"]
    required = {"metric", "term", "estimate", "low", "high", "p", "p_holm", "games", "method"}
    assert all(required | {"level", "seed"} <= set(row) for row in rows)
    (cap,) = [r for r in rows if r["metric"] == "mean_turns" and r["term"] == "rules.max_turns"]
    assert (cap["estimate"], cap["low"], cap["high"], cap["p"]) == (0.0, 0.0, 0.0, None)
    assert cap["verdict"] == "never changed a game" and cap["seed"] == 3
    as_csv = cli.invoke(app, ["effects", str(folder), "--format", "csv", "-m", "mean_turns"])
    table = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert [r["term"] for r in table][-2:] == ["rules.max_turns", "rules.jump_in:rules.max_turns"]
    margin = cli.invoke(app, ["effects", str(folder), "-m", "mean_turns", "--margin", "50"])
    assert "no practical effect" in margin.stdout
    alone = cli.invoke(app, ["effects", str(folder), "--no-interactions", "-f", "json"])
    assert {r["order"] for r in json.loads(alone.stdout)["effects"]} == {1}
    single = cli.invoke(app, ["run", str(write(tmp_path, "tiny.yaml", TINY)), *args, "-n", "50"])
    assert single.exit_code == 0, single.output
    every = cli.invoke(app, ["effects", str(out), "-m", "mean_turns", "-f", "json"])
    assert every.exit_code == 0, every.output
    assert [s["sweep"] for s in json.loads(every.stdout)["sweeps"]] == ["effects-sweep"]
    assert "not a sweep (skipped)" in every.stderr
    alone_run = cli.invoke(app, ["effects", str(out / "tiny-cli")])
    assert alone_run.exit_code == 1 and "not a sweep point" in alone_run.stderr


def test_effects_errors_are_one_line(tmp_path):
    scenario = write(tmp_path, "effects-sweep.yaml", EFFECTS_SWEEP)
    out = tmp_path / "results"
    bad = cli.invoke(app, ["effects", str(scenario), "--out", str(out), "-m", "dist_turns"])
    assert bad.exit_code == 1 and len(error_lines(bad)) == 1
    assert "dist_turns" in bad.stderr and not out.exists()
    missing = cli.invoke(app, ["effects", str(tmp_path / "nowhere")])
    assert missing.exit_code == 1 and error_lines(missing)[0].startswith("Error: ")

"""What the commands print for a person: at most 100 columns by default (``--wide``: one
line per table row), short sweep and tournament summaries after ``run``, and the commands
to try next."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from engine_runs import SCENARIOS, engine_runs
from typer.testing import CliRunner

from uno_stats.cli import app

cli = CliRunner()


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    return engine_runs(tmp_path_factory.getbasetemp())


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def output(args: list[str]) -> str:
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("name", ["mattel-2022-4p", "seven-zero", "tournament"])
def test_run_prints_at_most_100_columns(runs, name) -> None:
    assert widest((runs[name].parent / f"{name}.txt").read_text()) <= 100


@pytest.mark.parametrize("name", ["mattel-2022-4p", "seven-zero", "tournament"])
def test_summary_prints_at_most_100_columns_unless_wide(runs, name) -> None:
    assert widest(output(["summary", str(runs[name])])) <= 100
    assert widest(output(["summary", str(runs[name]), "--wide"])) > 100


def test_compare_prints_at_most_100_columns_unless_wide(runs) -> None:
    pair = [str(runs["stacking-off"]), str(runs["stacking-all"])]
    text = output(["compare", *pair])
    assert widest(text) <= 100
    wide = output(["compare", *pair, "--wide"])
    assert widest(wide) > 100
    assert " ".join(text.split()).count("stacking-all") >= 8  # every row kept, wrapped


def test_a_sweep_run_prints_one_table_of_its_points(runs) -> None:
    text = (runs["seven-zero"].parent / "seven-zero.txt").read_text()
    assert text.startswith("Answers\n")  # the sweep's answers first, then its points
    assert "\nseven-zero: 2 points, 600 rounds in all, seed 2026\n" in text
    assert "Sweep seven-zero" in text
    for per_point in ("Seat advantage", "Comeback probability", "Round length (turns)"):
        assert per_point not in text
    # 30 lines before the two Answers sentences (~10 lines), 64 with the four effects
    # sentences and the two tables of one main effect (~24 lines)
    assert len(text.splitlines()) < 70
    flat = " ".join(text.split())
    assert f"uno-stats summary {runs['seven-zero']}" in flat
    assert "Main effects: seven-zero" in text and flat.count("seven_zero") >= 6


def test_a_tournament_run_prints_its_tables_only(runs) -> None:
    text = (runs["tournament"].parent / "tournament.txt").read_text()
    assert text.startswith("Answers\n")  # the plain verdict first, then the tables
    assert "\ntournament: 5 seatings, 300 rounds in all, seed 2026\n" in text
    assert "tournament (300 won rounds over 60 deals" in text.split("Details", 1)[0]
    assert "Tournament\n==========" in text and "Sweep tournament" not in text
    assert "Seat advantage" not in text and len(text.splitlines()) < 75  # 70 before Answers


@pytest.mark.parametrize(
    ("scenario", "steps"),
    [
        ("mattel-2022-4p", ["summary", "report", "trace"]),
        ("seven-zero", ["summary", "compare", "report"]),
    ],
)
def test_run_ends_with_three_commands_that_work(tmp_path, monkeypatch, scenario, steps) -> None:
    monkeypatch.chdir(tmp_path)  # the commands name out/... and reports/... from here
    path = SCENARIOS / f"{scenario}.yaml"
    args = ["run", str(path), "--games", "200", "--out", "out", "--workers", "1"]
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    start = lines.index("Try next:")
    shown = lines[start + 1 :]
    assert len(shown) == 3 and max(len(line) for line in shown) <= 100
    commands = [line[line.index("uno-stats") :].split() for line in shown]
    assert [c[:2] for c in commands] == [["uno-stats", step] for step in steps]
    for command in commands:
        done = cli.invoke(app, command[1:])
        assert done.exit_code == 0, (command, done.output)
    assert (tmp_path / "reports" / scenario / "report.md").exists()
    quiet = cli.invoke(app, [*args, "-q"])
    assert quiet.exit_code == 0 and "Try next:" not in quiet.stderr


def test_compare_of_one_sweep_folder_compares_its_points(runs) -> None:
    text = " ".join(output(["compare", str(runs["seven-zero"])]).split())
    assert "Baseline: seven-zero[seven_zero-false]." in text
    assert "seven-zero[seven_zero-true] vs seven-zero[seven_zero-false]" in text
    single = cli.invoke(app, ["compare", str(runs["mattel-2022-4p"])])
    assert single.exit_code == 2 and "or one sweep folder" in single.output


def test_summary_of_a_folder_of_runs_summarises_each(runs) -> None:
    parent = runs["mattel-2022-4p"].parent
    text = output(["summary", str(parent), "--format", "csv"])
    shown = {line.split(",")[0] for line in text.splitlines()[1:]}
    assert {"mattel-2022-4p", "stacking-off", "stacking-all", "tournament"} <= shown
    assert "seven-zero[seven_zero-true]" in shown


@pytest.mark.parametrize("args", [["trace", "{scenario}", "--game", "3"], ["rules"]])
def test_a_reader_that_goes_away_ends_the_command_silently(args) -> None:
    """``uno-stats trace ... | head``: no 'Error: Broken pipe' (the pipe is closed before
    the command writes, so every write fails)."""
    scenario = str(SCENARIOS / "mattel-2022-4p.yaml")
    command = [sys.executable, "-m", "uno_stats.cli", *(a.format(scenario=scenario) for a in args)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) != 0
    assert stderr == ""

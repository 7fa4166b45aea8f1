"""The README's "Settle your own debate in three steps" shows what the files and commands
really hold and print: the scenario is the shipped file, the settle line is what the command
prints (only the time may differ), and the report command writes a report opening with it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from typer.testing import CliRunner

from uno_stats.cli import app

ROOT = Path(__file__).resolve().parents[1]
SECTION = (ROOT / "README.md").read_text().split("## Settle your own debate in three steps", 1)[1]
SECTION = SECTION.split("\n## ", 1)[0]
BLOCKS = [
    re.sub(r"^   ", "", b, flags=re.M) for b in re.findall(r"```\w*\n(.*?)```", SECTION, re.S)
]
TIME = re.compile(r" in [0-9.]+ s,")


def test_the_scenario_shown_is_the_shipped_file() -> None:
    yaml = next(b for b in BLOCKS if b.startswith("name: "))
    name = re.match(r"name: (\S+)", yaml)[1]  # type: ignore[index]
    assert (ROOT / "scenarios" / f"{name}.yaml").read_text().strip() == yaml.strip()


def test_settle_prints_the_line_shown_and_report_opens_with_it(tmp_path: Path) -> None:
    settle = next(b for b in BLOCKS if b.startswith("$ uno-stats settle "))
    command, shown = settle.strip().splitlines()
    out = tmp_path / "settle"
    args = [*shlex.split(command.removeprefix("$ uno-stats ")), "--workers", "1", "-q"]
    cli = CliRunner()
    result = cli.invoke(app, [*args, "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    printed = result.stdout.strip().splitlines()[-1]
    assert TIME.sub(" in ... s,", printed) == TIME.sub(" in ... s,", shown)
    report = next(b for b in BLOCKS if b.startswith("uno-stats report "))
    report_args = shlex.split(report.strip().removeprefix("uno-stats "))
    folders = [str(out / Path(a).name) for a in report_args if a.startswith("results/settle/")]
    written = cli.invoke(app, ["report", *folders, "--out", str(tmp_path / "rep")])
    assert written.exit_code == 0, written.output
    md = (tmp_path / "rep" / "report.md").read_text()
    answers = md.split("## Answers", 1)[1].split("\n## ", 1)[0]
    assert TIME.sub(" in ... s,", shown) in TIME.sub(" in ... s,", answers)

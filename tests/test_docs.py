"""The README documents every command, rule key, strategy, knob and shipped scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_stats.engine.rules import RULES
from uno_stats.engine.strategy_table import KNOBS, STRATEGIES

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
COMMANDS = (
    "run",
    "validate",
    "rules",
    "strategies",
    "trace",
    "bench",
    "summary",
    "compare",
    "settle",
    "report",
    "effects",
)


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_documents_every_command(command: str) -> None:
    assert f"`uno-stats {command}" in README


@pytest.mark.parametrize("key", [spec.key for spec in RULES])
def test_readme_documents_every_rule_key(key: str) -> None:
    assert f"| {key} " in README


@pytest.mark.parametrize("name", [s.name for s in STRATEGIES] + [k.key for k in KNOBS])
def test_readme_names_every_strategy_and_knob(name: str) -> None:
    assert f"`{name}`" in README


def test_readme_shows_the_two_commands() -> None:
    assert "make run" in README and "make test" in README


def test_readme_rule_table_is_the_generated_one() -> None:
    from typer.testing import CliRunner

    from uno_stats.cli import app

    result = CliRunner().invoke(app, ["rules", "--format", "md"])
    assert result.exit_code == 0
    assert result.stdout.strip() in README


def test_cli_reference_is_current() -> None:
    from uno_stats.present.cli_reference import cli_reference

    assert (ROOT / "docs" / "CLI.md").read_text().strip() == cli_reference().strip()
    assert "docs/CLI.md" in README

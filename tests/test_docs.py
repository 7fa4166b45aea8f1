"""The docs name every command, rule key, strategy, knob and result column.

Each list comes from the code (the typer app's commands, the engine's tables), so adding one
without its documentation fails here; CONTRIBUTING.md lists which test guards which file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main

from uno_stats.cli import app
from uno_stats.engine.rules import RULES
from uno_stats.engine.schema import COLUMNS
from uno_stats.engine.strategy_table import KNOBS, STRATEGIES

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
RULES_MD = (ROOT / "docs" / "RULES.md").read_text()
SCENARIO_MD = (ROOT / "docs" / "SCENARIO.md").read_text()
CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text()
COMMANDS = list(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def test_the_command_list_is_the_apps() -> None:
    assert len(COMMANDS) >= 10 and {"run", "summary", "settle"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_documents_every_command(command: str) -> None:
    assert f"`uno-stats {command}" in README


@pytest.mark.parametrize("command", COMMANDS)
def test_cli_reference_has_a_section_for_every_command(command: str) -> None:
    assert f"## `uno-stats {command}`" in (ROOT / "docs" / "CLI.md").read_text()


@pytest.mark.parametrize("key", [spec.key for spec in RULES])
def test_readme_documents_every_rule_key(key: str) -> None:
    assert f"| {key} " in README


@pytest.mark.parametrize("key", [spec.key for spec in RULES])
def test_rule_matrix_has_a_row_for_every_rule_key(key: str) -> None:
    assert f"| `{key}` |" in RULES_MD, f"docs/RULES.md has no row for {key}"


@pytest.mark.parametrize("name", [column.name for column in COLUMNS])
def test_scenario_contract_names_every_result_column(name: str) -> None:
    assert f"`{name}`" in SCENARIO_MD, f"docs/SCENARIO.md 'Results on disk' lacks {name}"


@pytest.mark.parametrize("name", [s.name for s in STRATEGIES] + [k.key for k in KNOBS])
def test_readme_names_every_strategy_and_knob(name: str) -> None:
    assert f"`{name}`" in README


def test_readme_shows_the_two_commands() -> None:
    assert "make run" in README and "make test" in README


def test_readme_rule_table_is_the_generated_one() -> None:
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["rules", "--format", "md"])
    assert result.exit_code == 0
    assert result.stdout.strip() in README


def test_cli_reference_is_current() -> None:
    from uno_stats.cli.reference import cli_reference

    assert (ROOT / "docs" / "CLI.md").read_text().strip() == cli_reference().strip(), (
        "regenerate it: .venv/bin/python -m uno_stats.cli.reference > docs/CLI.md"
    )
    assert "docs/CLI.md" in README


def test_help_text_check_refuses_a_missing_or_orphaned_key() -> None:
    from uno_stats.help_text import _check

    _check("rule", {"a": "meaning"}, ["a"])
    for text in ({}, {"a": "meaning", "b": "meaning"}, {"a": ""}):
        with pytest.raises(ImportError, match="rule help"):
            _check("rule", text, ["a"])


def test_contributing_map_is_linked_and_names_files_that_exist() -> None:
    """Every path CONTRIBUTING.md cites in backquotes exists (so the map follows renames)."""
    import re

    assert "CONTRIBUTING.md" in README
    cited = set(
        re.findall(r"`((?:uno_stats|tests|docs|scripts|scenarios)/[\w/.-]+\.\w+)", CONTRIBUTING)
    )
    assert len(cited) > 20
    assert sorted(p for p in cited if not (ROOT / p).exists()) == []


def _make_list(name: str) -> list[str]:
    import re

    makefile = (ROOT / "Makefile").read_text()
    found = re.search(rf"^{name} \?= ((?:.*\\\n)*.*)$", makefile, flags=re.M)
    assert found, f"Makefile has no {name}"
    return found.group(1).replace("\\\n", " ").split()


def test_readme_links_every_shipped_report() -> None:
    shipped = {p.parent.name for p in (ROOT / "reports").glob("*/report.md")}
    assert set(_make_list("REPORT_SCENARIOS")) <= shipped
    assert sorted(n for n in shipped if f"(reports/{n}/report.md)" not in README) == []
    assert all((ROOT / "scenarios" / f"{n}.yaml").exists() for n in _make_list("REPORT_SCENARIOS"))


def test_readme_states_the_coverage_floor() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["coverage"]
    floor = config["report"]["fail_under"]
    assert config["run"]["branch"] is True and floor >= 94
    assert f"the floor (`fail_under` in `pyproject.toml`) is {floor}%" in README
    assert "make coverage" in (ROOT / ".ci" / "run").read_text()


def test_mutation_scores_cover_every_mutated_module() -> None:
    """docs/MUTATION.md has a score row for each module under [tool.mutmut] only_mutate."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    text = (ROOT / "docs" / "MUTATION.md").read_text()
    assert "docs/MUTATION.md" in README
    for path in config["only_mutate"]:
        module = path.removesuffix(".py").replace("/", ".")
        assert f"\n{module} | " in text, module

"""Start-up: the commands that answer at once import nothing heavy (checked in a new process)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numba", "polars", "pyarrow", "scipy", "matplotlib")
LIGHTER = ("numpy", "tqdm", "tabulate", "pydantic", "yaml")
"""Cheaper than HEAVY (0.05-0.15 s each) but still more than ``--help`` needs."""


def loaded_after(code: str, watched: tuple[str, ...] = HEAVY) -> set[str]:
    """The ``watched`` top-level packages imported by ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint('loaded:', *(m for m in {watched!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(done.stdout.splitlines()[-1].split()[1:])


def test_cli_import_is_light() -> None:
    assert loaded_after("import uno_stats.cli") == set()


@pytest.mark.parametrize(
    "args",
    [["--help"], ["validate", "scenarios/mattel-2022-4p.yaml"], ["rules"], ["strategies"]],
)
def test_quick_commands_import_nothing_heavy(args: list[str]) -> None:
    code = (
        "from uno_stats.cli import app\n"
        f"try:\n    app({args!r}, prog_name='uno-stats')\nexcept SystemExit as e:\n"
        "    assert not e.code, e.code"
    )
    assert loaded_after(code) == set()


def cli_code(args: list[str]) -> str:
    return (
        "from uno_stats.cli import main\nimport sys\n"
        f"sys.argv = ['uno-stats', *{args!r}]\n"
        "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code"
    )


def test_help_imports_nothing_but_typer() -> None:
    """``uno-stats --help`` (the console script's own entry point): no numpy, no YAML parser,
    no table printer, and not typer's pydantic parameter coercion either."""
    assert loaded_after(cli_code(["--help"]), HEAVY + LIGHTER) == set()


def test_validate_imports_only_what_reading_a_scenario_needs() -> None:
    """``validate`` reads YAML and checks keys against the engine's rule tables (typer coerces
    the file arguments with pydantic); no progress bar, no table printer.

    numpy is imported by ``uno_stats/engine/rules.py`` and ``strategy_table.py`` at module
    level (their encode functions); it is not watched here."""
    watched = (*HEAVY, "tqdm", "tabulate")
    assert loaded_after(cli_code(["validate", "scenarios/mattel-2022-4p.yaml"]), watched) == set()


def test_run_summary_needs_neither_matplotlib_nor_scipy_stats() -> None:
    code = "import uno_stats.present.report, uno_stats.run.runner"
    heavy = ("matplotlib", "scipy.stats", "scipy.sparse")
    probe = f"{code}\nimport sys\nprint(*(m in sys.modules for m in {heavy!r}))"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "False", "False"]


def test_runner_loads_neither_numba_nor_polars() -> None:
    """A run's parent forks its pool workers before it needs numba (they load the cached
    engine themselves, in parallel) or polars (the summary's reader, imported meanwhile)."""
    assert loaded_after("import uno_stats.run.runner") == {"pyarrow"}

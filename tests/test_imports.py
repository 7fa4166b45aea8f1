"""Start-up: the commands that answer at once import nothing heavy (checked in a new process)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numba", "polars", "pyarrow", "scipy", "matplotlib")


def loaded_after(code: str) -> set[str]:
    """The heavy top-level packages imported by ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint('loaded:', *(m for m in {HEAVY!r} if m in sys.modules))"
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


def test_run_summary_needs_neither_matplotlib_nor_scipy_stats() -> None:
    code = "import uno_stats.present.report, uno_stats.run.runner"
    heavy = ("matplotlib", "scipy.stats", "scipy.sparse")
    probe = f"{code}\nimport sys\nprint(*(m in sys.modules for m in {heavy!r}))"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "False", "False"]

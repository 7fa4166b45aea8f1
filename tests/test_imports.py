"""Start-up: the commands that answer at once import nothing heavy (checked in a new process)."""

from __future__ import annotations

import os
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
    """``validate`` reads YAML and checks keys against the engine's rule and card tables,
    which need no numpy (the engine's arrays are built on first use); no progress bar, no
    table printer. Every shipped scenario (sweeps, tournaments, decks) is read."""
    watched = (*HEAVY, "numpy", "tqdm", "tabulate")
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "scenarios").glob("*.yaml"))
    assert len(files) > 10
    assert loaded_after(cli_code(["validate", *files]), watched) == set()


def _typer_needs_pydantic() -> bool:
    from importlib import metadata

    requires = metadata.requires("typer") or []
    return any(r.split(";")[0].strip().startswith("pydantic") for r in requires)


@pytest.mark.skipif(
    _typer_needs_pydantic(),
    reason="the installed typer (0.29+) coerces parameters with pydantic; pyproject.toml pins "
    "typer<0.29: reinstall (make install)",
)
def test_validate_imports_no_pydantic() -> None:
    """typer before 0.29 parses ``validate``'s file arguments without pydantic (0.1-0.2 s)."""
    args = ["validate", "scenarios/mattel-2022-4p.yaml"]
    assert loaded_after(cli_code(args), ("pydantic",)) == set()


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
    engine themselves, in parallel), polars (the summary's reader, imported meanwhile),
    pyarrow (parts are written once chunks are played) or a progress bar."""
    watched = (*HEAVY, "numpy", "tqdm")
    assert loaded_after("import uno_stats.run.runner", watched) == set()


def test_a_small_run_forks_its_worker_before_anything_heavy(tmp_path: Path) -> None:
    """Everything a default small run does before its worker starts (read the scenario, lock
    and clear the folder, plan, write manifests) imports no pyarrow, polars, numba or progress
    bar: what is loaded when the worker has been forked and ``while_running`` is called."""
    code = (
        "import sys\n"
        "from uno_stats.engine import jit\n"
        "jit.engine_is_cached = lambda: True  # the worker loads (or compiles) it itself\n"
        "from uno_stats.run.runner import run_scenario\n"
        "from uno_stats.scenario.load import load_scenario, with_overrides\n"
        "s = with_overrides(load_scenario('scenarios/mattel-2022-4p.yaml'), games=200)\n"
        f"watched = {(*HEAVY, 'tqdm')!r}\n"
        "seen = []\n"
        "def look():\n"
        "    seen.extend(['checked', *(m for m in watched if m in sys.modules)])\n"
        f"out = run_scenario(s, {str(tmp_path)!r}, progress=False, while_running=look)\n"
        "assert out.runs[0].complete\n"
        "print(*seen)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["checked"]


def test_the_command_freezes_its_objects_before_the_interpreter_exits() -> None:
    """``main`` (the console script) leaves the teardown no objects to trace."""
    code = (
        "import gc, sys\n"
        "from uno_stats.cli import main\n"
        "sys.argv = ['uno-stats', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(gc.get_freeze_count())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert int(done.stdout.splitlines()[-1]) > 1000


@pytest.mark.parametrize(("given", "kept"), [(None, "1"), ("3", "3")])
def test_the_command_keeps_openblas_to_one_thread_unless_told(given: str | None, kept: str) -> None:
    """``main`` sets ``OPENBLAS_NUM_THREADS=1`` before numpy loads (its thread pools cost a
    run's start CPU), keeping a value the user set."""
    code = (
        "import os, sys\n"
        "from uno_stats.cli import main\n"
        "sys.argv = ['uno-stats', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.splitlines()[-1] == kept


def test_loading_the_engine_imports_no_linear_algebra() -> None:
    """numba's array maths probes for scipy's BLAS by importing ``scipy.linalg`` (docs/
    PERFORMANCE.md); the cached engine loads without numba's array maths (the
    ``cached-load-without-refresh`` patch of ``engine/numba_patches.py``), so the probe never
    runs, and scipy's linear algebra still imports afterwards for whoever needs it."""
    code = (
        "import sys\nfrom uno_stats.engine import warm_up\nwarm_up()\n"
        "assert 'scipy.linalg' not in sys.modules, 'scipy.linalg loaded with the engine'\n"
        "import numba.np.arraymath as a, numba.np.linalg as l\n"
        "assert a.ensure_blas is l.ensure_blas\nimport scipy.linalg"
    )
    assert "numba" in loaded_after(code)

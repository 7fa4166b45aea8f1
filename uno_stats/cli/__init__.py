"""The ``uno-stats`` command line: a thin typer layer over the library.

``shared`` holds the typer app, the option types and the error handling; ``simulate`` holds
the scenario commands and ``results`` the results commands, registered here in the order of
:data:`COMMANDS`, which is the order of ``--help`` and docs/CLI.md; ``runs`` holds the steps
several commands share. Heavy modules (numba, polars, pyarrow, scipy, matplotlib, even
tabulate) are imported only by the commands that need them, so ``--help``, ``rules`` and
``validate`` answer at once.
"""

import gc
import os
from collections.abc import Callable
from typing import Any

from uno_stats.cli import results, simulate
from uno_stats.cli.shared import app

__all__ = ["COMMANDS", "app", "main"]

COMMANDS: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("run", simulate.run),
    ("validate", simulate.validate),
    ("rules", simulate.rules),
    ("strategies", simulate.strategies),
    ("trace", simulate.trace),
    ("bench", simulate.bench),
    ("summary", results.summary),
    ("compare", results.compare),
    ("settle", results.settle),
    ("report", results.report_cmd),
)
"""Every command, by name, in the order of ``--help`` and docs/CLI.md."""

for _name, _command in COMMANDS:
    app.command(_name)(_command)


def main() -> None:
    """Console-script entry point of ``uno-stats``.

    OpenBLAS keeps to one thread (unless ``OPENBLAS_NUM_THREADS`` says otherwise). Once the
    command is done (it exits through ``SystemExit``), every object it made is
    frozen out of the garbage collector: the interpreter's teardown then clears modules
    without tracing the objects of polars, pyarrow and scipy in several full collections
    (docs/PERFORMANCE.md, "Measurements"). Objects are still freed; only
    cycles left at exit are not traced, which the teardown does not promise to free anyway.
    """
    # numpy's and scipy's OpenBLAS each start a thread per core when they load, which
    # busy-wait before they sleep, and a run's parent and worker load them at the same
    # moment (docs/PERFORMANCE.md, "Measurements"). The tool calls BLAS only
    # on short vectors, which OpenBLAS computes on one thread anyway; a value the user set is
    # kept. OpenBLAS reads it when numpy is first imported, which happens after this.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        app(prog_name="uno-stats")
    finally:
        gc.freeze()

"""The ``uno-stats`` command line: a thin typer layer over the library.

``shared`` holds the typer app, the option types and the error handling; ``simulate`` holds
the scenario commands, ``results`` the results commands and ``effects`` the effects of a
sweep's axes, registered here in the order of
:data:`COMMANDS`, which is the order of ``--help`` and docs/CLI.md; ``runs`` holds the steps
several commands share. Heavy modules (numba, polars, pyarrow, scipy, matplotlib, even
tabulate) are imported only by the commands that need them, so ``--help``, ``rules`` and
``validate`` answer at once.
"""

import contextlib
import gc
import os
import sys
from collections.abc import Callable
from typing import Any

from uno_stats.cli import effects, results, simulate
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
    ("effects", effects.effects_cmd),
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
    except SystemExit as exc:
        _exit_at_once_if_stopped(exc)
        raise
    finally:
        gc.freeze()


def _exit_at_once_if_stopped(exc: SystemExit) -> None:
    """After a stop signal (its line is printed), exit without the interpreter's teardown,
    which would join the threads of the abandoned work (a stopped pool's queue feeder and
    manager, a chunk still playing) and so could wait for them."""
    interrupts = sys.modules.get("uno_stats.run.interrupts")
    if interrupts is None or not interrupts.was_stopped():
        return
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(exc.code if isinstance(exc.code, int) else 1)

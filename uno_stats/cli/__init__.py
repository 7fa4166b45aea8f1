"""The ``uno-stats`` command line: a thin typer layer over the library.

``shared`` holds the typer app, the option types and the error handling; ``simulate``
registers the scenario commands (run, validate, rules, strategies, trace, bench) and
``results`` the results commands (summary, compare, settle, report), in that order, which
is the order of ``--help`` and docs/CLI.md; ``runs`` holds the steps several commands share.
Heavy modules (numba, polars, pyarrow, scipy, matplotlib, even tabulate) are imported only
by the commands that need them, so ``--help``, ``rules`` and ``validate`` answer at once.
"""

# isort: off
# Importing a command module registers its commands on the app; the order of these
# imports is the order of the commands in --help and docs/CLI.md, so keep it.
from uno_stats.cli import simulate  # noqa: F401
from uno_stats.cli import results  # noqa: F401
from uno_stats.cli import effects  # noqa: F401

# isort: on
import contextlib
import gc
import os
import sys

from uno_stats.cli.shared import app

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point of ``uno-stats``.

    OpenBLAS keeps to one thread (unless ``OPENBLAS_NUM_THREADS`` says otherwise). Once the
    command is done (it exits through ``SystemExit``), every object it made is
    frozen out of the garbage collector: the interpreter's teardown then clears modules
    without tracing the objects of polars, pyarrow and scipy in several full collections
    (0.1-0.2 s of a ``run``'s exit, measured). Objects are still freed; only cycles left at
    exit are not traced, which the teardown does not promise to free anyway.
    """
    # numpy's and scipy's OpenBLAS each start a thread per core when they load, which
    # busy-wait before they sleep: 0.1-0.15 s of CPU per process, and a run's parent and
    # worker load them at the same moment, so a cached `run` of 2,000 games took 0.4-0.6 s
    # more CPU and 0.2 s more wall time (README "Performance"). The tool calls BLAS only on
    # short vectors, which OpenBLAS computes on one thread anyway; a value the user set is
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

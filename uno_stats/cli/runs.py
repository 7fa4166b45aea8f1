"""Steps several commands share: run one scenario file (``run``, ``compare``), open
results folders as verified runs, refusing or naming incomplete ones (``summary``,
``compare``, ``report``), and the commands to try after a run."""

import contextlib
import importlib
import shlex
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from uno_stats.cli.shared import count_option, exit_interrupted, note
from uno_stats.errors import UnoStatsError

if TYPE_CHECKING:
    from uno_stats.store.runs import Run


def run_file(
    path: Path,
    *,
    games: str | None,
    seed: int | None,
    workers: int | None,
    out: Path,
    fresh: bool,
    quiet: bool,
    scheduler: str | None,
    chunk_size: int | None = None,
    while_running: Callable[[], None] | None = None,
) -> Any:
    """Load, validate and run one scenario file; the :class:`RunOutcome`.

    ``while_running``: see :func:`~uno_stats.run.runner.run_scenario`."""
    from uno_stats.limits import MAX_GAMES, cap_workers
    from uno_stats.run.runner import RunInterrupted, run_scenario
    from uno_stats.scenario.load import load_scenario, with_overrides

    count = count_option("--games", games, 1, MAX_GAMES)
    if workers is not None:
        workers, capped = cap_workers(workers)
        if capped:
            typer.echo(f"Warning: {capped}", err=True)
    scenario = with_overrides(load_scenario(path), games=count, seed=seed)
    try:
        return run_scenario(
            scenario,
            out_dir=out,
            workers=workers,
            progress=not quiet,
            scheduler=scheduler,
            chunk_size=chunk_size,
            fresh=fresh,
            notify=note,
            while_running=while_running,
        )
    except RunInterrupted as exc:
        exit_interrupted(exc)


def import_in_background(*modules: str) -> Callable[[], None]:
    """A callable that starts importing ``modules``, in order, in a daemon thread, once.

    Given to a run as ``while_running``: the engine releases the GIL and pool workers are
    other processes, so the imports overlap the simulation. A later ``import`` of the same
    module waits for it to finish (the import system locks the module), and an import that
    failed in the thread raises again there.
    """

    def start() -> None:
        threading.Thread(
            target=_import_quietly, args=modules, name="uno-stats-import", daemon=True
        ).start()

    return start


def _import_quietly(*modules: str) -> None:
    for module in modules:
        with contextlib.suppress(Exception):  # imported again where used, which reports it
            importlib.import_module(module)


def open_runs(folders: list[Path], allow_incomplete: bool = True) -> "list[Run]":
    """The verified runs of ``folders`` (only good parts are read); incomplete runs refused
    unless ``allow_incomplete``, and noted on stderr otherwise."""
    from uno_stats.store.verify import verified_runs

    runs: list[Run] = []
    for folder in folders:
        for found in results_folders(folder):
            runs.extend(verified_runs(found))
    check_complete(runs, allow_incomplete)
    return runs


def results_folders(folder: Path) -> list[Path]:
    """``folder`` itself, or, for a folder without a manifest that holds runs (such as
    ``results/``), each of its subfolders with one, in name order."""
    from uno_stats.store.manifest import MANIFEST

    if folder.is_dir() and not (folder / MANIFEST).exists():
        inner = sorted(path.parent for path in folder.glob(f"*/{MANIFEST}"))
        if inner:
            return inner
    return [folder]


def check_complete(runs: "Sequence[Run]", allow_incomplete: bool) -> None:
    """Refuse incomplete ``runs`` unless ``allow_incomplete``; note them on stderr otherwise."""
    from uno_stats.store.verify import incomplete_error

    problem = None if allow_incomplete else incomplete_error(runs)
    if problem:
        raise UnoStatsError(problem)
    warn_incomplete(runs)


def warn_incomplete(runs: "Sequence[Run]") -> None:
    """One ``Note:`` line on stderr per part not counted and per incomplete run."""
    from uno_stats.store.verify import run_notes

    for line in run_notes(runs):
        note(line)


def next_commands(scenario: Path, folder: Path, single: bool) -> str:
    """Three commands to try after a run of ``scenario`` into ``folder``, each after what it
    shows (``single``: one run; else a sweep or tournament, whose points ``compare`` and
    ``summary`` take as they are)."""
    where, name = shlex.quote(str(folder)), shlex.quote(f"reports/{folder.name}")
    report = (f"uno-stats report {where} --out {name}", "a report with plots:")
    if single:
        steps = [
            (f"uno-stats summary {where}", "every question:"),
            report,
            (f"uno-stats trace {shlex.quote(str(scenario))} --game 0", "round 0 move by move:"),
        ]
    else:
        steps = [
            (f"uno-stats summary {where}", "every question, by point:"),
            (f"uno-stats compare {where}", "the points compared:"),
            report,
        ]
    width = max(len(what) for _, what in steps)
    return "Try next:\n" + "\n".join(f"  {what:<{width}}  {command}" for command, what in steps)

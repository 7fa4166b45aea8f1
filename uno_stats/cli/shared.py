"""What every command module of the CLI builds on: the typer app and its callback
(``--version``), the option types the commands share, and the error handling.

Library errors (:class:`~uno_stats.errors.UnoStatsError`), missing input files and any
other operating-system error become one ``Error: ...`` line on stderr and exit code 1 (a
scenario file's every problem, one line each; a reader that goes away, as ``| head`` does,
ends the command silently, like other tools); usage errors exit 2 (a bad ``--games`` or
``--game`` number, a malformed integer option, an empty ``--out`` also as one ``Error:``
line); Ctrl-C, SIGTERM or SIGHUP during a run exits with 128 + the signal (130 for Ctrl-C)
after saying how many games are saved and how to resume. An ``Error:`` line repeats hostile
input at most about 80 characters (:func:`~uno_stats.errors.bounded`). Help is plain text
(typer's rich formatting alone costs 0.1 s to import).
"""

import re
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from uno_stats.errors import UnoStatsError, bounded, quoted, shortened

app = typer.Typer(
    name="uno-stats",
    help="Settle UNO house-rule debates with data: simulate millions of rounds, get statistics.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Format(StrEnum):
    """Output formats of the summary and compare tables."""

    table = "table"
    md = "md"
    json = "json"
    csv = "csv"


class TableFormat(StrEnum):
    """Output formats of the reference tables (rules, strategies)."""

    table = "table"
    md = "md"


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` as one ``Error:`` line on stderr and exit with ``code``."""
    typer.echo(f"Error: {bounded(message)}", err=True)
    raise typer.Exit(code)


def note(message: str) -> None:
    """Print ``message`` as one ``Note:`` line on stderr."""
    typer.echo(f"Note: {bounded(message)}", err=True)


def error_lines(exc: UnoStatsError) -> list[str]:
    """The error as lines without line breaks: one per problem of a scenario file."""
    from uno_stats.errors import ScenarioErrors

    errors = exc.errors if isinstance(exc, ScenarioErrors) else [exc]
    return [str(e).replace("\n", " ") for e in errors]


@contextmanager
def one_line_errors() -> Iterator[None]:
    """Turn library errors and OS errors (missing inputs, full or read-only disks) into one
    ``Error:`` line and exit code 1."""
    try:
        yield
    except UnoStatsError as exc:
        *before, last = error_lines(exc)
        for line in before:
            typer.echo(f"Error: {bounded(line)}", err=True)
        fail(last)
    except BrokenPipeError:
        raise  # the reader went away (uno-stats trace ... | head): click exits silently
    except FileNotFoundError as exc:
        fail(f"{exc.filename}: no such file or directory" if exc.filename else str(exc))
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        fail(f"{where}{exc.strerror or exc}")
    except Exception as exc:
        if not _reader_error(exc):
            raise
        # verification hashes every part before it is read, so this is a part changed
        # since, or one of an earlier version (which records no digest of its footer)
        first = (str(exc).strip().splitlines() or [""])[0]
        fail(
            f"a results part cannot be read ({type(exc).__name__}: {shortened(first)}); run "
            "the same run command again to verify the parts and redo damaged ones"
        )


def _reader_error(exc: BaseException) -> bool:
    """Whether ``exc`` is polars' or pyarrow's error reading a Parquet part."""
    return type(exc).__module__.split(".")[0] in ("polars", "pyarrow")


def whole_number(option: str, low: int) -> Any:
    """A parser for an integer option: ASCII digits only (no sign, ``_``, exponent or other
    scripts' digits, which Python's ``int`` accepts), at least ``low``; else one ``Error:``
    line, exit 2. A default given as a number passes as it is."""

    def parse(text: str | int | None) -> int | None:
        if text is None or isinstance(text, int):
            return text
        if not _DIGITS.fullmatch(text):
            fail(
                f"{option}: {quoted(text)} is not allowed: a whole number such as {max(low, 4)}", 2
            )
        value = int(text)
        if value < low:
            fail(f"{option}: {shortened(text)} is out of range: at least {low:,}", 2)
        return value

    return parse


_DIGITS = re.compile(r"[0-9]+")


def terminal_width(wide: bool) -> AbstractContextManager[None]:
    """Within the block, terminal text fits 100 columns, or has no limit when ``wide``."""
    from uno_stats.present.document import TEXT_WIDTH, text_width

    return text_width(None if wide else TEXT_WIDTH)


def count_option(option: str, text: str | None, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``; else one ``Error:`` line, exit 2."""
    if text is None:
        return None
    from uno_stats.limits import parse_count

    try:
        return parse_count(option, text, low, high)
    except ValueError as exc:
        fail(str(exc), code=2)


def exit_interrupted(exc: Any) -> NoReturn:
    """Say exactly what a run stopped by Ctrl-C, SIGTERM or SIGHUP saved and how to go on
    (one line, the same for each signal); exit 128 + the signal (130 for Ctrl-C)."""
    typer.echo(exc.message, err=True)
    raise typer.Exit(128 + int(getattr(exc, "signum", 2)))


def _version(value: bool) -> None:
    if value:
        from uno_stats.store.parts import tool_version

        typer.echo(f"uno-stats {tool_version()}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Settle UNO house-rule debates with data: simulate millions of rounds, get statistics."""


# --- shared option types ------------------------------------------------------------------

ScenarioArg = Annotated[
    Path, typer.Argument(help="Scenario YAML file (see SCENARIO.md).", show_default=False)
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        parser=whole_number("--workers", 1),
        metavar="W",
        help="Worker processes (default: every core, or one for at most 20,000 games to play; "
        "1: in this process).",
    ),
]
GamesOpt = Annotated[
    str | None,
    typer.Option(
        "--games",
        "-n",
        metavar="N",
        help="Override the scenario's games (1 to 10,000,000,000; 1e6 is accepted).",
        show_default=False,
    ),
]


def out_folder(text: str | Path) -> Path:
    """``--out``: a folder path; an empty one (which would mean the current folder) is one
    ``Error:`` line, exit 2."""
    if isinstance(text, str) and not text.strip():
        fail("--out: an empty path is not allowed: name a folder (--out . for this one)", 2)
    return Path(text)


OutOpt = Annotated[
    Path,
    typer.Option(
        "--out",
        "-o",
        parser=out_folder,
        metavar="DIR",
        help="Results folder; the run goes to OUT/<name>/.",
    ),
]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
WideOpt = Annotated[
    bool,
    typer.Option(
        "--wide",
        help="Terminal tables at their full width, one line per row (default: fit 100 "
        "columns, wrapping cells).",
    ),
]
FreshOpt = Annotated[
    bool,
    typer.Option(
        "--fresh", help="Clear OUT/<name>/ first instead of resuming (never while locked)."
    ),
]
AllowIncompleteOpt = Annotated[
    bool,
    typer.Option(
        "--allow-incomplete",
        help="Use runs with missing chunks too (named incomplete) instead of refusing them.",
    ),
]
MetricOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--metric",
        "-m",
        help="Metric to compare (repeatable): mean_COL, median_COL, pNN_COL, dist_COL, "
        "won_rate, void_rate, capped_rate, seatK_win_rate, comebackK_rate, "
        "first_mover_win_rate, first_mover_edge. Default: a standard set.",
    ),
]
MarginOpt = Annotated[
    str | None,
    typer.Option(
        "--margin",
        help="Equivalence margin: relative ('2%' of the baseline) or absolute ('1.5'; "
        "percentage points for rates).",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Run on a Dask cluster: scheduler address (tcp://host:8786), or 'local'.",
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        min=0,
        help="Play every scenario file given on this seed (default: compare, each file's "
        "own; settle, A's seed for both).",
        show_default=False,
    ),
]

"""The ``uno-stats`` command line: a thin typer layer over the library.

Library errors (:class:`~uno_stats.errors.UnoStatsError`) and missing input files become
one ``Error: ...`` line on stderr and exit code 1; usage errors exit 2; Ctrl-C during a run
exits 130 after saying how to resume. Heavy modules (numba, polars, pyarrow, scipy,
matplotlib, even tabulate) are imported only by the commands that need them, so ``--help``,
``rules`` and ``validate`` answer at once; help is plain text (typer's rich formatting
alone costs 0.1 s to import).
"""

import os
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from uno_stats.errors import UnoStatsError

if TYPE_CHECKING:
    from uno_stats.run.results import Run

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


def _fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def _errors() -> Iterator[None]:
    """Turn library errors and missing inputs into one ``Error:`` line and exit code 1."""
    try:
        yield
    except UnoStatsError as exc:
        _fail(str(exc))
    except FileNotFoundError as exc:
        _fail(f"{exc.filename}: no such file or directory" if exc.filename else str(exc))


def _version(value: bool) -> None:
    if value:
        from uno_stats.run.results import tool_version

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
        "--workers", "-w", min=1, help="Worker processes (default: every core; 1: in-process)."
    ),
]
GamesOpt = Annotated[
    int | None, typer.Option("--games", "-n", min=1, help="Override the scenario's games.")
]
OutOpt = Annotated[
    Path, typer.Option("--out", "-o", help="Results folder; the run goes to OUT/<name>/.")
]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
FreshOpt = Annotated[
    bool, typer.Option("--fresh", help="Clear OUT/<name>/ first instead of resuming.")
]
MetricOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--metric",
        "-m",
        help="Metric to compare (repeatable): mean_COL, median_COL, pNN_COL, dist_COL, "
        "won_rate, void_rate, capped_rate, seatK_win_rate. Default: a standard set.",
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


def _interrupted(exc: Any) -> NoReturn:
    typer.echo(
        f"Interrupted: {exc.games_done:,} of {exc.games_total:,} games are saved in {exc.path}; "
        "run the same command again to resume.",
        err=True,
    )
    raise typer.Exit(130)


def _run_file(
    path: Path,
    *,
    games: int | None,
    seed: int | None,
    workers: int | None,
    out: Path,
    fresh: bool,
    quiet: bool,
    scheduler: str | None,
    chunk_size: int | None = None,
) -> Any:
    """Load, validate and run one scenario file; the :class:`RunOutcome`."""
    from uno_stats.run.runner import RunInterrupted, run_scenario
    from uno_stats.run.scenario import load_scenario, with_overrides

    scenario = with_overrides(load_scenario(path), games=games, seed=seed)
    try:
        return run_scenario(
            scenario,
            out_dir=out,
            workers=workers,
            progress=not quiet,
            scheduler=scheduler,
            chunk_size=chunk_size,
            fresh=fresh,
        )
    except RunInterrupted as exc:
        _interrupted(exc)


# --- commands ---------------------------------------------------------------------------------


@app.command()
def run(
    scenario: ScenarioArg,
    games: GamesOpt = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Override the seed.")] = None,
    workers: WorkersOpt = None,
    out: OutOpt = Path("results"),
    fresh: FreshOpt = False,
    quiet: QuietOpt = False,
    scheduler: SchedulerOpt = None,
    chunk_size: Annotated[
        int | None,
        typer.Option("--chunk-size", min=1, help="Games per chunk (default: about a second)."),
    ] = None,
) -> None:
    """Simulate a scenario and print its summary (rerun to resume an interrupted run)."""
    from uno_stats.present import report

    with _errors():
        outcome = _run_file(
            scenario,
            games=games,
            seed=seed,
            workers=workers,
            out=out,
            fresh=fresh,
            quiet=quiet,
            scheduler=scheduler,
            chunk_size=chunk_size,
        )
        rate = outcome.games_per_s or None
        if len(outcome.runs) == 1 and outcome.runs[0].manifest.sweep_label is None:
            typer.echo(report.run_summary_text(outcome.runs[0], rate))
        else:
            typer.echo(report.summary_text(outcome.runs, Format.table.value))
        done = f"{outcome.games:,} games in {outcome.path}"
        if outcome.resumed_chunks:
            done += f" ({outcome.resumed_chunks} chunks resumed from disk)"
        typer.echo(done, err=True)


def _describe(path: Path, scenario: Any) -> str:
    points = scenario.sweep_points()
    seats = sorted({p.scenario.players for p in points} or {scenario.players})
    players = ", ".join(str(n) for n in seats)
    sweep = f"{len(points)} sweep points" if points else "no sweep"
    return f"ok: {path}: {scenario.name}, {players} players, preset {scenario.preset}, {sweep}"


@app.command()
def validate(
    scenarios: Annotated[
        list[Path], typer.Argument(help="Scenario YAML files to check.", show_default=False)
    ],
) -> None:
    """Check scenario files without simulating anything."""
    from uno_stats.run.scenario import load_scenario

    failed = False
    for path in scenarios:
        try:
            typer.echo(_describe(path, load_scenario(path)))
        except UnoStatsError as exc:
            typer.echo(f"Error: {exc}", err=True)
            failed = True
    if failed:
        raise typer.Exit(1)


def _yaml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _tablefmt(fmt: TableFormat) -> str:
    return "github" if fmt is TableFormat.md else "simple"


@app.command()
def rules(
    fmt: Annotated[TableFormat, typer.Option("--format", "-f", help="Output format.")] = (
        TableFormat.table
    ),
) -> None:
    """List every rule key: allowed values, default, the presets' values and meaning."""
    from tabulate import tabulate

    from uno_stats.engine.rules import PRESET_NAMES, RULES
    from uno_stats.help_text import RULE_HELP

    headers = ["key", "values", "default", *PRESET_NAMES, "meaning"]
    rows = [
        [
            spec.key,
            spec.allowed(),
            _yaml_value(spec.default),
            *(_yaml_value(spec.preset_value(p)) for p in PRESET_NAMES),
            RULE_HELP[spec.key].meaning,
        ]
        for spec in RULES
    ]
    wrap = None if fmt is TableFormat.md else [None, 14, 11, *[11] * len(PRESET_NAMES), 40]
    table = tabulate(
        rows,
        headers,
        tablefmt=_tablefmt(fmt),
        maxcolwidths=wrap,
        maxheadercolwidths=wrap,  # type: ignore[arg-type]
    )
    typer.echo(table)


@app.command()
def strategies(
    fmt: Annotated[TableFormat, typer.Option("--format", "-f", help="Output format.")] = (
        TableFormat.table
    ),
) -> None:
    """List the strategies with what each does, and the per-seat knobs."""
    from tabulate import tabulate

    from uno_stats.engine.strategy_table import KNOBS, STRATEGIES
    from uno_stats.help_text import KNOB_HELP, STRATEGY_HELP

    for info in STRATEGIES:
        doc = STRATEGY_HELP[info.name]
        if fmt is TableFormat.md:
            typer.echo(f"### `{info.name}`\n\n{doc}\n")
        else:
            typer.echo(f"{info.name}\n{textwrap.indent(textwrap.fill(doc, 88), '  ')}\n")
    rows = [[k.key, k.allowed(), _yaml_value(k.default), KNOB_HELP[k.key]] for k in KNOBS]
    wrap = None if fmt is TableFormat.md else [None, 26, None, 50]
    typer.echo("Knobs (per seat, beside `strategy:`):\n")
    typer.echo(
        tabulate(rows, ["knob", "values", "default", "meaning"], _tablefmt(fmt), maxcolwidths=wrap)
    )


def _trace_scenario(scenario: Any, point: str | None) -> Any:
    points = scenario.sweep_points()
    if not points:
        return scenario
    labels = [p.label for p in points]
    if point is None:
        raise UnoStatsError(
            f"a sweep of {len(points)} points: pick one with --point ({', '.join(labels)})"
        )
    for p in points:
        if p.label == point:
            return p.scenario
    raise UnoStatsError(f"no sweep point {point!r}; the points are {', '.join(labels)}")


@app.command()
def trace(
    scenario: ScenarioArg,
    game: Annotated[int, typer.Option("--game", "-g", min=0, help="Index of the round to trace.")],
    point: Annotated[
        str | None, typer.Option("--point", help="Sweep point label (sweep scenarios only).")
    ] = None,
) -> None:
    """Print one round move by move, exactly as a run plays game K."""
    from uno_stats import engine
    from uno_stats.engine.jit import ensure_compiled
    from uno_stats.run.scenario import load_scenario

    with _errors():
        resolved = _trace_scenario(load_scenario(scenario), point)
        ensure_compiled()  # the notice, when the engine has to be compiled first
        for line in engine.trace_game(engine.EngineConfig.from_scenario(resolved), game):
            typer.echo(line)


@app.command()
def bench(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games per measurement.")] = (
        200_000
    ),
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Largest worker count to time.")
    ] = None,
    scenario: Annotated[
        Path | None, typer.Option("--scenario", help="Scenario to time (default: 4 players).")
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option("--preset", help="Rule preset of the built-in 4-player table (mattel-2022)."),
    ] = None,
    strategy: Annotated[
        str | None,
        typer.Option("--strategy", help="Strategy of every seat of the built-in table (random)."),
    ] = None,
    repeat: Annotated[
        int, typer.Option("--repeat", "-r", min=1, help="Timings per worker count (median kept).")
    ] = 1,
    scheduler: SchedulerOpt = None,
    report: Annotated[
        bool,
        typer.Option(
            "--report",
            help="Measure everything (presets, strategies, scaling, end to end, starts, memory, "
            "C yardstick) and write a Markdown report with a plot.",
        ),
    ] = False,
    report_out: Annotated[
        Path, typer.Option("--report-out", help="Where --report writes its Markdown file.")
    ] = Path("reports/bench.md"),
    cold: Annotated[
        bool,
        typer.Option("--cold/--no-cold", help="--report: also time a run on an empty cache."),
    ] = True,
    yardstick: Annotated[
        Path | None,
        typer.Option("--yardstick", help="--report: the C loop (default ../shared/limit/uno_c.c)."),
    ] = None,
) -> None:
    """Time the engine: games/s with 1 worker and with more (compile time excluded)."""
    with _errors():
        top = workers or os.cpu_count() or 1
        if report:
            _bench_report(games, repeat, top, cold, yardstick, scheduler, report_out)
            return
        from uno_stats.run import bench as bench_mod

        chosen = bench_mod.load_bench_scenario(scenario, preset, strategy)
        counts = sorted({1, top})
        results = bench_mod.benchmark(chosen, games, counts, repeat, scheduler)
        typer.echo(bench_mod.results_table(results))
        typer.echo(bench_mod.notes(results))


def _bench_report(
    games: int,
    repeat: int,
    workers: int,
    cold: bool,
    yardstick: Path | None,
    scheduler: str | None,
    out: Path,
) -> None:
    import shlex

    from uno_stats.present.bench_report import write_bench_report
    from uno_stats.run.bench_suite import YARDSTICK, run_suite

    suite = run_suite(
        games,
        repeat,
        workers,
        cold,
        yardstick or YARDSTICK,
        scheduler,
        progress=lambda text: typer.echo(text, err=True),
    )
    args = ["--report", "--games", str(games), "--repeat", str(repeat), "--workers", str(workers)]
    args += [] if cold else ["--no-cold"]
    args += ["--scheduler", scheduler] if scheduler else []
    args += ["--yardstick", str(yardstick)] if yardstick else []
    args += [] if out == Path("reports/bench.md") else ["--report-out", str(out)]
    command = "uno-stats bench " + " ".join(shlex.quote(a) for a in args)
    for path in write_bench_report(suite, out, command):
        typer.echo(str(path))


def _open_all(folders: list[Path]) -> "list[Run]":
    from uno_stats.run.results import open_runs

    runs: list[Run] = []
    for folder in folders:
        runs.extend(open_runs(folder))
    return runs


FoldersArg = Annotated[
    list[Path], typer.Argument(help="Results folders (a run or a sweep).", show_default=False)
]


@app.command()
def summary(folders: FoldersArg, fmt: FormatOpt = Format.table) -> None:
    """Summarise finished runs: every question with intervals (json/csv: one row per number)."""
    with _errors():
        from uno_stats.present import report

        typer.echo(report.summary_text(_open_all(folders), fmt.value))


@app.command()
def compare(
    items: Annotated[
        list[str],
        typer.Argument(
            help="Two or more results folders or scenario .yaml files (run first into --out).",
            show_default=False,
        ),
    ],
    fmt: FormatOpt = Format.table,
    metric: MetricOpt = None,
    margin: MarginOpt = None,
    games: GamesOpt = None,
    workers: WorkersOpt = None,
    out: OutOpt = Path("results"),
    fresh: FreshOpt = False,
    quiet: QuietOpt = False,
    scheduler: SchedulerOpt = None,
) -> None:
    """Compare runs: differences with intervals, tests, effect sizes and a verdict.

    Runs with the same seed and game count are compared game by game (paired).
    """
    if len(items) < 2:
        raise typer.BadParameter(
            "give at least two results folders or scenarios", param_hint="ITEMS"
        )
    with _errors():
        from uno_stats.analysis.metrics import metric_spec, parse_margin
        from uno_stats.present import report
        from uno_stats.run.results import open_runs

        for name in metric or []:
            metric_spec(name)
        limit = parse_margin(margin) if margin is not None else None
        runs: list[Run] = []
        for item in items:
            path = Path(item)
            if path.suffix not in (".yaml", ".yml"):
                runs.extend(open_runs(path))
                continue
            outcome = _run_file(
                path,
                games=games,
                seed=None,
                workers=workers,
                out=out,
                fresh=fresh,
                quiet=quiet,
                scheduler=scheduler,
            )
            runs.extend(outcome.runs)
        typer.echo(report.compare_text(runs, fmt.value, metric or None, limit))


@app.command()
def settle(
    scenario_a: Annotated[
        Path, typer.Argument(help="Baseline scenario YAML (A).", show_default=False)
    ],
    scenario_b: Annotated[
        Path, typer.Argument(help="Scenario YAML to compare with it (B).", show_default=False)
    ],
    metric: Annotated[
        str,
        typer.Option(
            "--metric", "-m", help="mean_COL (e.g. mean_turns), won_rate, void_rate or capped_rate."
        ),
    ] = "mean_turns",
    margin: MarginOpt = None,
    max_games: Annotated[
        int, typer.Option("--max-games", min=1, help="Stop undecided after this many games.")
    ] = 1_000_000,
    batch: Annotated[
        int, typer.Option("--batch", min=1, help="Games per run between two looks.")
    ] = 20_000,
    workers: WorkersOpt = None,
    out: OutOpt = Path("results/settle"),
    fresh: FreshOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Run A and B paired in batches until the difference is decided (anytime-valid).

    Stops when the 95% confidence sequence of B - A excludes zero (or the whole margin),
    lies inside the margin, or --max-games is reached. The runs stay in OUT for report.
    """
    with _errors():
        from uno_stats.analysis.metrics import parse_margin
        from uno_stats.present.verdicts import settle_text
        from uno_stats.run.runner import RunInterrupted
        from uno_stats.run.scenario import load_scenario
        from uno_stats.run.settle import settle as settle_runs

        limit = parse_margin(margin) if margin is not None else None
        a, b = load_scenario(scenario_a), load_scenario(scenario_b)
        try:
            result = settle_runs(
                a,
                b,
                metric,
                margin=limit,
                max_games=max_games,
                batch=batch,
                out_dir=out,
                workers=workers,
                progress=not quiet,
                fresh=fresh,
            )
        except RunInterrupted as exc:
            _interrupted(exc)
        typer.echo(settle_text(result))
        typer.echo(f"runs kept in {result.a.path} and {result.b.path}", err=True)


@app.command("report")
def report_cmd(
    folders: FoldersArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the report into.")],
    title: Annotated[str | None, typer.Option("--title", help="Report title.")] = None,
) -> None:
    """Write a Markdown/HTML report with tables and plots for results folders."""
    with _errors():
        from uno_stats.present import report

        for path in report.write_report(_open_all(folders), out, title=title):
            typer.echo(str(path))


def main() -> None:
    """Console-script entry point of ``uno-stats``."""
    app(prog_name="uno-stats")


if __name__ == "__main__":
    main()

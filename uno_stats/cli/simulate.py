"""The scenario commands: ``run`` (simulate a scenario), ``validate`` (check scenario files),
``rules`` and ``strategies`` (what a scenario may say), ``trace`` (one round move by move)
and ``bench`` (time the engine).

``validate``, ``rules`` and ``strategies`` import nothing heavy (numba, polars, pyarrow,
scipy, matplotlib), so they answer at once; every other import is inside the command."""

import importlib
import itertools
import os
import textwrap
from pathlib import Path
from typing import Annotated, Any

import typer

from uno_stats.cli.runs import import_in_background, next_commands, run_file, warn_incomplete
from uno_stats.cli.shared import (
    FreshOpt,
    GamesOpt,
    OutOpt,
    QuietOpt,
    ScenarioArg,
    SchedulerOpt,
    TableFormat,
    WideOpt,
    WorkersOpt,
    count_option,
    error_lines,
    one_line_errors,
    terminal_width,
    whole_number,
)
from uno_stats.errors import UnoStatsError, bounded

SUMMARY_MODULE = "uno_stats.present.report"
"""What prints the summary of a run (polars, scipy.special): imported while the run plays."""


def run(
    scenario: ScenarioArg,
    games: GamesOpt = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", parser=whole_number("--seed", 0), metavar="S", help="Override the seed."
        ),
    ] = None,
    workers: WorkersOpt = None,
    out: OutOpt = Path("results"),
    fresh: FreshOpt = False,
    quiet: QuietOpt = False,
    scheduler: SchedulerOpt = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            "--chunk-size",
            parser=whole_number("--chunk-size", 1),
            metavar="N",
            help="Games per chunk (default: about a second).",
        ),
    ] = None,
    wide: WideOpt = False,
) -> None:
    """Simulate a scenario and print its summary (rerun to resume an interrupted run).

    A sweep or tournament prints one table of its points' main answers (a sweep: then its
    main effects); `summary --format json` holds every question of every point.
    """
    from uno_stats.store.parts import WRITER_MODULES

    with one_line_errors():
        outcome = run_file(
            scenario,
            games=games,
            seed=seed,
            workers=workers,
            out=out,
            fresh=fresh,
            quiet=quiet,
            scheduler=scheduler,
            chunk_size=chunk_size,
            # the part writer first: a small run's first part is written here (see runner)
            while_running=import_in_background(*WRITER_MODULES, SUMMARY_MODULE),
        )
        report = importlib.import_module(SUMMARY_MODULE)  # waits for the background import
        rate = outcome.games_per_s or None
        single = len(outcome.runs) == 1 and outcome.runs[0].manifest.sweep_label is None
        with terminal_width(wide):
            if single:
                typer.echo(report.run_summary_text(outcome.runs[0], rate))
            else:
                from uno_stats.present.points_summary import points_summary_text

                typer.echo(points_summary_text(outcome.runs, outcome.path))
        done = f"{outcome.games:,} games in {outcome.path}"
        if outcome.resumed_chunks:
            done += f" ({outcome.resumed_chunks} verified chunks resumed from disk)"
        typer.echo(done, err=True)
        warn_incomplete(outcome.runs)
        if not quiet:
            typer.echo(next_commands(scenario, outcome.path, single), err=True)


def _describe(path: Path, scenario: Any) -> str:
    """The ``ok:`` line of a valid file, then (a fractional or random sweep) its design."""
    from uno_stats.present.design_text import design_lines
    from uno_stats.scenario.deck import deck_label

    each = scenario.point_kinds() or [scenario]  # every player count and deck among them
    seats = sorted({s.players for s in each})
    players = ", ".join(str(n) for n in seats)
    count = scenario.point_count
    sweep = f"{count:,} sweep points" if count else "no sweep"
    decks = "; ".join(dict.fromkeys(deck_label(s.rules, s.deck) for s in each))
    ok = (
        f"ok: {path}: {scenario.name}, {players} players, preset {scenario.preset}, "
        f"deck {decks}, {sweep}"
    )
    if scenario.sweep is None:
        return ok
    return "\n".join([ok, *design_lines(scenario.sweep, scenario.design)])


def validate(
    scenarios: Annotated[
        list[Path], typer.Argument(help="Scenario YAML files to check.", show_default=False)
    ],
) -> None:
    """Check scenario files without simulating anything (every error of a file, one line
    each); a fractional or random sweep design is printed, a fractional one with its alias
    table."""
    from uno_stats.scenario.load import load_scenario

    failed = False
    for path in scenarios:
        try:
            typer.echo(_describe(path, load_scenario(path)))
        except UnoStatsError as exc:
            for line in error_lines(exc):
                typer.echo(f"Error: {bounded(line)}", err=True)
            failed = True
    if failed:
        raise typer.Exit(1)


def _yaml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rules(
    fmt: Annotated[TableFormat, typer.Option("--format", "-f", help="Output format.")] = (
        TableFormat.table
    ),
) -> None:
    """List every rule key: allowed values, default, the presets' values and meaning."""
    from tabulate import tabulate

    from uno_stats.engine.rules import PRESET_NAMES, RULES
    from uno_stats.help_text import RULE_HELP
    from uno_stats.present.document import markdown_table

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
    if fmt is TableFormat.md:
        typer.echo(markdown_table(headers, rows))
        return
    wrap = [None, 14, 11, *[11] * len(PRESET_NAMES), 40]
    table = tabulate(
        rows,
        headers,
        tablefmt="simple",
        maxcolwidths=wrap,
        maxheadercolwidths=wrap,  # type: ignore[arg-type]
    )
    typer.echo(table)


def strategies(
    fmt: Annotated[TableFormat, typer.Option("--format", "-f", help="Output format.")] = (
        TableFormat.table
    ),
) -> None:
    """List the strategies with what each does, and the per-seat knobs."""
    from tabulate import tabulate

    from uno_stats.engine.strategy_table import KNOBS, STRATEGIES
    from uno_stats.help_text import KNOB_HELP, STRATEGY_HELP
    from uno_stats.present.document import markdown_table

    for info in STRATEGIES:
        doc = STRATEGY_HELP[info.name]
        if fmt is TableFormat.md:
            typer.echo(f"### `{info.name}`\n\n{doc}\n")
        else:
            typer.echo(f"{info.name}\n{textwrap.indent(textwrap.fill(doc, 88), '  ')}\n")
    rows = [[k.key, k.allowed(), _yaml_value(k.default), KNOB_HELP[k.key]] for k in KNOBS]
    headers = ["knob", "values", "default", "meaning"]
    typer.echo("Knobs (per seat, beside `strategy:`):\n")
    if fmt is TableFormat.md:
        typer.echo(markdown_table(headers, rows))
    else:
        typer.echo(tabulate(rows, headers, "simple", maxcolwidths=[None, 26, None, 50]))


LISTED_LABELS = 12
"""A trace of a sweep without --point names this many of its points' labels at most."""


def _trace_scenario(scenario: Any, point: str | None) -> Any:
    count = scenario.point_count
    if not count:
        return scenario
    shown = list(itertools.islice(scenario.point_labels(), LISTED_LABELS))
    listed = ", ".join(shown) + (
        f", ... ({count - len(shown):,} more)" if count > len(shown) else ""
    )
    if point is None:
        raise UnoStatsError(f"a sweep of {count:,} points: pick one with --point ({listed})")
    for index, label in enumerate(scenario.point_labels()):
        if label == point:
            return scenario.point_table()[index].scenario
    raise UnoStatsError(f"no sweep point {bounded(point)!r}; the points are {listed}")


def trace(
    scenario: ScenarioArg,
    game: Annotated[
        str,
        typer.Option(
            "--game",
            "-g",
            metavar="K",
            help="Index of the round to trace (0 to 9,999,999,999).",
            show_default=False,
        ),
    ],
    point: Annotated[
        str | None, typer.Option("--point", help="Sweep point label (sweep scenarios only).")
    ] = None,
) -> None:
    """Print one round move by move, exactly as a run plays game K."""
    from uno_stats import engine
    from uno_stats.engine.jit import ensure_compiled
    from uno_stats.limits import MAX_GAMES
    from uno_stats.scenario.load import load_scenario

    index = count_option("--game", game, 0, MAX_GAMES - 1)
    if index is None:  # the option is required: typer never passes None
        raise typer.Exit(2)
    with one_line_errors():
        resolved = _trace_scenario(load_scenario(scenario), point)
        ensure_compiled()  # the notice, when the engine has to be compiled first
        if resolved.deck is not None:  # RULES.md S19; the classic deck's trace is unchanged
            from uno_stats.scenario.deck import deck_label

            typer.echo(f"deck: {deck_label(resolved.rules, resolved.deck)}")
        for line in engine.trace_game(engine.EngineConfig.from_scenario(resolved), index):
            typer.echo(line)


def bench(
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            parser=whole_number("--games", 1),
            metavar="N",
            help="Games per measurement.",
        ),
    ] = (200_000),
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            parser=whole_number("--workers", 1),
            metavar="W",
            help="Largest worker count to time.",
        ),
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
        int,
        typer.Option(
            "--repeat",
            "-r",
            parser=whole_number("--repeat", 1),
            metavar="R",
            help=(
                "Timings per worker count, the counts taking turns (median kept; a speed-up "
                "is the median of the ratios of one turn)."
            ),
        ),
    ] = 1,
    scheduler: SchedulerOpt = None,
    report: Annotated[
        bool,
        typer.Option(
            "--report",
            help="Measure everything (presets, strategies, scaling, end to end, starts, memory, "
            "a sweep's overhead per point, C yardstick) and write a Markdown report with a plot.",
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
        typer.Option(
            "--yardstick",
            help="--report: also time this C loop (its source) as a yardstick; none by default.",
        ),
    ] = None,
) -> None:
    """Time the engine: games/s with 1 worker and with more (compile time excluded)."""
    with one_line_errors():
        top = workers or os.cpu_count() or 1
        if report:
            _bench_report(games, repeat, top, cold, yardstick, scheduler, report_out)
            return
        from uno_stats.bench import throughput as bench_mod

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

    from uno_stats.bench.suite import run_suite
    from uno_stats.present.bench_report import write_bench_report

    suite = run_suite(
        games,
        repeat,
        workers,
        cold,
        yardstick,
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

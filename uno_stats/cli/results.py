"""The results commands: ``summary`` (every question of saved runs), ``compare`` (rule
effects between runs), ``settle`` (run two scenarios paired until the difference is
decided) and ``report`` (a Markdown/HTML report with plots). Every heavy import is inside
the command."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from uno_stats.cli.runs import check_complete, open_runs, results_folders, run_file
from uno_stats.cli.shared import (
    AllowIncompleteOpt,
    Format,
    FormatOpt,
    FreshOpt,
    GamesOpt,
    MarginOpt,
    MetricOpt,
    OutOpt,
    QuietOpt,
    SchedulerOpt,
    SeedOpt,
    WideOpt,
    WorkersOpt,
    exit_interrupted,
    note,
    one_line_errors,
    out_folder,
    terminal_width,
    whole_number,
)

if TYPE_CHECKING:
    from uno_stats.store.runs import Run

FoldersArg = Annotated[
    list[Path],
    typer.Argument(
        help="Results folders: a run, a sweep, or a folder of them (such as results/).",
        show_default=False,
    ),
]


def summary(folders: FoldersArg, fmt: FormatOpt = Format.table, wide: WideOpt = False) -> None:
    """Summarise runs: every question with intervals (json/csv: one row per number);
    incomplete runs are named so.

    One sweep prints its short summary: its answers (largest effects first), one table of
    its points' main answers (at most 40 rows) and its main effects; json/csv hold every
    question of every point.
    """
    with one_line_errors():
        from uno_stats.present import report

        runs = open_runs(folders)
        with terminal_width(wide):
            typer.echo(report.summary_text(runs, fmt.value))


def _too_few() -> NoReturn:
    raise typer.BadParameter(
        "give at least two results folders or scenarios, or one sweep folder", param_hint="ITEMS"
    )


def compare(
    items: Annotated[
        list[str],
        typer.Argument(
            help="Two or more results folders or scenario .yaml files (run first into --out), "
            "or one sweep folder (or folder of runs): its points.",
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
    allow_incomplete: AllowIncompleteOpt = False,
    wide: WideOpt = False,
    seed: SeedOpt = None,
) -> None:
    """Compare runs: differences with intervals, tests, effect sizes and a verdict.

    The first run is the baseline. One sweep folder (or a folder of runs) compares its
    points. Runs with the same seed and game count are compared game by game (paired);
    --seed runs every scenario file given on that seed. Settled pairs show their settle first.
    """
    if len(items) < 2 and not Path(items[0]).is_dir():
        _too_few()
    with one_line_errors():
        from uno_stats.analysis.metrics import metric_spec, parse_margin
        from uno_stats.present import report
        from uno_stats.store.verify import verified_runs

        for name in metric or []:
            metric_spec(name)
        limit = parse_margin(margin) if margin is not None else None
        runs: list[Run] = []
        for item in items:
            path = Path(item)
            if path.suffix not in (".yaml", ".yml"):
                for folder in results_folders(path):
                    runs.extend(verified_runs(folder))
                continue
            outcome = run_file(
                path,
                games=games,
                seed=seed,
                workers=workers,
                out=out,
                fresh=fresh,
                quiet=quiet,
                scheduler=scheduler,
            )
            runs.extend(outcome.runs)
        if len(runs) < 2:
            _too_few()
        check_complete(runs, allow_incomplete)
        with terminal_width(wide):
            typer.echo(report.compare_text(runs, fmt.value, metric or None, limit))


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
            "--metric",
            "-m",
            help="mean_COL (e.g. mean_turns), median_COL or pNN_COL (e.g. p90_turns), "
            "won_rate, void_rate, capped_rate, seatK_win_rate, first_mover_win_rate, "
            "first_mover_edge or comebackK_rate.",
        ),
    ] = "mean_turns",
    margin: MarginOpt = None,
    max_games: Annotated[
        int,
        typer.Option(
            "--max-games",
            parser=whole_number("--max-games", 1),
            metavar="N",
            help="Stop undecided after this many games.",
        ),
    ] = 1_000_000,
    batch: Annotated[
        int,
        typer.Option(
            "--batch",
            parser=whole_number("--batch", 1),
            metavar="N",
            help="Games per run between two looks.",
        ),
    ] = 20_000,
    workers: WorkersOpt = None,
    out: OutOpt = Path("results/settle"),
    fresh: FreshOpt = False,
    quiet: QuietOpt = False,
    seed: SeedOpt = None,
) -> None:
    """Run A and B paired in batches until the difference is decided (anytime-valid).

    Both play A's seed (B's own seed is replaced, with a note) unless --seed sets both.
    Stops when the 95% confidence sequence of B - A excludes zero (or the whole margin),
    lies inside the margin, or --max-games is reached. The runs stay in OUT, complete with
    the games played, for summary, compare and report; rerunning reuses their games.
    """
    with one_line_errors():
        from uno_stats.analysis.metrics import parse_margin
        from uno_stats.debates.settle import seed_note
        from uno_stats.debates.settle import settle as settle_runs
        from uno_stats.present.verdicts import settle_text
        from uno_stats.run.interrupts import exit_code, stop_on_signals
        from uno_stats.run.runner import RunInterrupted
        from uno_stats.scenario.load import load_scenario

        limit = parse_margin(margin) if margin is not None else None
        a, b = load_scenario(scenario_a), load_scenario(scenario_b)
        if seed_note(a, b, seed):
            note(seed_note(a, b, seed))  # before the games start, not after
        try:
            with stop_on_signals():
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
                    seed=seed,
                )
        except RunInterrupted as exc:
            exit_interrupted(exc)
        except KeyboardInterrupt as exc:  # between two batches: every batch so far is saved
            typer.echo(
                f"Interrupted: settle stopped between two batches; every batch so far is saved "
                f"in {out}: run the same command again to continue.",
                err=True,
            )
            raise typer.Exit(exit_code(exc)) from None
        typer.echo(settle_text(result.record))
        typer.echo(f"runs kept in {result.a.path} and {result.b.path}", err=True)


def report_cmd(
    folders: FoldersArg,
    out: Annotated[
        Path,
        typer.Option(
            "--out", "-o", parser=out_folder, metavar="DIR", help="Folder to write the report into."
        ),
    ],
    title: Annotated[str | None, typer.Option("--title", help="Report title.")] = None,
    allow_incomplete: AllowIncompleteOpt = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Replace the report in an existing OUT: its report.md, report.html and PNGs "
            "are deleted first (an OUT holding other files is refused). Without it a "
            "non-empty OUT is refused.",
        ),
    ] = False,
) -> None:
    """Write a Markdown/HTML report with tables and plots for results folders."""
    with one_line_errors():
        from uno_stats.present import report

        runs = open_runs(folders, allow_incomplete)
        for path in report.write_report(runs, out, title=title, force=force):
            typer.echo(str(path))

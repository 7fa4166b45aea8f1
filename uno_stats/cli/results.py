"""The results commands: ``summary`` (every question of saved runs), ``compare`` (rule
effects between runs), ``settle`` (run two scenarios paired until the difference is
decided) and ``report`` (a Markdown/HTML report with plots). Every heavy import is inside
the command."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from uno_stats.cli.runs import check_complete, open_runs, run_file
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
    WorkersOpt,
    exit_interrupted,
    one_line_errors,
)

if TYPE_CHECKING:
    from uno_stats.run.results import Run

FoldersArg = Annotated[
    list[Path], typer.Argument(help="Results folders (a run or a sweep).", show_default=False)
]


def summary(folders: FoldersArg, fmt: FormatOpt = Format.table) -> None:
    """Summarise runs: every question with intervals (json/csv: one row per number);
    incomplete runs are named so."""
    with one_line_errors():
        from uno_stats.present import report

        typer.echo(report.summary_text(open_runs(folders), fmt.value))


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
    allow_incomplete: AllowIncompleteOpt = False,
) -> None:
    """Compare runs: differences with intervals, tests, effect sizes and a verdict.

    Runs with the same seed and game count are compared game by game (paired).
    """
    if len(items) < 2:
        raise typer.BadParameter(
            "give at least two results folders or scenarios", param_hint="ITEMS"
        )
    with one_line_errors():
        from uno_stats.analysis.metrics import metric_spec, parse_margin
        from uno_stats.present import report
        from uno_stats.run.verify import verified_runs

        for name in metric or []:
            metric_spec(name)
        limit = parse_margin(margin) if margin is not None else None
        runs: list[Run] = []
        for item in items:
            path = Path(item)
            if path.suffix not in (".yaml", ".yml"):
                runs.extend(verified_runs(path))
                continue
            outcome = run_file(
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
        check_complete(runs, allow_incomplete)
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
            "won_rate, void_rate or capped_rate.",
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
    with one_line_errors():
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
            exit_interrupted(exc)
        typer.echo(settle_text(result))
        typer.echo(f"runs kept in {result.a.path} and {result.b.path}", err=True)


def report_cmd(
    folders: FoldersArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the report into.")],
    title: Annotated[str | None, typer.Option("--title", help="Report title.")] = None,
    allow_incomplete: AllowIncompleteOpt = False,
) -> None:
    """Write a Markdown/HTML report with tables and plots for results folders."""
    with one_line_errors():
        from uno_stats.present import report

        runs = open_runs(folders, allow_incomplete)
        for path in report.write_report(runs, out, title=title):
            typer.echo(str(path))

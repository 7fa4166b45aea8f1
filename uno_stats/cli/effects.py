"""The ``effects`` command: factorial effects of a sweep's axes on each metric, from a
sweep's results folder or a sweep scenario (run first, resuming, as ``run`` does)."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from uno_stats.cli.runs import check_complete, results_folders, run_file
from uno_stats.cli.shared import (
    AllowIncompleteOpt,
    Format,
    FormatOpt,
    FreshOpt,
    GamesOpt,
    MarginOpt,
    OutOpt,
    QuietOpt,
    SchedulerOpt,
    WideOpt,
    WorkersOpt,
    note,
    one_line_errors,
    terminal_width,
)
from uno_stats.errors import UnoStatsError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from uno_stats.store.runs import Run


def effects_cmd(
    items: Annotated[
        list[str],
        typer.Argument(
            help="Sweep results folders or sweep scenario .yaml files (run first into "
            "--out, resuming as run does); each is one sweep.",
            show_default=False,
        ),
    ],
    fmt: FormatOpt = Format.table,
    metric: Annotated[
        list[str] | None,
        typer.Option(
            "--metric",
            "-m",
            help="Metric (repeatable): mean_COL, median_COL, pNN_COL, won_rate, void_rate, "
            "capped_rate, seatK_win_rate, comebackK_rate, chainK_rate, first_mover_win_rate, "
            "first_mover_edge. Default: turns (mean, median, p90), the first mover's share "
            "and edge, comebacks at 3+ and 5+, cards drawn, chains of 2+, void and capped.",
        ),
    ] = None,
    interactions: Annotated[
        bool | None,
        typer.Option(
            "--interactions/--no-interactions",
            help="Two-factor interactions (default: only when the sweep has at most 8 axes).",
            show_default=False,
        ),
    ] = None,
    three_factor: Annotated[
        bool, typer.Option("--three-factor", help="Three-factor interactions too.")
    ] = False,
    margin: MarginOpt = None,
    games: GamesOpt = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=0, help="Run scenario files on this seed.", show_default=False),
    ] = None,
    workers: WorkersOpt = None,
    out: OutOpt = Path("results"),
    fresh: FreshOpt = False,
    quiet: QuietOpt = False,
    scheduler: SchedulerOpt = None,
    allow_incomplete: AllowIncompleteOpt = False,
    wide: WideOpt = False,
) -> None:
    """Effects of a sweep's axes: main effects, levels and interactions with intervals.

    A folder of runs (such as results/) reads each sweep in it and skips the other runs.

    Every point of a sweep replays the same deals, so each effect is a contrast of paired
    values with its interval over game indices (points whose deals differ, such as other
    player counts, are independent). Terms ranked by size, Holm per metric, one sentence
    per metric for its largest effect; --margin names terms with no practical effect.
    """
    with one_line_errors():
        from uno_stats.debates.effects import checked_options, sweeps_effects
        from uno_stats.present.effects import effects_text
        from uno_stats.store.verify import verified_runs

        limit = checked_options(metric, margin)
        sweeps: list[Sequence[Run]] = []
        for item in items:
            path = Path(item)
            if path.suffix in (".yaml", ".yml"):
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
                sweeps.append(outcome.runs)
                continue
            found = results_folders(path)
            for folder in found:
                runs = verified_runs(folder)
                if len(found) > 1 and not runs[0].manifest.sweep_assignment:
                    note(f"{folder}: not a sweep (skipped)")
                    continue
                sweeps.append(runs)
        if not sweeps:
            raise UnoStatsError("no sweep among these folders: effects needs a sweep's results")
        for runs in sweeps:
            check_complete(runs, allow_incomplete)
        results = sweeps_effects(
            sweeps, metric, interactions=interactions, three_factor=three_factor, margin=limit
        )
        with terminal_width(wide):
            typer.echo(effects_text(results, fmt.value), nl=False)

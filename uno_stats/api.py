"""The library API, for notebooks and scripts: load a scenario, simulate it, open results,
summarise, compare, settle, and the effects of a sweep's axes.

Exported from the package top (``import uno_stats as uno``). These names stay put when the
modules behind them move: each function imports its implementation when called, so
``import uno_stats`` loads no numpy, polars or numba. (Running a scenario is
``simulate``: ``uno_stats.run`` is the run-layer package.) Results come back as small objects
with a one-line ``repr`` (and an HTML one in a notebook) or as polars DataFrames.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    import polars as pl

    from uno_stats.debates.settle import SettleResult
    from uno_stats.scenario.load import Scenario as ScenarioSpec
    from uno_stats.store.runs import Run

__all__ = [
    "Results",
    "Scenario",
    "Settled",
    "compare",
    "effects",
    "load_scenario",
    "open_results",
    "settle",
    "simulate",
    "summarise",
]


def _html_table(title: str, rows: Sequence[tuple[str, object]]) -> str:
    body = "".join(
        f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
        for k, v in rows
    )
    return f"<table><caption>{html.escape(title)}</caption>{body}</table>"


@dataclass(frozen=True, repr=False)
class Scenario:
    """A scenario file, loaded and checked: ``spec`` is the resolved scenario."""

    spec: ScenarioSpec

    @property
    def name(self) -> str:
        """The scenario's name (its results folder)."""
        return self.spec.name

    @property
    def games(self) -> int:
        """Rounds (or matches) a run plays."""
        return self.spec.games

    def _rows(self) -> list[tuple[str, object]]:
        from uno_stats.engine.rules import preset_rules

        s = self.spec
        base = preset_rules(s.preset)
        changed = {k: v for k, v in s.rules.items() if base.get(k) != v}
        rows: list[tuple[str, object]] = [
            ("players", s.players),
            ("games", f"{s.games:,}"),
            ("seed", s.seed),
            ("preset", s.preset),
            ("rules changed", ", ".join(f"{k}={v}" for k, v in changed.items()) or "none"),
            ("strategies", ", ".join(seat["strategy"] for seat in s.seats)),
        ]
        if s.point_count:
            rows.append(("runs", f"{s.point_count:,} (sweep or tournament points)"))
        return rows

    def __repr__(self) -> str:
        return f"Scenario {self.name}: " + "; ".join(f"{k} {v}" for k, v in self._rows())

    def _repr_html_(self) -> str:
        return _html_table(f"Scenario {self.name}", self._rows())


@dataclass(frozen=True, repr=False)
class Results:
    """A results folder, verified: ``runs`` holds one run, or one per sweep point."""

    path: Path
    runs: tuple[Run, ...]

    @property
    def complete(self) -> bool:
        """Every run has every planned chunk on disk."""
        return all(r.complete for r in self.runs)

    @property
    def games(self) -> int:
        """Games on disk over all runs."""
        return sum(r.check.games_done if r.check else r.manifest.games for r in self.runs)

    def frame(self) -> pl.DataFrame:
        """Every round of every run, one row each (column ``run``: the run's name)."""
        import polars as pl

        return pl.concat(
            [r.scan().with_columns(pl.lit(r.name).alias("run")).collect() for r in self.runs],
            how="diagonal_relaxed",
        )

    def _rows(self) -> list[tuple[str, object]]:
        return [(r.name, f"{r.progress}") for r in self.runs]

    def __repr__(self) -> str:
        state = "complete" if self.complete else "incomplete"
        runs = f"{len(self.runs)} run" + ("s" if len(self.runs) != 1 else "")
        return f"Results {self.path}: {runs}, {self.games:,} games, {state}"

    def _repr_html_(self) -> str:
        return _html_table(repr(self), self._rows())


@dataclass(frozen=True, repr=False)
class Settled:
    """What :func:`settle` decided; ``result`` holds every figure, ``a`` / ``b`` the runs."""

    result: SettleResult

    @property
    def outcome(self) -> str:
        """``different``, ``same`` or ``undecided``."""
        return self.result.outcome

    @property
    def a(self) -> Results:
        """The baseline run, as kept on disk."""
        return open_results(self.result.a.path)

    @property
    def b(self) -> Results:
        """The other run, as kept on disk."""
        return open_results(self.result.b.path)

    def __repr__(self) -> str:
        from uno_stats.present.verdicts import settle_text

        return settle_text(self.result.record)

    def _repr_html_(self) -> str:
        return f"<p>{html.escape(repr(self))}</p>"


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file (an error names the file, line and key)."""
    from uno_stats.scenario.load import load_scenario as load

    return Scenario(load(path))


def _spec(scenario: Scenario | str | Path) -> ScenarioSpec:
    return scenario.spec if isinstance(scenario, Scenario) else load_scenario(scenario).spec


def simulate(
    scenario: Scenario | str | Path,
    out: str | Path = "results",
    *,
    games: int | None = None,
    seed: int | None = None,
    workers: int | None = None,
    fresh: bool = False,
    progress: bool = False,
) -> Results:
    """Simulate ``scenario`` (or a scenario file) into ``out/<name>/`` and open the results.

    ``games`` / ``seed`` override the file's; an interrupted run into the same folder is
    resumed, ``fresh`` starts over. The same games as ``uno-stats run``, seed for seed.
    """
    from uno_stats.run.runner import run_scenario
    from uno_stats.scenario.load import with_overrides

    spec = with_overrides(_spec(scenario), games=games, seed=seed)
    outcome = run_scenario(spec, out_dir=out, workers=workers, progress=progress, fresh=fresh)
    return open_results(outcome.path)


def open_results(folder: str | Path) -> Results:
    """A results folder (a run or a sweep), every part verified; only good parts are read."""
    from uno_stats.store.verify import verified_runs

    return Results(Path(folder), tuple(verified_runs(folder)))


def _runs(results: Sequence[Results | str | Path]) -> list[Run]:
    opened = [r if isinstance(r, Results) else open_results(r) for r in results]
    return [run for r in opened for run in r.runs]


def summarise(*results: Results | str | Path) -> pl.DataFrame:
    """Every answer of ``uno-stats summary``, one number per row with its interval.

    Columns: run, group, question, metric, estimate, low, high, n, method, level, seed.
    """
    import polars as pl

    from uno_stats.analysis.questions import answer_run, sweep_groups
    from uno_stats.analysis.tournament import tournaments
    from uno_stats.present.records import COLUMNS, records, tournament_records

    runs = _runs(results)
    groups = sweep_groups(runs)
    rows = [row for run in runs for row in records(answer_run(run), groups)]
    rows += tournament_records(tournaments(runs))
    return pl.DataFrame(rows, schema=list(COLUMNS), orient="row", infer_schema_length=None)


def compare(
    baseline: Results | str | Path,
    *others: Results | str | Path,
    metrics: Sequence[str] | None = None,
    margin: str | None = None,
) -> pl.DataFrame:
    """Each run of ``others`` against ``baseline``, as ``uno-stats compare`` (``--format csv``)
    has them: one row per metric with difference, interval, test, Holm p and verdict.

    ``margin`` (``"2%"`` or an absolute ``"1.5"``) adds the equivalence verdict.
    """
    import polars as pl

    from uno_stats.analysis.compare import compare_runs
    from uno_stats.analysis.metrics import parse_margin
    from uno_stats.present.comparison import comparison_rows

    limit = parse_margin(margin) if margin is not None else None
    found, _notes = compare_runs(_runs([baseline, *others]), metrics, limit)
    return pl.DataFrame(comparison_rows(found), infer_schema_length=None)


def effects(
    *sweeps: Results | str | Path,
    metrics: Sequence[str] | None = None,
    interactions: bool | None = None,
    three_factor: bool = False,
    margin: str | None = None,
    allow_incomplete: bool = False,
) -> pl.DataFrame:
    """The effects of each sweep's axes, as ``uno-stats effects`` (``--format json``) has
    them: one row per metric and term (main effects, levels, interactions), ranked by size
    within each metric, with estimate, 95% interval, p, Holm p, games, method and verdict.

    Each of ``sweeps`` is one sweep's results (a :class:`Results` or its folder).
    ``metrics``: default the command's (turns, the first mover, comebacks, cards drawn,
    chains, void and capped rounds). ``interactions``: None for two-factor interactions when
    a sweep has at most 8 axes; ``three_factor`` adds three-factor ones. ``margin`` (``"2%"``
    or ``"1.5"``) names the terms with no practical effect. An incomplete sweep is refused
    unless ``allow_incomplete``.
    """
    import polars as pl

    from uno_stats.debates.effects import checked_options, sweeps_effects
    from uno_stats.errors import UnoStatsError
    from uno_stats.present.effects import COLUMNS, effect_rows
    from uno_stats.store.verify import incomplete_error

    if not sweeps:
        raise UnoStatsError("effects needs a sweep's results")
    limit = checked_options(metrics, margin)
    opened = [_runs([sweep]) for sweep in sweeps]
    for runs in opened:
        problem = None if allow_incomplete else incomplete_error(runs)
        if problem:
            raise UnoStatsError(problem.replace("--allow-incomplete", "allow_incomplete=True"))
    found = sweeps_effects(
        opened, metrics, interactions=interactions, three_factor=three_factor, margin=limit
    )
    rows = [row for result in found for row in effect_rows(result)]
    return pl.DataFrame(rows, schema=list(COLUMNS), orient="row", infer_schema_length=None)


def settle(
    a: Scenario | str | Path,
    b: Scenario | str | Path,
    metric: str = "mean_turns",
    *,
    margin: str | None = None,
    max_games: int = 1_000_000,
    batch: int = 20_000,
    out: str | Path = "results/settle",
    workers: int | None = None,
    fresh: bool = False,
    progress: bool = False,
) -> Settled:
    """Run ``a`` and ``b`` paired in batches until ``metric``'s difference is decided (an
    anytime-valid confidence sequence) or ``max_games``, as ``uno-stats settle``."""
    from uno_stats.analysis.metrics import parse_margin
    from uno_stats.debates.settle import settle as settle_runs

    result = settle_runs(
        _spec(a),
        _spec(b),
        metric,
        margin=parse_margin(margin) if margin is not None else None,
        max_games=max_games,
        batch=batch,
        out_dir=out,
        workers=workers,
        progress=progress,
        fresh=fresh,
    )
    return Settled(result)

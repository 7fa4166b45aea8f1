"""Presentation only: terminal tables, Markdown/HTML reports with PNG plots, JSON and CSV.

Every number comes from :mod:`uno_stats.analysis.questions` / :mod:`uno_stats.analysis.compare`;
this module chooses what to show and how. Public API (called by the CLI and the runner):
:func:`run_summary_text`, :func:`summary_text`, :func:`compare_text`, :func:`write_report`.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from uno_stats.analysis.compare import RunComparison, compare_runs
from uno_stats.analysis.estimates import format_p
from uno_stats.analysis.first_mover import first_mover
from uno_stats.analysis.metrics import Margin
from uno_stats.analysis.questions import (
    RunAnswers,
    SweepGroup,
    answer_run,
    mixed_seats,
    round_length,
    run_rules,
    status_counts,
    survival_curve,
    sweep_groups,
    turns_histogram,
)
from uno_stats.analysis.seats import seat_win_rates
from uno_stats.analysis.skill_runs import skill_studies
from uno_stats.analysis.tournament import Tournaments, tournaments
from uno_stats.engine.schema import STATUS_NAMES
from uno_stats.errors import ResultsError
from uno_stats.present.answers import (
    answers_section,
    comparison_answers,
    first_mover_answer,
    length_answer,
    outcome_answer,
)
from uno_stats.present.comparison import comparison_rows, comparison_section
from uno_stats.present.document import Document, render_html, render_markdown, render_text
from uno_stats.present.effects_sections import effects_section, report_effects
from uno_stats.present.measures import measures_for
from uno_stats.present.records import COLUMNS, records, tournament_records
from uno_stats.present.report_folder import prepare_report_folder
from uno_stats.present.round_sections import events_section, first_mover_section
from uno_stats.present.sections import (
    CONFOUNDED,
    comeback_section,
    count_pct,
    deficit_section,
    est,
    length_section,
    match_section,
    num,
    pct,
    run_meta,
    runs_section,
    seat_section,
    shown_statuses,
    status_section,
    strategy_section,
    sweep_section,
)
from uno_stats.present.settle_sections import (
    rule_effect_heading,
    settle_rows,
    settle_section,
    settled,
)
from uno_stats.present.skill_sections import skill_studies_section, skill_study_answers
from uno_stats.present.tournament_sections import skill_section, tournament_section
from uno_stats.present.verdicts import settle_text
from uno_stats.scenario.deck import deck_label
from uno_stats.store.parts import tool_version
from uno_stats.store.runs import Run

FORMATS = ("table", "md", "json", "csv")
METHODS = (
    "Methods. Means: Student t interval. Quantiles are mid-quantiles (Parzen): the "
    "mid-distribution F(x) - P(X = x)/2 interpolated linearly between the observed values, "
    "so a median of whole turns may fall between two whole numbers (without ties: the Hazen "
    "quantile); interval: estimate +- 1.96 x its bootstrap standard error. "
    "Proportions: Wilson score interval. "
    "Seat and first-mover shares: Pearson chi-square against equal shares over won rounds; "
    "first mover's edge: exact binomial test. Comeback gap (P(win | k behind) - P(win | never "
    "k behind)): Newcombe hybrid score interval. Cards per own-turn draw: a ratio of sums "
    "with a cluster-robust (delta method) interval over rounds. Tournaments: every interval "
    "cluster-robust over deals (all seatings replay the same deals); pairwise shares "
    "seat-balanced (each cell corrected by the share its positions give by themselves); the "
    "skill spread's p by the range of all shares (a max-statistic test); spreads compared by a "
    "z test, paired by deal when the seeds agree, Holm over the pairs. Skill studies (one "
    "seat's strategy swept on the same deals): variance components of the win by the ANOVA "
    "method (strategy fixed, deal random, no replication), percentile bootstrap over deals; "
    "spreads and rule effects by paired t intervals over deals (docs/METHODS.md). "
    "Comparisons: runs "
    "with the same seed and game count replay the same deals game by game (common random "
    "numbers) and are compared paired, game k against game k; others as independent samples. "
    "Means: paired t, or Welch t (ratio interval by the delta method on the log ratio, with "
    "the covariance when paired). Rates: McNemar test with Newcombe's paired score interval, "
    "or the two-proportion z test with Newcombe's hybrid score interval (Katz log interval "
    "for the ratio). Quantiles: the mid-quantile difference +- 1.96 x its bootstrap standard "
    "error (resampling game indices when paired), p-value from the same normal statistic, "
    "so p < 0.05 exactly when the interval excludes 0. "
    "Distributions: Wilcoxon signed-rank when paired, Mann-Whitney U otherwise (its own row). "
    "Effect sizes Cohen's d, Cohen's h, rank-biserial r; p-values Holm-corrected within each "
    "question of each run pair, leaving out metrics that are zero in both runs or identical "
    "in every paired game. Void and capped rounds have no winner and are left out of every "
    "seat, comeback and strategy statistic."
)


PER_RUN_CHARTS = 12
"""A report draws its per-run charts (a line, a panel or a heatmap per run: length
histogram, survival, seats, comebacks, deficits) for at most this many runs."""
PAIRWISE_RUNS = 12
"""A report compares every run with the first for at most this many runs (a larger sweep is
compared by its Effects section: every axis at once, paired game by game)."""


def settled_lines(runs: Sequence[Run]) -> list[str]:
    """The verdict line ``settle`` printed, for each settle among ``runs``."""
    return [settle_text(r) for r in settled(runs)]


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ResultsError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")


def _require_runs(runs: Sequence[Run]) -> None:
    if not runs:
        raise ResultsError("no runs given")


def run_summary_text(run: Run, games_per_s: float | None = None) -> str:
    """The compact table printed after ``uno-stats run``: status, turns, seats, speed."""
    lf = run.scan()
    status = status_counts(lf)
    length = round_length(lf)
    doc = Document()
    deck = deck_label(run.scenario.rules, run.scenario.deck)
    seed = run.manifest.seed
    doc.heading("Answers")
    doc.para(length_answer(run.name, length))
    mover = first_mover(lf, run.players, run_rules(run)) if status.counts[0] else None
    for sentence in (
        first_mover_answer(run.name, mover, mixed_seats(run)),
        outcome_answer(run.name, status),
    ):
        if sentence is not None:
            doc.para(sentence)
    doc.heading("Details")
    doc.para(f"{run.name}: {status.n:,} rounds, {run.players} players, deck {deck}, seed {seed}")
    shown = shown_statuses([status])
    doc.table(
        ["rounds", *(STATUS_NAMES[k] for k in shown)],
        [[f"{status.n:,}", *(count_pct(status.counts[k], status.shares[k]) for k in shown)]],
    )
    doc.table(
        ["turns", "estimate", "95% CI", "n", "interval"],
        [
            [name, num(e.value, d), f"{num(e.low, d)} to {num(e.high, d)}", f"{e.n:,}", how]
            for name, e, d, how in (
                ("mean", length.mean, 2, "t"),
                ("median", length.median, 1, "mid-quantile, bootstrap SE"),
                ("p90", length.p90, 1, "mid-quantile, bootstrap SE"),
            )
        ],
    )
    if status.counts[0]:
        seats = seat_win_rates(lf, run.players)
        doc.table(
            ["seat", "wins", "win rate", "95% CI (Wilson)", "fair share"],
            [
                [
                    i,
                    f"{w:,}",
                    f"{100 * e.value:.2f}%",
                    f"{100 * e.low:.2f} to {100 * e.high:.2f}%",
                    f"{100 * seats.fair:.2f}%",
                ]
                for i, (w, e) in enumerate(zip(seats.wins, seats.seats, strict=True))
            ],
        )
        chi = seats.chi_square
        doc.para(
            f"Seat shares vs 1/{run.players}: chi-square {num(chi.statistic)} "
            f"(df {chi.df}), {format_p(chi.p)}, n = {seats.n_won:,} won rounds."
            + (f" {CONFOUNDED}." if mixed_seats(run) else "")
        )
    rate = games_per_s if games_per_s is not None else run.manifest.games_per_s
    if rate:
        doc.para(f"Speed: {float(rate):,.0f} games/s.")
    return render_text(doc)


def _summary_document(
    answers: Sequence[RunAnswers], runs: Sequence[Run], found: Tournaments
) -> Document:
    doc = Document()
    studies, curves = skill_studies(sweep_groups(runs))
    answers_section(
        doc,
        answers,
        sweep_groups(runs),
        found,
        settled=settled_lines(runs),
        skill=skill_study_answers(studies, curves),
    )
    runs_section(doc, runs)
    settle_section(doc, runs)
    status_section(doc, answers)
    length_section(doc, answers)
    match_section(doc, answers)
    first_mover_section(doc, answers)
    seat_section(doc, answers)
    comeback_section(doc, answers)
    deficit_section(doc, answers)
    events_section(doc, answers)
    strategy_section(doc, answers)
    sweep_section(doc, sweep_groups(runs), {str(a.run.path): a for a in answers})
    tournament_section(doc, found)
    skill_section(doc, found)
    skill_studies_section(doc, studies, curves)
    return doc


def _csv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, default=str, allow_nan=False) + "\n"


def summary_text(runs: list[Run], fmt: str = "table") -> str:
    """All answers for each run (and per-point rows for sweeps) as table, md, json or csv;
    the table or Markdown of one sweep is its short summary (its points'
    main answers and a sweep's main effects; :mod:`uno_stats.present.points_summary`).

    json is one object ``{"runs": [...], "answers": [...]}``; csv is one tidy table. Both
    hold every table of the report, one row per number, with the columns of
    :data:`uno_stats.present.records.COLUMNS` (method, confidence level, n and seed included).
    """
    _check_format(fmt)
    _require_runs(runs)
    if fmt in ("table", "md") and _one_sweep(runs):
        from uno_stats.present.points_summary import points_summary_text

        return points_summary_text(runs, Path(runs[0].path).parent, fmt)
    answers = [answer_run(run) for run in runs]
    found = tournaments(runs)
    if fmt in ("json", "csv"):
        groups = sweep_groups(runs)
        rows = [r for a in answers for r in records(a, groups)] + tournament_records(found)
        if fmt == "csv":
            return _csv([*rows, *settle_rows(settled(runs))], COLUMNS)
        meta = [run_meta(r) for r in runs]
        return _json(
            {"runs": meta, "answers": rows, "settled": [r.to_json() for r in settled(runs)]}
        )
    doc = _summary_document(answers, runs, found)
    return render_markdown(doc) if fmt == "md" else render_text(doc)


def _one_sweep(runs: Sequence[Run]) -> bool:
    """Whether ``runs`` are the points of one sweep (its table or Markdown summary is the
    short one: a block per point per question is not read). A tournament's seatings keep
    the full summary: its per-seat sections carry the caveats of mixed seats."""
    points = all(r.manifest.sweep_label is not None and not r.manifest.tournament for r in runs)
    return len(runs) > 1 and points and len({Path(r.path).parent for r in runs}) == 1


def compare_text(
    runs: list[Run],
    fmt: str = "table",
    metrics: Sequence[str] | None = None,
    margin: Margin | None = None,
) -> str:
    """``runs[0]`` as baseline against every other run: table, verdict lines, Holm p-values.

    Per-seat metrics are skipped (with a note) where player counts differ; ``margin`` adds
    an equivalence (TOST) verdict to every line.
    """
    _check_format(fmt)
    results, notes = compare_runs(runs, metrics, margin)
    if fmt in ("json", "csv"):
        rows = comparison_rows(results)
        if fmt == "csv":
            return _csv(rows, list(rows[0]) if rows else ["baseline", "run", "metric"])
        return _json(
            {
                "baseline": runs[0].name,
                "runs": [run_meta(r) for r in runs],
                "comparisons": rows,
                "notes": list(notes),
                "settled": [r.to_json() for r in settled(runs)],
            }
        )
    doc = Document()
    doc.heading("Answers")
    for line in settled_lines(runs) or comparison_answers(results, metrics):
        doc.para(line)
    runs_section(doc, runs)
    settle_section(doc, runs)
    doc.heading(rule_effect_heading(runs))
    comparison_section(doc, results, notes)
    return render_markdown(doc) if fmt == "md" else render_text(doc)


def _slug(text: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "run"
    slug, i = base, 2
    while slug in taken:
        slug, i = f"{base}-{i}", i + 1
    taken.add(slug)
    return slug


@dataclass
class _Report:
    """What one report is built from, and the PNG files it has written so far."""

    runs: list[Run]
    out: Path
    answers: list[RunAnswers]
    groups: list[SweepGroup]
    found: Tournaments
    comparisons: tuple[list[RunComparison], list[str]] | None
    pngs: list[Path] = field(default_factory=list)
    run_slugs: set[str] = field(default_factory=set)  # deficit and sweep file names
    tournament_slugs: set[str] = field(default_factory=set)

    def image(self, doc: Document, path: Path, alt: str) -> None:
        """Show the PNG just written at ``path`` (and list it among the report's files)."""
        doc.image(self.keep(path), alt)

    def keep(self, path: Path) -> Path:
        """List the PNG just written at ``path`` among the report's files; ``path``."""
        self.pngs.append(path)
        return path


def _round_parts(doc: Document, r: _Report, plots: Any) -> None:
    """Round status and length, with the length histogram and the survival curve."""
    status_section(doc, r.answers)
    length_section(doc, r.answers)
    names = [a.run.name for a in r.answers]
    lfs = [run.scan() for run in r.runs]
    top = max(a.length.p99.value for a in r.answers)
    width = max(1, math.ceil(top / 80))
    xmax = width * math.ceil((top + 1) / width)
    if _too_many_for_charts(doc, r, "length histogram and survival curves"):
        return
    hists = [(n, turns_histogram(lf, width, xmax)) for n, lf in zip(names, lfs, strict=True)]
    path = plots.turns_histogram(hists, r.out / "turns_histogram.png")
    r.image(doc, path, "Distribution of round length in turns")
    curves = [(n, survival_curve(lf, xmax)) for n, lf in zip(names, lfs, strict=True)]
    r.image(
        doc, plots.survival(curves, r.out / "survival.png"), "P(round still running after t turns)"
    )


def _too_many_for_charts(doc: Document, r: _Report, charts: str) -> bool:
    """Whether the report has too many runs for one chart per run (or one line each); if so,
    a sentence says so in place of the charts."""
    if len(r.runs) <= PER_RUN_CHARTS:
        return False
    doc.para(
        f"The {charts} of the {len(r.runs)} runs are not drawn (a report draws per-run charts "
        f"for at most {PER_RUN_CHARTS} runs); the tables hold every run's figures, and the "
        "sweep and tournament sections show the answers along their axes."
    )
    return True


def _seat_parts(doc: Document, r: _Report, plots: Any) -> None:
    """Matches, the first mover and seats, with the seat chart."""
    match_section(doc, r.answers)
    first_mover_section(doc, r.answers)
    seat_section(doc, r.answers)
    seated = [(a.run.name, a.seats) for a in r.answers if a.seats is not None]
    if seated and not _too_many_for_charts(doc, r, "seat charts"):
        path = plots.seat_win_rates(seated, r.out / "seat_win_rates.png")
        r.image(doc, path, "Win share by seat with 95% intervals and the fair share")


def _behind_parts(doc: Document, r: _Report, plots: Any) -> None:
    """Comebacks and the deficit tables, with their plots (one colour scale for all maps)."""
    comeback_section(doc, r.answers)
    curves = [(a.run.name, a.comeback) for a in r.answers if a.comeback is not None]
    if curves and not _too_many_for_charts(doc, r, "comeback curves"):
        r.image(
            doc,
            plots.comeback(curves, r.out / "comeback.png"),
            "Comeback: P(win | k or more behind) against P(win | never k behind)",
        )
    deficit_section(doc, r.answers)
    tables = [(a.run.name, a.deficit) for a in r.answers if a.deficit is not None]
    if _too_many_for_charts(doc, r, "deficit heatmaps"):
        return
    top = plots.deficit_scale([t for _, t in tables])
    for name, table in tables:
        path = r.out / f"deficit_{_slug(name, r.run_slugs)}.png"
        r.image(
            doc,
            plots.deficit_heatmap(name, table, path, vmax=top),
            f"P(win | deficit d at turn t), {name}",
        )


def _sweep_parts(doc: Document, r: _Report, plots: Any) -> None:
    """Sweep tables, and per sweep one plot of every main answer along its axes."""
    by_path = {str(a.run.path): a for a in r.answers}
    sweep_section(doc, r.groups, by_path)
    for g in r.groups:
        members = [by_path[str(run.path)] for run in g.runs]
        series = [
            (
                m,
                [
                    (run.manifest.sweep_assignment or {}, m.value(a))
                    for run, a in zip(g.runs, members, strict=True)
                ],
            )
            for m in measures_for(members)
        ]
        path = r.out / f"sweep_{_slug(g.name, r.run_slugs)}.png"
        categorical = all(run.manifest.tournament for run in g.runs)
        r.image(
            doc,
            plots.sweep(g.name, g.axes, series, path, categorical=categorical),
            f"Main answers across sweep {g.name}",
        )


def _tournament_parts(doc: Document, r: _Report, plots: Any) -> None:
    """Tournament tables and the skill spreads, with their charts."""
    tournament_section(doc, r.found)
    for t in r.found.tables:
        path = r.out / f"tournament_win_share_{_slug(t.name, r.tournament_slugs)}.png"
        r.image(
            doc,
            plots.tournament_win_shares(t, path),
            f"Win share by strategy over every seat rotation of {t.name}, 95% intervals and "
            "the fair share",
        )
    skill_section(doc, r.found)
    if r.found.spreads:
        r.image(
            doc,
            plots.skill_spreads(r.found.spreads, r.out / "skill_vs_luck.png"),
            "Win-share spread between the best and worst strategy by rule preset, 95% intervals",
        )


def _report_document(r: _Report, title: str, plots: Any) -> Document:
    """Title, contents and Answers first, then every section with its plots, then Methods."""
    doc = Document()
    doc.heading(title, 1)
    doc.para(
        f"Generated by uno-stats {tool_version()}. Every figure is given with its 95% "
        "interval and sample size; see Methods at the end."
    )
    doc.contents()
    results = r.comparisons[0] if r.comparisons else []
    effects = report_effects(r.runs)
    studies, curves = skill_studies(r.groups)
    answers_section(
        doc,
        r.answers,
        r.groups,
        r.found,
        results,
        settled_lines(r.runs),
        effects=effects,
        skill=skill_study_answers(studies, curves),
    )
    effects_section(doc, effects, r.out, r.keep)  # a sweep's effects first
    runs_section(doc, r.runs)
    settle_section(doc, r.runs)
    _round_parts(doc, r, plots)
    _seat_parts(doc, r, plots)
    _behind_parts(doc, r, plots)
    events_section(doc, r.answers)
    strategy_section(doc, r.answers)
    _sweep_parts(doc, r, plots)
    _tournament_parts(doc, r, plots)
    skill_studies_section(doc, studies, curves)
    if r.comparisons is not None:
        doc.heading(rule_effect_heading(r.runs))
        comparison_section(doc, *r.comparisons)
    doc.heading("Methods")
    doc.para(METHODS)
    return doc


def write_report(
    runs: list[Run], out: str | Path, title: str | None = None, force: bool = False
) -> list[Path]:
    """Write ``out/report.md``, ``out/report.html`` and the ``out/*.png`` plots both refer to.

    ``out`` must be new or empty; with ``force`` a previous report in it is replaced (its
    files deleted first, see :func:`~uno_stats.present.report_folder.prepare_report_folder`).
    Returns the paths written (Markdown, HTML, then the PNGs).
    """
    from uno_stats.present import plots  # matplotlib: only reports draw

    _require_runs(runs)
    answers = [answer_run(run) for run in runs]
    found = tournaments(runs)
    compared = 2 <= len(runs) <= PAIRWISE_RUNS and not found.tables
    comparisons = compare_runs(runs) if compared else None
    folder = prepare_report_folder(Path(out), force)
    r = _Report(runs, folder, answers, sweep_groups(runs), found, comparisons)
    title = title or "uno-stats report: " + ", ".join(dict.fromkeys(x.manifest.name for x in runs))
    doc = _report_document(r, title, plots)
    md, page = folder / "report.md", folder / "report.html"
    md.write_text(render_markdown(doc))
    page.write_text(render_html(doc, title))
    return [md, page, *r.pngs]


__all__ = ["compare_text", "est", "pct", "run_summary_text", "summary_text", "write_report"]

"""The short summary of a sweep or a tournament: what ``uno-stats run`` prints after one,
and what ``summary`` prints (as a table or Markdown) of a folder holding exactly one.

The Answers sentences (a sweep's largest effects first), then one table of the points'
main answers (the sweep table; for a tournament, its strategy and pairwise tables and the
skill spread), a sweep's main effects on the main metrics, at most :data:`MAX_ROWS` rows
per table, then a line saying where every question of every point is: the JSON or CSV of
``summary``, the report, and ``effects``. Never a block per point per question: those are
in the report and the JSON and CSV.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from uno_stats.analysis.effects import SweepEffects
from uno_stats.analysis.point_answers import Answered, point_answers
from uno_stats.analysis.questions import answer_run, sweep_groups
from uno_stats.analysis.tournament import tournaments
from uno_stats.present.answers import answers_section
from uno_stats.present.document import Document, Paragraph, Table, render_markdown, render_text
from uno_stats.present.effects import heading, short_name
from uno_stats.present.effects_sections import MAIN_METRICS, ranking_rows, report_effects
from uno_stats.present.sections import sweep_section
from uno_stats.present.tournament_sections import skill_section, tournament_section
from uno_stats.store.runs import Run

MAX_ROWS = 40


def _capped(doc: Document) -> Document:
    """``doc`` with every table cut to :data:`MAX_ROWS` rows, each cut one saying so."""
    out = Document()
    for block in doc.blocks:
        if isinstance(block, Table) and len(block.rows) > MAX_ROWS:
            out.blocks.append(replace(block, rows=list(block.rows[:MAX_ROWS])))
            out.blocks.append(
                Paragraph(
                    f"({MAX_ROWS} of {len(block.rows)} rows shown; all of them in the "
                    "report and in the JSON and CSV named below.)"
                )
            )
        else:
            out.blocks.append(block)
    return out


def points_summary_text(runs: Sequence[Run], folder: Path, fmt: str = "table") -> str:
    """The short summary (``fmt`` table or md) of the sweep or tournament whose points are
    ``runs``, saved in ``folder``: its Answers (a sweep's effects first), one table of the
    points' main answers, a sweep's main effects, and where the rest is."""
    runs = list(runs)
    found = tournaments(runs)
    groups = sweep_groups(runs)
    answers: dict[str, Answered] = {}
    if not found.tables:  # a sweep: its points' main answers in one grouped read
        read = point_answers(runs) if len(runs) > 1 else [answer_run(r) for r in runs]
        answers = {str(a.run.path): a for a in read}
    # only the metrics it shows: the report's other metrics (quantiles among them, a
    # bootstrap over every point's games) are the report's and `effects`' to compute
    effects = [] if found.tables else report_effects(runs, MAIN_METRICS)
    doc = Document()
    answers_section(doc, list(answers.values()), groups, found, brief=True, effects=effects)
    doc.heading("Details")
    first = runs[0]
    rounds = sum(r.manifest.rows or 0 for r in runs)
    kind = "seatings" if found.tables else "points"
    doc.para(
        f"{first.manifest.name}: {len(runs)} {kind}, {rounds:,} rounds in all, "
        f"seed {first.manifest.seed}"
    )
    if found.tables:
        tournament_section(doc, found)
        skill_section(doc, found)
    else:
        sweep_section(doc, groups, answers)
        for result in effects:
            _main_effects(doc, result)
    doc = _capped(doc)
    doc.para(
        f"Every question of every {kind[:-1]}: uno-stats summary {folder} --format json or csv "
        f"(one row per number); with plots: uno-stats report {folder} --out "
        f"reports/{folder.name}"
        + (f"; every effect and interaction: uno-stats effects {folder}." if effects else ".")
    )
    return render_markdown(doc) if fmt == "md" else render_text(doc)


def _main_effects(doc: Document, result: SweepEffects) -> None:
    """The main effects of every axis on the main metrics, ranked: the report's first
    Effects table, as two tables of two metrics so that each fits a 100-column terminal."""
    present = [m for m in MAIN_METRICS if any(e.metric == m for e in result.effects)]
    if not present:
        return
    doc.heading(f"Main effects: {heading(result)}")
    for pair in (present[:2], present[2:]):
        rows = ranking_rows(result, pair)
        if rows:
            doc.table(
                ["term", *(short_name(m) for m in pair)],
                rows,
                "effect [95% interval] #rank by size (rates in percentage points; 'unclear': "
                "Holm p >= 0.05)",
            )
    doc.para(result.pairing)

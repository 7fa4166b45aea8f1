"""The short terminal summary ``uno-stats run`` prints for a sweep or a tournament.

The Answers sentences of the sweep or tournament, then one table of the points' main answers (the sweep table; for a tournament, its strategy and
pairwise tables and the skill spread), at most :data:`MAX_ROWS` rows per table, then a line
saying where every question of every point is: ``summary`` of the folder, its report, and
its JSON or CSV. A block per point per question is what ``summary`` prints, not ``run``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from uno_stats.analysis.questions import answer_run, sweep_groups
from uno_stats.analysis.tournament import tournaments
from uno_stats.present.answers import answers_section
from uno_stats.present.document import Document, Paragraph, Table, render_text
from uno_stats.present.sections import sweep_section
from uno_stats.present.tournament_sections import skill_section, tournament_section
from uno_stats.run.results import Run

MAX_ROWS = 40


def _capped(doc: Document) -> Document:
    """``doc`` with every table cut to :data:`MAX_ROWS` rows, each cut one saying so."""
    out = Document()
    for block in doc.blocks:
        if isinstance(block, Table) and len(block.rows) > MAX_ROWS:
            out.blocks.append(replace(block, rows=list(block.rows)[:MAX_ROWS]))
            out.blocks.append(
                Paragraph(
                    f"({MAX_ROWS} of {len(block.rows)} rows shown; all of them in the "
                    "summary, report, JSON and CSV named below.)"
                )
            )
        else:
            out.blocks.append(block)
    return out


def points_summary_text(runs: Sequence[Run], folder: Path) -> str:
    """The short summary of the sweep or tournament whose points are ``runs``, saved in
    ``folder``."""
    found = tournaments(list(runs))
    groups = sweep_groups(list(runs))
    answers = {} if found.tables else {str(r.path): answer_run(r) for r in runs}
    doc = Document()
    answers_section(doc, list(answers.values()), groups, found, brief=True)
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
    doc = _capped(doc)
    doc.para(
        f"Every question of every {kind[:-1]}: uno-stats summary {folder} (one row per number: "
        f"--format json or csv); with plots: uno-stats report {folder} --out "
        f"reports/{folder.name}."
    )
    return render_text(doc)

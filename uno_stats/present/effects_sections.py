"""The "Effects" section of a report of a sweep: the ranking of every axis by its effect on
the main metrics, the plain sentences, how the points pair, the alias table of a
fractional design, the pictures (:mod:`uno_stats.present.effects_plots`) and each metric's
ranked table. :func:`effects_section` is the one call :func:`~uno_stats.present.report.
write_report` makes; it adds nothing for runs that are not sweep points."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from uno_stats.analysis.effects import (
    DEFAULT_METRICS,
    INTERACTION_AXES,
    Effect,
    SweepEffects,
    ranked,
    sweep_effects,
)
from uno_stats.analysis.metrics import RATE_KINDS, metric_spec
from uno_stats.present.document import Document
from uno_stats.present.effects import (
    _rows,
    answers,
    heading,
    short_name,
    term_subject,
)
from uno_stats.store.runs import Run

MAIN_METRICS: tuple[str, ...] = (
    "mean_turns",
    "first_mover_edge",
    "comeback3_rate",
    "mean_cards_drawn",
)
"""The metrics ranked together and drawn: round length, first-mover edge, comebacks, draws."""
TABLE_ROWS = 25
"""Rows of each metric's ranked table in a report (the rest: ``uno-stats effects``)."""


def report_effects(
    runs: Sequence[Run], metrics: Sequence[str] = DEFAULT_METRICS
) -> list[SweepEffects]:
    """The effects on ``metrics`` (those the results lack are skipped) of each sweep among
    ``runs`` (none when no run is a sweep point; a tournament's seatings are not a sweep).

    Two-factor interactions are estimated for sweeps of at most
    :data:`~uno_stats.analysis.effects.INTERACTION_AXES` axes, and for fractional designs of
    resolution V or more (whose two-factor interactions are clear of each other)."""
    from uno_stats.analysis.questions import sweep_groups
    from uno_stats.analysis.sweep_points import sweep_of

    out = []
    for group in sweep_groups(runs):
        if any(run.manifest.tournament for run in group.runs):
            continue  # a tournament's rotations are seatings, not rule settings
        sweep = sweep_of(list(group.runs))
        varying = [a for a, v in sweep.axes.items() if len(v) > 1]
        if not varying:
            continue
        design = sweep.design or {}
        clear = design.get("kind") == "fractional" and (design.get("resolution") or 0) >= 5
        with_two = len(varying) <= INTERACTION_AXES or clear
        out.append(sweep_effects(sweep, interactions=with_two, default=metrics))
    return out


def _cell(effect: Effect | None) -> str:
    if effect is None or not math.isfinite(effect.estimate):
        return "n/a"
    k, unit = (100, " pp") if effect.kind in RATE_KINDS else (1, "")
    if effect.status in ("unchanged", "identical"):
        return "0 (never changed)"
    star = "" if effect.p_holm < 0.05 else " (unclear)"
    return f"{k * effect.estimate:+.2f}{unit} [{k * effect.low:.2f}, {k * effect.high:.2f}]{star}"


def ranking_rows(result: SweepEffects, metrics: Sequence[str] = MAIN_METRICS) -> list[list[str]]:
    """One row per main effect (and level): its effect on each of ``metrics`` with its
    interval and its rank by size on that metric, rows ordered by size on the first."""
    present = [m for m in metrics if any(e.metric == m for e in result.effects)]
    if not present:
        return []
    by_metric = {
        m: ranked([e for e in result.effects if e.metric == m and e.term.order == 1])
        for m in present
    }
    rank = {
        m: {e.term.name: i + 1 for i, e in enumerate(x for x in es if x.status == "tested")}
        for m, es in by_metric.items()
    }
    found = {m: {e.term.name: e for e in es} for m, es in by_metric.items()}
    rows = []
    for e in by_metric[present[0]]:
        row = [term_subject(result, e)]
        for m in present:
            other = found[m].get(e.term.name)
            where = rank[m].get(e.term.name)
            row.append(_cell(other) + (f" #{where}" if where else ""))
        rows.append(row)
    return rows


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "sweep"


def _alias_section(doc: Document, result: SweepEffects) -> None:
    """The design's generators and, for every main effect and two-factor interaction
    confounded with another, the terms it is confounded with."""
    from uno_stats.scenario.designs import LETTERS, alias_table_of, defining_words

    design = result.sweep.design or {}
    if design.get("kind") != "fractional":
        return
    factors = list(result.sweep.axes)
    generators = list(design.get("generators") or [])
    words = defining_words(generators)
    shortest = min((len(w) for w in words), default=0)
    doc.para(
        f"The design is a regular 2^({len(factors)}-{len(generators)}) fractional factorial "
        f"of resolution {design.get('resolution')}: {len(result.sweep.points):,} of the "
        f"{2 ** len(factors):,} combinations, generators {', '.join(generators) or 'none'}, "
        f"the shortest words of its defining relation of length {shortest}. Factors: "
        + ", ".join(f"{LETTERS[i]} = {f}" for i, f in enumerate(factors))
        + "."
    )
    table = alias_table_of(factors, words, 2)
    rows = [[term, " = ".join(found)] for term, found in table if found]
    if rows:
        doc.table(
            ["term", "confounded with"],
            rows,
            "Aliases of main effects and two-factor interactions (three-factor and higher "
            "terms ignored): each estimate below is the sum of its term and these",
        )
    else:
        doc.para(
            "Aliases: every main effect and every two-factor interaction is clear of the "
            "main effects and the other two-factor interactions (each is confounded only "
            "with interactions of three or more factors, taken as negligible)."
        )


def _images(
    doc: Document, result: SweepEffects, out: Path, plot: Callable[[Path], Path], tag: str
) -> None:
    from uno_stats.present import effects_plots as ep

    metrics = [m for m in MAIN_METRICS if any(e.metric == m for e in result.effects)]
    for m in metrics:
        path = ep.tornado(result, m, out / f"effects_{tag}_tornado_{_slug(m)}.png")
        doc.image(
            plot(path),
            f"Main effects on {short_name(m)}, largest first, with 95% intervals",
        )
    for m in metrics:
        drawn = ep.interactions(result, m, out / f"effects_{tag}_interactions_{_slug(m)}.png")
        if drawn is not None:
            doc.image(
                plot(drawn),
                f"The largest two-factor interactions on {short_name(m)}: cell means",
            )
    for axis in ep.many_level_axes(result):
        path = ep.levels(result, axis, metrics, out / f"effects_{tag}_levels_{_slug(axis)}.png")
        doc.image(plot(path), f"Effect of each {axis} against its first value, 95% intervals")


def effects_section(
    doc: Document, results: Sequence[SweepEffects], out: Path, plot: Callable[[Path], Path]
) -> None:
    """Append the Effects section of each sweep's ``results`` (:func:`report_effects`)."""
    for result in results:
        tag = _slug(result.sweep.name)
        doc.heading(f"Effects: {heading(result)}")
        ranking = ranking_rows(result)
        if ranking:
            present = [m for m in MAIN_METRICS if any(e.metric == m for e in result.effects)]
            doc.table(
                ["term", *(short_name(m) for m in present)],
                ranking,
                "Every axis ranked by its main effect on each metric: effect [95% interval] "
                "#rank by size (rates in percentage points; 'unclear': Holm p >= 0.05), rows "
                f"by size on {short_name(present[0])}",
            )
        doc.para("Answers: " + " ".join(answers(result)))
        doc.para(result.pairing)
        _alias_section(doc, result)
        if result.unchanged_axes:
            doc.para(
                f"{', '.join(result.unchanged_axes)}: never changed a game (effect exactly 0)."
            )
        for note in result.notes:
            doc.para(f"Note: {note}")
        _images(doc, result, out, plot, tag)
        for metric in dict.fromkeys(e.metric for e in result.effects):
            effects = [e for e in result.effects if e.metric == metric]
            rows = _rows(effects)
            unit = (
                "percentage points" if effects[0].kind in RATE_KINDS else metric_spec(metric).unit
            )
            more = len(rows) - TABLE_ROWS
            caption = f"Effects on {effects[0].label} in {unit or 'its units'}, ranked by size"
            if more > 0:
                caption += f"; the {more} smaller terms: uno-stats effects --format csv"
            doc.heading(f"Effects on {effects[0].label}", level=3)
            doc.table(
                ["term", "effect", "95% CI", "p", "Holm p", "games", "note"],
                rows[:TABLE_ROWS],
                caption,
            )

"""The rule-effect section of compare output and reports, and its JSON/CSV rows."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from uno_stats.analysis.compare import RunComparison
from uno_stats.analysis.metrics import RATE_KINDS, MetricComparison
from uno_stats.present.document import Document
from uno_stats.present.sections import est, num, p_cell, pct
from uno_stats.present.verdicts import pairing_text, verdict
from uno_stats.scenario.deck import deck_label

if TYPE_CHECKING:
    from uno_stats.store.runs import Run

CRN_NOTE = (
    "Common random numbers: every game's random stream depends only on the seed and the "
    "game's index, so two runs with the same seed and game count deal game k identically. "
    "Such runs are compared game by game (paired t, McNemar, paired bootstrap SE, Wilcoxon "
    "signed-rank), which removes the deal-to-deal noise the rule did not cause; runs with "
    "different seeds are compared as independent samples."
)


def _deck(run: Run) -> str:
    """The run's deck in words (RULES.md S19): runs with other decks deal other hands."""
    return deck_label(run.scenario.rules, run.scenario.deck)


def comparison_verdict(r: RunComparison) -> str:
    """The verdict line of one comparison (players named when both runs seat the same number)."""
    players = r.baseline.players if r.baseline.players == r.run.players else None
    return verdict(r.comparison, r.baseline.name, r.run.name, players)


def unchanged_runs(results: Sequence[RunComparison]) -> dict[str, RunComparison]:
    """Runs paired with the baseline whose every compared metric was identical game by game
    (or zero in both): name -> its first comparison."""
    by_run: dict[str, list[RunComparison]] = {}
    for r in results:
        by_run.setdefault(r.run.name, []).append(r)
    return {
        name: rs[0]
        for name, rs in by_run.items()
        if rs[0].pairing.paired
        and all(r.comparison.status in ("identical", "absent") for r in rs)
        and any(r.comparison.status == "identical" for r in rs)
    }


def never_changed_text(r: RunComparison) -> str:
    """The one line for a paired run the rule difference never affected."""
    return (
        f"{r.run.name} vs {r.baseline.name}: the rule difference never changed a game: all "
        f"{r.comparison.baseline.n:,} paired games give identical results on every compared "
        "metric, so there is nothing to test."
    )


def _diff_cell(c: MetricComparison) -> str:
    if c.kind == "distribution":
        return "n/a"
    if c.kind in RATE_KINDS:
        d = c.difference
        return f"{100 * d.value:+.2f} pp [{100 * d.low:+.2f}, {100 * d.high:+.2f}]"
    return est(c.difference)


def _value_cell(c: MetricComparison, which: str) -> str:
    e = c.baseline if which == "a" else c.other
    if c.kind in RATE_KINDS:
        return pct(e, 2)
    if c.kind == "distribution":
        return f"mean {num(e.value)}"
    return est(e)


def _p_holm_cell(c: MetricComparison) -> str:
    if c.status != "tested":
        return "no test"
    return p_cell(c.p_holm)


def comparison_section(
    doc: Document, results: Sequence[RunComparison], notes: Sequence[str]
) -> None:
    """How the runs are paired, the comparison table and one verdict line per metric."""
    if not results:
        return
    base = results[0].baseline
    doc.para(
        f"Baseline: {base.name}. Differences are run - baseline, ratios run / baseline; "
        "p-values are Holm-corrected within each question (round length, cards drawn, round "
        "outcome, seat advantage, match length) of each run; metrics that are zero in both "
        "runs or identical in every paired game get no test."
    )
    doc.para(CRN_NOTE)
    seen: set[str] = set()
    for r in results:
        if r.run.name not in seen:
            seen.add(r.run.name)
            same_table = r.baseline.players == r.run.players and _deck(r.baseline) == _deck(r.run)
            doc.para(pairing_text(r.pairing, r.baseline.name, r.run.name, same_table))
    rows = []
    for r in results:
        c = r.comparison
        rows.append(
            [
                r.run.name,
                c.label,
                _value_cell(c, "a"),
                _value_cell(c, "b"),
                _diff_cell(c),
                est(c.ratio, 3),
                c.test,
                f"{c.effect_name} {c.effect:+.3f}" if math.isfinite(c.effect) else "n/a",
                "no test" if c.status != "tested" else p_cell(c.p),
                _p_holm_cell(c),
            ]
        )
    doc.table(
        [
            "run",
            "metric",
            "baseline [95% CI]",
            "run [95% CI]",
            "difference [95% CI]",
            "ratio [95% CI]",
            "method",
            "effect size",
            "p",
            "Holm p",
        ],
        rows,
    )
    doc.heading("Verdicts", 3)
    unchanged = unchanged_runs(results)
    for r in results:
        if r.run.name in unchanged:
            if unchanged[r.run.name] is r:
                doc.para(never_changed_text(r))
            continue
        doc.para(comparison_verdict(r))
    for note in notes:
        doc.para(f"Note: {note}")
    for note in unpaired_notes(results):
        doc.para(f"Note: {note}")


def unpaired_notes(results: Sequence[RunComparison]) -> list[str]:
    """Why some metrics of paired runs were compared as independent samples, one sentence
    per run: match rounds (and so the seat-rounds a comeback rate counts) line up game by
    game only when the matches last as long; a comeback rate of paired single rounds is
    compared game by game (the delta method over games) and needs no note."""
    by_run: dict[str, list[str]] = {}
    for r in results:
        if r.comparison.note:
            by_run.setdefault(r.run.name, []).append(r.comparison.label)
    base = results[0].baseline.name if results else ""
    return [
        f"{name} and {base} play matches of different lengths, so their rounds do "
        f"not line up game by game; {', '.join(labels)} "
        f"{'is' if len(labels) == 1 else 'are'} compared as independent samples "
        "(match length stays paired by match)."
        for name, labels in by_run.items()
    ]


def comparison_rows(results: Sequence[RunComparison]) -> list[dict[str, Any]]:
    """One flat record per comparison for JSON and CSV (non-finite numbers as null)."""
    rows = []
    for r in results:
        c = r.comparison
        e = c.equivalence
        fields: dict[str, Any] = {
            "baseline": r.baseline.name,
            "run": r.run.name,
            "metric": c.metric,
            "question": c.question,
            "paired": c.paired,
            "status": c.status,
            "baseline_estimate": c.baseline.value,
            "run_estimate": c.other.value,
            "difference": c.difference.value,
            "difference_low": c.difference.low,
            "difference_high": c.difference.high,
            "ratio": c.ratio.value,
            "ratio_low": c.ratio.low,
            "ratio_high": c.ratio.high,
            "method": c.test,
            "level": 0.95,
            "statistic": c.statistic,
            "effect_name": c.effect_name,
            "effect": c.effect,
            "p": c.p,
            "p_holm": c.p_holm,
            "holm_family": c.family,
            "n_baseline": c.baseline.n,
            "n_run": c.other.n,
            "seed_baseline": r.pairing.seed_a,
            "seed_run": r.pairing.seed_b,
            "margin": e.margin.text() if e else None,
            "equivalence": e.outcome if e else None,
            "equivalence_low_90": e.low if e else None,
            "equivalence_high_90": e.high if e else None,
            "games_needed": e.games_needed if e else None,
            "verdict": comparison_verdict(r),
        }
        rows.append(
            {
                k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                for k, v in fields.items()
            }
        )
    return rows

"""The settled answer of a ``settle`` pair, shown first by ``summary``, ``compare`` and
``report``: the verdict line ``settle`` printed, how it stopped, both values and the
confidence sequence of B - A (:mod:`uno_stats.debates.settle_record`). The fixed-sample
intervals of the ordinary tables are then secondary, and labelled so."""

from __future__ import annotations

from collections.abc import Sequence

from uno_stats.analysis.metrics import RATE_KINDS, metric_spec
from uno_stats.debates.settle_record import SettleRecord, records_for
from uno_stats.present.document import Document
from uno_stats.present.verdicts import settle_text
from uno_stats.store.runs import Run

SECONDARY = (
    "The other tables are fixed-sample intervals, computed as if the number of games had "
    "been fixed in advance: secondary to the settled answer above, which is valid although "
    "settle chose when to stop."
)
RULE_EFFECT = "Rule effect"
RULE_EFFECT_SECONDARY = "Rule effect (fixed-sample intervals, secondary to the settled answer)"


def settled(runs: Sequence[Run]) -> list[SettleRecord]:
    """The valid settle records of ``runs``' folders: of one run, every settle it took part
    in; of several, the settles of two of them (a pair given together)."""
    records = records_for([r.path for r in runs])
    if len(runs) < 2:
        return records
    ids = {r.manifest.run_id for r in runs}
    return [r for r in records if r.a_run in ids and r.b_run in ids]


def rule_effect_heading(runs: Sequence[Run]) -> str:
    """The comparison's heading: labelled secondary when the runs hold a settled pair."""
    return RULE_EFFECT_SECONDARY if settled(runs) else RULE_EFFECT


def _value(x: float, rate: bool, digits: int) -> str:
    return f"{100 * x:.{digits}f}%" if rate else f"{x:.{digits}f}"


def _signed(x: float, rate: bool, digits: int) -> str:
    return f"{100 * x:+.{digits}f} pp" if rate else f"{x:+.{digits}f}"


def settle_section(doc: Document, runs: Sequence[Run]) -> None:
    """ "Settled": one verdict line and one table row per settle of these runs (none: nothing)."""
    records = settled(runs)
    if not records:
        return
    doc.heading("Settled")
    for r in records:
        doc.para(settle_text(r))
        if r.seed_note:
            doc.para(f"Pairing: {r.seed_note}.")
    rows = []
    for r in records:
        spec = metric_spec(r.metric)
        rate = spec.kind in RATE_KINDS
        k = 2 if rate else 3
        how = (
            f"decided at look {r.looks:,}"
            if r.stopped == "decided"
            else f"--max-games {r.max_games:,} reached"
        )
        rows.append(
            [
                f"{r.b} vs {r.a}",
                spec.label,
                _value(r.value_a, rate, k),
                _value(r.value_b, rate, k),
                _signed(r.estimate, rate, k),
                f"{_signed(r.low, rate, k)} to {_signed(r.high, rate, k)}",
                r.outcome,
                f"{r.games:,}",
                f"{how}, batches of {r.batch:,}",
            ]
        )
    level = round(100 * (1 - records[0].alpha))
    doc.table(
        [
            "settle",
            "metric",
            "A",
            "B",
            "B - A",
            f"{level}% confidence sequence",
            "verdict",
            "paired games",
            "stopped",
        ],
        rows,
    )
    doc.para(SECONDARY)


def settle_rows(records: Sequence[SettleRecord]) -> list[dict[str, object]]:
    """Each settle as tidy rows of the summary's CSV (``question`` ``settled``): A's and B's
    values, and B - A with its confidence sequence (``n``: paired games)."""
    rows: list[dict[str, object]] = []
    method = "anytime-valid confidence sequence (settle)"
    for r in records:
        level = round(1 - r.alpha, 6)
        for metric, value, low, high, lvl in (
            (f"{r.metric}:A", r.value_a, None, None, None),
            (f"{r.metric}:B", r.value_b, None, None, None),
            (f"{r.metric}:B-A", r.estimate, r.low, r.high, level),
        ):
            rows.append(
                {
                    "run": f"{r.b} vs {r.a}",
                    "group": "",
                    "question": "settled",
                    "metric": metric,
                    "estimate": value,
                    "low": low,
                    "high": high,
                    "n": r.games,
                    "method": f"{method}: {r.outcome}, {r.stopped}",
                    "level": lvl,
                    "seed": r.seed,
                }
            )
    return rows

"""The ``effects`` output: an Answers paragraph (one plain sentence per metric for its
largest effect), how the points pair, then one table per metric with its terms ranked by
size; or JSON/CSV rows with ``metric, term, estimate, low, high, p, p_holm, games, method,
level, seed`` (and ``sweep, order, status, verdict, margin, aliases``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from uno_stats.analysis.effects import UNCHANGED, Effect, SweepEffects, ranked
from uno_stats.analysis.estimates import format_p
from uno_stats.analysis.metrics import RATE_KINDS, metric_spec
from uno_stats.present.document import Document, render_markdown, render_text

COLUMNS: tuple[str, ...] = (
    "sweep",
    "metric",
    "term",
    "estimate",
    "low",
    "high",
    "p",
    "p_holm",
    "games",
    "method",
    "level",
    "seed",
    "order",
    "status",
    "verdict",
    "margin",
    "aliases",
)
_SHORT = {
    "mean_turns": "round length (mean turns)",
    "median_turns": "round length (median turns)",
    "p90_turns": "long rounds (p90 turns)",
    "mean_cards_drawn": "cards drawn per round",
    "first_mover_win_rate": "the first mover's win share",
    "first_mover_edge": "the first mover's edge",
    "void_rate": "void rounds",
    "capped_rate": "capped rounds",
}
_OBJECT = {"mean": "a round", "quantile": "the {stat} round"}


def short_name(metric: str) -> str:
    """What a sentence calls the metric: ``round length (mean turns)``, ``comebacks from
    3+ cards behind``, ``rounds with a chain of 2+``, else the metric's label."""
    if metric in _SHORT:
        return _SHORT[metric]
    spec = metric_spec(metric)
    if spec.kind == "comeback":
        return f"comebacks from {spec.behind}+ cards behind"
    if spec.kind == "chain":
        return f"rounds with a chain of {spec.behind}+ draw cards"
    return spec.label


def _show(value: Any) -> str:
    from uno_stats.scenario.checks import show_value

    return value if isinstance(value, str) else show_value(value)


def term_subject(result: SweepEffects, effect: Effect) -> str:
    """The term in words: ``jump_in``, ``draw until-playable (vs one)``, ``players 5
    (vs 3)``, ``the interaction jump_in x draw``."""
    parts = []
    for axis, level in zip(effect.term.axes, effect.term.levels, strict=True):
        values = result.sweep.axes[axis]
        key = axis.rpartition(".")[2]
        if values[0] is False and values[level] is True:
            parts.append(key)
        elif values[0] is True and values[level] is False:
            parts.append(f"{key} off")
        else:
            parts.append(f"{key} {_show(values[level])} (vs {_show(values[0])})")
    if len(parts) == 1:
        return parts[0]
    return "the interaction " + " x ".join(parts)


def _context(result: SweepEffects, effect: Effect) -> str:
    players = {p.players for p in result.sweep.points}
    if len(players) == 1 and "players" not in effect.term.axes:
        return f" at {players.pop()} players"
    return ""


def _number(effect: Effect, value: float) -> str:
    """A sentence's number: pp with one decimal for rates; else one decimal, or two when
    the estimate is below 1 in size (the same for the estimate and its interval)."""
    if effect.kind in RATE_KINDS:
        text = f"{100 * value:.1f}"
    else:
        text = f"{value:.2f}" if abs(effect.estimate) < 1 else f"{value:.1f}"
    return text.lstrip("-") if float(text) == 0 else text


def change_text(result: SweepEffects, effect: Effect) -> str:
    """``jump_in takes 2.4 turns [2.1, 2.7] off a round at 4 players`` (no final stop)."""
    subject, where = term_subject(result, effect), _context(result, effect)
    up = effect.estimate >= 0
    size = _number(effect, abs(effect.estimate))
    low, high = (effect.low, effect.high) if up else (-effect.high, -effect.low)
    interval = f"[{_number(effect, low)}, {_number(effect, high)}]"
    spec = metric_spec(effect.metric)
    if effect.kind in RATE_KINDS:
        verb = "raises" if up else "lowers"
        return f"{subject} {verb} {short_name(effect.metric)} by {size} pp {interval}{where}"
    unit = f" {spec.unit}" if spec.unit else ""
    if spec.column == "turns":
        stat = "median" if spec.q == 0.5 else f"p{round(100 * (spec.q or 0))}"
        target = _OBJECT[spec.kind].format(stat=stat)
    else:
        target = short_name(effect.metric)
    if up:
        return f"{subject} adds {size}{unit} {interval} to {target}{where}"
    return f"{subject} takes {size}{unit} {interval} off {target}{where}"


def metric_sentence(result: SweepEffects, effects: Sequence[Effect]) -> str:
    """One plain sentence on the metric's largest effect (or that nothing changed it)."""
    order = ranked(effects)
    short = short_name(effects[0].metric)
    tested = [e for e in order if e.status == "tested"]
    if not tested:
        if all(e.status in ("unchanged", "identical") for e in order):
            return f"{short[0].upper()}{short[1:]}: no term changed it in any game."
        return f"{short[0].upper()}{short[1:]}: no effect could be estimated."
    top = tested[0]
    text = change_text(result, top)
    if top.practical is False:
        return (
            f"{text}: the largest effect on {short}, and still inside the margin "
            "(no practical effect)."
        )
    if not (top.p_holm < 0.05):
        return (
            f"No term clearly changes {short}: the largest, {text}, "
            f"has Holm {format_p(top.p_holm)}."
        )
    return f"{text}: the largest effect on {short}."


def _metrics(result: SweepEffects) -> list[str]:
    return list(dict.fromkeys(e.metric for e in result.effects))


def answers(result: SweepEffects, metrics: Sequence[str] | None = None) -> list[str]:
    """Per metric (every one estimated, or those of ``metrics`` that were), its sentence
    (:func:`metric_sentence`)."""
    found = _metrics(result)
    chosen = found if metrics is None else [m for m in metrics if m in found]
    return [metric_sentence(result, [e for e in result.effects if e.metric == m]) for m in chosen]


def _cell(effect: Effect, value: float, signed: bool = True) -> str:
    if not math.isfinite(value):
        return "n/a"
    if value == 0 and effect.status in ("unchanged", "identical"):
        return "0"  # exactly
    if effect.kind in RATE_KINDS:
        return f"{100 * value:+.2f} pp" if signed else f"{100 * value:.2f}"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def _p_cell(p: float) -> str:
    return format_p(p).removeprefix("p = ").removeprefix("p ") if math.isfinite(p) else "-"


def _rows(effects: Sequence[Effect]) -> list[list[str]]:
    out = []
    for e in ranked(effects):
        note = e.verdict
        if e.aliases:
            note = "; ".join(x for x in (note, "aliased with " + ", ".join(e.aliases)) if x)
        out.append(
            [
                e.term.name,
                _cell(e, e.estimate),
                f"[{_cell(e, e.low, False)}, {_cell(e, e.high, False)}]",
                _p_cell(e.p),
                _p_cell(e.p_holm),
                f"{e.games:,}",
                note,
            ]
        )
    return out


def heading(result: SweepEffects) -> str:
    """``fact: 4 axes, 16 points, 300 games a point, seed 7``."""
    sweep = result.sweep
    games = {p.games for p in sweep.points}
    each = f"{games.pop():,} games a point" if len(games) == 1 else "games differ by point"
    varying = [a for a, v in sweep.axes.items() if len(v) > 1]
    return (
        f"{sweep.name}: effects of {len(varying)} {'axis' if len(varying) == 1 else 'axes'} "
        f"over {len(sweep.points):,} points, "
        f"{each}, seed {sweep.seed}"
    )


def effects_document(results: Sequence[SweepEffects]) -> Document:
    """The terminal/Markdown document of every sweep's effects."""
    doc = Document()
    for result in results:
        doc.heading(heading(result))
        doc.para("Answers: " + " ".join(answers(result)))
        doc.para(result.pairing)
        design = result.sweep.design or {}
        if design.get("kind") == "fractional":
            doc.para(
                f"A fractional design (resolution {design.get('resolution')}, generators "
                f"{', '.join(design.get('generators', []))}): each effect below is confounded "
                "with the terms its note names (aliases up to three factors)."
            )
        if result.unchanged_axes:
            names = ", ".join(result.unchanged_axes)
            doc.para(
                f"{names}: {UNCHANGED} (every point holds the same rows as its "
                "neighbour along the axis): effect exactly 0, zero-width interval, no test."
            )
        for note in result.notes:
            doc.para(f"Note: {note}")
        for metric in _metrics(result):
            effects = [e for e in result.effects if e.metric == metric]
            first = effects[0]
            tested = sum(1 for e in effects if math.isfinite(e.p))
            unit = "percentage points" if first.kind in RATE_KINDS else metric_spec(metric).unit
            methods = "; ".join(dict.fromkeys(e.method for e in effects if e.status == "tested"))
            caption = f"Effects in {unit or 'its units'}, ranked by size"
            family = f"Holm over {tested} term{'' if tested == 1 else 's'}"
            caption += "".join(f"; {x}" for x in (methods, family) if x)
            if first.bound is not None:
                rate = first.kind in RATE_KINDS
                bound = 100 * first.bound if rate else first.bound
                caption += f"; margin +-{bound:.3g}{' pp' if rate else ''}"
            doc.heading(first.label, level=3)
            doc.table(
                ["term", "effect", "95% CI", "p", "Holm p", "games", "note"],
                _rows(effects),
                caption,
            )
    return doc


def effects_text(results: Sequence[SweepEffects], fmt: str) -> str:
    """The effects of ``results`` as ``table``, ``md``, ``json`` or ``csv``."""
    if fmt in ("json", "csv"):
        rows = [row for r in results for row in effect_rows(r)]
        if fmt == "csv":
            return _csv(rows)
        import json

        data = {
            "sweeps": [
                {
                    "sweep": r.sweep.name,
                    "axes": {a: list(v) for a, v in r.sweep.axes.items()},
                    "points": len(r.sweep.points),
                    "seed": r.sweep.seed,
                    "pairing": r.pairing,
                    "unchanged_axes": list(r.unchanged_axes),
                    "answers": answers(r),
                    "notes": list(r.notes),
                }
                for r in results
            ],
            "effects": rows,
        }
        return json.dumps(data, indent=2, default=str, allow_nan=False) + "\n"
    doc = effects_document(results)
    return render_markdown(doc) if fmt == "md" else render_text(doc)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def effect_rows(result: SweepEffects) -> list[dict[str, Any]]:
    """One row per metric and term, in the table's order (proportions for rates)."""
    out = []
    for metric in _metrics(result):
        for e in ranked([x for x in result.effects if x.metric == metric]):
            out.append(
                {
                    "sweep": result.sweep.name,
                    "metric": e.metric,
                    "term": e.term.name,
                    "estimate": _finite(e.estimate),
                    "low": _finite(e.low),
                    "high": _finite(e.high),
                    "p": _finite(e.p),
                    "p_holm": _finite(e.p_holm),
                    "games": e.games,
                    "method": e.method,
                    "level": e.level,
                    "seed": e.seed,
                    "order": e.term.order,
                    "status": e.status,
                    "verdict": e.verdict,
                    "margin": e.bound,
                    "aliases": ";".join(e.aliases),
                }
            )
    return out


def _csv(rows: Sequence[dict[str, Any]]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()

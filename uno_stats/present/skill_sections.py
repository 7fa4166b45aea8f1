"""Document sections and answer sentences for skill studies: the paired-deal tables of a
sweep over one seat's strategy, the rules that move the skill spread, and knob curves
(:mod:`uno_stats.analysis.skill_runs`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from uno_stats.analysis.estimates import Estimate
from uno_stats.analysis.skill import SpreadEffect
from uno_stats.analysis.skill_runs import KnobCurve, SkillStudy, SkillTable
from uno_stats.present.document import Document
from uno_stats.present.sections import pct, pp

METHOD = (
    "paired-deal design: every deal is played with the focal seat (scenario seat {seat}, "
    "seated in a random order each game) played by each strategy, the other seats unchanged; "
    "variance components of the win (1/0) by the ANOVA method for a two-way layout without "
    "replication (strategy fixed, deal random), shares of their sum with 95% percentile "
    "bootstrap intervals over deals; the spread is best minus worst on the same deals "
    "(paired t interval; best and worst are picked after looking, so it leans high)"
)


def _p(e: Estimate, digits: int = 1) -> str:
    """A share in words: ``71.7% (95% CI 70.3 to 73.1%)``."""
    v = [100 * x for x in (e.value, e.low, e.high)]
    return f"{v[0]:.{digits}f}% (95% CI {v[1]:.{digits}f} to {v[2]:.{digits}f}%)"


def _gap(e: Estimate) -> str:
    """A difference in words: ``+21.70 pp (95% CI +19.80 to +23.60)``."""
    v = [100 * x for x in (e.value, e.low, e.high)]
    return f"{v[0]:+.2f} pp (95% CI {v[1]:+.2f} to {v[2]:+.2f})"


def _setting(setting: dict[str, Any]) -> str:
    """``2 players, jump_in true``: a table's other axes in words."""
    parts = []
    for axis, value in setting.items():
        key = axis.rpartition(".")[2]
        if key == "players":
            parts.append(f"{value} players")
        else:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            parts.append(f"{key} {text}")
    return ", ".join(parts) or "one table"


def table_answer(study: SkillStudy, t: SkillTable) -> str:
    """The answer of one paired-deal table: shares, spread, decomposition, deals."""
    s = t.skill
    shares = ", ".join(f"{name} {_p(e)}" for name, e in zip(s.strategies, s.shares, strict=True))
    d = s.decomposition
    return (
        f"{study.name} ({_setting(t.setting)}, against {study.opponents}; {s.deals:,} deals, "
        f"each played by every strategy in the same seat): the focal seat wins {shares}. "
        f"{s.best} wins {_gap(s.spread)} more than {s.worst} on the same deals. Of the "
        f"outcome's variance the strategy explains {_p(d.strategy)}, the deal "
        f"{_p(d.deal)}, and the rest (the draws after the deal and how each strategy fares "
        f"on each deal) {_p(d.rest)}."
    )


def effect_answer(study: SkillStudy, effects: Sequence[SpreadEffect]) -> str:
    """Which two-valued axes (house rules) widen or narrow the skill spread."""
    first, last = study.tables[0].skill.strategies[0], study.tables[0].skill.strategies[-1]
    parts = []
    for e in effects:
        where = (
            "widens"
            if e.effect.low > 0
            else "narrows"
            if e.effect.high < 0
            else "does not clearly move"
        )
        key = e.axis.rpartition(".")[2]
        if not all(isinstance(v, bool) for v in e.values):  # a preset: name the two values
            key = f"{key} {e.values[1]} (against {e.values[0]})"
        parts.append(f"{key} {where} it, {_gap(e.effect)}")
    return (
        f"{study.name}: how each rule moves the edge of {last} over {first} (the spread, "
        f"{study.tables[0].skill.deals:,} paired deals at each of {len(study.tables)} rule "
        f"combinations; each rule on minus off, or its second value minus its first, "
        f"averaged over the others): " + "; ".join(parts) + "."
    )


def curve_answer(c: KnobCurve) -> str:
    """A knob swept on one seat (search's rollouts, its opponent model): each value's win
    share and the paired change from the value before."""
    parts = []
    for p in c.points:
        step = f", {_gap(p.change)} on the value before" if p.change is not None else ""
        parts.append(f"{p.value}: {_p(p.share)}{step}")
    return (
        f"{c.name} ({c.strategy} against {c.opponents}, {c.knob} swept on "
        f"{c.points[0].share.n:,} paired deals): " + "; ".join(parts) + "."
    )


def skill_lead(studies: Sequence[SkillStudy]) -> str | None:
    """The answer in short over every paired-deal table (two or more): the most and the
    least of the outcome's variance the strategy explains, the range the deal explains,
    and the largest edge of one strategy over another on the same deals."""
    tables = [(study, t) for study in studies for t in study.tables]
    if len(tables) < 2:
        return None

    def where(item: tuple[SkillStudy, SkillTable]) -> str:
        return f"{item[0].name}, {_setting(item[1].setting)}, against {item[0].opponents}"

    def strategy_share(item: tuple[SkillStudy, SkillTable]) -> float:
        return item[1].skill.decomposition.strategy.value

    most, least = max(tables, key=strategy_share), min(tables, key=strategy_share)
    widest = max(tables, key=lambda item: item[1].skill.spread.value)
    deal = [t.skill.decomposition.deal.value for _, t in tables]
    w = widest[1].skill
    return (
        f"How much is skill, in short ({len(tables)} tables of paired deals): the strategy "
        f"explains at most {_p(most[1].skill.decomposition.strategy)} of the outcome's "
        f"variance ({where(most)}) and at least {_p(least[1].skill.decomposition.strategy)} "
        f"({where(least)}); the deal explains {100 * min(deal):.1f}% to {100 * max(deal):.1f}% "
        f"(estimates; each table's line below has its interval). The largest edge on the "
        f"same deals: {w.best} wins {_gap(w.spread)} more than {w.worst} ({where(widest)})."
    )


def skill_study_answers(studies: Sequence[SkillStudy], curves: Sequence[KnobCurve]) -> list[str]:
    """The answer in short (:func:`skill_lead`), every skill table's answer, each study's
    rule effects, every curve's answer."""
    lead = skill_lead(studies)
    out = [lead] if lead else []
    for study in studies:
        out += [table_answer(study, t) for t in study.tables]
        if study.effects:
            out.append(effect_answer(study, study.effects))
    out += [curve_answer(c) for c in curves]
    return out


def skill_studies_section(
    doc: Document, studies: Sequence[SkillStudy], curves: Sequence[KnobCurve]
) -> None:
    """Per study a table of every setting's shares, spread and decomposition, and its rule
    effects; per curve a table of its values."""
    if not studies and not curves:
        return
    doc.heading("How much is skill")
    for study in studies:
        names = study.tables[0].skill.strategies
        doc.table(
            [
                "setting",
                "deals",
                *(f"{n} wins" for n in names),
                "best - worst",
                "strategy explains",
                "deal explains",
                "rest",
            ],
            [
                [
                    _setting(t.setting),
                    f"{t.skill.deals:,}",
                    *(pct(e) for e in t.skill.shares),
                    f"{t.skill.best} - {t.skill.worst}: {pp(t.skill.spread)}",
                    pct(t.skill.decomposition.strategy),
                    pct(t.skill.decomposition.deal),
                    pct(t.skill.decomposition.rest),
                ]
                for t in study.tables
            ],
            f"{study.name}: the focal seat against {study.opponents}; "
            + METHOD.format(seat=study.focal),
        )
        if study.effects:
            doc.table(
                ["rule", "values", f"change in {names[-1]} - {names[0]}"],
                [
                    [e.axis.rpartition(".")[2], f"{e.values[0]} -> {e.values[1]}", pp(e.effect)]
                    for e in study.effects
                ],
                f"{study.name}: per rule, the spread with it minus without it, deal by deal, "
                "averaged over the other rules' values (paired t interval over deals)",
            )
    for c in curves:
        doc.table(
            [c.knob, "win share", "change on the value before"],
            [
                [str(p.value), pct(p.share), pp(p.change) if p.change is not None else "-"]
                for p in c.points
            ],
            f"{c.name}: {c.strategy}'s win share against {c.opponents} on the same deals at "
            f"each {c.knob} (paired t interval of each change; the games a second at each "
            "value: docs/PERFORMANCE.md)",
        )

"""The words of skill studies (uno_stats.present.skill_sections): every claim a sentence
makes is decided by a number it quotes."""

from __future__ import annotations

import numpy as np

from uno_stats.analysis.estimates import Estimate
from uno_stats.analysis.skill import SpreadEffect, focal_skill
from uno_stats.analysis.skill_runs import KnobCurve, KnobPoint, SkillStudy, SkillTable
from uno_stats.present.document import Document, render_markdown
from uno_stats.present.skill_sections import (
    curve_answer,
    effect_answer,
    skill_lead,
    skill_studies_section,
    skill_study_answers,
    table_answer,
)

TABLE = np.array([[0, 1], [1, 1], [0, 0], [0, 1]], dtype=np.int8)
SKILL = focal_skill(("random", "search"), TABLE, resamples=20)


def _study(effects=()) -> SkillStudy:
    return SkillStudy(
        "skill-x", 0, "random", (SkillTable({"players": 2}, SKILL, TABLE),), tuple(effects)
    )


def test_a_table_answer_quotes_shares_spread_and_decomposition() -> None:
    text = table_answer(_study(), _study().tables[0])
    assert text.startswith("skill-x (2 players, against random; 4 deals")
    assert "random 25.0% (95% CI" in text and "search 75.0% (95% CI" in text
    assert "search wins +50.00 pp (95% CI" in text and "more than random" in text
    d = SKILL.decomposition
    assert f"the strategy explains {100 * d.strategy.value:.1f}% (95% CI" in text
    assert f"the deal {100 * d.deal.value:.1f}%" in text


def test_an_effect_widens_narrows_or_does_not_clearly_move_the_spread() -> None:
    effects = [
        SpreadEffect("rules.jump_in", (False, True), Estimate(-0.02, -0.03, -0.01, 4)),
        SpreadEffect("rules.seven_zero", (False, True), Estimate(0.02, 0.01, 0.03, 4)),
        SpreadEffect("rules.stack_draw_two", (False, True), Estimate(0.0, -0.01, 0.01, 4)),
    ]
    text = effect_answer(_study(effects), effects)
    assert "jump_in narrows it, -2.00 pp (95% CI -3.00 to -1.00)" in text
    assert "seven_zero widens it, +2.00 pp (95% CI +1.00 to +3.00)" in text
    assert "stack_draw_two does not clearly move it, +0.00 pp" in text
    assert "edge of search over random" in text
    preset = [SpreadEffect("rules.preset", ("mattel-2022", "no-mercy"), effects[1].effect)]
    text = effect_answer(_study(preset), preset)
    assert "preset no-mercy (against mattel-2022) widens it, +2.00 pp" in text


def test_a_curve_answer_quotes_each_value_and_its_step() -> None:
    curve = KnobCurve(
        "skill-rollouts",
        "rollouts",
        "search",
        "random",
        (
            KnobPoint(4, Estimate(0.6, 0.58, 0.62, 2000), None),
            KnobPoint(16, Estimate(0.65, 0.63, 0.67, 2000), Estimate(0.05, 0.03, 0.07, 2000)),
        ),
    )
    text = curve_answer(curve)
    assert text.startswith("skill-rollouts (search against random, rollouts swept on 2,000")
    assert "4: 60.0% (95% CI 58.0 to 62.0%); 16: 65.0% (95% CI 63.0 to 67.0%), +5.00 pp" in text
    doc = Document()
    skill_studies_section(doc, [_study()], [curve])
    md = render_markdown(doc)
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in md.splitlines() if "|" in line]
    assert "## How much is skill" in md
    assert ["16", "65.0% [63.0, 67.0]", "+5.00 pp [+3.00, +7.00]"] in rows
    assert ["4", "60.0% [58.0, 62.0]", "-"] in rows
    assert skill_study_answers([_study()], [curve])[-1] == text
    empty = Document()
    skill_studies_section(empty, [], [])
    assert render_markdown(empty) == render_markdown(Document())


def test_the_lead_quotes_the_extremes_of_every_table() -> None:
    """Over two tables: the larger and the smaller share the strategy explains, each with
    its table named, the deal's range, and the widest spread; one table has no lead."""
    wide = np.array([[0, 1], [0, 1], [1, 1], [0, 1], [0, 0]], dtype=np.int8)
    other = focal_skill(("random", "search"), wide, resamples=20)
    study = SkillStudy(
        "skill-x",
        0,
        "random",
        (SkillTable({"players": 2}, SKILL, TABLE), SkillTable({"players": 4}, other, wide)),
        (),
    )
    text = skill_lead([study])
    assert text is not None and text.startswith("How much is skill, in short (2 tables")
    by_share = sorted([(SKILL, "2 players"), (other, "4 players")],
                      key=lambda x: x[0].decomposition.strategy.value)  # fmt: skip
    (low, at_low), (high, at_high) = by_share
    assert f"at most {100 * high.decomposition.strategy.value:.1f}% (95% CI" in text
    assert f"variance (skill-x, {at_high}, against random)" in text
    assert f"at least {100 * low.decomposition.strategy.value:.1f}% (95% CI" in text
    assert f"(skill-x, {at_low}, against random); the deal" in text
    deal = sorted(100 * s.decomposition.deal.value for s in (SKILL, other))
    assert f"the deal explains {deal[0]:.1f}% to {deal[1]:.1f}%" in text
    widest, at = max([(SKILL, "2 players"), (other, "4 players")], key=lambda x: x[0].spread.value)
    assert f"search wins {100 * widest.spread.value:+.2f} pp (95% CI" in text
    assert text.endswith(f"more than random (skill-x, {at}, against random).")
    assert skill_study_answers([study], [])[0] == text
    assert skill_lead([_study()]) is None

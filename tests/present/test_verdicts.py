"""Verdict sentences: wording, the self-consistency checker, and a scan of shipped reports."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import write_run

from uno_stats.present.comparison import CRN_NOTE
from uno_stats.present.report import write_report
from uno_stats.present.verdicts import check_verdict
from uno_stats.store.runs import open_runs

ROOT = Path(__file__).resolve().parents[2]


def verdict_lines(report_md: str) -> list[str]:
    """The paragraphs under every "### Verdicts" heading of a Markdown report."""
    lines: list[str] = []
    for block in re.split(r"^### Verdicts\s*$", report_md, flags=re.M)[1:]:
        body = re.split(r"^#{1,3} ", block, maxsplit=1, flags=re.M)[0]
        lines += [p.strip() for p in body.split("\n\n") if p.strip()]
    return [line for line in lines if not line.startswith(("Note:", "!["))]


def stale_reports(reports: list[Path]) -> list[str]:
    """Names of the reports with a Verdicts section written before the paired verdicts."""
    return [
        p.parent.name
        for p in reports
        if "### Verdicts" in (text := p.read_text()) and CRN_NOTE[:40] not in text
    ]


def test_a_report_without_the_paired_verdicts_note_is_stale(tmp_path: Path) -> None:
    old, new, plain = (tmp_path / name / "report.md" for name in ("old", "new", "plain"))
    for path, text in (
        (old, "### Verdicts\n\nb vs a: ...\n"),
        (new, f"### Verdicts\n\n{CRN_NOTE}\n\nb vs a: ...\n"),
        (plain, "# One run, nothing compared\n"),
    ):
        path.parent.mkdir()
        path.write_text(text)
    assert stale_reports([old, new, plain]) == ["old"]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (
            "b makes rounds 2.3% shorter than a in median turns (-1 turns, 95% CI -2 to +0; "
            "Holm p = 2.5e-15, n = 10 each).",
            "direction disagrees with the interval",
        ),
        (
            "b makes rounds 9.2% shorter than a in p90 turns (-4 turns, 95% CI -6 to -2; "
            "Holm p = 0.3, n = 10 each).",
            "a direction with p >= alpha",
        ),
        (
            "b vs a: no detectable difference in mean turns (+0.1 turns, 95% CI -0.1 to +0.3; "
            "p = 0.001, n = 5 each).",
            "p below alpha but 'no detectable difference'",
        ),
        (
            "b vs a: the distribution of turns differs; b's values tend to be higher "
            "(Mann-Whitney U, rank-biserial r = -0.050; p = 1.0e-05, n = 5 each).",
            "direction disagrees with the effect size",
        ),
        (
            "b raises the void rate from 1.00% to 2.00% against a (+1.00 pp, 95% CI +0.50 to "
            "+1.50 pp; p = 0.001, n = 9 each).",
            None,
        ),
        ("b vs a: capped rate is zero in every round of both runs; nothing to test.", None),
    ],
)
def test_check_verdict_flags_contradictions(line: str, problem: str | None) -> None:
    assert check_verdict(line) == problem


def test_generated_reports_pass_the_scan(tmp_path: Path) -> None:
    runs = []
    for name, seed, mean in (("base", 1, 40), ("same", 1, 40), ("long", 1, 44), ("other", 2, 40)):
        runs += open_runs(write_run(tmp_path / "res", name, games=2500, seed=seed, mean_turns=mean))
    write_report(runs, tmp_path / "rep")
    lines = verdict_lines((tmp_path / "rep" / "report.md").read_text())
    assert len(lines) >= 10
    assert any("never changed a game" in line for line in lines)
    assert any("longer" in line for line in lines)
    for line in lines:
        assert check_verdict(line) is None, line


def test_shipped_reports_have_no_self_contradicting_verdict() -> None:
    """Every verdict in reports/*/report.md: direction, interval and p-value must agree.

    A report whose verdicts were written before the paired verdicts (a Verdicts section
    without the common-random-numbers paragraph) is stale and fails: ``make reports``
    regenerates it; the scan never skips one.
    """
    reports = sorted((ROOT / "reports").glob("*/report.md"))
    stale = stale_reports(reports)
    assert not stale, (
        f"reports older than the paired verdicts: {', '.join(stale)}; run make reports"
    )
    lines = {p.parent.name: verdict_lines(p.read_text()) for p in reports}
    assert sum(map(len, lines.values())) >= 20, "too few verdicts found; run make reports"
    bad = [
        f"{name}: {problem}: {line}"
        for name, found in lines.items()
        for line in found
        if (problem := check_verdict(line)) is not None
    ]
    assert not bad, "\n".join(bad)


def test_p_text_is_holm_corrected_within_a_family() -> None:
    from dataclasses import replace

    from uno_stats.analysis.estimates import Estimate
    from uno_stats.analysis.metrics import MetricComparison
    from uno_stats.present.verdicts import p_text, verdict

    e = Estimate(40.0, 39.0, 41.0, 1000)
    c = MetricComparison(
        "median_turns",
        "median turns",
        "quantile",
        "turns",
        e,
        Estimate(44.0, 43.0, 45.0, 1000),
        Estimate(4.0, 3.0, 5.0, 2000),
        Estimate(1.1, 1.07, 1.13, 2000),
        "bootstrap SE",
        8.0,
        1e-15,
        "shift",
        4.0,
        4e-15,
        family=4,
        paired=True,
        direction=1,
    )
    assert p_text(c) == "Holm p = 4.0e-15"
    line = verdict(c, "a", "b", 4)
    assert "longer" in line and check_verdict(line) is None
    assert p_text(replace(c, family=1, p_holm=1e-15)) == "p = 1.0e-15"
    assert p_text(replace(c, p=0.0, p_holm=0.0)) == "Holm p < 1e-300"
    assert p_text(replace(c, p=0.02, p_holm=0.06)) == "Holm p = 0.06"

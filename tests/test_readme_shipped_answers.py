"""The README's "Shipped answers": every figure a line quotes is printed by the report it links.

Each bullet links one or more shipped reports; every decimal number in the bullet (signs
aside: "0.251 turns shorter" quotes "-0.251") must appear in one of them as a whole number,
and every estimate quoted with its interval, "X (Y to Z)", must appear there as the same
three numbers within a table cell or a sentence (within 80 characters, in that order), so
a line cannot drift from the report it summarises.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
SECTION = README.split("## Shipped answers", 1)[1].split("\n## ", 1)[0]
BULLETS = [b.replace("\n", " ") for b in re.split(r"\n- ", "\n" + SECTION.strip()) if b.strip()]
BULLETS = [b for b in BULLETS if "reports/" in b and "report.md" in b]


def test_the_section_lists_every_shipped_report() -> None:
    linked = set(re.findall(r"\(reports/([^/)]+)/report\.md\)", SECTION))
    shipped = {p.parent.name for p in (ROOT / "reports").glob("*/report.md")}
    assert linked == shipped


@pytest.mark.parametrize("bullet", BULLETS, ids=lambda b: re.findall(r"reports/([^/]+)/", b)[0])
def test_every_quoted_figure_is_in_its_report(bullet: str) -> None:
    reports = re.findall(r"\((reports/[^)]+/report\.md)\)", bullet)
    text = "\n".join((ROOT / r).read_text() for r in reports)
    prose = re.sub(r"\[[^\]]*\]\([^)]*\)", "", bullet)  # link texts are questions, not figures
    figures = re.findall(r"\d+\.\d+(?:e-\d+)?", prose)
    assert figures, "a shipped answer quotes its figures"
    missing = [f for f in figures if not re.search(_token(f), text)]
    assert not missing, f"not in {', '.join(reports)}: {missing}"
    for estimate, low, high in re.findall(TRIPLE, prose):
        near = f"{_token(estimate)}.{{0,80}}?{_token(low)}.{{0,40}}?{_token(high)}"
        assert re.search(near, text), f"{estimate} ({low} to {high}) not in {reports}"


NUM = r"[-+]?\d+\.\d+"
TRIPLE = rf"({NUM})[^()\d]{{0,40}}\((?:95% CI )?({NUM})%? to ({NUM})"


def _token(figure: str) -> str:
    """A pattern for ``figure`` as a whole number, with or without its sign."""
    return rf"(?<![\d.])[-+]?{re.escape(figure.lstrip('+-'))}(?![\d])"

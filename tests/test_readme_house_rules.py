"""The README's quoted answer of the house-rules screen is the shipped report's, word for word,
and the report it links exists with its Effects section first."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _quoted_after(text: str, marker: str) -> list[str]:
    block = text[text.index(marker) :]
    lines = []
    for line in block.splitlines()[1:]:
        if line.startswith("> "):
            lines.append(line[2:])
        elif lines:
            break
    return lines


def test_the_screen_is_linked_first_and_its_quoted_answer_is_the_reports():
    readme = (ROOT / "README.md").read_text()
    listed = readme[readme.index("## Shipped answers") :]
    first = re.search(r"\]\((reports/[^)]+)\)", listed)
    assert first is not None and first[1] == "reports/house-rules-screen/report.md"
    assert "(reports/house-rules-five/report.md)" in listed
    quoted = _quoted_after(readme, "Which house rule matters most?")
    assert len(quoted) == 3
    report = (ROOT / "reports" / "house-rules-screen" / "report.md").read_text()
    answers = next(line for line in report.splitlines() if line.startswith("Answers: "))
    for sentence in quoted:
        assert sentence in answers
    assert report.index("## Effects: house-rules-screen") < report.index("## Runs")
    assert "uno-stats effects scenarios/house-rules-screen.yaml --interactions" in readme


def test_the_screen_report_meets_its_precision():
    """Every main-effect interval on mean turns in the shipped report is within +-0.15
    (the ranking table: every rule, its effect on mean turns first, to 2 decimals)."""
    report = (ROOT / "reports" / "house-rules-screen" / "report.md").read_text()
    table = report[report.index("| term ") :]
    table = table[: table.index("\n\n")]
    widths = []
    for row in table.splitlines()[2:]:
        cell = row.strip("|").split("|")[1]
        low, high = (float(x) for x in re.search(r"\[(.*?)\]", cell)[1].split(","))
        widths.append((high - low) / 2)
    assert len(widths) == 15
    assert max(widths) <= 0.15

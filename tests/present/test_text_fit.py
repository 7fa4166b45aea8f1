"""Terminal text fits its width: tables wrap at spaces, never inside a value, then split into
column blocks; paragraphs wrap; ``text_width(None)`` keeps one line per row."""

from __future__ import annotations

import re

from uno_stats.present.document import Document, render_html, render_text, text_width
from uno_stats.present.text_fit import fill, fit_table, wrap_lines

VALUES = {
    # a cell or sentence: the pieces of it no line break may split
    "49.65 [48.60, 50.70]": ["49.65", "[48.60, 50.70]"],
    "+1.20 pp [+0.80, +1.60]": ["+1.20 pp", "[+0.80, +1.60]"],
    "2,000 (100.00% [99.81, 100.00])": ["2,000", "(100.00% [99.81, 100.00])"],
    "chi-square 3.51 (df 3), p = 1.8e-66": ["chi-square", "(df 3),", "p = 1.8e-66"],
    "p < 1e-300": ["< 1e-300"],
}


def widths(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def test_values_are_never_broken() -> None:
    for text, pieces in VALUES.items():
        for width in (1, 5, 12):
            lines = wrap_lines(f"the value {text} here", width)
            for piece in pieces:
                assert any(piece in line for line in lines), (piece, width, lines)


def test_a_paragraph_wraps_between_words_only() -> None:
    text = " ".join(["Seat shares: chi-square 308.07 (df 3), p = 1.8e-66, n = 200,000."] * 4)
    filled = fill(text, 40)
    assert widths(filled) <= 40 and filled.split() == text.split()
    assert "p = 1.8e-66" in filled and fill(text, None) == text


def table(columns: int, rows: int = 3) -> tuple[list[str], list[list[str]]]:
    headers = ["run", *(f"column {i} [95% CI]" for i in range(1, columns))]
    body = [
        [
            f"run-name-{r}",
            *(f"{10 * r + i}.25 [{i}.10, {i}.40] n=1,{r}{i}5" for i in range(1, columns)),
        ]
        for r in range(rows)
    ]
    return headers, body


def cells(text: str) -> set[str]:
    return set(re.findall(r"\d+\.25 \[\d+\.10, \d+\.40\]", text))


def test_a_wide_table_fits_and_keeps_every_value() -> None:
    headers, body = table(12)
    wide = fit_table(headers, body, None)
    assert widths(wide) > 100
    fitted = fit_table(headers, body, 100)
    assert widths(fitted) <= 100
    assert cells(fitted) == cells(wide) and len(cells(wide)) == 3 * 11
    # split into blocks, each repeating the first column
    blocks = fitted.split("\n\n")
    assert len(blocks) > 1 and all(b.startswith("run") for b in blocks)
    assert all("run-name-2" in b for b in blocks)


def test_a_table_that_fits_is_left_as_it_is() -> None:
    headers, body = table(3)
    assert fit_table(headers, body, 100) == fit_table(headers, body, None)


def test_render_text_fits_the_width_it_is_given() -> None:
    doc = Document()
    doc.para("word " * 60)
    headers, body = table(9)
    doc.table(headers, body, caption="a caption " * 20)
    assert widths(render_text(doc)) <= 100
    with text_width(60):
        assert widths(render_text(doc)) <= 60
    with text_width(None):
        text = render_text(doc)
    assert widths(text) > 100 and len(text.splitlines()) == 1 + 1 + 1 + 2 + 3


def test_the_html_page_keeps_each_value_on_one_line() -> None:
    doc = Document()
    doc.para("B is longer (p = 1.8e-66, +1.20 pp [+0.80, +1.60]).")
    doc.table(["metric", "p"], [["mean turns", "< 1e-300"], ["seat 0", "0.0457 [0.01, 0.09]"]])
    page = render_html(doc, "t")
    nb = "\u00a0"
    assert f"p{nb}={nb}1.8e-66" in page and f"+1.20{nb}pp {'[+0.80,' + nb + '+1.60]'}" in page
    assert f"&lt;{nb}1e-300" in page and f"[0.01,{nb}0.09]" in page
    assert "mean turns" in page  # words still break

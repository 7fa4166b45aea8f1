"""``--margin``: only the documented forms (a decimal number, optionally with one ``%``)."""

from __future__ import annotations

import pytest

from uno_stats.analysis.metrics import parse_margin
from uno_stats.errors import ResultsError


@pytest.mark.parametrize(
    ("text", "value", "relative"),
    [("2%", 0.02, True), ("1.5", 1.5, False), (".5", 0.5, False), ("10.%", 0.1, True)],
)
def test_documented_forms(text, value, relative):
    margin = parse_margin(text)
    assert margin.value == pytest.approx(value) and margin.relative is relative


@pytest.mark.parametrize(
    "text", ["5%%%", "2%%", "%", "", "1e3", "inf", "nan", "-1", "+1", "1_0", "2 %", "0x10", "½"]
)
def test_anything_else_is_refused(text):
    with pytest.raises(ResultsError, match="is not allowed: a positive number"):
        parse_margin(text)


def test_zero_is_refused_and_long_input_is_quoted_short():
    with pytest.raises(ResultsError, match="must be positive"):
        parse_margin("0%")
    with pytest.raises(ResultsError) as caught:
        parse_margin("7" * 10_000)
    assert len(str(caught.value)) < 200 and "..." in str(caught.value)

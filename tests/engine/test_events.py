"""Event reason codes are named, and the trace words every one of them."""

from __future__ import annotations

import pytest

from uno_stats.engine import events as E
from uno_stats.engine import trace

FAMILIES = {
    "LOST_TO_": trace._LOSE_REASONS,
    "UNO_": trace._UNO,
    "TURN_UP_": trace._TURNED_UP,
}


@pytest.mark.parametrize("prefix", sorted(FAMILIES))
def test_each_named_code_is_distinct_and_has_its_words(prefix: str) -> None:
    codes = {name: value for name, value in vars(E).items() if name.startswith(prefix)}
    assert len(codes) >= 3 and len(set(codes.values())) == len(codes)
    assert set(FAMILIES[prefix]) == set(codes.values())

"""In-round questions (stacking chains, reshuffles, own-turn draws, largest hand), by hand.

The synthetic frames of tests/helpers.py hold no such events; the columns ``longest_stack``,
``largest_hand``, ``turn_draws`` and ``turn_draw_cards`` get values here (per round, as the
engine writes them), and results from an older engine lack them.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from helpers import synthetic_rows
from scipy import stats as st

from uno_stats.analysis import compare
from uno_stats.analysis.metrics import metric_spec
from uno_stats.analysis.round_events import round_events
from uno_stats.analysis.seats import comeback_curve
from uno_stats.present.verdicts import verdict

Z = st.norm.ppf(0.975)


def events_frame(games: int = 3000, seed: int = 5) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    frame = synthetic_rows(games, 4, seed)
    draws = rng.poisson(6, games)
    return frame.with_columns(
        pl.Series("longest_stack", rng.choice(5, games, p=[0.3, 0.4, 0.2, 0.07, 0.03])).cast(
            pl.UInt8
        ),
        pl.Series("largest_hand", 7 + rng.poisson(4, games)).cast(pl.UInt8),
        pl.Series("turn_draws", draws).cast(pl.UInt16),
        pl.Series("turn_draw_cards", draws + rng.poisson(draws * 1.5)).cast(pl.UInt32),
    )


def test_every_in_round_question_by_hand() -> None:
    df = events_frame()
    ev = round_events(df.lazy())
    assert ev.notes == ()
    stack = df["longest_stack"].to_numpy().astype(float)
    n = stack.size
    assert ev.stacks is not None and ev.stacks.n == n
    assert ev.stacks.chain2.value == pytest.approx(np.mean(stack >= 2))
    assert ev.stacks.chain3.value == pytest.approx(np.mean(stack >= 3))
    assert ev.stacks.longest == 4
    half = st.t.ppf(0.975, n - 1) * stack.std(ddof=1) / math.sqrt(n)
    assert (ev.stacks.mean.low, ev.stacks.mean.high) == pytest.approx(
        (stack.mean() - half, stack.mean() + half)
    )
    shuffles = df["reshuffles"].to_numpy()
    assert ev.reshuffles is not None
    assert ev.reshuffles.any.value == pytest.approx(np.mean(shuffles > 0))
    assert ev.reshuffles.mean.value == pytest.approx(shuffles.mean())
    assert ev.reshuffles.most == shuffles.max()
    # cards per draw: a ratio of sums with the delta-method variance over rounds
    d = df["turn_draws"].to_numpy().astype(float)
    c = df["turn_draw_cards"].to_numpy().astype(float)
    r = c.sum() / d.sum()
    e = (c - r * d) / d.sum()
    m = int((d > 0).sum())
    se = math.sqrt(m / (m - 1) * (e**2).sum())
    assert ev.draws is not None and ev.draws.per_draw.value == pytest.approx(r)
    assert (ev.draws.per_draw.low, ev.draws.per_draw.high) == pytest.approx(
        (r - Z * se, r + Z * se)
    )
    assert ev.draws.draws == d.sum() and ev.draws.per_round.value == pytest.approx(d.mean())
    hand = df["largest_hand"].to_numpy()
    assert ev.largest_hand is not None and ev.largest_hand.largest == hand.max()
    # mid-quantiles by hand: the mid-distribution F(x) - p(x)/2, interpolated linearly
    values, counts = np.unique(hand, return_counts=True)
    mid = (np.cumsum(counts) - counts / 2) / hand.size
    assert ev.largest_hand.median.value == pytest.approx(np.interp(0.5, mid, values))
    assert ev.largest_hand.p90.value == pytest.approx(np.interp(0.9, mid, values))
    assert ev.largest_hand.mean.value == pytest.approx(hand.mean())


def test_missing_columns_are_skipped_with_a_note() -> None:
    columns = ("longest_stack", "largest_hand", "turn_draws", "turn_draw_cards")
    df = synthetic_rows(200, 4, 1).drop(c for c in columns if c in synthetic_rows(1, 4).columns)
    ev = round_events(df.lazy())
    assert ev.stacks is None and ev.draws is None and ev.largest_hand is None
    assert ev.reshuffles is not None
    text = " ".join(ev.notes)
    for column in ("longest_stack", "turn_draws", "largest_hand"):
        assert column in text


def test_comeback_rate_is_comparable_between_runs() -> None:
    a, b = synthetic_rows(3000, 4, 1).lazy(), synthetic_rows(3000, 4, 2).lazy()
    c = compare.compare_metric(a, b, "comeback3_rate")
    ca, cb = comeback_curve(a, 4, [3]), comeback_curve(b, 4, [3])
    assert c.kind == "comeback" and c.label == "P(win | 3+ cards behind)"
    assert metric_spec("comeback3_rate").behind == 3
    assert (c.baseline.value, c.baseline.n) == (ca.rates[0].value, ca.rates[0].n)
    assert (c.other.value, c.other.n) == (cb.rates[0].value, cb.rates[0].n)
    assert c.difference.value == pytest.approx(cb.rates[0].value - ca.rates[0].value)
    line = verdict(c, "a", "b")
    assert f"{100 * c.difference.value:+.2f} pp" in line

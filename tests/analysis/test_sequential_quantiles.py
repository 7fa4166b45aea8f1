"""The time-uniform quantile band of settle: its radius and the mid-quantile bounds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from uno_stats.analysis.quantiles import mid_quantile
from uno_stats.analysis.sequential_quantiles import (
    RunningCounts,
    difference_bounds,
    dkw_radius,
    mid_quantile_bounds,
)


def test_radius_matches_the_reference_implementation() -> None:
    # confseq (Howard et al.) tests empirical_process_lil_bound(1000, .05, 100, 0.85)
    assert dkw_radius(1000, 0.05, 100) == pytest.approx(0.08204769, rel=1e-5)
    assert dkw_radius(99, 0.05, 100) == math.inf  # before the first look
    # narrower with more data, wider for a smaller alpha
    assert dkw_radius(10_000, 0.05, 100) < dkw_radius(1000, 0.05, 100)
    assert dkw_radius(1000, 0.025, 100) > dkw_radius(1000, 0.05, 100)


def test_bounds_by_hand() -> None:
    values = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    counts = np.array([10, 20, 40, 20, 10])  # F = .1 .3 .7 .9 1
    # eps = 0.15: largest x with F(x) + eps < .5 is 2 (.45); smallest x with F(x-) - eps > .5
    # is 4 (F(4-) = .7); all whole numbers 2..4 seen: the sample mid-quantiles at .35, .65
    low, high = mid_quantile_bounds(values, counts, 0.5, 0.15)
    assert (low, high) == pytest.approx(
        (mid_quantile(values, counts, 0.35), mid_quantile(values, counts, 0.65))
    )
    assert 2 <= low < mid_quantile(values, counts, 0.5) < high <= 4
    # a gap in the whole numbers (3 never seen): only the always-valid seen values.
    # F = .1 .5 .9 1: F(2) + eps = .55 is not below .5, so 1; F(4-) - eps = .45 is not
    # above .5, so 5 (the sample mid-quantiles at .45 and .55 would be narrower)
    gappy = np.array([1.0, 2.0, 4.0, 5.0]), np.array([10, 40, 40, 10])
    assert mid_quantile_bounds(*gappy, 0.5, 0.05) == (1.0, 5.0)
    # a band too wide to say anything
    assert mid_quantile_bounds(values, counts, 0.5, 0.6) == (-math.inf, math.inf)


def test_difference_bounds_of_two_streams() -> None:
    rng = np.random.default_rng(3)
    a, b = RunningCounts(), RunningCounts()
    for _ in range(4):
        a.update(rng.poisson(30, 2000))
        b.update(rng.poisson(36, 2000))
    assert a.n == b.n == 8000 and a.counts.sum() == 8000
    estimate, low, high = difference_bounds(a, b, 0.5, 0.05, 2000)
    assert estimate == pytest.approx(
        mid_quantile(b.values, b.counts, 0.5) - mid_quantile(a.values, a.counts, 0.5)
    )
    assert 0 < low < estimate < high  # a shift of 6 is found at 8,000 games

"""The one-run intervals use scipy.special in place of scipy.stats: the same numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

from uno_stats.analysis.estimates import chi_square_equal, mean_estimate, z_value


def test_t_normal_and_chi_square_are_scipy_stats() -> None:
    assert z_value(0.95) == st.norm.ppf(0.975)
    for n, mean, sd in [(2, 1.0, 2.0), (10, 17.7, 9.3), (200_000, 49.45, 30.1)]:
        e = mean_estimate(mean, sd, n)
        low, high = st.t.interval(0.95, df=n - 1, loc=mean, scale=sd / math.sqrt(n))
        assert (e.low, e.high) == pytest.approx((low, high), rel=1e-15, abs=1e-12)
    counts = np.array([53_277, 49_687, 48_813, 48_223])
    ours, theirs = chi_square_equal(counts), st.chisquare(counts)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
    assert ours.p == pytest.approx(theirs.pvalue, rel=1e-9)

"""The exact binomial test without scipy.stats gives scipy.stats.binomtest's p-values."""

from __future__ import annotations

import pytest
from scipy import stats

from uno_stats.analysis.binomial import binom_pmf, binom_test_two_sided


@pytest.mark.parametrize(
    ("k", "n", "p"),
    [
        (0, 1, 0.5), (1, 1, 0.5), (5, 10, 0.5), (3, 10, 0.5), (9, 10, 0.5), (0, 10, 0.25),
        (10, 10, 0.25), (7, 40, 0.25), (13, 40, 0.25), (2, 3, 1 / 3), (1, 3, 1 / 3),
        (53_277, 200_000, 0.25), (49_000, 200_000, 0.25), (16_544, 100_000, 0.2),
        (50_385, 100_000, 0.5), (5, 50, 0.1), (0, 7, 0.0), (7, 7, 1.0), (3, 12, 1 / 12),
    ],
)  # fmt: skip
def test_matches_scipy_binomtest(k: int, n: int, p: float) -> None:
    expected = stats.binomtest(k, n, p).pvalue
    assert binom_test_two_sided(k, n, p) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_every_outcome_of_small_samples_matches_scipy() -> None:
    for n in (1, 2, 5, 17, 30):
        for p in (0.1, 0.25, 1 / 3, 0.5, 0.8):
            for k in range(n + 1):
                expected = stats.binomtest(k, n, p).pvalue
                assert binom_test_two_sided(k, n, p) == pytest.approx(expected, rel=1e-9), (k, n, p)
                assert binom_pmf(k, n, p) == pytest.approx(stats.binom.pmf(k, n, p), rel=1e-9)


def test_bad_arguments_raise() -> None:
    for k, n, p in ((3, 2, 0.5), (-1, 2, 0.5), (1, 0, 0.5), (1, 2, 1.5)):
        with pytest.raises(ValueError):
            binom_test_two_sided(k, n, p)

"""Coverage by simulation of every interval a verdict uses, and A vs A error rates.

A 95% interval's observed coverage over R replications has binomial standard error
sqrt(0.95 x 0.05 / R): 0.49% at R = 2,000 and 0.69% at R = 1,000. The band asked for is
95% +- 2% (about 3-4 standard errors); seeds are fixed. Discrete data with ties are used
wherever the game data are discrete (turns, counts, win indicators).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from uno_stats.analysis import methods as mt
from uno_stats.analysis.compare import compare_metric
from uno_stats.analysis.quantile_diff import (
    independent_quantile_replicates,
    paired_quantile_replicates,
)
from uno_stats.analysis.sequential import (
    RunningMoments,
    confidence_sequence,
    decide,
    rho_squared,
)
from uno_stats.present.verdicts import verdict

BAND = (0.93, 0.97)
pytestmark = pytest.mark.slow


def covered(low: np.ndarray, high: np.ndarray, truth: float) -> float:
    return float(np.mean((low <= truth) & (truth <= high)))


def test_welch_coverage_on_discrete_data() -> None:
    rng = np.random.default_rng(21)
    a = rng.poisson(5.0, size=(2000, 60))
    b = rng.poisson(6.0, size=(2000, 90))
    _, low, high, _, _ = mt.welch(a.mean(1), a.var(1, ddof=1), 60, b.mean(1), b.var(1, ddof=1), 90)
    assert BAND[0] <= covered(low, high, 1.0) <= BAND[1]


def test_paired_t_coverage_on_correlated_discrete_pairs() -> None:
    rng = np.random.default_rng(22)
    base = rng.poisson(20.0, size=(2000, 50))
    x, y = base + rng.poisson(3.0, base.shape), base + rng.poisson(4.0, base.shape)
    d = y - x
    _, low, high, _, _ = mt.paired_t(d.mean(1), d.std(1, ddof=1), 50)
    assert BAND[0] <= covered(low, high, 1.0) <= BAND[1]


def test_newcombe_coverage() -> None:
    rng = np.random.default_rng(23)
    xa, xb = rng.binomial(120, 0.3, 2000), rng.binomial(150, 0.4, 2000)
    _, low, high = mt.newcombe(xa, 120, xb, 150)
    assert BAND[0] <= covered(low, high, 0.1) <= BAND[1]


def test_paired_newcombe_coverage_with_mcnemar_counts() -> None:
    rng = np.random.default_rng(24)
    cells = rng.multinomial(200, [0.2, 0.05, 0.1, 0.65], size=2000)  # both, only a, only b, neither
    _, low, high = mt.newcombe_paired(*cells.T)
    assert BAND[0] <= covered(low, high, 0.05) <= BAND[1]


def test_ratio_coverage() -> None:
    rng = np.random.default_rng(25)
    a, b = rng.poisson(5.0, (2000, 80)), rng.poisson(6.0, (2000, 80))
    _, low, high = mt.log_ratio(a.mean(1), a.var(1, ddof=1) / 80, b.mean(1), b.var(1, ddof=1) / 80)
    assert BAND[0] <= covered(low, high, 1.2) <= BAND[1]
    base = rng.poisson(10.0, (2000, 80))
    x, y = base + rng.poisson(2.0, base.shape), base + rng.poisson(4.0, base.shape)
    cov = np.array([np.cov(xi, yi)[0, 1] for xi, yi in zip(x, y, strict=True)]) / 80
    _, low, high = mt.log_ratio(
        x.mean(1), x.var(1, ddof=1) / 80, y.mean(1), y.var(1, ddof=1) / 80, cov
    )
    assert BAND[0] <= covered(low, high, 14 / 12) <= BAND[1]
    xa, xb = rng.binomial(300, 0.2, 2000), rng.binomial(300, 0.25, 2000)
    _, low, high = mt.katz_ratio(xa, 300, xb, 300)
    assert BAND[0] <= covered(low, high, 1.25) <= BAND[1]


def true_quantile(sample: np.ndarray, q: float) -> float:
    return float(np.quantile(sample, q, method="inverted_cdf"))


@pytest.mark.parametrize("q", [0.5, 0.9])
def test_independent_quantile_difference_coverage(q: float) -> None:
    rng = np.random.default_rng(26)
    truth = (2.0 - 1.0) * -math.log(1 - q)  # exponential scales 1 and 2
    hits = 0
    for i in range(1000):
        a, b = np.sort(rng.exponential(1.0, 150)), np.sort(rng.exponential(2.0, 150))
        ones = np.ones(150, dtype=np.int64)
        low, high = independent_quantile_replicates(a, ones, b, ones, q, 1000, i).interval()
        hits += low <= truth <= high
    assert BAND[0] <= hits / 1000 <= BAND[1]


@pytest.mark.parametrize("q", [0.5, 0.9])
def test_paired_quantile_difference_coverage(q: float) -> None:
    """Paired bootstrap (game indices resampled) on strongly correlated continuous pairs.

    The median is within the band. At p90 the resampled order statistics of the two runs
    move in small independent jumps that the true estimator's difference does not have,
    so with n = 120 the interval is conservative (measured 99%; 98% at n = 400): there the
    test asks for at least nominal coverage, and for an interval clearly narrower than the
    independent bootstrap's on the same data (which pairing is for). 500 resamples each
    (the percentile interval's coverage hardly depends on it) keep the test short.
    """
    rng = np.random.default_rng(27)
    big = rng.exponential(1.0, (3, 2_000_000))
    truth = true_quantile(big[0] + 2 * big[2], q) - true_quantile(big[1] + 1.5 * big[2], q)
    hits, paired_width, independent_width = 0, 0.0, 0.0
    ones = np.ones(120, dtype=np.int64)
    for i in range(1000):
        shared = rng.exponential(1.0, 120)
        a, b = rng.exponential(1.0, 120) + 1.5 * shared, rng.exponential(1.0, 120) + 2 * shared
        low, high = paired_quantile_replicates(a, b, ones, q, 500, i).interval()
        hits += low <= truth <= high
        paired_width += high - low
        if i < 200:
            sa, sb = np.sort(a), np.sort(b)
            lo, hi = independent_quantile_replicates(sa, ones, sb, ones, q, 500, i).interval()
            independent_width += (hi - lo) * 5
    if q == 0.5:
        assert BAND[0] <= hits / 1000 <= BAND[1]
    else:
        assert hits / 1000 >= BAND[0]
    assert paired_width < 0.8 * independent_width


def test_quantile_difference_on_discrete_turns_is_at_least_nominal() -> None:
    """Integer turns with ties: the percentile interval has integer ends that often sit on
    the true (integer) difference, so it covers more than 95% (measured here 97.0% for the
    median and 97.4% for p90, just above the 97% edge of the band); it must never cover
    less than the band allows."""
    rng = np.random.default_rng(28)
    r = 4.0
    big = 1 + rng.negative_binomial(r, r / (r + 39), 2_000_000)
    big_b = 1 + rng.negative_binomial(r, r / (r + 43), 2_000_000)
    truth = true_quantile(big_b, 0.5) - true_quantile(big, 0.5)
    hits = 0
    for i in range(1000):
        a = 1 + rng.negative_binomial(r, r / (r + 39), 300)
        b = 1 + rng.negative_binomial(r, r / (r + 43), 300)
        (va, ca), (vb, cb) = (np.unique(x, return_counts=True) for x in (a, b))
        reps = independent_quantile_replicates(
            va.astype(float), ca, vb.astype(float), cb, 0.5, 1000, i
        )
        low, high = reps.interval()
        hits += low <= truth <= high
    assert hits / 1000 >= BAND[0]


def frame(turns: np.ndarray, won: np.ndarray, winner: np.ndarray) -> pl.LazyFrame:
    n = len(turns)
    return pl.LazyFrame(
        {
            "turns": turns,
            "status": np.where(won, "won", "void"),
            "winner": np.where(won, winner, -1),
            "players": np.full(n, 4),
            "game": np.arange(n),
            "round": np.zeros(n, dtype=np.int64),
        }
    )


@pytest.mark.parametrize("paired", [False, True])
def test_a_vs_a_compare_says_different_at_about_the_nominal_rate(paired: bool) -> None:
    """Two runs of the same rules: each metric's verdict names a difference in ~5% of 400
    repeats (counted from the verdict line, as a reader would).

    SE of a 5% rate over 400 repeats: 1.1%; accepted [1.7%, 8.3%] (+-3 SE). Paired repeats
    share each game's deal (a common component), as runs with the same seed do.
    """
    rng = np.random.default_rng(29)
    reps = 400
    counts = {"mean_turns": 0, "seat0_win_rate": 0, "median_turns": 0}
    for i in range(reps):
        deal = rng.poisson(30.0, 600)
        a_turns = (deal if paired else rng.poisson(30.0, 600)) + rng.poisson(8.0, 600)
        b_turns = deal + rng.poisson(8.0, 600)
        won = rng.random(600) > 0.01
        a = frame(a_turns, won, rng.integers(0, 4, 600))
        b = frame(b_turns, won, rng.integers(0, 4, 600))
        for metric in counts:
            c = compare_metric(a, b, metric, paired=paired, resamples=400, seed=i)
            counts[metric] += "no detectable difference" not in verdict(c, "A", "B")
    for metric in ("mean_turns", "seat0_win_rate"):
        assert 0.017 <= counts[metric] / reps <= 0.083, (metric, counts)
    # integer quantiles: conservative (see the discrete coverage test), never above nominal
    assert counts["median_turns"] / reps <= 0.083, counts


def test_settle_a_vs_a_stays_within_its_error_budget() -> None:
    """200 settles of A vs A on paired streams, 20 looks of 500 games: the confidence
    sequence ends "different" in at most alpha (+3 SE of 1.5% for 200 settles = 9.6%)."""
    rng = np.random.default_rng(30)
    settles, looks, batch = 200, 20, 500
    rho2 = rho_squared(math.sqrt(batch * batch * looks))
    moments = RunningMoments.empty((settles,))
    decided = np.full(settles, "", dtype=object)
    for _ in range(looks):
        deal = rng.poisson(30.0, (settles, batch))
        x, y = deal + rng.poisson(8.0, deal.shape), deal + rng.poisson(8.0, deal.shape)
        moments.update(y - x)
        low, high = confidence_sequence(moments, rho2)
        now = decide(low, high, moments.sd, None)
        decided = np.where(decided == "", now, decided)
    assert np.mean(decided == "different") <= 0.096
    # the same sequence finds a real difference of 0.5 turns per game, with its sign
    moments = RunningMoments.empty((settles,))
    for _ in range(looks):
        deal = rng.poisson(30.0, (settles, batch))
        x, y = deal + rng.poisson(8.0, deal.shape), deal + rng.poisson(8.5, deal.shape)
        moments.update(y - x)
    low, _ = confidence_sequence(moments, rho2)
    assert np.mean(low > 0) > 0.8


def test_running_moments_match_numpy() -> None:
    rng = np.random.default_rng(31)
    data = rng.normal(3.0, 2.0, (5, 1000))
    m = RunningMoments.empty((5,))
    for chunk in np.split(data, 4, axis=1):
        m.update(chunk)
    assert np.allclose(m.mean, data.mean(1)) and np.allclose(m.sd, data.std(1, ddof=1))

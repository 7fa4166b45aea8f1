"""Two-sample intervals and tests, vectorised over numpy arrays (the coverage tests call them).

Independent samples (two runs with different seeds):

- means: Welch t; ``welch(mean_a, var_a, n_a, mean_b, var_b, n_b)``.
- proportions: Newcombe (1998) method 10, the hybrid score interval built from the two
  Wilson intervals; two-proportion z test (pooled variance, no continuity correction).

Paired samples (game k of run a and game k of run b start from the same deal):

- means: paired t on the differences d = b - a.
- proportions: McNemar test on the discordant pairs (asymptotic chi-square, no continuity
  correction; exact binomial when fewer than 25 discordant pairs) and Newcombe (1998b)
  method 10 interval for a paired difference (the two marginal Wilson intervals combined
  with the phi correlation of the 2x2 table, phi shrunk by n/2 when positive, as in the paper).

Ratios b / a of means (or rates): delta method on the log ratio,
var(log b/a) = v_a/a^2 + v_b/b^2 - 2 c_ab/(a b), where v are variances of the means and
c_ab their covariance (0 for independent runs).

Quantile (mid-quantile) differences use a bootstrap standard error and a normal interval
(see :mod:`uno_stats.analysis.quantile_diff`); p = 2 (1 - Phi(|d| / SE)).
"""

from __future__ import annotations

import math

import numpy as np

from uno_stats.analysis.estimates import LEVEL, wilson, z_value

Array = np.ndarray


def _f(x: Array | float | int) -> Array:
    return np.asarray(x, dtype=np.float64)


def welch(
    mean_a: Array | float,
    var_a: Array | float,
    n_a: Array | int,
    mean_b: Array | float,
    var_b: Array | float,
    n_b: Array | int,
    level: float = LEVEL,
) -> tuple[Array, Array, Array, Array, Array]:
    """Welch's b - a: (difference, low, high, t, two-sided p); sample variances (ddof 1) in.

    A zero standard error gives an exact interval: p = 1 when the means agree, 0 otherwise.
    """
    from scipy import stats as st  # lazy: scipy.stats costs ~1 s to import

    va, vb = _f(var_a) / _f(n_a), _f(var_b) / _f(n_b)
    diff = _f(mean_b) - _f(mean_a)
    se = np.sqrt(va + vb)
    with np.errstate(invalid="ignore", divide="ignore"):
        df = (va + vb) ** 2 / (va**2 / (_f(n_a) - 1) + vb**2 / (_f(n_b) - 1))
        t = diff / se
        p = 2 * st.t.sf(np.abs(t), df)
        half = st.t.ppf(0.5 + level / 2, df) * se
    exact = se == 0
    half = np.where(exact, 0.0, half)
    t = np.where(exact, np.where(diff == 0, 0.0, np.copysign(np.inf, diff)), t)
    p = np.where(exact, np.where(diff == 0, 1.0, 0.0), p)
    return diff, diff - half, diff + half, t, p


def paired_t(
    mean_d: Array | float, sd_d: Array | float, n: Array | int, level: float = LEVEL
) -> tuple[Array, Array, Array, Array, Array]:
    """Paired t on differences d = b - a: (mean d, low, high, t, two-sided p)."""
    from scipy import stats as st  # lazy: scipy.stats costs ~1 s to import

    m, n_ = _f(mean_d), _f(n)
    se = _f(sd_d) / np.sqrt(n_)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = m / se
        p = 2 * st.t.sf(np.abs(t), n_ - 1)
        half = st.t.ppf(0.5 + level / 2, n_ - 1) * se
    exact = se == 0
    half = np.where(exact, 0.0, half)
    t = np.where(exact, np.where(m == 0, 0.0, np.copysign(np.inf, m)), t)
    p = np.where(exact, np.where(m == 0, 1.0, 0.0), p)
    return m, m - half, m + half, t, p


def newcombe(
    x_a: Array | int, n_a: Array | int, x_b: Array | int, n_b: Array | int, level: float = LEVEL
) -> tuple[Array, Array, Array]:
    """Newcombe's hybrid score interval for p_b - p_a (independent): (difference, low, high)."""
    pa, la, ua = wilson(x_a, n_a, level)
    pb, lb, ub = wilson(x_b, n_b, level)
    diff = pb - pa
    low = diff - np.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    high = diff + np.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    return diff, low, high


def two_proportion_z(
    x_a: Array | int, n_a: Array | int, x_b: Array | int, n_b: Array | int
) -> tuple[Array, Array]:
    """Pooled two-proportion z test of p_b = p_a: (z, two-sided p);
    p = 1 when both rates are 0 or 1."""
    from scipy import stats as st  # lazy: scipy.stats costs ~1 s to import

    xa, na, xb, nb = _f(x_a), _f(n_a), _f(x_b), _f(n_b)
    pooled = (xa + xb) / (na + nb)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (xb / nb - xa / na) / np.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    degenerate = (pooled == 0) | (pooled == 1)
    z = np.where(degenerate, 0.0, z)
    return z, np.where(degenerate, 1.0, 2 * st.norm.sf(np.abs(z)))


def mcnemar(only_a: Array | int, only_b: Array | int) -> tuple[Array, Array]:
    """McNemar's test from the discordant pairs: (signed z, two-sided p).

    ``only_a``: pairs where only run a has the event; ``only_b``: only run b. Below 25
    discordant pairs the p-value is the exact binomial one (mid-p is not used).
    """
    from scipy import stats as st  # lazy: scipy.stats costs ~1 s to import

    b, c = _f(only_a), _f(only_b)
    m = b + c
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(m > 0, (c - b) / np.sqrt(m), 0.0)
    p = np.where(m > 0, 2 * st.norm.sf(np.abs(z)), 1.0)
    small = (m > 0) & (m < 25)
    if np.any(small):
        k = np.minimum(b, c)
        exact = np.minimum(1.0, 2 * st.binom.cdf(k, m.astype(np.int64), 0.5))
        p = np.where(small, exact, p)
    return z, p


def newcombe_paired(
    both: Array | int,
    only_a: Array | int,
    only_b: Array | int,
    neither: Array | int,
    level: float = LEVEL,
) -> tuple[Array, Array, Array]:
    """Newcombe (1998b) method 10 interval for p_b - p_a from paired 2x2 counts.

    l_i, u_i are the Wilson limits of the two marginal rates; with phi the (shrunk)
    correlation of the table, low = d - sqrt(dl_b^2 - 2 phi dl_b du_a + du_a^2) and
    high = d + sqrt(du_b^2 - 2 phi du_b dl_a + dl_a^2), dl = p - l, du = u - p.
    """
    e, f, g, h = _f(both), _f(only_a), _f(only_b), _f(neither)
    n = e + f + g + h
    pa, la, ua = wilson(e + f, n, level)
    pb, lb, ub = wilson(e + g, n, level)
    diff = pb - pa
    margins = (e + f) * (g + h) * (e + g) * (f + h)
    cross = e * h - f * g
    with np.errstate(invalid="ignore", divide="ignore"):
        shrunk = np.where(cross > 0, np.maximum(cross - n / 2, 0.0), cross)
        phi = np.where(margins > 0, shrunk / np.sqrt(margins), 0.0)
    dlb, dub, dla, dua = pb - lb, ub - pb, pa - la, ua - pa
    low = diff - np.sqrt(np.maximum(dlb**2 - 2 * phi * dlb * dua + dua**2, 0.0))
    high = diff + np.sqrt(np.maximum(dub**2 - 2 * phi * dub * dla + dla**2, 0.0))
    return diff, np.maximum(low, -1.0), np.minimum(high, 1.0)


def log_ratio(
    mean_a: Array | float,
    var_mean_a: Array | float,
    mean_b: Array | float,
    var_mean_b: Array | float,
    cov_means: Array | float = 0.0,
    level: float = LEVEL,
) -> tuple[Array, Array, Array]:
    """Delta-method interval of b / a on the log scale: (ratio, low, high); NaN unless both > 0.

    ``var_mean_*`` are variances of the means (s^2 / n), ``cov_means`` their covariance.
    """
    a, b = _f(mean_a), _f(mean_b)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where((a > 0) & (b > 0), b / a, np.nan)
        var = _f(var_mean_a) / a**2 + _f(var_mean_b) / b**2 - 2 * _f(cov_means) / (a * b)
        half = z_value(level) * np.sqrt(np.maximum(var, 0.0))
    return ratio, ratio * np.exp(-half), ratio * np.exp(half)


def katz_ratio(
    x_a: Array | int, n_a: Array | int, x_b: Array | int, n_b: Array | int, level: float = LEVEL
) -> tuple[Array, Array, Array]:
    """Katz log interval of the risk ratio (p_b / p_a), independent runs;
    NaN when x_a or x_b is 0."""
    xa, na, xb, nb = _f(x_a), _f(n_a), _f(x_b), _f(n_b)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where((xa > 0) & (xb > 0), (xb / nb) / (xa / na), np.nan)
        se = np.sqrt(1 / xb - 1 / nb + 1 / xa - 1 / na)
    half = z_value(level) * se
    return ratio, ratio * np.exp(-half), ratio * np.exp(half)


def tied_ranks(values: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Average ranks of distinct sorted ``values`` seen ``counts`` times (ranks from 1, a
    tie's members sharing the mean of their positions), and the tie sizes as floats."""
    sizes = np.asarray(counts, dtype=np.float64)
    before = np.cumsum(sizes) - sizes
    return before + (sizes + 1) / 2, sizes


def wilcoxon_counts(
    differences: np.ndarray, counts: np.ndarray
) -> tuple[float, float, float, float]:
    """Wilcoxon signed-rank test of paired differences given as distinct values and counts:
    (statistic min(R+, R-), two-sided p, R+, R-), zero differences dropped (Wilcoxon's
    method), normal approximation with the tie correction and no continuity correction: the
    figures ``scipy.stats.wilcoxon(d, zero_method="wilcox", method="asymptotic")`` gives on
    the expanded differences, without expanding them. NaN when every difference is zero."""
    from scipy import special

    d = np.asarray(differences, dtype=np.float64)
    w = np.asarray(counts, dtype=np.int64)
    keep = (d != 0) & (w > 0)
    d, w = d[keep], w[keep]
    if d.size == 0:
        return math.nan, math.nan, math.nan, math.nan
    size, group = np.unique(np.abs(d), return_inverse=True)
    ranks, ties = tied_ranks(size, np.bincount(group, weights=w).astype(np.int64))
    plus = float(np.sum(np.where(d > 0, w * ranks[group], 0.0)))
    minus = float(np.sum(np.where(d < 0, w * ranks[group], 0.0)))
    count = float(w.sum())
    mn = count * (count + 1.0) * 0.25
    se = count * (count + 1.0) * (2.0 * count + 1.0)
    se = math.sqrt((se - float(np.sum(ties**3 - ties)) / 2) / 24)
    z = (plus - mn) / se if se > 0 else math.nan
    p = float(2 * special.ndtr(-abs(z)))
    return min(plus, minus), p, plus, minus


def mann_whitney_counts(
    values_x: np.ndarray, counts_x: np.ndarray, values_y: np.ndarray, counts_y: np.ndarray
) -> tuple[float, float]:
    """Mann-Whitney U test of sample x against y, each given as distinct values and counts:
    (U of x, two-sided p), normal approximation with the tie correction and the continuity
    correction: ``scipy.stats.mannwhitneyu(x, y, method="asymptotic")`` on the expanded
    samples, without expanding them."""
    from scipy import special

    n1, n2 = int(np.sum(counts_x)), int(np.sum(counts_y))
    values, where = np.unique(
        np.concatenate([np.asarray(values_x, np.float64), np.asarray(values_y, np.float64)]),
        return_inverse=True,
    )
    in_x = np.bincount(where[: len(values_x)], weights=counts_x, minlength=len(values))
    both = in_x + np.bincount(where[len(values_x) :], weights=counts_y, minlength=len(values))
    ranks, ties = tied_ranks(values, both.astype(np.int64))
    r1 = float(np.sum(in_x * ranks))
    u1 = r1 - n1 * (n1 + 1) / 2
    u = max(u1, n1 * n2 - u1)
    n = n1 + n2
    s = math.sqrt(n1 * n2 / 12 * ((n + 1) - float(np.sum(ties**3 - ties)) / (n * (n - 1))))
    z = (u - n1 * n2 / 2 - 0.5) / s if s > 0 else math.inf
    return u1, float(min(1.0, 2 * special.ndtr(-z)))

r"""Anytime-valid inference on paired differences: the asymptotic confidence sequence.

Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas, "Time-uniform central limit theory and
asymptotic confidence sequences" (Annals of Statistics, 2024; arXiv 2103.06476, 2021),
Theorem 2.2: for i.i.d. paired differences d_1, d_2, ... with mean mu and finite variance,

    C_t = mean_t +- sd_t * sqrt( 2 (t rho^2 + 1) / (t^2 rho^2) * log( sqrt(t rho^2 + 1) / alpha ) )

(mean_t and sd_t the sample mean and standard deviation of the first t differences) is a
two-sided (1 - alpha) asymptotic confidence sequence: P(mu outside C_t for some t) tends to
at most alpha. So the interval may be looked at after every batch and the run stopped as
soon as it decides, without inflating the error rate (as repeated fixed-n intervals would).
rho > 0 only sets where the sequence is tightest: rho^2 = (-2 log alpha + log(1 - 2 log
alpha)) / t_opt makes it tightest near t = t_opt (the paper's approximation).

Decisions on the difference b - a with an optional margin m (see :func:`decide`):
``different`` when C_t excludes 0 (without a margin) or the whole of [-m, m] (with one);
``same`` when C_t lies inside (-m, m); otherwise keep going. Every function is vectorised
over numpy arrays, so the error-rate tests run hundreds of settles at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ALPHA = 0.05
Array = np.ndarray


def rho_squared(t_opt: float, alpha: float = ALPHA) -> float:
    """The tuning rho^2 that makes the confidence sequence tightest near ``t_opt``."""
    la = -2 * math.log(alpha)
    return (la + math.log(la + 1)) / t_opt


def cs_radius(t: Array | int, sd: Array | float, rho2: float, alpha: float = ALPHA) -> Array:
    """Half-width of the asymptotic confidence sequence after ``t`` differences."""
    t_ = np.asarray(t, dtype=np.float64)
    s = np.asarray(sd, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        width = np.sqrt(
            2 * (t_ * rho2 + 1) / (t_ * t_ * rho2) * np.log(np.sqrt(t_ * rho2 + 1) / alpha)
        )
    return s * width


@dataclass
class RunningMoments:
    """Count, mean and sum of squared deviations of a stream (Chan et al. batch update)."""

    n: Array
    mean: Array
    m2: Array

    @classmethod
    def empty(cls, shape: tuple[int, ...] = ()) -> RunningMoments:
        """No observations yet (``shape``: how many streams are tracked at once)."""
        return cls(np.zeros(shape), np.zeros(shape), np.zeros(shape))

    def update(self, batch: Array) -> None:
        """Add a batch of observations (last axis: observations of each stream)."""
        x = np.asarray(batch, dtype=np.float64)
        k = x.shape[-1]
        if k == 0:
            return
        bm = x.mean(axis=-1)
        bm2 = ((x - bm[..., None]) ** 2).sum(axis=-1)
        total = self.n + k
        delta = bm - self.mean
        self.mean = self.mean + delta * k / total
        self.m2 = self.m2 + bm2 + delta * delta * self.n * k / total
        self.n = total

    @property
    def sd(self) -> Array:
        """Sample standard deviation (ddof 1); NaN below two observations."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.n > 1, np.sqrt(self.m2 / (self.n - 1)), np.nan)


def confidence_sequence(
    moments: RunningMoments, rho2: float, alpha: float = ALPHA
) -> tuple[Array, Array]:
    """The current (low, high) of the confidence sequence for the mean difference."""
    half = cs_radius(moments.n, moments.sd, rho2, alpha)
    return moments.mean - half, moments.mean + half


def decide(low: Array, high: Array, sd: Array, bound: Array | float | None) -> Array:
    """``"different"``, ``"same"`` or ``""`` (keep going) for each interval.

    ``bound``: the margin m in the metric's units (None: no margin, so never ``same``).
    Reading: with no spread yet (sd = 0, every difference equal so far) the asymptotic
    interval is degenerate, so nothing is decided from it.
    """
    lo, hi = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    ok = np.asarray(sd, dtype=np.float64) > 0
    if bound is None:
        different = ok & ((lo > 0) | (hi < 0))
        same = np.zeros_like(different)
    else:
        m = np.asarray(bound, dtype=np.float64)
        different = ok & ((lo > m) | (hi < -m))
        same = ok & (lo > -m) & (hi < m)
    return np.where(different, "different", np.where(same, "same", ""))

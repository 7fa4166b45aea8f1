"""The asymptotic confidence sequence, number by number: the tuning rho^2, the radius, the
running moments of a stream and the decision rule (exact values; the error-rate tests of
tests/analysis/test_coverage.py check the same functions statistically)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from uno_stats.analysis.sequential import (
    ALPHA,
    RunningMoments,
    confidence_sequence,
    cs_radius,
    decide,
    rho_squared,
)


def test_rho_squared_is_the_papers_approximation() -> None:
    la = -2 * math.log(0.05)
    assert ALPHA == 0.05
    assert rho_squared(1000) == pytest.approx((la + math.log(la + 1)) / 1000, rel=1e-15)
    la1 = -2 * math.log(0.01)
    assert rho_squared(50, 0.01) == pytest.approx((la1 + math.log(la1 + 1)) / 50, rel=1e-15)
    assert rho_squared(10) == pytest.approx(0.79361546017, rel=1e-10)


def radius(t: float, sd: float, rho2: float, alpha: float = 0.05) -> float:
    """Theorem 2.2 of Waudby-Smith et al., written out once more."""
    return sd * math.sqrt(
        2 * (t * rho2 + 1) / (t * t * rho2) * math.log(math.sqrt(t * rho2 + 1) / alpha)
    )


def test_cs_radius_is_the_theorems_half_width() -> None:
    rho2 = rho_squared(500)
    assert cs_radius(100, 2.0, rho2) == pytest.approx(radius(100, 2.0, rho2), rel=1e-14)
    assert cs_radius(100, 2.0, rho2, 0.01) == pytest.approx(radius(100, 2.0, rho2, 0.01))
    assert cs_radius(100, 2.0, rho2, 0.01) > cs_radius(100, 2.0, rho2)
    got = cs_radius(np.array([10, 1000]), np.array([1.0, 3.0]), rho2)
    want = [radius(10, 1.0, rho2), radius(1000, 3.0, rho2)]
    np.testing.assert_allclose(got, want, rtol=1e-14)
    assert float(cs_radius(4, 1.0, 0.25)) == pytest.approx(math.sqrt(math.log(math.sqrt(2) / 0.05)))


def test_cs_radius_of_a_whole_number_count_does_not_overflow() -> None:
    """t arrives as a count (an integer): t^2 must not wrap around in int64."""
    t = 2**33
    assert cs_radius(t, 1.0, 1e-6) == pytest.approx(radius(float(t), 1.0, 1e-6), rel=1e-12)
    got = cs_radius(np.array([t], dtype=np.int64), np.array([2]), 1e-6)
    np.testing.assert_allclose(got, [radius(float(t), 2.0, 1e-6)], rtol=1e-12)


def test_cs_radius_of_no_observations_is_infinite_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = cs_radius(np.array([0.0, 1.0]), np.array([1.0, 1.0]), 0.1)
    assert np.isinf(got[0]) and np.isfinite(got[1])


def test_running_moments_in_batches_equal_numpy() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(5.0, 2.0, size=(3, 101))
    moments = RunningMoments.empty((3,))
    assert moments.n.shape == moments.mean.shape == moments.m2.shape == (3,)
    assert not moments.n.any() and not moments.mean.any() and not moments.m2.any()
    for lo, hi in ((0, 1), (1, 40), (40, 40), (40, 101)):
        moments.update(x[:, lo:hi])
    np.testing.assert_array_equal(moments.n, [101, 101, 101])
    np.testing.assert_allclose(moments.mean, x.mean(axis=1), rtol=1e-13)
    np.testing.assert_allclose(moments.m2, ((x - x.mean(axis=1, keepdims=True)) ** 2).sum(1))
    np.testing.assert_allclose(moments.sd, x.std(axis=1, ddof=1), rtol=1e-13)


def test_running_moments_of_a_scalar_stream_by_hand() -> None:
    moments = RunningMoments.empty()
    assert moments.n.shape == ()
    moments.update(np.array([1.0, 3.0]))
    moments.update(np.array([], dtype=np.float64))  # an empty batch changes nothing
    moments.update(np.array([8.0]))
    assert (float(moments.n), float(moments.mean), float(moments.m2)) == (3.0, 4.0, 26.0)
    assert float(moments.sd) == math.sqrt(13.0)


def test_running_moments_of_a_float32_stream_are_kept_in_float64() -> None:
    """A float32 batch is summed in float64: its mean and squares carry no float32 rounding."""
    x = np.random.default_rng(5).normal(1000.0, 1.0, size=10_001).astype(np.float32)
    exact = x.astype(np.float64)
    moments = RunningMoments.empty()
    moments.update(x)
    assert moments.mean.dtype == moments.m2.dtype == np.float64
    assert float(moments.mean) == pytest.approx(exact.mean(), rel=1e-13)
    assert float(moments.m2) == pytest.approx(((exact - exact.mean()) ** 2).sum(), rel=1e-11)


def test_sd_is_nan_below_two_observations_without_a_warning() -> None:
    moments = RunningMoments.empty((2,))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(moments.sd).all()
        moments.update(np.array([[2.0], [5.0]]))
        assert np.isnan(moments.sd).all()
    moments.update(np.array([[4.0], [5.0]]))
    np.testing.assert_allclose(moments.sd, [math.sqrt(2.0), 0.0])


def test_confidence_sequence_is_the_mean_plus_minus_the_radius() -> None:
    moments = RunningMoments.empty()
    moments.update(np.array([1.0, 2.0, 4.0, 9.0]))
    rho2 = rho_squared(100)
    low, high = confidence_sequence(moments, rho2)
    half = radius(4, float(moments.sd), rho2)
    assert (float(low), float(high)) == pytest.approx((4.0 - half, 4.0 + half), rel=1e-14)
    low1, high1 = confidence_sequence(moments, rho2, 0.2)
    assert low < low1 < 4.0 < high1 < high


@pytest.mark.parametrize(
    ("low", "high", "sd", "bound", "want"),
    [
        (0.5, 2.0, 1.0, None, "different"),
        (-2.0, -0.5, 1.0, None, "different"),
        (-0.5, 2.0, 1.0, None, ""),
        (0.0, 2.0, 1.0, None, ""),  # touching zero does not exclude it
        (-2.0, 0.0, 1.0, None, ""),
        (-2.0, 0.5, 1.0, None, ""),
        (0.5, 2.0, 0.0, None, ""),  # no spread yet: nothing is decided
        (1.5, 3.0, 1.0, 1.0, "different"),
        (-3.0, -1.5, 1.0, 1.0, "different"),
        (1.0, 3.0, 1.0, 1.0, ""),  # touching the margin
        (-3.0, -1.0, 1.0, 1.0, ""),
        (-0.5, 0.5, 1.0, 1.0, "same"),
        (-1.0, 0.5, 1.0, 1.0, ""),
        (-0.5, 1.0, 1.0, 1.0, ""),
        (-0.5, 0.5, 0.0, 1.0, ""),
        (0.5, 2.0, 1.0, 1.0, ""),  # excludes zero but not the whole margin band
    ],
)
def test_decide(low: float, high: float, sd: float, bound: float | None, want: str) -> None:
    assert decide(np.array(low), np.array(high), np.array(sd), bound) == want


def test_decide_is_vectorised_with_a_bound_per_stream() -> None:
    got = decide(
        np.array([0.5, -0.5, -0.5]), np.array([2.0, 0.5, 0.5]), np.ones(3), np.array([0.1, 1, 0.4])
    )
    assert got.tolist() == ["different", "same", ""]

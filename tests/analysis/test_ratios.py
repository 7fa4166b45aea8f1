"""Ratios of per-game counts (analysis/ratios.py) and the paired comparisons built on them:
hand-computed values, and agreement with the independent cluster-ratio formulas."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from uno_stats.analysis.compare import compare_metric
from uno_stats.analysis.estimates import cluster_difference, cluster_ratio
from uno_stats.analysis.metrics import metric_spec
from uno_stats.analysis.ratios import RatioMoments, game_counts, paired_ratio

COUNTS = np.array(  # num_a, den_a, num_b, den_b of four games
    [[1, 2, 1, 2], [0, 1, 1, 2], [2, 3, 1, 3], [1, 2, 2, 2]], dtype=np.float64
)


def test_ratio_moments_are_the_delta_method_by_hand() -> None:
    m = RatioMoments()
    m.update(COUNTS[:1])
    m.update(COUNTS[1:])
    assert m.ratios() == (pytest.approx(4 / 8), pytest.approx(5 / 9))
    d, sd = m.difference()
    z = (COUNTS[:, 2] - 5 / 9 * COUNTS[:, 3]) / 2.25 - (COUNTS[:, 0] - 0.5 * COUNTS[:, 1]) / 2
    assert d == pytest.approx(5 / 9 - 1 / 2)
    assert sd == pytest.approx(float(np.std(z, ddof=1)))


def test_with_one_count_per_game_it_is_the_paired_t() -> None:
    rng = np.random.default_rng(5)
    x, y = rng.poisson(40, 500), rng.poisson(41, 500)
    m = RatioMoments()
    for part in np.array_split(np.column_stack([x, np.ones(500), y, np.ones(500)]), 7):
        m.update(part)
    d, sd = m.difference()
    assert d == pytest.approx(float(y.mean() - x.mean()))
    assert sd == pytest.approx(float(np.std(y - x, ddof=1)))


def test_paired_ratio_agrees_with_the_cluster_ratio_formulas() -> None:
    rng = np.random.default_rng(6)
    den_a, den_b = rng.integers(0, 4, 300), rng.integers(0, 4, 300)
    num_a, num_b = rng.binomial(den_a, 0.2), rng.binomial(den_b, 0.3)
    counts = np.column_stack([num_a, den_a, num_b, den_b]).astype(np.float64)
    ra, rb, d, se, log_se = paired_ratio(counts)
    first, second = cluster_ratio(num_b, den_b), cluster_ratio(num_a, den_a)
    diff, _ = cluster_difference(first, second)
    assert (ra, rb) == (pytest.approx(first[0].value * 0 + num_a.sum() / den_a.sum()),
                        pytest.approx(num_b.sum() / den_b.sum()))  # fmt: skip
    assert d == pytest.approx(diff.value)
    # cluster_variance's m / (m - 1) sum(e^2) is sd(z)^2 / n: the same standard error
    assert se == pytest.approx((diff.high - diff.value) / 1.959963984540054)
    e_log = first[1] / rb - second[1] / ra
    assert log_se == pytest.approx(math.sqrt(300 / 299 * float(np.sum(e_log**2))))


def frame(games: list[int], winner: list[int], first: list[int], deficit: list[list[int]],
          status: list[str] | None = None) -> pl.LazyFrame:  # fmt: skip
    n = len(games)
    return pl.LazyFrame(
        {
            "game": games,
            "round": [0] * n,
            "status": status or ["won"] * n,
            "winner": winner,
            "first_player": first,
            "players": [3] * n,
            "max_deficit": deficit,
            "turns": [10 + g for g in games],
        },
        schema_overrides={"max_deficit": pl.List(pl.UInt8)},
    )


A = frame([0, 1, 2, 3], [0, 1, 2, 0], [0, 0, 2, 1], [[0, 3, 4], [2, 0, 5], [3, 3, 0], [0, 2, 2]],
          ["won", "won", "won", "void"])  # fmt: skip
B = frame([0, 1, 2, 3], [1, 1, 0, 2], [0, 0, 0, 1], [[2, 0, 3], [0, 4, 4], [0, 2, 3], [2, 2, 0]])


def test_game_counts_by_hand() -> None:
    comeback = game_counts(A, metric_spec("comeback2_rate"))
    # won rounds only: seats 2+ behind 2, 1, 2 (game 3 is void); the winner among them in
    # game 1 (seat 1: 0 behind, no), game 2 (seat 2: 0, no), game 0 (seat 0: 0, no)
    assert comeback["num"].to_list() == [0, 0, 0, 0]
    assert comeback["den"].to_list() == [2, 2, 2, 0]
    first = game_counts(B, metric_spec("first_mover_win_rate"))
    assert first["num"].to_list() == [0, 0, 1, 0] and first["den"].to_list() == [1, 1, 1, 1]
    mean = game_counts(A, metric_spec("mean_turns"))
    assert mean["num"].to_list() == [10, 11, 12, 13] and mean["den"].to_list() == [1] * 4


def test_paired_comeback_compare_is_by_game() -> None:
    c = compare_metric(A, B, "comeback2_rate", paired=True)
    # B: seats 2+ behind per game 2, 2, 2, 2; the winner was among them in game 1 only
    assert c.test == "paired delta method (by game)" and c.paired and c.note == ""
    assert (c.baseline.value, c.other.value) == (0.0, pytest.approx(1 / 8))
    assert c.difference.value == pytest.approx(1 / 8) and c.difference.n == 4


def test_first_mover_rate_and_edge() -> None:
    rate = compare_metric(A, B, "first_mover_win_rate", paired=True)
    # paired: the games won in both runs (0-2); A's first mover won games 0 and 2, B's game 2
    assert (rate.baseline.value, rate.other.value) == pytest.approx((2 / 3, 1 / 3))
    assert compare_metric(A, B, "first_mover_win_rate").other.value == pytest.approx(1 / 4)
    edge = compare_metric(A, B, "first_mover_edge", paired=True)
    assert (edge.baseline.value, edge.other.value) == pytest.approx((1 / 3, 0.0))
    assert edge.difference == rate.difference and edge.p == rate.p
    four = B.with_columns(pl.lit(4).alias("players"))
    shifted = compare_metric(A, four, "first_mover_edge")
    plain = compare_metric(A, four, "first_mover_win_rate")
    assert shifted.difference.value == pytest.approx(plain.difference.value - (1 / 4 - 1 / 3))
    assert shifted.test == "z (edge, SE from the interval)"

"""The paired-deal skill analysis (uno_stats.analysis.skill): exact values on hand-made
tables, no engine."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from uno_stats.analysis.skill import (
    components,
    decompose,
    focal_skill,
    focal_wins,
    paired_mean,
    paired_table,
    spread_effects,
)
from uno_stats.errors import ResultsError

# 4 deals x 2 strategies. Grand mean 1/2; strategy effects -1/4, +1/4; deal effects 0, 1/2,
# -1/2, 0; residuals +-1/4 everywhere: SS_rest 1/2 on 3 df (MS 1/6); MS_deal 2 x (1/2) / 3.
TABLE = np.array([[0, 1], [1, 1], [0, 0], [0, 1]], dtype=np.int8)


def test_components_by_the_anova_method() -> None:
    strategy, deal, rest = components(TABLE)
    assert strategy == pytest.approx(1 / 16 - 1 / 2 * (1 / 6) / 4)  # 1/24
    assert deal == pytest.approx((1 / 3 - 1 / 6) / 2)  # 1/12
    assert rest == pytest.approx(1 / 6)


def test_shares_sum_to_one_and_negative_components_count_as_zero() -> None:
    parts = decompose(TABLE, resamples=200, seed=1)
    assert parts.strategy.value == pytest.approx(1 / 7)
    assert parts.deal.value == pytest.approx(2 / 7)
    assert parts.rest.value == pytest.approx(4 / 7)
    for share in (parts.strategy, parts.deal, parts.rest):
        assert 0 <= share.low <= share.value <= share.high <= 1 and share.n == 4
    # strategies alike on every deal: nothing for strategy; every deal alike: nothing for deal
    alike = np.array([[1, 1], [0, 0], [1, 1], [0, 0]])
    assert components(alike) == pytest.approx((0.0, (2 / 3 - 0) / 2, 0.0))  # MS_deal 2 x 1 / 3
    noise = np.array([[1, 0], [0, 1], [1, 0], [0, 1]])
    strategy, deal, rest = components(noise)
    assert (strategy, deal) == (0.0, 0.0) and rest == pytest.approx(2 / 3)  # SS 2 on 3 df


def test_the_bootstrap_is_seeded() -> None:
    a, b = decompose(TABLE, 100, 7), decompose(TABLE, 100, 7)
    assert a == b
    with pytest.raises(ResultsError):
        components(TABLE[:1])


def test_paired_mean_is_a_t_interval() -> None:
    est = paired_mean(np.array([1.0, 0.0, 0.0, 1.0]))
    half = 3.182446305284263 * math.sqrt(1 / 3) / 2
    assert (est.value, est.n) == (0.5, 4)
    assert est.low == pytest.approx(0.5 - half) and est.high == pytest.approx(0.5 + half)


def test_focal_skill_names_best_and_worst_with_their_paired_spread() -> None:
    skill = focal_skill(("random", "search"), TABLE, resamples=50)
    assert (skill.best, skill.worst, skill.deals) == ("search", "random", 4)
    assert [s.value for s in skill.shares] == [0.25, 0.75]
    assert skill.spread.value == 0.5
    assert skill.spread == paired_mean(np.array([1.0, 0.0, 0.0, 1.0]))
    with pytest.raises(ResultsError):
        focal_skill(("one",), TABLE[:, :1])


def test_spread_effects_compare_the_spread_deal_by_deal() -> None:
    """The spread of column 1 over column 0 is (1, 0, 0, 1) without the rule and (1, 1, 0, 1)
    with it: the rule adds (0, 1, 0, 0), a mean of 1/4; an axis of one value has no effect."""
    off = TABLE
    on = np.array([[0, 1], [0, 1], [0, 0], [0, 1]])
    effects = spread_effects(
        [({"rules.x": False, "players": 2}, off), ({"rules.x": True, "players": 2}, on)]
    )
    assert [e.axis for e in effects] == ["rules.x"]
    assert effects[0].values == (False, True)
    assert effects[0].effect == paired_mean(np.array([0.0, 1.0, 0.0, 0.0]))
    assert spread_effects([]) == ()


def test_focal_wins_follows_the_seating_column_and_pairs_common_games() -> None:
    """Scenario seat 0 sits where the seating column says: game 2 at position 1 (won),
    game 0 at position 0 (lost to seat 1), game 1 at 1 (a round without a winner)."""
    lf = pl.LazyFrame(
        {
            "game": [2, 0, 1],
            "winner": [1, 1, -1],
            "seating": [[1, 0], [0, 1], [1, 0]],
        }
    )
    games, won = focal_wins(lf, 0)
    assert games.tolist() == [0, 1, 2] and won.tolist() == [0, 0, 1]
    fixed = pl.LazyFrame({"game": [0, 1, 3], "winner": [0, 1, 0]})
    games2, won2 = focal_wins(fixed, 0)
    assert won2.tolist() == [1, 0, 1]
    table = paired_table([(games, won), (games2, won2)])
    assert table.tolist() == [[0, 1], [0, 0]]  # games 0 and 1, the ones both played
    with pytest.raises(ResultsError):
        focal_wins(pl.LazyFrame({"game": [0, 0], "winner": [0, 1]}), 0)

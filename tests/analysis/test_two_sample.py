"""Rate comparisons field by field (rounds, seats, comebacks; independent and paired), the
rows that pair two runs, and the one-line errors of empty results: every figure of a
MetricComparison against the method it names, on hand-made frames."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from uno_stats.analysis import methods as mt
from uno_stats.analysis.estimates import Estimate, proportion
from uno_stats.analysis.metrics import TOST_LEVEL, MetricComparison, metric_spec
from uno_stats.analysis.paired_rows import Joint, paired_values
from uno_stats.analysis.two_sample import compare_means, compare_rates
from uno_stats.errors import ResultsError


def frame(
    status: list[str], winner: list[int] | None = None, deficits: list[list[int]] | None = None
) -> pl.LazyFrame:
    n = len(status)
    data: dict[str, object] = {
        "game": list(range(n)),
        "round": [0] * n,
        "status": status,
        "winner": winner if winner is not None else [0 if s == "won" else -1 for s in status],
        "players": [2] * n,
        "turns": [10 + i for i in range(n)],
    }
    if deficits is not None:
        data["max_deficit"] = deficits
    return pl.LazyFrame(
        data, schema_overrides={"winner": pl.Int8, "turns": pl.UInt32, "players": pl.UInt8}
    )


A = ["won"] * 7 + ["void"] * 3  # 3 void of 10
B = ["won"] * 4 + ["void"] * 6  # 6 void of 10; games 4-6 void in B only


def test_independent_void_rates_field_by_field() -> None:
    spec = metric_spec("void_rate")
    c = compare_rates(frame(A), frame(B), spec, None)
    assert (c.metric, c.label, c.kind, c.unit, c.question) == (
        "void_rate",
        "void rate",
        "rate",
        "",
        "round outcome",
    )
    assert (c.test, c.paired, c.status, c.direction, c.family) == (
        "two-proportion z",
        False,
        "tested",
        1,
        1,
    )
    assert c.baseline == proportion(3, 10) and c.other == proportion(6, 10)
    diff = mt.newcombe(3, 10, 6, 10)
    assert (c.difference.value, c.difference.low, c.difference.high) == pytest.approx(
        tuple(map(float, diff))
    )
    assert c.difference.n == 20 and c.ratio.n == 20
    ratio = mt.katz_ratio(3, 10, 6, 10)
    assert (c.ratio.value, c.ratio.low, c.ratio.high) == pytest.approx(tuple(map(float, ratio)))
    z, p = mt.two_proportion_z(3, 10, 6, 10)
    assert (c.statistic, c.p, c.p_holm) == pytest.approx((float(z), float(p), float(p)))
    assert c.effect_name == "Cohen's h"
    assert c.effect == pytest.approx(2 * math.asin(math.sqrt(0.6)) - 2 * math.asin(math.sqrt(0.3)))
    tost = mt.newcombe(3, 10, 6, 10, TOST_LEVEL)
    assert c.tost == pytest.approx((tost[1], tost[2]))


def test_paired_void_rates_count_the_discordant_games() -> None:
    spec = metric_spec("void_rate")
    a, b = frame(A), frame(B)
    pairs = paired_values(a, b, spec)
    assert pairs is not None and pairs.n == 10
    c = compare_rates(a, b, spec, pairs)
    # games 7-9 void in both, 4-6 in B only, none in A only, 0-3 in neither
    diff = mt.newcombe_paired(3, 0, 3, 4)
    assert (c.difference.value, c.difference.low, c.difference.high) == pytest.approx(
        tuple(map(float, diff))
    )
    assert (c.test, c.paired, c.status) == ("McNemar", True, "tested")
    z, p = mt.mcnemar(0, 3)
    assert (c.statistic, c.p) == pytest.approx((float(z), float(p)))
    pa, pb = 0.3, 0.6
    cov = (0.3 - pa * pb) / 10
    ratio = mt.log_ratio(pa, pa * (1 - pa) / 10, pb, pb * (1 - pb) / 10, cov)
    assert (c.ratio.value, c.ratio.low, c.ratio.high) == pytest.approx(tuple(map(float, ratio)))
    tost = mt.newcombe_paired(3, 0, 3, 4, TOST_LEVEL)
    assert c.tost == pytest.approx((tost[1], tost[2]))
    assert c.baseline == proportion(3, 10) and c.other == proportion(6, 10)


def test_identical_and_absent_rates_get_no_test() -> None:
    spec = metric_spec("void_rate")
    same = compare_rates(frame(A), frame(A), spec, paired_values(frame(A), frame(A), spec))
    assert same.status == "identical" and math.isnan(same.p) and math.isnan(same.statistic)
    assert math.isnan(same.p_holm) and same.direction == 0
    none = ["won"] * 5
    absent = compare_rates(frame(none), frame(none), spec, None)
    assert absent.status == "absent" and math.isnan(absent.p) and math.isnan(absent.statistic)


def test_a_seat_win_rate_counts_won_rounds_only() -> None:
    spec = metric_spec("seat1_win_rate")
    a = frame(["won"] * 4 + ["void"] * 2, [1, 0, 1, 1, -1, -1])  # seat 1: 3 of 4 won rounds
    b = frame(["won"] * 6, [0, 0, 1, 0, 0, 0])  # 1 of 6
    c = compare_rates(a, b, spec, None)
    assert c.baseline == proportion(3, 4) and c.other == proportion(1, 6)
    assert (c.question, c.direction, c.unit) == ("seat advantage", -1, "")
    diff = mt.newcombe(3, 4, 1, 6)
    assert (c.difference.value, c.difference.low, c.difference.high) == pytest.approx(
        tuple(map(float, diff))
    )
    assert c.difference.n == 10


def test_a_comeback_rate_counts_seat_rounds_behind() -> None:
    spec = metric_spec("comeback2_rate")
    # won rounds, two seats: seat-rounds with max_deficit >= 2 and whether that seat won
    a = frame(["won"] * 3, [0, 1, 0], [[2, 0], [3, 2], [0, 5]])  # behind: 4, won: 2
    b = frame(["won"] * 3 + ["void"], [1, 1, 1, -1], [[2, 1], [0, 4], [1, 1], [9, 9]])
    c = compare_rates(a, b, spec, None)  # b behind: 2 (void round not counted), won: 1
    assert c.baseline == proportion(2, 4) and c.other == proportion(1, 2)
    assert (c.question, c.kind, c.status) == ("comebacks", "comeback", "tested")
    diff = mt.newcombe(2, 4, 1, 2)
    assert (c.difference.value, c.difference.low, c.difference.high) == pytest.approx(
        tuple(map(float, diff))
    )


@pytest.mark.parametrize(
    ("metric", "status", "what"),
    [
        ("void_rate", [], "no rounds in these results"),
        ("seat0_win_rate", ["void", "void"], "no won rounds in these results"),
    ],
)
def test_empty_results_are_one_line_errors(metric: str, status: list[str], what: str) -> None:
    spec = metric_spec(metric)
    with pytest.raises(ResultsError, match=f"^{what} \\(empty results\\?\\)$"):
        compare_rates(frame(A), frame(status), spec, None)


def test_empty_paired_results_name_what_is_missing() -> None:
    spec = metric_spec("seat0_win_rate")
    voids = frame(["void"] * 3)
    pairs = paired_values(voids, voids, spec)
    assert pairs is not None and pairs.n == 0
    with pytest.raises(ResultsError, match=r"^no paired won rounds in these results"):
        compare_rates(voids, voids, spec, pairs)
    comeback = metric_spec("comeback1_rate")
    empty = frame([], [], [])
    with pytest.raises(ResultsError, match=r"^no seat-rounds behind in these results"):
        compare_rates(empty, empty, comeback, None)


def test_paired_rows_join_on_game_and_round_and_drop_only_missing_values() -> None:
    a = frame(["won", "void", "won"], [1, -1, 0])
    b = frame(["won", "won", "won"], [1, 1, 1]).with_columns(
        pl.Series("turns", [5, None, 7], dtype=pl.UInt32)  # a null in another column stays
    )
    pairs = paired_values(a, b, metric_spec("seat1_win_rate"))
    assert pairs is not None
    assert pairs.frame.rows() == [(0, 1, 1), (1, 1, 1)]  # game 1: void in a, no seat value
    shifted = b.with_columns(pl.col("round") + 1)  # same games, other rounds: no pairing
    assert paired_values(a, shifted, metric_spec("void_rate")) is None
    shorter = frame(["won", "void"])
    assert paired_values(a, shorter, metric_spec("void_rate")) is None


def test_match_length_pairs_on_the_game_alone() -> None:
    def matches(rounds: list[int], lengths: list[int | None]) -> pl.LazyFrame:
        return pl.LazyFrame(
            {"game": [0, 0, 1], "round": rounds, "match_rounds": lengths},
            schema_overrides={"match_rounds": pl.UInt16},
        )

    a = matches([0, 1, 0], [None, 2, 1])
    b = matches([0, 1, 2], [None, 5, 3])  # the matches end on other rounds
    pairs = paired_values(a, b, metric_spec("mean_match_rounds"))
    assert pairs is not None and pairs.frame.rows() == [(1, 3, 1), (2, 5, 1)]


def test_means_of_single_values_have_no_spread() -> None:
    spec = metric_spec("mean_turns")
    one = frame(["won"])
    c = compare_means(one, one, spec, paired_values(one, one, spec))
    assert math.isnan(c.baseline.low) and math.isnan(c.difference.low)  # one pair: sd unknown
    assert c.baseline.value == 10.0 and c.difference.value == 0.0
    two = frame(["won", "won"])
    d = compare_means(two, two, spec, None)
    assert d.baseline.value == 10.5 and d.baseline.n == 2
    assert d.baseline.low == pytest.approx(10.5 - 12.706204736174707 * 0.5)  # t(1) x sd / sqrt 2
    assert np.isfinite(d.difference.low)


def test_paired_rates_with_discordance_both_ways() -> None:
    spec = metric_spec("void_rate")
    a = frame(["void", "void", "won", "won", "void", "won"])  # games 0, 1, 4 void
    b = frame(["void", "won", "void", "void", "won", "won"])  # games 0, 2, 3 void
    c = compare_rates(a, b, spec, paired_values(a, b, spec))
    assert c.baseline == proportion(3, 6) and c.other == proportion(3, 6)
    diff = mt.newcombe_paired(1, 2, 2, 1)  # both, only a, only b, neither
    assert (c.difference.value, c.difference.low, c.difference.high) == pytest.approx(
        tuple(map(float, diff))
    )
    assert c.status == "tested" and c.direction == 0


def test_paired_means_of_two_pairs_have_a_spread() -> None:
    spec = metric_spec("mean_turns")
    a = frame(["won", "won"])  # turns 10, 11
    b = a.with_columns(pl.Series("turns", [12, 15], dtype=pl.UInt32))
    c = compare_means(a, b, spec, paired_values(a, b, spec))
    assert c.baseline.low == pytest.approx(10.5 - 12.706204736174707 * 0.5)
    assert c.other.low == pytest.approx(13.5 - 12.706204736174707 * 1.5)
    assert c.difference.value == 3.0 and np.isfinite(c.difference.low)


def _with_turns(lf: pl.LazyFrame, turns: list[int]) -> pl.LazyFrame:
    return lf.with_columns(pl.Series("turns", turns, dtype=pl.UInt32))


def test_paired_distributions_against_scipy() -> None:
    from scipy import stats as st

    from uno_stats.analysis.two_sample import compare_distributions

    spec = metric_spec("dist_turns")
    x = [10, 12, 9, 20, 15, 11, 30, 8, 14, 13]
    d = [1, -1, 2, 3, -2, 1, 0, 4, 1, 5]
    a = _with_turns(frame(["won"] * 10), x)
    b = _with_turns(frame(["won"] * 10), [xi + di for xi, di in zip(x, d, strict=True)])
    c = compare_distributions(a, b, spec, paired_values(a, b, spec))
    nonzero = np.array([v for v in d if v])
    ranks = st.rankdata(np.abs(nonzero))
    plus, minus = ranks[nonzero > 0].sum(), ranks[nonzero < 0].sum()
    ref = st.wilcoxon(nonzero, zero_method="wilcox", method="approx")
    assert (c.test, c.effect_name, c.status, c.paired) == (
        "Wilcoxon signed-rank",
        "matched-pairs r",
        "tested",
        True,
    )
    assert (c.statistic, c.p) == pytest.approx((float(ref.statistic), float(ref.pvalue)))
    assert c.effect == pytest.approx((plus - minus) / (plus + minus)) and c.direction == 1
    assert (c.baseline.value, c.baseline.n) == (float(np.mean(x)), 10)
    assert c.other.value == pytest.approx(np.mean(x) + np.mean(d)) and c.other.n == 10
    assert math.isnan(c.baseline.low) and math.isnan(c.other.high)
    assert math.isnan(c.difference.value) and math.isnan(c.ratio.value)


def test_independent_distributions_against_scipy() -> None:
    from scipy import stats as st

    from uno_stats.analysis.two_sample import compare_distributions

    spec = metric_spec("dist_turns")
    xa, xb = [10, 12, 9, 20, 15, 11, 30, 8], [14, 13, 22, 25, 16, 40]  # no ties: asymptotic p
    a = _with_turns(frame(["won"] * 8), xa)
    b = _with_turns(frame(["won"] * 6), xb)
    c = compare_distributions(a, b, spec, None)
    ref = st.mannwhitneyu(xb, xa, method="asymptotic")
    assert (c.test, c.effect_name, c.paired) == ("Mann-Whitney U", "rank-biserial r", False)
    assert (c.statistic, c.p) == pytest.approx((float(ref.statistic), float(ref.pvalue)))
    assert c.effect == pytest.approx(2 * float(ref.statistic) / 48 - 1)
    assert (c.baseline.value, c.other.value) == pytest.approx((np.mean(xa), np.mean(xb)))
    assert (c.baseline.n, c.other.n, c.direction) == (8, 6, 1)
    assert math.isnan(c.baseline.low) and math.isnan(c.other.low)
    assert math.isnan(c.baseline.high) and math.isnan(c.other.high)
    exact = st.mannwhitneyu(xb, xa, method="exact").pvalue
    assert abs(c.p - exact) > 1e-5  # the asymptotic p, not the exact one small samples get


def test_distributions_zero_everywhere_are_absent() -> None:
    from uno_stats.analysis.two_sample import compare_distributions

    spec = metric_spec("dist_turns")
    zeros = _with_turns(frame(["won"] * 4), [0, 0, 0, 0])
    some = _with_turns(frame(["won"] * 4), [0, 1, 0, 0])
    absent = compare_distributions(zeros, zeros, spec, None)
    assert absent.status == "absent" and math.isnan(absent.p)
    assert compare_distributions(zeros, some, spec, None).status == "tested"
    assert compare_distributions(some, zeros, spec, None).status == "tested"
    paired = compare_distributions(zeros, zeros, spec, paired_values(zeros, zeros, spec))
    assert paired.status == "absent"
    same = compare_distributions(some, some, spec, paired_values(some, some, spec))
    assert same.status == "identical" and math.isnan(same.statistic)


def test_empty_distributions_name_what_is_missing() -> None:
    from uno_stats.analysis.two_sample import compare_distributions

    spec = metric_spec("dist_turns")
    empty = frame([])
    with pytest.raises(ResultsError, match=r"^no values of turns in these results"):
        compare_distributions(empty, empty, spec, None)
    pairs = paired_values(empty, empty, spec)
    with pytest.raises(ResultsError, match=r"^no paired values of turns in these results"):
        compare_distributions(empty, empty, spec, pairs)


# --- paired ratios (comeback rates by game) and the first mover's edge --------------------

COUNTS = np.array(  # per game: num_a, den_a, num_b, den_b (winners behind, seat-rounds behind)
    [[1, 3, 1, 3], [0, 2, 1, 2], [1, 4, 0, 4], [0, 1, 1, 2], [1, 2, 1, 2], [0, 3, 2, 4]],
    dtype=np.float64,
)


def _delta_by_hand(counts: np.ndarray) -> tuple[float, float, float, float, float]:
    """R_a, R_b, R_b - R_a, its standard error and that of log(R_b / R_a), by the formulas."""
    na, da, nb, db = counts.T
    ra, rb = na.sum() / da.sum(), nb.sum() / db.sum()
    z = (nb - rb * db) / db.mean() - (na - ra * da) / da.mean()
    n = len(z)
    c = np.array([-1 / (ra * da.mean()), 1 / da.mean(), 1 / (rb * db.mean()), -1 / db.mean()])
    log_var = c @ np.cov(counts, rowvar=False) @ c
    return ra, rb, rb - ra, z.std(ddof=1) / math.sqrt(n), math.sqrt(log_var / n)


def test_paired_comeback_ratio_field_by_field() -> None:
    from scipy import special

    from uno_stats.analysis.two_sample import compare_paired_ratio

    spec = metric_spec("comeback2_rate")
    c = compare_paired_ratio(spec, Joint.of_rows(COUNTS))
    ra, rb, d, se, log_se = _delta_by_hand(COUNTS)
    assert (ra, rb) == (3 / 15, 6 / 17)
    assert (c.metric, c.label, c.kind, c.unit, c.question) == (
        spec.key,
        spec.label,
        "comeback",
        "",
        "comebacks",
    )
    assert (c.test, c.paired, c.status, c.direction, c.effect_name) == (
        "paired delta method (by game)",
        True,
        "tested",
        1,
        "Cohen's h",
    )
    assert c.baseline == proportion(3, 15) and c.other == proportion(6, 17)
    z = 1.959963984540054
    assert c.difference.n == 6 and c.difference.value == pytest.approx(d, abs=1e-15)
    assert (c.difference.low, c.difference.high) == pytest.approx((d - z * se, d + z * se))
    assert c.statistic == pytest.approx(d / se)
    p = float(2 * special.ndtr(-d / se))
    assert (c.p, c.p_holm) == pytest.approx((p, p))
    ratio = rb / ra
    assert c.ratio == Estimate(
        pytest.approx(ratio),
        pytest.approx(ratio * math.exp(-z * log_se)),
        pytest.approx(ratio * math.exp(z * log_se)),
        6,
    )
    half = 1.6448536269514722 * se  # the 90% interval
    assert c.tost == pytest.approx((d - half, d + half))
    h = 2 * math.asin(math.sqrt(6 / 17)) - 2 * math.asin(math.sqrt(3 / 15))
    assert c.effect == pytest.approx(h)


def test_paired_comeback_ratio_counts_each_distinct_row_as_often_as_it_was_seen() -> None:
    """Games that repeat a row: the joint counts (rows seen 2 and 3 times) give the delta
    method of the expanded games, not of the distinct rows."""
    from uno_stats.analysis.two_sample import compare_paired_ratio

    games = np.vstack([COUNTS, COUNTS, COUNTS[:2]])
    c = compare_paired_ratio(metric_spec("comeback2_rate"), Joint.of_rows(games))
    ra, rb, d, se, log_se = _delta_by_hand(games)
    assert c.baseline == proportion(7, 35) and c.other == proportion(14, 39)
    z = 1.959963984540054
    assert c.difference.n == 14 and c.difference.value == pytest.approx(d, abs=1e-15)
    assert (c.difference.low, c.difference.high) == pytest.approx((d - z * se, d + z * se))
    assert (c.ratio.low, c.ratio.high) == pytest.approx(
        (rb / ra * math.exp(-z * log_se), rb / ra * math.exp(z * log_se))
    )


def test_paired_comeback_ratio_lower_in_b_points_down() -> None:
    from uno_stats.analysis.two_sample import compare_paired_ratio

    swapped = COUNTS[:, [2, 3, 0, 1]]
    c = compare_paired_ratio(metric_spec("comeback2_rate"), Joint.of_rows(swapped))
    assert c.direction == -1 and c.difference.value < 0 and c.statistic < 0
    assert c.ratio.value == pytest.approx((3 / 15) / (6 / 17))


def test_paired_comeback_ratio_identical_absent_and_without_a_ratio() -> None:
    from uno_stats.analysis.two_sample import compare_paired_ratio

    spec = metric_spec("comeback2_rate")
    same = compare_paired_ratio(spec, Joint.of_rows(COUNTS[:, [0, 1, 0, 1]]))
    assert (same.status, same.direction, same.difference.value) == ("identical", 0, 0.0)
    assert all(math.isnan(x) for x in (same.statistic, same.p, same.p_holm))
    assert same.ratio.value == 1.0 and same.tost == (0.0, 0.0)
    more_behind = COUNTS[:, [0, 1, 0, 1]] + [0, 0, 0, 1]  # the same winners, more seats behind
    fewer = compare_paired_ratio(spec, Joint.of_rows(more_behind))
    assert fewer.status == "tested" and fewer.direction == -1
    denominators = COUNTS[:, [1]]
    lost = compare_paired_ratio(
        spec, Joint.of_rows(np.hstack([0 * denominators, denominators] * 2))
    )
    assert (lost.status, lost.baseline, lost.other) == ("absent", proportion(0, 15), lost.other)
    assert math.isnan(lost.ratio.value) and lost.ratio.n == 0  # R_a = 0: no ratio
    only_b = COUNTS.copy()
    only_b[:, 0] = 0  # no winner behind in a, some in b: tested, still no ratio
    c = compare_paired_ratio(spec, Joint.of_rows(only_b))
    assert c.status == "tested" and math.isnan(c.ratio.value) and c.p < 0.05
    one = compare_paired_ratio(spec, Joint.of_rows(COUNTS[:1] + np.array([[0, 0, 1, 0]])))
    assert math.isnan(one.ratio.value) and one.difference.n == 1
    assert same.baseline.n == 15 and one.other == proportion(2, 3)
    with pytest.raises(ResultsError, match=r"^no seat-rounds behind in these results"):
        compare_paired_ratio(spec, Joint.of_rows(np.array([[0.0, 0.0, 1.0, 2.0]])))
    with pytest.raises(ResultsError, match=r"^no seat-rounds behind in these results"):
        compare_paired_ratio(spec, Joint.of_rows(np.array([[1.0, 2.0, 0.0, 0.0]])))


def test_paired_counts_join_the_games_of_two_runs() -> None:
    spec = metric_spec("comeback2_rate")
    # two rounds in game 0, one in game 1; seats' max deficits, winner
    a = frame(["won"] * 3, [0, 1, 0], [[2, 0], [3, 2], [0, 5]]).with_columns(
        pl.Series("game", [0, 0, 1])
    )
    b = frame(["won", "void", "won"], [1, -1, 1], [[2, 1], [9, 9], [0, 4]]).with_columns(
        pl.Series("game", [0, 0, 1])
    )
    counts = paired_values(a, b, spec)
    assert counts is not None
    # game 0: a behind 3 (seat 0 in round 0, both in round 1), won 2; b behind 1, won 0
    assert counts.frame.rows() == [(0, 1, 1, 1, 1), (2, 3, 0, 1, 1)]  # and how many games
    other_games = b.with_columns(pl.Series("game", [0, 0, 2]))
    assert paired_values(a, other_games, spec) is None
    assert paired_values(a, b.filter(pl.col("game") == 0), spec) is None


def _rate_comparison(status: str = "tested", direction: int = 1) -> MetricComparison:
    return MetricComparison(
        metric="first_mover_edge",
        label="first mover edge",
        kind="first_mover_edge",
        unit="",
        baseline=Estimate(0.6, 0.5, 0.7, 100),
        other=Estimate(0.4, 0.3, 0.5, 120),
        difference=Estimate(-0.2, -0.35, -0.05, 220),
        ratio=Estimate(0.75, 0.5, 0.9, 220),
        test="two-proportion z",
        statistic=-2.5,
        p=0.01,
        effect_name="Cohen's h",
        effect=-0.4,
        p_holm=0.02,
        question="first mover",
        status=status,
        direction=direction,
        tost=(-0.3, -0.1),
    )


def test_edge_of_equal_player_counts_keeps_the_win_rate_test() -> None:
    from uno_stats.analysis.two_sample import shift_edge

    c = _rate_comparison(direction=0)
    e = shift_edge(c, 0.25, 0.25)
    assert e.baseline == Estimate(0.6 - 0.25, 0.5 - 0.25, 0.7 - 0.25, 100)
    assert e.other == Estimate(0.4 - 0.25, 0.3 - 0.25, 0.5 - 0.25, 120)
    assert math.isnan(e.ratio.value) and e.ratio.n == 0
    assert e.direction == -1  # the edges' sign, not the one passed in
    assert (e.difference, e.tost, e.test, e.statistic, e.p, e.p_holm) == (
        c.difference,
        c.tost,
        c.test,
        c.statistic,
        c.p,
        c.p_holm,
    )


def test_edge_of_other_player_counts_shifts_the_difference() -> None:
    from scipy import special

    from uno_stats.analysis.two_sample import shift_edge

    c = _rate_comparison()
    e = shift_edge(c, 1 / 2, 1 / 3)  # shift -1/6: the edge difference is -0.2 + 1/6
    shift = 1 / 3 - 1 / 2
    assert e.baseline == Estimate(0.6 - 0.5, 0.5 - 0.5, 0.7 - 0.5, 100)
    assert e.other == Estimate(0.4 - 1 / 3, 0.3 - 1 / 3, 0.5 - 1 / 3, 120)
    assert e.difference == Estimate(-0.2 - shift, -0.35 - shift, -0.05 - shift, 220)
    assert e.tost == (-0.3 - shift, -0.1 - shift)
    se = 0.3 / (2 * 1.959963984540054)
    assert e.statistic == pytest.approx((-0.2 - shift) / se)
    p = float(2 * special.ndtr(-abs(-0.2 - shift) / se))
    assert (e.p, e.p_holm) == pytest.approx((p, p))
    assert (e.test, e.direction, e.effect, e.metric) == (
        "z (edge, SE from the interval)",
        -1,
        -0.4,
        "first_mover_edge",
    )
    up = shift_edge(c, 1 / 3, 1 / 2)  # shift +1/6 and a difference below it: still down
    assert up.direction == -1 and up.difference.value == pytest.approx(-0.2 - 1 / 6)
    flipped = shift_edge(_rate_comparison(direction=-1), 1 / 2, 1 / 5)  # shift -0.3
    assert flipped.direction == 1 and flipped.difference.value == pytest.approx(0.1)


def test_edge_of_an_untested_or_pointlike_comparison_has_no_test() -> None:
    from uno_stats.analysis.two_sample import shift_edge

    same = shift_edge(_rate_comparison("identical"), 1 / 2, 1 / 3)
    assert all(math.isnan(x) for x in (same.statistic, same.p, same.p_holm))
    assert same.difference.value == pytest.approx(-0.2 + 1 / 6)
    point = replace(_rate_comparison(), difference=Estimate(-0.2, -0.2, -0.2, 220))
    flat = shift_edge(point, 1 / 2, 1 / 3)  # a zero-width interval: SE 0
    assert math.isnan(flat.statistic) and math.isnan(flat.p)  # a nonzero value, SE 0


def test_a_comeback_rate_at_zero_cards_behind_counts_every_seat_round() -> None:
    spec = metric_spec("comeback0_rate")
    a = frame(["won"] * 3, [0, 1, 0], [[2, 0], [3, 2], [0, 5]])  # 6 seat-rounds, 3 winners
    b = frame(["won"] * 2, [1, 1], [[0, 0], [1, 0]])  # 4 seat-rounds, 2 winners
    c = compare_rates(a, b, spec, None)
    assert c.baseline == proportion(3, 6) and c.other == proportion(2, 4)


def test_paired_distributions_of_fractional_differences_against_scipy() -> None:
    from scipy import stats as st

    from uno_stats.analysis.two_sample import compare_distributions

    x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    d = [0.5, -0.25, 0.75, -1.5, 0.5, 2.0]  # differences between -1 and 1 count by sign
    a = pl.LazyFrame({"game": range(6), "round": [0] * 6, "x": x})
    b = pl.LazyFrame({"game": range(6), "round": [0] * 6, "x": np.add(x, d)})
    spec = metric_spec("dist_x")
    c = compare_distributions(a, b, spec, paired_values(a, b, spec))
    ranks = st.rankdata(np.abs(d))
    plus, minus = ranks[np.array(d) > 0].sum(), ranks[np.array(d) < 0].sum()
    assert c.effect == pytest.approx((plus - minus) / (plus + minus))
    res = st.wilcoxon(d, zero_method="wilcox", method="approx")
    assert (c.statistic, c.p) == pytest.approx((res.statistic, res.pvalue))


def test_means_field_by_field_independent_and_paired() -> None:
    spec = metric_spec("mean_turns")
    a = _with_turns(frame(["won"] * 8), [10, 12, 9, 20, 15, 11, 30, 8])
    b = _with_turns(frame(["won"] * 6), [14, 13, 25, 18, 21, 40])
    c = compare_means(a, b, spec, None)
    x, y = np.array([10, 12, 9, 20, 15, 11, 30, 8.0]), np.array([14, 13, 25, 18, 21, 40.0])
    ma, mb, sa, sb = x.mean(), y.mean(), x.std(ddof=1), y.std(ddof=1)
    diff = mt.welch(ma, sa * sa, 8, mb, sb * sb, 6)
    assert (c.difference.value, c.difference.low, c.difference.high) == pytest.approx(
        tuple(map(float, diff[:3]))
    )
    assert (c.statistic, c.p, c.difference.n) == (
        pytest.approx(diff[3]),
        pytest.approx(diff[4]),
        14,
    )
    tost = mt.welch(ma, sa * sa, 8, mb, sb * sb, 6, TOST_LEVEL)
    assert c.tost == pytest.approx((tost[1], tost[2]))
    ratio = mt.log_ratio(ma, sa * sa / 8, mb, sb * sb / 6)
    assert (c.ratio.value, c.ratio.low, c.ratio.high) == pytest.approx(tuple(map(float, ratio)))
    assert c.ratio.n == 14
    pooled = math.sqrt((7 * sa * sa + 5 * sb * sb) / 12)
    assert (c.effect_name, c.effect) == ("Cohen's d", pytest.approx((mb - ma) / pooled))
    assert (c.test, c.status, c.direction, c.paired) == ("Welch t", "tested", 1, False)
    a6 = _with_turns(frame(["won"] * 6), [10, 12, 9, 20, 15, 11])
    p = compare_means(a6, b, spec, paired_values(a6, b, spec))
    x6 = x[:6]
    d = y - x6
    paired = mt.paired_t(d.mean(), d.std(ddof=1), 6)
    assert (p.difference.value, p.difference.low, p.difference.high) == pytest.approx(
        tuple(map(float, paired[:3]))
    )
    tost = mt.paired_t(d.mean(), d.std(ddof=1), 6, TOST_LEVEL)
    assert p.tost == pytest.approx((tost[1], tost[2])) and p.test == "paired t"
    cov = np.cov(x6, y)[0, 1]
    ratio = mt.log_ratio(x6.mean(), x6.var(ddof=1) / 6, y.mean(), y.var(ddof=1) / 6, cov / 6)
    assert (p.ratio.value, p.ratio.low, p.ratio.high) == pytest.approx(tuple(map(float, ratio)))
    zeros = _with_turns(frame(["won"] * 3), [0, 0, 0])
    absent = compare_means(zeros, zeros, spec, None)
    assert absent.status == "absent" and math.isnan(absent.p)
    with pytest.raises(ResultsError, match=r"^no values of turns in these results"):
        compare_means(a, frame([]), spec, None)
    with pytest.raises(ResultsError, match=r"^no paired values of turns in these results"):
        compare_means(frame([]), frame([]), spec, paired_values(frame([]), frame([]), spec))


def test_quantiles_field_by_field_independent_and_paired() -> None:
    from uno_stats.analysis.estimates import normal_interval
    from uno_stats.analysis.quantile_diff import independent_quantile_replicates, paired_resamples
    from uno_stats.analysis.quantiles import bootstrap_se
    from uno_stats.analysis.two_sample import compare_quantiles

    spec = metric_spec("median_turns")
    xs, ys = [10, 12, 9, 20, 15, 11, 30, 8], [14, 13, 25, 18, 21, 40, 16, 12]
    a, b = _with_turns(frame(["won"] * 8), xs), _with_turns(frame(["won"] * 8), ys)
    c = compare_quantiles(a, b, spec, None, 200, 3)
    va, ca = np.unique(xs, return_counts=True)
    vb, cb = np.unique(ys, return_counts=True)
    reps = independent_quantile_replicates(va, ca, vb, cb, 0.5, 200, np.random.default_rng(3))
    assert c.baseline == Estimate(reps.a, *normal_interval(reps.a, bootstrap_se(reps.reps_a)), 8)
    assert c.other == Estimate(reps.b, *normal_interval(reps.b, bootstrap_se(reps.reps_b)), 8)
    assert c.difference == Estimate(reps.estimate, *reps.interval(), 16)
    log_se = bootstrap_se(np.log(reps.reps_b / reps.reps_a))
    low, high = np.exp(normal_interval(math.log(reps.b / reps.a), log_se))
    assert c.ratio == Estimate(reps.b / reps.a, float(low), float(high), 16)
    assert (c.statistic, c.p, c.tost) == (
        reps.estimate / reps.se,
        reps.p,
        reps.interval(TOST_LEVEL),
    )
    assert (c.test, c.effect_name, c.effect, c.status) == (
        "bootstrap SE",
        "shift",
        reps.estimate,
        "tested",
    )
    p = compare_quantiles(a, b, spec, paired_values(a, b, spec), 200, 3)
    joint = pl.DataFrame({"a": xs, "b": ys}).group_by("a", "b").agg(pl.len().alias("k"))
    joint = joint.sort("a", "b")
    drawn = paired_resamples(
        joint["a"].to_numpy(), joint["b"].to_numpy(), joint["k"].to_numpy(), 200,
        np.random.default_rng(3),
    )  # fmt: skip
    paired = drawn.replicates(0.5)
    assert p.difference == Estimate(paired.estimate, *paired.interval(), 16)
    assert (p.test, p.status, p.paired) == ("paired bootstrap SE", "tested", True)
    zero = _with_turns(frame(["won"] * 4), [0, 0, 0, 0])
    absent = compare_quantiles(zero, zero, spec, None, 50, 1)
    assert absent.status == "absent" and math.isnan(absent.ratio.value)
    assert compare_quantiles(a, a, spec, paired_values(a, a, spec), 50, 1).status == "identical"


def test_the_first_movers_share_counts_won_rounds_it_won() -> None:
    spec = metric_spec("first_mover_win_rate")
    a = frame(["won", "won", "won", "void"], [0, 1, 1, -1]).with_columns(
        pl.Series("first_player", [0, 0, 1, 1], dtype=pl.Int8)
    )  # the first mover won rounds 0 and 2 of 3 won rounds
    b = frame(["won", "won", "won", "won"], [1, 1, 0, 0]).with_columns(
        pl.Series("first_player", [0, 1, 2, 0], dtype=pl.Int8)
    )  # rounds 1 and 3 of 4
    c = compare_rates(a, b, spec, None)
    assert c.baseline == proportion(2, 3) and c.other == proportion(2, 4)
    assert c.question == "first mover"


def test_quantiles_of_small_values_the_shared_draws_and_empty_results() -> None:
    from uno_stats.analysis.two_sample import compare_quantiles

    spec = metric_spec("median_turns")
    a = _with_turns(frame(["won"] * 8), [0, 0, 1, 1, 0, 1, 0, 1])
    b = _with_turns(frame(["won"] * 8), [1, 1, 2, 1, 0, 2, 1, 1])
    c = compare_quantiles(a, b, spec, None, 100, 2)
    assert 0 < c.baseline.value < 1 and c.ratio.value == c.other.value / c.baseline.value
    se = (c.difference.high - c.difference.low) / (2 * 1.959963984540054)
    assert 0 < se < 1 and c.statistic == pytest.approx(c.difference.value / se, rel=1e-6)
    pairs = paired_values(a, b, spec)
    cache: dict = {}
    first = compare_quantiles(a, b, spec, pairs, 100, 2, cache)
    assert list(cache) == [("turns", 100, 2)] and cache[("turns", 100, 2)] is not None
    p90 = metric_spec("p90_turns")
    assert compare_quantiles(a, b, p90, pairs, 100, 2, cache) == compare_quantiles(
        a, b, p90, pairs, 100, 2
    )
    assert first == compare_quantiles(a, b, spec, pairs, 100, 2)
    zero = _with_turns(frame(["won"] * 4), [0, 0, 0, 0])
    assert compare_quantiles(zero, zero, spec, paired_values(zero, zero, spec), 20, 1).status == (
        "absent"
    )
    empty = frame([])
    with pytest.raises(ResultsError, match=r"^no values of turns in these results"):
        compare_quantiles(a, empty, spec, None, 20, 1)
    with pytest.raises(ResultsError, match=r"^no paired values of turns in these results"):
        compare_quantiles(empty, empty, spec, paired_values(empty, empty, spec), 20, 1)


# --- the survivors of the mutation run (docs/MUTATION.md) ---------------------------------


def test_sign_of_a_difference_is_zero_when_it_is_not_finite() -> None:
    from uno_stats.analysis.two_sample import _sign

    assert (_sign(2.5), _sign(-0.1), _sign(0.0)) == (1, -1, 0)
    assert (_sign(math.inf), _sign(-math.inf), _sign(math.nan)) == (0, 0, 0)


def test_the_first_movers_edge_counts_the_rounds_its_share_counts() -> None:
    a = frame(["won", "won", "won", "void"], [0, 1, 1, -1]).with_columns(
        pl.Series("first_player", [0, 0, 1, 1], dtype=pl.Int8)
    )  # the first mover won rounds 0 and 2 of 3 won rounds
    b = frame(["won", "won", "won", "won"], [1, 1, 0, 0]).with_columns(
        pl.Series("first_player", [0, 1, 2, 0], dtype=pl.Int8)
    )  # rounds 1 and 3 of 4
    c = compare_rates(a, b, metric_spec("first_mover_edge"), None)
    assert c.baseline == proportion(2, 3) and c.other == proportion(2, 4)


def test_a_chain_of_zero_cards_is_in_every_round() -> None:
    a = frame(["won"] * 4).with_columns(pl.Series("longest_stack", [0, 0, 2, 4], dtype=pl.UInt8))
    b = frame(["won"] * 3).with_columns(pl.Series("longest_stack", [0, 1, 0], dtype=pl.UInt8))
    c = compare_rates(a, b, metric_spec("chain0_rate"), None)
    assert c.baseline == proportion(4, 4) and c.other == proportion(3, 3)
    two = compare_rates(a, b, metric_spec("chain2_rate"), None)
    assert two.baseline == proportion(2, 4) and two.other == proportion(0, 3)


def test_paired_means_of_two_pairs_have_a_ratio_with_their_covariance() -> None:
    spec = metric_spec("mean_turns")
    a = frame(["won", "won"])  # turns 10, 11
    b = _with_turns(a, [12, 15])
    c = compare_means(a, b, spec, paired_values(a, b, spec))
    x, y = np.array([10.0, 11.0]), np.array([12.0, 15.0])
    cov = float(np.cov(x, y)[0, 1])  # 1.5
    ratio = mt.log_ratio(10.5, 0.5 / 2, 13.5, 4.5 / 2, cov / 2)
    assert (c.ratio.value, c.ratio.low, c.ratio.high) == pytest.approx(tuple(map(float, ratio)))
    assert math.isfinite(c.ratio.low) and cov == 1.5


def test_paired_means_whose_differences_cancel_are_tested_not_identical() -> None:
    spec = metric_spec("mean_turns")
    a = frame(["won"] * 4)  # turns 10-13
    b = _with_turns(a, [11, 10, 13, 12])  # differences +1 -1 +1 -1: mean 0, sd > 0
    c = compare_means(a, b, spec, paired_values(a, b, spec))
    assert c.status == "tested" and c.p == pytest.approx(1.0) and c.direction == 0
    same = compare_means(a, a, spec, paired_values(a, a, spec))
    assert same.status == "identical" and math.isnan(same.p)


def test_independent_means_of_one_value_each_have_no_spread() -> None:
    spec = metric_spec("mean_turns")
    one = frame(["won"])  # polars gives no sd (null) for one value
    c = compare_means(one, _with_turns(one, [14]), spec, None)
    assert (c.baseline.value, c.other.value, c.difference.value) == (10.0, 14.0, 4.0)
    assert math.isnan(c.baseline.low) and math.isnan(c.difference.low) and math.isnan(c.effect)
    assert c.status == "tested" and c.direction == 1


def test_cohens_d_of_spreads_below_one_and_of_no_spread() -> None:
    spec = metric_spec("mean_x")

    def xs(values: list[float]) -> pl.LazyFrame:
        return pl.LazyFrame({"game": range(len(values)), "round": [0] * len(values), "x": values})

    small_a, small_b = [0.0, 0.5, 0.0, 0.5], [0.5, 1.0, 0.5, 0.5]
    c = compare_means(xs(small_a), xs(small_b), spec, None)
    pooled = math.sqrt((3 * np.var(small_a, ddof=1) + 3 * np.var(small_b, ddof=1)) / 6)
    assert 0 < pooled < 1 and c.effect == pytest.approx((0.625 - 0.25) / pooled)
    flat = compare_means(xs([5.0, 5.0]), xs([5.0, 5.0, 5.0]), spec, None)
    assert flat.effect == 0.0 and flat.status == "tested"  # no spread, no difference: d = 0
    apart = compare_means(xs([5.0, 5.0]), xs([7.0, 7.0]), spec, None)
    assert math.isnan(apart.effect) and apart.status == "tested"  # no spread: d undefined
    assert apart.direction == 1


def test_means_are_absent_only_when_both_runs_are_zero_everywhere() -> None:
    spec = metric_spec("mean_turns")
    zeros = _with_turns(frame(["won"] * 3), [0, 0, 0])
    spread = _with_turns(frame(["won"] * 3), [1, 2, 3])
    flat = _with_turns(frame(["won"] * 3), [4, 4, 4])
    for a, b in ((spread, flat), (zeros, spread), (spread, zeros), (flat, flat)):
        assert compare_means(a, b, spec, None).status == "tested"
    assert compare_means(zeros, zeros, spec, None).status == "absent"


def test_quantiles_are_absent_only_when_both_runs_are_zero_everywhere() -> None:
    from uno_stats.analysis.two_sample import compare_quantiles

    spec = metric_spec("median_turns")
    zeros = _with_turns(frame(["won"] * 4), [0, 0, 0, 0])
    some = _with_turns(frame(["won"] * 4), [0, 3, 1, 2])
    for a, b in ((zeros, some), (some, zeros)):
        assert compare_quantiles(a, b, spec, None, 20, 1).status == "tested"
        assert compare_quantiles(a, b, spec, paired_values(a, b, spec), 20, 1).status == "tested"


def _turns_frame(turns: list[int]) -> pl.LazyFrame:
    return _with_turns(frame(["won"] * len(turns)), turns)


def test_quantile_ratio_of_values_below_one_and_zero_replicates() -> None:
    import warnings

    from uno_stats.analysis.estimates import normal_interval
    from uno_stats.analysis.quantile_diff import independent_quantile_replicates
    from uno_stats.analysis.quantiles import bootstrap_se
    from uno_stats.analysis.two_sample import compare_quantiles

    spec = metric_spec("p25_turns")  # a p25 of 0 in a resample holding half zeros or more
    xs, ys = [0, 0, 0, 0, 1, 1, 1, 2, 3, 4], [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 0/0 and x/0 of zero replicates stay silent
        c = compare_quantiles(_turns_frame(xs), _turns_frame(ys), spec, None, 200, 5)
    va, ca = np.unique(xs, return_counts=True)
    vb, cb = np.unique(ys, return_counts=True)
    reps = independent_quantile_replicates(va, ca, vb, cb, 0.25, 200, np.random.default_rng(5))
    ra, rb = reps.reps_a, reps.reps_b
    assert np.any(ra == 0) and np.any(rb == 0) and np.any((ra == 0) & (rb == 0))
    assert np.any((rb > 0) & (rb <= 1))
    both = (ra > 0) & (rb > 0)
    log_se = bootstrap_se(np.log(rb[both] / ra[both]))
    ratio = reps.b / reps.a
    assert 0 < ratio < 1
    low, high = np.exp(normal_interval(math.log(ratio), log_se))
    assert c.ratio == Estimate(ratio, float(low), float(high), 20)
    zero_b = [0, 0, 0, 0, 0, 0, 1, 2, 3, 4]  # its p25 is 0: a ratio of 0, no interval
    z = compare_quantiles(_turns_frame(xs), _turns_frame(zero_b), spec, None, 200, 5)
    assert z.ratio.value == 0.0 and math.isnan(z.ratio.low) and math.isnan(z.ratio.high)


def test_paired_quantiles_of_one_column_draw_their_resamples_once(monkeypatch) -> None:
    from uno_stats.analysis import two_sample
    from uno_stats.analysis.two_sample import compare_quantiles

    calls = []

    def counted(*args, **kwargs):
        calls.append(args[3])
        return paired_resamples(*args, **kwargs)

    paired_resamples = two_sample.paired_resamples
    monkeypatch.setattr(two_sample, "paired_resamples", counted)
    a, b = _turns_frame([3, 1, 4, 1, 5, 9]), _turns_frame([2, 6, 5, 3, 5, 8])
    pairs = paired_values(a, b, metric_spec("median_turns"))
    cache: dict = {}
    for key in ("median_turns", "p90_turns", "p25_turns"):
        compare_quantiles(a, b, metric_spec(key), pairs, 30, 4, cache)
    assert calls == [30]  # drawn for the median, reused for p90 and p25
    compare_quantiles(a, b, metric_spec("p90_turns"), pairs, 30, 4)
    assert calls == [30, 30]  # without a cache: drawn again

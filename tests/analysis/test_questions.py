"""Statistics: every answer checked against a hand computation, intervals by coverage."""

from __future__ import annotations

import math
import statistics

import numpy as np
import polars as pl
import pytest
from helpers import run_manifest, write_run
from scipy import stats as st

from uno_stats.analysis import questions as stats
from uno_stats.analysis.compare import compare_runs, metric_spec, with_holm
from uno_stats.analysis.estimates import (
    bootstrap_quantiles,
    format_p,
    mean_estimate,
    quantile_estimates,
    quantile_from_counts,
    wilson,
)
from uno_stats.errors import ResultsError
from uno_stats.run.results import open_runs

Z = st.norm.ppf(0.975)

# Ten hand-made rounds at a 3-player table: 8 won, 1 void, 1 capped.
TURNS = [12, 7, 20, 30, 9, 15, 11, 25, 8, 40]
STATUS = ["won", "won", "won", "void", "won", "won", "won", "won", "won", "capped"]
WINNER = [0, 1, 2, -1, 0, 0, 1, 0, 2, -1]
FIRST = [0, 0, 1, 0, 0, 2, 0, 0, 0, 0]
MAX_DEFICIT = [
    [0, 2, 3],
    [1, 0, 4],
    [2, 5, 0],
    [3, 3, 3],
    [0, 1, 1],
    [0, 2, 6],
    [3, 0, 2],
    [2, 4, 2],
    [5, 3, 2],
    [2, 2, 2],
]
POINTS = [
    [0, 10, 20],
    [5, 0, 7],
    [8, 12, 0],
    [9, 9, 9],
    [0, 4, 6],
    [0, 30, 2],
    [3, 0, 1],
    [0, 7, 7],
    [11, 2, 0],
    [1, 1, 1],
]
HANDS_T5 = [
    [2, 4, 5],
    [3, 1, 6],
    [4, 4, 2],
    [5, 5, 5],
    [1, 2, 2],
    [2, 3, 6],
    [4, 2, 3],
    [3, 2, 4],
    [6, 3, 2],
    [3, 3, 3],
]
HANDS_T10 = [
    [1, 3, 4],
    None,
    [3, 5, 1],
    [4, 4, 4],
    None,
    [1, 2, 5],
    [3, 1, 2],
    [1, 4, 3],
    None,
    [2, 2, 2],
]
CARDS = [5, 3, 9, 12, 2, 6, 4, 10, 3, 15]


def hand_frame(status_as_codes: bool = False) -> pl.LazyFrame:
    """The ten rounds above with the dtypes the runner writes."""
    status = [("won", "void", "capped").index(s) for s in STATUS] if status_as_codes else STATUS
    return pl.LazyFrame(
        {
            "players": [3] * 10,
            "winner": WINNER,
            "first_player": FIRST,
            "status": status,
            "turns": TURNS,
            "cards_drawn": CARDS,
            "max_deficit": MAX_DEFICIT,
            "points": POINTS,
            "hands_t5": HANDS_T5,
            "hands_t10": HANDS_T10,
        },
        schema={
            "players": pl.UInt8,
            "winner": pl.Int8,
            "first_player": pl.UInt8,
            "status": pl.UInt8 if status_as_codes else pl.String,
            "turns": pl.UInt32,
            "cards_drawn": pl.UInt32,
            "max_deficit": pl.List(pl.UInt8),
            "points": pl.List(pl.UInt16),
            "hands_t5": pl.List(pl.UInt8),
            "hands_t10": pl.List(pl.UInt8),
        },
    )


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    """Wilson score interval, written out: (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    p = k / n
    centre = p + Z * Z / (2 * n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return (centre - half) / (1 + Z * Z / n), (centre + half) / (1 + Z * Z / n)


def t_interval_by_hand(xs: list[float]) -> tuple[float, float]:
    m, s = statistics.fmean(xs), statistics.stdev(xs)
    half = st.t.ppf(0.975, len(xs) - 1) * s / math.sqrt(len(xs))
    return m - half, m + half


# --- primitives -----------------------------------------------------------------------------


def test_wilson_matches_formula_and_scipy() -> None:
    for k, n in [(0, 10), (3, 10), (10, 10), (61, 200), (5, 1_000_000)]:
        _, low, high = wilson(k, n)
        assert (low, high) == pytest.approx(wilson_by_hand(k, n), abs=1e-12)
        ci = st.binomtest(k, n).proportion_ci(method="wilson")
        assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_quantile_is_inverted_cdf() -> None:
    values, counts = np.unique(TURNS, return_counts=True)
    for q in (0.1, 0.25, 0.5, 0.9, 0.99, 1.0):
        expected = np.quantile(TURNS, q, method="inverted_cdf")
        assert quantile_from_counts(values.astype(float), counts, q) == expected
    # by hand: sorted 7 8 9 11 12 15 20 25 30 40 -> 5th value, 9th value
    assert quantile_from_counts(values.astype(float), counts, 0.5) == 12
    assert quantile_from_counts(values.astype(float), counts, 0.9) == 30


def test_bootstrap_both_paths_resample_rows() -> None:
    """Index resampling (few ties) and multinomial counts (many ties) agree in distribution."""
    values = np.arange(1.0, 6.0)
    counts = np.array([40, 30, 20, 8, 2])  # n = 100 > 8 x 5 values: multinomial path
    many = bootstrap_quantiles(values, counts, [0.5], 4000, seed=1)[0]
    rows = np.repeat(values, counts)
    distinct = rows + np.linspace(0, 1e-6, rows.size)  # break ties: index path
    few = np.round(bootstrap_quantiles(distinct, np.ones(100, int), [0.5], 4000, seed=2)[0])
    share_many = np.array([(many == v).mean() for v in values])
    share_few = np.array([(few == v).mean() for v in values])
    # exact bootstrap law of the median (rank 50 of 100): P(q* <= v) = P(Bin(100, F(v)) >= 50)
    cdf = st.binom.sf(49, 100, np.cumsum(counts) / 100)
    exact = np.diff(np.concatenate(([0.0], cdf)))
    assert share_many == pytest.approx(exact, abs=0.03)
    assert share_few == pytest.approx(exact, abs=0.03)
    again = bootstrap_quantiles(values, counts, [0.5], 4000, seed=1)[0]
    assert np.array_equal(many, again), "same seed, same replicates"


def test_holm_on_known_vector() -> None:
    # sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1 = 0.02, 0.03, 0.06, 0.04 -> cummax
    got = stats.holm([0.01, 0.04, 0.03, 0.005])
    assert got == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])
    with_nan = stats.holm([0.01, float("nan"), 0.02])
    assert with_nan[0] == pytest.approx(0.02) and math.isnan(with_nan[1])
    assert with_nan[2] == pytest.approx(0.02)


def test_format_p() -> None:
    assert format_p(0.0) == "p < 1e-300"
    assert format_p(1.0) == "p = 1"
    assert format_p(0.04567) == "p = 0.0457"
    assert format_p(3.2e-12) == "p = 3.2e-12"


# --- each question on the hand-made frame ---------------------------------------------------


@pytest.mark.parametrize("codes", [False, True])
def test_status_counts(codes: bool) -> None:
    s = stats.status_counts(hand_frame(codes))
    assert (s.n, s.counts) == (10, (8, 1, 1, 0))
    assert s.exhausted.value == 0.0 and s.shares[1] == s.void
    assert s.void.value == 0.1
    assert (s.void.low, s.void.high) == pytest.approx(wilson_by_hand(1, 10))


def test_round_length_by_hand() -> None:
    length = stats.round_length(hand_frame())
    assert length.n == 10
    assert length.mean.value == pytest.approx(17.7)  # 177 / 10
    assert (length.mean.low, length.mean.high) == pytest.approx(t_interval_by_hand(TURNS))
    assert length.sd == pytest.approx(statistics.stdev(TURNS))
    assert (length.p10.value, length.median.value, length.p90.value, length.p99.value) == (
        7,
        12,
        30,
        40,
    )
    assert (length.minimum, length.maximum) == (7, 40)
    for q in (length.p10, length.median, length.p90, length.p99):
        assert min(TURNS) <= q.low <= q.value <= q.high <= max(TURNS)


def test_survival_and_histogram_by_hand() -> None:
    curve = stats.survival_curve(hand_frame(), max_t=40)
    assert curve.survival[0] == 1.0
    assert curve.survival[10] == pytest.approx(0.7)  # 12 20 30 15 11 25 40 exceed 10
    assert curve.survival[40] == 0.0
    assert (curve.low[10], curve.high[10]) == pytest.approx(wilson_by_hand(7, 10))
    hist = stats.turns_histogram(hand_frame(), width=10, max_value=39)
    assert hist.counts.tolist() == [3, 3, 2, 1]  # 7 8 9 | 11 12 15 | 20 25 | 30
    assert hist.overflow == 1 and hist.n == 10
    assert hist.edges.tolist() == [0, 10, 20, 30, 40]


def test_seat_win_rates_and_chi_square_by_hand() -> None:
    seats = stats.seat_win_rates(hand_frame(), 3)
    assert seats.wins == (4, 2, 2) and seats.n_won == 8
    assert seats.seats[0].value == 0.5
    assert (seats.seats[1].low, seats.seats[1].high) == pytest.approx(wilson_by_hand(2, 8))
    # ((4 - 8/3)^2 + 2 (2 - 8/3)^2) / (8/3) = 1
    assert seats.chi_square.statistic == pytest.approx(1.0)
    assert seats.chi_square.p == pytest.approx(math.exp(-0.5))  # chi2(2) survival at 1
    ref = st.chisquare([4, 2, 2])
    assert stats.seat_chi_square(hand_frame(), 3).p == pytest.approx(ref.pvalue)


def test_first_seat_points_edge_by_hand() -> None:
    # per won round: first player's score minus the other seats' mean score
    d = [30, -6, -10, 10, -16, -2, 14, -6.5]
    edge = stats.first_seat_points_edge(hand_frame(), 3)
    assert edge.edge.value == pytest.approx(1.6875)  # 13.5 / 8
    assert (edge.edge.low, edge.edge.high) == pytest.approx(t_interval_by_hand(d))
    ref = st.ttest_1samp(d, 0.0)
    assert (edge.t, edge.p) == pytest.approx((ref.statistic, ref.pvalue))
    assert edge.first.value == pytest.approx(54 / 8)  # 30 + 10 + 14


def test_comeback_curve_by_hand() -> None:
    curve = stats.comeback_curve(hand_frame(), 3, ks=[1, 2, 3])
    # won rounds only; seat-rounds with max_deficit >= k, and those that won
    assert [r.n for r in curve.rates] == [18, 15, 8]
    assert curve.wins == (2, 2, 0)
    assert curve.rates[1].value == pytest.approx(2 / 15)
    assert (curve.rates[1].low, curve.rates[1].high) == pytest.approx(wilson_by_hand(2, 15))
    assert curve.overall == pytest.approx(1 / 3)


def test_deficit_table_by_hand() -> None:
    table = stats.deficit_win_table(hand_frame(), 3)
    assert table.turns.tolist() == [5, 10]
    # t = 5: eight won rounds x 3 seats; d = 0 held 8 times (7 wins), d = 1 six times (1 win)
    assert (table.n[0, 0], table.wins[0, 0]) == (8, 7)
    assert (table.n[1, 0], table.wins[1, 0]) == (6, 1)
    assert table.n[:, 0].sum() == 24
    # t = 10: five won rounds still running; every winner held the smallest hand
    assert (table.n[0, 1], table.wins[0, 1]) == (5, 5)
    assert table.n[:, 1].sum() == 15
    assert (table.low[1, 0], table.high[1, 0]) == pytest.approx(wilson_by_hand(1, 6))


def test_strategy_strength_by_hand() -> None:
    seats = [{"strategy": "random"}, {"strategy": "random"}, {"strategy": "random", "bluff": 0.2}]
    rows = {r.label: r for r in stats.strategy_strength(hand_frame(), seats)}
    plain, bluffer = rows["random"], rows["random (bluff=0.2)"]
    assert plain.seats == (0, 1) and bluffer.seats == (2,)
    assert (plain.win.n, bluffer.win.n) == (16, 8)
    assert (plain.win.value, bluffer.win.value) == (6 / 16, 2 / 8)
    # the winner scores the round's whole remaining points; 30+12+10+32+4+14 for seats 0-1
    scored = [30, 0, 0, 12, 0, 0, 10, 0, 32, 0, 0, 4, 14, 0, 0, 0]
    assert plain.points_scored.value == pytest.approx(102 / 16)
    assert (plain.points_scored.low, plain.points_scored.high) == pytest.approx(
        t_interval_by_hand(scored)
    )
    assert bluffer.points_scored.value == pytest.approx(33 / 8)
    assert plain.points_left.value == pytest.approx(92 / 16)


def test_partners_scoring_credits_both_partners() -> None:
    lf = pl.LazyFrame(
        {
            "players": [4, 4],
            "status": ["won", "won"],
            "winner": [0, 3],
            "first_player": [0, 0],
            "points": [[0, 5, 7, 9], [4, 6, 8, 0]],
        },
        schema_overrides={"points": pl.List(pl.UInt16), "winner": pl.Int8},
    )
    # round 1: pair 0+2 scores seats 1 and 3 (5 + 9); round 2: pair 1+3 scores 4 + 8
    rows = stats.strategy_strength(lf, [{"strategy": "random"}], scoring="partners")
    assert rows[0].points_scored.value == pytest.approx((14 * 2 + 12 * 2) / 8)
    edge = stats.first_seat_points_edge(lf, 4, scoring="partners")
    # first player (seat 0): 14 then 0; others' mean: (0 + 14 + 0) / 3, then (12 + 0 + 12) / 3
    assert edge.edge.value == pytest.approx(((14 - 14 / 3) + (0 - 8)) / 2)


def test_match_length_by_hand() -> None:
    lf = pl.LazyFrame(
        {
            "players": [2] * 7,
            "status": ["won"] * 7,
            "winner": [0, 1, 0, 0, 1, 1, 1],
            "turns": [10] * 7,
            "match_rounds": [None, 3, None, 2, 1, None, None],
            "match_winner": [None, 1, None, 0, 1, None, None],
        },
        schema_overrides={"match_rounds": pl.UInt16, "match_winner": pl.Int8},
    )
    assert stats.has_matches(lf)
    m = stats.match_length(lf)
    assert m.sides == 2 and m.length.n == 3 and m.length.mean.value == pytest.approx(2.0)
    assert (m.length.mean.low, m.length.mean.high) == pytest.approx(t_interval_by_hand([3, 2, 1]))
    assert m.wins == (1, 2)
    no_match = lf.with_columns(pl.lit(None, pl.UInt16).alias("match_rounds"))
    assert not stats.has_matches(no_match)
    with pytest.raises(ResultsError):
        stats.match_length(no_match, 2)


def test_empty_frames_raise() -> None:
    empty = hand_frame().head(0)
    for call in (
        lambda: stats.status_counts(empty),
        lambda: stats.round_length(empty),
        lambda: stats.survival_curve(empty),
        lambda: stats.seat_win_rates(empty, 3),
        lambda: stats.comeback_curve(empty, 3),
        lambda: stats.deficit_win_table(empty, 3),
        lambda: stats.first_seat_points_edge(empty, 3),
    ):
        with pytest.raises(ResultsError) as info:
            call()
        assert "\n" not in str(info.value)


# --- comparisons ----------------------------------------------------------------------------

A_TURNS = [12, 7, 20, 30, 9, 15, 11, 25, 8, 40]
B_TURNS = [14, 9, 26, 35, 12, 18, 13, 31, 10, 44, 21, 16]


def turns_frame(turns: list[int], void: int = 0, players: int = 4) -> pl.LazyFrame:
    n = len(turns)
    status = ["void"] * void + ["won"] * (n - void)
    winner = [-1] * void + [i % players for i in range(n - void)]
    return pl.LazyFrame(
        {"turns": turns, "status": status, "winner": winner, "players": [players] * n},
        schema_overrides={"turns": pl.UInt32, "winner": pl.Int8},
    )


def test_compare_mean_against_scipy_welch() -> None:
    c = stats.compare_metric(turns_frame(A_TURNS), turns_frame(B_TURNS), "mean_turns")
    ref = st.ttest_ind(B_TURNS, A_TURNS, equal_var=False)
    ci = ref.confidence_interval(0.95)
    assert c.test == "Welch t"
    assert (c.statistic, c.p) == pytest.approx((ref.statistic, ref.pvalue))
    assert c.difference.value == pytest.approx(np.mean(B_TURNS) - np.mean(A_TURNS))
    assert (c.difference.low, c.difference.high) == pytest.approx((ci.low, ci.high))
    ma, mb = np.mean(A_TURNS), np.mean(B_TURNS)
    va, vb = np.var(A_TURNS, ddof=1) / 10, np.var(B_TURNS, ddof=1) / 12
    se_log = math.sqrt(va / ma**2 + vb / mb**2)  # delta method on log(mb / ma)
    assert c.ratio.value == pytest.approx(mb / ma)
    assert c.ratio.low == pytest.approx(mb / ma * math.exp(-Z * se_log))
    pooled = math.sqrt((9 * np.var(A_TURNS, ddof=1) + 11 * np.var(B_TURNS, ddof=1)) / 20)
    assert c.effect == pytest.approx((mb - ma) / pooled)


def test_compare_quantile_against_scipy_mann_whitney() -> None:
    c = stats.compare_metric(turns_frame(A_TURNS), turns_frame(B_TURNS), "median_turns")
    ref = st.mannwhitneyu(B_TURNS, A_TURNS, method="asymptotic")
    assert c.test == "Mann-Whitney U"
    assert (c.statistic, c.p) == pytest.approx((ref.statistic, ref.pvalue))
    assert c.effect == pytest.approx(2 * ref.statistic / 120 - 1)  # rank-biserial
    # medians (inverted CDF): 12 and 16
    assert (c.baseline.value, c.other.value, c.difference.value) == (12, 16, 4)
    assert c.difference.low <= 4 <= c.difference.high


def test_compare_rate_by_hand() -> None:
    a, b = turns_frame([10] * 200, void=20), turns_frame([10] * 300, void=60)
    c = stats.compare_metric(a, b, "void_rate")
    pa, pb, pooled = 20 / 200, 60 / 300, 80 / 500
    z = (pb - pa) / math.sqrt(pooled * (1 - pooled) * (1 / 200 + 1 / 300))
    assert c.statistic == pytest.approx(z)
    assert c.p == pytest.approx(2 * st.norm.sf(abs(z)))
    assert c.difference.value == pytest.approx(0.1)
    (la, ua), (lb, ub) = wilson_by_hand(20, 200), wilson_by_hand(60, 300)
    assert c.difference.low == pytest.approx(0.1 - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2))
    assert c.difference.high == pytest.approx(0.1 + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2))
    se = math.sqrt(1 / 60 - 1 / 300 + 1 / 20 - 1 / 200)  # Katz log risk ratio
    assert c.ratio.value == pytest.approx(2.0)
    assert (c.ratio.low, c.ratio.high) == pytest.approx(
        (2 * math.exp(-Z * se), 2 * math.exp(Z * se))
    )
    h = 2 * math.asin(math.sqrt(pb)) - 2 * math.asin(math.sqrt(pa))
    assert c.effect == pytest.approx(h)


def test_metric_names() -> None:
    assert metric_spec("p90_turns").q == 0.9
    assert metric_spec("seat2_win_rate").seat == 2
    assert metric_spec("mean_cards_drawn").column == "cards_drawn"
    with pytest.raises(ResultsError, match="unknown metric"):
        metric_spec("fastest_turns")


def test_seat_difference_with_other_player_count_raises() -> None:
    with pytest.raises(ResultsError) as info:
        stats.seat_win_rate_difference(
            turns_frame(A_TURNS, players=4), turns_frame(B_TURNS, players=3)
        )
    message = str(info.value)
    assert "player counts" in message and "\n" not in message


def test_identical_runs_show_no_difference(tmp_path) -> None:
    a = write_run(tmp_path, "same-a", games=1500, seed=5)
    b = write_run(tmp_path, "same-b", games=1500, seed=5)
    results, notes = compare_runs(open_runs(a) + open_runs(b))
    assert not notes and len(results) == len(stats.DEFAULT_METRICS)
    for r in results:
        assert r.comparison.p == pytest.approx(1.0)
        assert r.comparison.p_holm == pytest.approx(1.0)
        assert r.comparison.difference.value == 0
        assert "no detectable difference" in r.verdict


def test_clearly_different_runs(tmp_path) -> None:
    a = write_run(tmp_path, "short", games=3000, seed=1, mean_turns=30)
    b = write_run(tmp_path, "long", games=3000, seed=2, mean_turns=45)
    results, _ = compare_runs(open_runs(a) + open_runs(b))
    by_metric = {r.comparison.metric: r for r in results}
    mean = by_metric["mean_turns"]
    assert mean.comparison.difference.low > 10 and mean.comparison.ratio.low > 1.3
    assert mean.comparison.p_holm < 1e-10
    assert mean.verdict.startswith("long makes 4-player rounds ")
    assert "% longer than short in mean turns (95% CI " in mean.verdict
    assert "n = 3,000 each" in mean.verdict
    assert "longer" in by_metric["median_turns"].verdict
    reverse, _ = compare_runs(open_runs(b) + open_runs(a))
    assert "shorter" in reverse[0].verdict and reverse[0].comparison.difference.high < 0


def test_compare_runs_skips_per_seat_metrics_across_player_counts(tmp_path) -> None:
    four = write_run(tmp_path, "four", games=500, players=4)
    three = write_run(tmp_path, "three", games=500, players=3, seed=3)
    results, notes = compare_runs(open_runs(four) + open_runs(three))
    assert "seat0_win_rate" not in {r.comparison.metric for r in results}
    assert len(notes) == 1 and "3 players against 4" in notes[0]
    with pytest.raises(ResultsError):
        compare_runs(open_runs(four) + open_runs(three), metrics=["seat0_win_rate"])
    with pytest.raises(ResultsError):
        compare_runs(open_runs(four))


def test_holm_is_applied_across_all_comparisons(tmp_path) -> None:
    a = write_run(tmp_path, "a", games=800, seed=1)
    b = write_run(tmp_path, "b", games=800, seed=2, mean_turns=41)
    results, _ = compare_runs(open_runs(a) + open_runs(b))
    raw = [r.comparison.p for r in results]
    assert [r.comparison.p_holm for r in results] == pytest.approx(list(stats.holm(raw)))
    assert all(r.comparison.family == len(results) for r in results)
    assert with_holm([]) == []


# --- whole runs ---------------------------------------------------------------------------


def test_answer_run_on_a_match_run(tmp_path) -> None:
    folder = write_run(tmp_path, "matches", games=600, seed=4, match=True)
    answers = stats.answer_run(open_runs(folder)[0])
    assert answers.match is not None and answers.match.length.n > 0
    assert answers.seats is not None and sum(answers.seats.wins) == answers.status.counts[0]
    assert answers.deficit is not None and answers.comeback is not None


def test_reads_what_the_runner_writes(tmp_path) -> None:
    """The engine-array path of results.write_part gives the same answers as a hand frame."""
    from uno_stats.engine.schema import COLUMNS
    from uno_stats.run.manifest import write_manifest
    from uno_stats.run.results import write_part

    rows, players = len(TURNS), 3
    cols: dict[str, np.ndarray] = {
        c.name: np.zeros((rows, players) if c.per_seat else rows, dtype=c.dtype) for c in COLUMNS
    }
    cols |= {
        "turns": np.array(TURNS),
        "winner": np.array(WINNER),
        "players": np.full(rows, 3),
        "status": np.array([("won", "void", "capped").index(s) for s in STATUS]),
        "first_player": np.array(FIRST),
        "max_deficit": np.array(MAX_DEFICIT),
        "points": np.array(POINTS),
        "game": np.arange(rows),
    }
    for c in COLUMNS:
        if c.nullable:
            cols[c.name + "__valid"] = np.zeros(rows, dtype=bool)
    folder = tmp_path / "engine-run"
    write_part(folder, 0, cols, players)
    write_manifest(folder, run_manifest("engine-run", rows, players))
    answers = stats.answer_run(open_runs(folder)[0])
    assert answers.status.counts == (8, 1, 1, 0)
    assert answers.length.mean.value == pytest.approx(17.7)
    assert answers.seats is not None and answers.seats.wins == (4, 2, 2)
    assert answers.match is None and answers.deficit is None


# --- interval coverage by simulation --------------------------------------------------------
# With R repeats the observed coverage of a 95% interval has binomial standard error
# sqrt(0.95 x 0.05 / R): 0.49% at R = 2000. The accepted band [93.5%, 96.5%] is 95% ± 3 SE,
# so a correct interval fails by chance about 3 times in 1000 (and these seeds are fixed).
# It also leaves room for the small known finite-sample error of each method (e.g. the t
# interval on exponential data at n = 200 covers about 94.6%, measured over 200,000 repeats).

REPEATS, BAND = 2000, (0.935, 0.965)


def test_wilson_coverage() -> None:
    rng = np.random.default_rng(11)
    k = rng.binomial(200, 0.3, size=REPEATS)
    _, low, high = wilson(k, 200)
    covered = np.mean((low <= 0.3) & (high >= 0.3))
    assert BAND[0] <= covered <= BAND[1]
    # and the exact coverage, summing the binomial law over every possible count
    ks = np.arange(201)
    _, lo, hi = wilson(ks, 200)
    exact = st.binom.pmf(ks, 200, 0.3)[(lo <= 0.3) & (hi >= 0.3)].sum()
    assert BAND[0] <= exact <= BAND[1]


def test_mean_t_interval_coverage_on_exponential_data() -> None:
    rng = np.random.default_rng(12)
    x = rng.exponential(1.0, size=(REPEATS, 200))
    m, s = x.mean(axis=1), x.std(axis=1, ddof=1)
    intervals = [mean_estimate(mi, si, 200) for mi, si in zip(m, s, strict=True)]
    for row, e in zip(x[:3], intervals[:3], strict=True):
        assert (e.low, e.high) == pytest.approx(t_interval_by_hand(list(row)))
    covered = np.mean([e.low <= 1.0 <= e.high for e in intervals])
    assert BAND[0] <= covered <= BAND[1]


@pytest.mark.slow
def test_bootstrap_median_coverage_on_exponential_data() -> None:
    rng = np.random.default_rng(13)
    true_median = math.log(2)
    hits = 0
    for i in range(REPEATS):
        sample = np.sort(rng.exponential(1.0, size=200))
        (median,) = quantile_estimates(sample, np.ones(200, dtype=np.int64), [0.5], seed=i)
        hits += median.low <= true_median <= median.high
    assert BAND[0] <= hits / REPEATS <= BAND[1]

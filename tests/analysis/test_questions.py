"""Statistics: every answer checked against a hand computation, intervals by coverage."""

from __future__ import annotations

import math
import statistics

import numpy as np
import polars as pl
import pytest
from helpers import run_manifest, write_run
from scipy import stats as st

from uno_stats.analysis import estimates, questions, seats
from uno_stats.analysis.estimates import (
    format_p,
    mean_estimate,
    wilson,
)
from uno_stats.analysis.quantiles import bootstrap_quantiles, mid_quantile, mid_quantiles
from uno_stats.errors import ResultsError
from uno_stats.store.runs import open_runs

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


def wilson_scipy(k: int, n: int) -> tuple[float, float]:
    """Wilson score interval from scipy: an expectation independent of our formula."""
    ci = st.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return ci.low, ci.high


def t_interval_scipy(xs: list[float]) -> tuple[float, float]:
    """The 95% t interval of the mean from scipy's one-sample t test."""
    ci = st.ttest_1samp(xs, 0.0).confidence_interval(0.95)
    return ci.low, ci.high


# --- primitives -----------------------------------------------------------------------------


def test_wilson_matches_formula_and_scipy() -> None:
    for k, n in [(0, 10), (3, 10), (10, 10), (61, 200), (5, 1_000_000)]:
        _, low, high = wilson(k, n)
        assert (low, high) == pytest.approx(wilson_by_hand(k, n), abs=1e-12)
        ci = st.binomtest(k, n).proportion_ci(method="wilson")
        assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_quantile_is_the_mid_quantile() -> None:
    values, counts = np.unique(TURNS, return_counts=True)
    for q in (0.1, 0.25, 0.5, 0.9, 0.99, 1.0):  # no ties: the Hazen quantile
        expected = np.quantile(TURNS, q, method="hazen")
        assert mid_quantile(values.astype(float), counts, q) == pytest.approx(expected)
    # by hand, with ties: values 1, 2, 3, 4 with shares .1, .3, .4, .2 have mid-distribution
    # .05, .25, .6, .9: the median lies 0.25 / 0.35 of the way from 2 to 3
    tied = np.array([1.0, 2.0, 3.0, 4.0]), np.array([10, 30, 40, 20])
    assert mid_quantile(*tied, 0.5) == pytest.approx(2 + 0.25 / 0.35)
    assert mid_quantile(*tied, 0.9) == 4.0 and mid_quantile(*tied, 0.01) == 1.0
    # replicates: a value missing from a resample is not part of it
    cum = np.array([[10.0, 40, 80, 100], [0, 30, 80, 100]])
    # (shares .3, .5, .2 of 2, 3, 4: mid-distribution .15, .55, .9)
    assert mid_quantiles(tied[0], cum, 0.5)[1] == pytest.approx(2 + 0.35 / 0.40)


def test_bootstrap_draws_the_rows_law() -> None:
    """Multinomial counts over distinct values give the law of resampled rows: the
    bootstrap SE of a median of n = 100 distinct values matches index resampling."""
    values = np.arange(1.0, 6.0)
    counts = np.array([40, 30, 20, 8, 2])
    many = bootstrap_quantiles(values, counts, [0.5], 4000, seed=1)[0]
    rows = np.repeat(values, counts)
    rng = np.random.default_rng(2)
    direct = []
    for _ in range(4000):
        v, k = np.unique(rng.choice(rows, rows.size), return_counts=True)
        direct.append(mid_quantile(v, k, 0.5))
    # SE of a 4,000-draw standard deviation: about 1.2%; 5 SE allowed
    assert np.std(many) == pytest.approx(np.std(direct), rel=0.06)
    assert np.mean(many) == pytest.approx(np.mean(direct), abs=0.02)
    again = bootstrap_quantiles(values, counts, [0.5], 4000, seed=1)[0]
    assert np.array_equal(many, again), "same seed, same replicates"


def test_holm_on_known_vector() -> None:
    # sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1 = 0.02, 0.03, 0.06, 0.04 -> cummax
    got = estimates.holm([0.01, 0.04, 0.03, 0.005])
    assert got == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert estimates.holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])
    with_nan = estimates.holm([0.01, float("nan"), 0.02])
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
    s = questions.status_counts(hand_frame(codes))
    assert (s.n, s.counts) == (10, (8, 1, 1, 0))
    assert s.exhausted.value == 0.0 and s.shares[1] == s.void
    assert s.void.value == 0.1
    assert (s.void.low, s.void.high) == pytest.approx(wilson_scipy(1, 10))


def test_round_length_by_hand() -> None:
    length = questions.round_length(hand_frame())
    assert length.n == 10
    assert length.mean.value == pytest.approx(17.7)  # 177 / 10
    assert (length.mean.low, length.mean.high) == pytest.approx(t_interval_scipy(TURNS))
    assert length.sd == pytest.approx(statistics.stdev(TURNS))
    quantiles = (length.p10.value, length.median.value, length.p90.value, length.p99.value)
    # mid-quantiles; without ties the Hazen quantile: sorted 7 8 9 11 12 15 20 25 30 40
    assert quantiles == pytest.approx(np.quantile(TURNS, [0.1, 0.5, 0.9, 0.99], method="hazen"))
    assert quantiles == pytest.approx((7.5, 13.5, 35, 40))
    assert (length.minimum, length.maximum) == (7, 40)
    # every length occurs once: the mode is the smallest, 7, with a share of 1/10
    assert (length.mode, length.mode_share.value, length.mode_share.n) == (7, 0.1, 10)
    # intervals: estimate +- z x bootstrap SE, symmetric around the estimate
    for q in (length.p10, length.median, length.p90):
        assert q.low < q.value < q.high
        assert q.value - q.low == pytest.approx(q.high - q.value)


def test_survival_and_histogram_by_hand() -> None:
    curve = questions.survival_curve(hand_frame(), max_t=40)
    assert curve.survival[0] == 1.0
    assert curve.survival[10] == pytest.approx(0.7)  # 12 20 30 15 11 25 40 exceed 10
    assert curve.survival[40] == 0.0
    assert (curve.low[10], curve.high[10]) == pytest.approx(wilson_scipy(7, 10))
    hist = questions.turns_histogram(hand_frame(), width=10, max_value=39)
    assert hist.counts.tolist() == [3, 3, 2, 1]  # 7 8 9 | 11 12 15 | 20 25 | 30
    assert hist.overflow == 1 and hist.n == 10
    assert hist.edges.tolist() == [0, 10, 20, 30, 40]


def test_seat_win_rates_and_chi_square_by_hand() -> None:
    rates = seats.seat_win_rates(hand_frame(), 3)
    assert rates.wins == (4, 2, 2) and rates.n_won == 8
    assert rates.seats[0].value == 0.5
    assert (rates.seats[1].low, rates.seats[1].high) == pytest.approx(wilson_scipy(2, 8))
    # ((4 - 8/3)^2 + 2 (2 - 8/3)^2) / (8/3) = 1
    assert rates.chi_square.statistic == pytest.approx(1.0)
    assert rates.chi_square.p == pytest.approx(math.exp(-0.5))  # chi2(2) survival at 1
    ref = st.chisquare([4, 2, 2])
    assert seats.seat_chi_square(hand_frame(), 3).p == pytest.approx(ref.pvalue)


def test_first_seat_points_edge_by_hand() -> None:
    # per won round: first player's score minus the other seats' mean score
    d = [30, -6, -10, 10, -16, -2, 14, -6.5]
    edge = seats.first_seat_points_edge(hand_frame(), 3)
    assert edge.edge.value == pytest.approx(1.6875)  # 13.5 / 8
    assert (edge.edge.low, edge.edge.high) == pytest.approx(t_interval_scipy(d))
    ref = st.ttest_1samp(d, 0.0)
    assert (edge.t, edge.p) == pytest.approx((ref.statistic, ref.pvalue))
    assert edge.first.value == pytest.approx(54 / 8)  # 30 + 10 + 14


def test_comeback_curve_by_hand() -> None:
    curve = seats.comeback_curve(hand_frame(), 3, ks=[1, 2, 3])
    # won rounds only; seat-rounds with max_deficit >= k, and those that won
    assert [r.n for r in curve.rates] == [18, 15, 8]
    assert curve.wins == (2, 2, 0)
    assert curve.rates[1].value == pytest.approx(2 / 15)
    assert (curve.rates[1].low, curve.rates[1].high) == pytest.approx(wilson_scipy(2, 15))
    assert curve.overall == pytest.approx(1 / 3)
    # never k behind: the other seat-rounds of the 8 won rounds (24), and the other wins
    assert [r.n for r in curve.never] == [6, 9, 16]
    assert [r.value for r in curve.never] == pytest.approx([6 / 6, 6 / 9, 8 / 16])
    # gap = behind - never with Newcombe's interval from the two Wilson intervals
    lb, ub = wilson_by_hand(2, 15)
    ln, un = wilson_by_hand(6, 9)
    gap = curve.gap[1]
    assert gap.value == pytest.approx(2 / 15 - 6 / 9)
    assert gap.low == pytest.approx(gap.value - math.hypot(2 / 15 - lb, un - 6 / 9))
    assert gap.high == pytest.approx(gap.value + math.hypot(ub - 2 / 15, 6 / 9 - ln))


def test_deficit_table_by_hand() -> None:
    table = seats.deficit_win_table(hand_frame(), 3)
    assert table.turns.tolist() == [5, 10]
    # t = 5: eight won rounds x 3 seats; d = 0 held 8 times (7 wins), d = 1 six times (1 win)
    assert (table.n[0, 0], table.wins[0, 0]) == (8, 7)
    assert (table.n[1, 0], table.wins[1, 0]) == (6, 1)
    assert table.n[:, 0].sum() == 24
    # t = 10: five won rounds still running; every winner held the smallest hand
    assert (table.n[0, 1], table.wins[0, 1]) == (5, 5)
    assert table.n[:, 1].sum() == 15
    assert (table.low[1, 0], table.high[1, 0]) == pytest.approx(wilson_scipy(1, 6))


def test_strategy_strength_by_hand() -> None:
    table = [{"strategy": "random"}, {"strategy": "random"}, {"strategy": "random", "bluff": 0.2}]
    rows = {r.label: r for r in seats.strategy_strength(hand_frame(), table)}
    plain, bluffer = rows["random"], rows["random (bluff=0.2)"]
    assert plain.seats == (0, 1) and bluffer.seats == (2,)
    assert (plain.win.n, bluffer.win.n) == (16, 8)
    assert (plain.win.value, bluffer.win.value) == (6 / 16, 2 / 8)
    # the winner scores the round's whole remaining points; 30+12+10+32+4+14 for seats 0-1
    scored = [30, 0, 0, 12, 0, 0, 10, 0, 32, 0, 0, 4, 14, 0, 0, 0]
    assert plain.points_scored.value == pytest.approx(102 / 16)
    assert (plain.points_scored.low, plain.points_scored.high) == pytest.approx(
        t_interval_scipy(scored)
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
    rows = seats.strategy_strength(lf, [{"strategy": "random"}], scoring="partners")
    assert rows[0].points_scored.value == pytest.approx((14 * 2 + 12 * 2) / 8)
    edge = seats.first_seat_points_edge(lf, 4, scoring="partners")
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
    assert estimates.has_matches(lf)
    m = questions.match_length(lf)
    assert m.sides == 2 and m.length.n == 3 and m.length.mean.value == pytest.approx(2.0)
    assert (m.length.mean.low, m.length.mean.high) == pytest.approx(t_interval_scipy([3, 2, 1]))
    assert m.wins == (1, 2)
    no_match = lf.with_columns(pl.lit(None, pl.UInt16).alias("match_rounds"))
    assert not estimates.has_matches(no_match)
    with pytest.raises(ResultsError):
        questions.match_length(no_match, 2)


def test_empty_frames_raise() -> None:
    empty = hand_frame().head(0)
    for call in (
        lambda: questions.status_counts(empty),
        lambda: questions.round_length(empty),
        lambda: questions.survival_curve(empty),
        lambda: seats.seat_win_rates(empty, 3),
        lambda: seats.comeback_curve(empty, 3),
        lambda: seats.deficit_win_table(empty, 3),
        lambda: seats.first_seat_points_edge(empty, 3),
    ):
        with pytest.raises(ResultsError) as info:
            call()
        assert "\n" not in str(info.value)


# --- whole runs ---------------------------------------------------------------------------


def test_answer_run_on_a_match_run(tmp_path) -> None:
    folder = write_run(tmp_path, "matches", games=600, seed=4, match=True)
    answers = questions.answer_run(open_runs(folder)[0])
    assert answers.match is not None and answers.match.length.n > 0
    assert answers.seats is not None and sum(answers.seats.wins) == answers.status.counts[0]
    assert answers.deficit is not None and answers.comeback is not None


def test_reads_what_the_runner_writes(tmp_path) -> None:
    """The engine-array path of results.write_part gives the same answers as a hand frame."""
    from uno_stats.engine.schema import CHECKPOINTS, COLUMNS, COLUMNS_BY_NAME, NOT_REACHED
    from uno_stats.store.manifest import write_manifest
    from uno_stats.store.parts import write_part

    rows, players = len(TURNS), 3
    cols: dict[str, np.ndarray] = {
        c.name: np.zeros(c.shape(rows, players), dtype=c.dtype) for c in COLUMNS
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
        CHECKPOINTS: np.full(COLUMNS_BY_NAME[CHECKPOINTS].shape(rows, players), NOT_REACHED, "u1"),
    }
    for c in COLUMNS:
        if c.nullable:
            cols[c.name + "__valid"] = np.zeros(rows, dtype=bool)
    folder = tmp_path / "engine-run"
    write_part(folder, 0, cols, players)
    write_manifest(folder, run_manifest("engine-run", rows, players))
    answers = questions.answer_run(open_runs(folder)[0])
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
        assert (e.low, e.high) == pytest.approx(t_interval_scipy(list(row)))
    covered = np.mean([e.low <= 1.0 <= e.high for e in intervals])
    assert BAND[0] <= covered <= BAND[1]


def test_a_seat_label_names_only_the_changed_knobs_its_strategy_reads() -> None:
    """search's knobs label a search seat; on a random seat (a run written when search's
    default rollouts was 8 stores rollouts 8) they are ignored, as the engine ignores them."""
    from uno_stats.analysis.seats import seat_label

    assert seat_label({"strategy": "random", "rollouts": 8, "bluff": 0.5}) == "random (bluff=0.5)"
    assert seat_label({"strategy": "search", "rollouts": 8}) == "search (rollouts=8)"
    assert seat_label({"strategy": "basic", "rollouts": 256}) == "basic"

"""Comparisons: each method against scipy or a hand computation, pairing, Holm, equivalence."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from helpers import run_manifest, synthetic_rows, write_run
from scipy import stats as st

from uno_stats.analysis import methods as mt
from uno_stats.analysis.compare import (
    DEFAULT_METRICS,
    compare_metric,
    compare_runs,
    equivalence,
    run_pairing,
    seat_win_rate_difference,
    with_holm,
)
from uno_stats.analysis.estimates import holm, wilson
from uno_stats.analysis.metrics import metric_spec, parse_margin
from uno_stats.errors import ResultsError
from uno_stats.present.comparison import comparison_verdict, unchanged_runs
from uno_stats.present.verdicts import check_verdict
from uno_stats.store.runs import open_runs

Z = st.norm.ppf(0.975)
A_TURNS = [12, 7, 20, 30, 9, 15, 11, 25, 8, 40]
B_TURNS = [14, 9, 26, 35, 12, 18, 13, 31, 10, 44, 21, 16]


def turns_frame(turns: list[int], void: int = 0, players: int = 4) -> pl.LazyFrame:
    n = len(turns)
    status = ["void"] * void + ["won"] * (n - void)
    winner = [-1] * void + [i % players for i in range(n - void)]
    return pl.LazyFrame(
        {
            "turns": turns,
            "status": status,
            "winner": winner,
            "players": [players] * n,
            "game": list(range(n)),
            "round": [0] * n,
        },
        schema_overrides={"turns": pl.UInt32, "winner": pl.Int8},
    )


def test_welch_against_scipy() -> None:
    c = compare_metric(turns_frame(A_TURNS), turns_frame(B_TURNS), "mean_turns")
    ref = st.ttest_ind(B_TURNS, A_TURNS, equal_var=False)
    ci = ref.confidence_interval(0.95)
    assert (c.test, c.paired, c.status) == ("Welch t", False, "tested")
    assert (c.statistic, c.p) == pytest.approx((ref.statistic, ref.pvalue))
    assert (c.difference.low, c.difference.high) == pytest.approx((ci.low, ci.high))
    ma, mb = np.mean(A_TURNS), np.mean(B_TURNS)
    va, vb = np.var(A_TURNS, ddof=1) / 10, np.var(B_TURNS, ddof=1) / 12
    se_log = math.sqrt(va / ma**2 + vb / mb**2)
    assert c.ratio.low == pytest.approx(mb / ma * math.exp(-Z * se_log))
    low90, high90 = ref.confidence_interval(0.90)
    assert c.tost == pytest.approx((low90, high90))


def test_paired_t_against_scipy() -> None:
    b = [t + d for t, d in zip(A_TURNS, [2, 1, 5, 3, 4, 2, 0, 6, 1, 3], strict=True)]
    c = compare_metric(turns_frame(A_TURNS), turns_frame(b), "mean_turns", paired=True)
    ref = st.ttest_rel(b, A_TURNS)
    ci = ref.confidence_interval(0.95)
    assert (c.test, c.paired) == ("paired t", True)
    assert (c.statistic, c.p) == pytest.approx((ref.statistic, ref.pvalue))
    assert (c.difference.low, c.difference.high) == pytest.approx((ci.low, ci.high))
    ma, mb = np.mean(A_TURNS), np.mean(b)
    cov = np.cov(A_TURNS, b)
    var_log = (cov[0, 0] / ma**2 + cov[1, 1] / mb**2 - 2 * cov[0, 1] / (ma * mb)) / 10
    assert c.ratio.high == pytest.approx(mb / ma * math.exp(Z * math.sqrt(var_log)))


def test_rates_two_proportion_and_newcombe_by_hand() -> None:
    a, b = turns_frame([10] * 200, void=20), turns_frame([10] * 300, void=60)
    c = compare_metric(a, b, "void_rate")
    pa, pb, pooled = 20 / 200, 60 / 300, 80 / 500
    z = (pb - pa) / math.sqrt(pooled * (1 - pooled) * (1 / 200 + 1 / 300))
    assert (c.statistic, c.p) == pytest.approx((z, 2 * st.norm.sf(abs(z))))
    (_, la, ua), (_, lb, ub) = wilson(20, 200), wilson(60, 300)
    assert c.difference.low == pytest.approx(0.1 - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2))
    assert c.difference.high == pytest.approx(0.1 + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2))
    se = math.sqrt(1 / 60 - 1 / 300 + 1 / 20 - 1 / 200)  # Katz log risk ratio
    assert (c.ratio.low, c.ratio.high) == pytest.approx(
        (2 * math.exp(-Z * se), 2 * math.exp(Z * se))
    )


def test_mcnemar_and_paired_newcombe_by_hand() -> None:
    # 2x2 of (a void, b void): both 30, only a 10, only b 40, neither 920
    a = [1] * 30 + [1] * 10 + [0] * 40 + [0] * 920
    b = [1] * 30 + [0] * 10 + [1] * 40 + [0] * 920
    frame = lambda v: turns_frame([10] * 1000, void=0).with_columns(  # noqa: E731
        status=pl.Series(["void" if x else "won" for x in v])
    )
    c = compare_metric(frame(a), frame(b), "void_rate", paired=True)
    z = (40 - 10) / math.sqrt(50)
    assert c.test == "McNemar"
    assert (c.statistic, c.p) == pytest.approx((z, 2 * st.norm.sf(z)))
    pa, pb = 0.04, 0.07
    (_, la, ua), (_, lb, ub) = wilson(40, 1000), wilson(70, 1000)
    phi = (30 * 920 - 10 * 40 - 500) / math.sqrt(40 * 960 * 70 * 930)
    dl, du = pb - lb, ua - pa
    low = 0.03 - math.sqrt(dl**2 - 2 * phi * dl * du + du**2)
    dl2, du2 = pa - la, ub - pb
    high = 0.03 + math.sqrt(du2**2 - 2 * phi * du2 * dl2 + dl2**2)
    assert (c.difference.low, c.difference.high) == pytest.approx((low, high))
    assert c.difference.low > 0 and c.p < 0.05
    # few discordant pairs: exact binomial
    _, p_exact = mt.mcnemar(2, 9)
    assert float(p_exact) == pytest.approx(st.binomtest(2, 11, 0.5).pvalue)


def test_quantile_row_is_a_bootstrap_with_its_own_p_value() -> None:
    c = compare_metric(turns_frame(A_TURNS), turns_frame(B_TURNS), "median_turns")
    assert c.test == "bootstrap SE"
    # mid-quantiles: without ties the Hazen quantile; (12 + 15) / 2 and (16 + 18) / 2
    a, b = (np.quantile(x, 0.5, method="hazen") for x in (A_TURNS, B_TURNS))
    assert (c.baseline.value, c.other.value, c.difference.value) == (a, b, 3.5) == (13.5, 17, 3.5)
    se = (c.difference.high - c.difference.low) / (2 * Z)
    assert c.difference.low == pytest.approx(3.5 - Z * se)
    assert c.p == pytest.approx(2 * st.norm.sf(3.5 / se))
    assert c.statistic == pytest.approx(3.5 / se)
    dist = compare_metric(turns_frame(A_TURNS), turns_frame(B_TURNS), "dist_turns")
    ref = st.mannwhitneyu(B_TURNS, A_TURNS, method="asymptotic")
    assert dist.test == "Mann-Whitney U" and dist.p == pytest.approx(ref.pvalue)
    assert dist.effect == pytest.approx(2 * ref.statistic / 120 - 1)
    assert c.p != dist.p  # the quantile row never carries the rank test's p-value


@pytest.mark.parametrize("shift", [0, 1, 3, 8])
def test_quantile_p_inverts_the_interval(shift: int) -> None:
    rng = np.random.default_rng(shift)
    a = list(rng.integers(5, 40, 300))
    b = list(np.array(rng.integers(5, 40, 300)) + shift)
    for paired in (False, True):
        c = compare_metric(turns_frame(a), turns_frame(b), "median_turns", paired=paired)
        excludes = c.difference.low > 0 or c.difference.high < 0
        assert (c.p < 0.05) == excludes
        if excludes:
            assert c.direction == (1 if c.difference.low > 0 else -1)


def test_paired_bootstrap_and_wilcoxon() -> None:
    b = [t + d for t, d in zip(A_TURNS, [2, 1, 5, 3, 4, 2, 0, 6, 1, 3], strict=True)]
    c = compare_metric(turns_frame(A_TURNS), turns_frame(b), "p90_turns", paired=True)
    assert c.test == "paired bootstrap SE" and c.paired
    w = compare_metric(turns_frame(A_TURNS), turns_frame(b), "dist_turns", paired=True)
    ref = st.wilcoxon(np.array(b) - np.array(A_TURNS), zero_method="wilcox", method="approx")
    assert w.test == "Wilcoxon signed-rank" and w.p == pytest.approx(ref.pvalue)
    assert w.effect == pytest.approx(1.0)  # every nonzero difference is positive


def test_metric_names_and_margins() -> None:
    assert metric_spec("p90_turns").q == 0.9
    assert metric_spec("dist_turns").kind == "distribution"
    assert metric_spec("seat2_win_rate").question == "seat advantage"
    with pytest.raises(ResultsError, match="unknown metric"):
        metric_spec("fastest_turns")
    assert parse_margin("2%").relative and parse_margin("2%").value == pytest.approx(0.02)
    assert parse_margin("1.5").absolute(30, rate=False) == 1.5
    assert parse_margin("1.5").absolute(0.25, rate=True) == pytest.approx(0.015)
    for bad in ("x", "-1", "0%"):
        with pytest.raises(ResultsError):
            parse_margin(bad)


def test_seat_difference_with_other_player_count_raises() -> None:
    with pytest.raises(ResultsError) as info:
        seat_win_rate_difference(turns_frame(A_TURNS, players=4), turns_frame(B_TURNS, players=3))
    assert "player counts" in str(info.value) and "\n" not in str(info.value)


def test_pairing_from_manifests(tmp_path) -> None:
    a = open_runs(write_run(tmp_path, "a", games=300, seed=5))[0]
    b = open_runs(write_run(tmp_path, "b", games=300, seed=5))[0]
    c = open_runs(write_run(tmp_path, "c", games=300, seed=6))[0]
    d = open_runs(write_run(tmp_path, "d", games=400, seed=5))[0]
    assert run_pairing(a, b).paired
    assert not run_pairing(a, c).paired and not run_pairing(a, d).paired


def test_identical_paired_runs_never_changed_a_game(tmp_path) -> None:
    a = write_run(tmp_path, "same-a", games=1500, seed=5)
    b = write_run(tmp_path, "same-b", games=1500, seed=5)
    results, notes = compare_runs(open_runs(a) + open_runs(b))
    assert not notes and len(results) == len(DEFAULT_METRICS)
    assert all(r.comparison.paired for r in results)
    assert {r.comparison.status for r in results} <= {"identical", "absent"}
    assert all(math.isnan(r.comparison.p) for r in results)
    assert "same-b" in unchanged_runs(results)
    assert "never changed a game" in comparison_verdict(results[0])


def test_same_seed_shifted_run_is_paired_and_narrower(tmp_path) -> None:
    base = synthetic_rows(3000, seed=9)
    longer = base.with_columns(turns=pl.col("turns") + (pl.col("game") % 3 == 0).cast(pl.UInt32))
    a = write_run(tmp_path, "a", frame=base, manifest=run_manifest("a", 3000, seed=9))
    b = write_run(tmp_path, "b", frame=longer, manifest=run_manifest("b", 3000, seed=9))
    runs = open_runs(a) + open_runs(b)
    paired, _ = compare_runs(runs, ["mean_turns"])
    c = paired[0].comparison
    assert c.paired and c.difference.value == pytest.approx(1000 / 3000)
    assert c.p < 1e-10 and c.difference.high - c.difference.low < 0.05
    unpaired = compare_metric(runs[0].scan(), runs[1].scan(), "mean_turns")
    assert unpaired.p > 0.05  # the same shift is lost in deal-to-deal noise without pairing


def test_known_difference_direction_quantiles_and_p_agree(tmp_path) -> None:
    a = write_run(tmp_path, "short", games=3000, seed=1, mean_turns=30)
    b = write_run(tmp_path, "long", games=3000, seed=2, mean_turns=45)
    results, _ = compare_runs(open_runs(a) + open_runs(b))
    by = {r.comparison.metric: r for r in results}
    for metric in ("mean_turns", "median_turns", "p90_turns", "dist_turns"):
        c = by[metric].comparison
        line = comparison_verdict(by[metric])
        assert c.direction == 1 and c.p_holm < 1e-6, metric
        assert ("longer" in line or "higher" in line) and check_verdict(line) is None, line
        if c.kind != "distribution":
            assert c.difference.low > 0
    assert by["dist_turns"].comparison.effect > 0
    assert comparison_verdict(by["mean_turns"]).startswith("long makes 4-player rounds ")
    reverse, _ = compare_runs(open_runs(b) + open_runs(a))
    assert all(r.comparison.direction == -1 for r in reverse[:4])
    assert "shorter" in comparison_verdict(reverse[0])


def test_holm_families_per_question_without_absent_metrics(tmp_path) -> None:
    a = write_run(tmp_path, "a", games=800, seed=1)
    b = write_run(tmp_path, "b", games=800, seed=2, mean_turns=41)
    results, _ = compare_runs(open_runs(a) + open_runs(b))
    by_q: dict[str, list] = {}
    for r in results:
        by_q.setdefault(r.comparison.question, []).append(r.comparison)
    assert set(by_q) == {"round length", "cards drawn", "seat advantage", "round outcome"}
    length = by_q["round length"]
    assert [c.p_holm for c in length] == pytest.approx(list(holm([c.p for c in length])))
    assert all(c.family == 4 for c in length)
    capped = next(c for c in by_q["round outcome"] if c.metric == "capped_rate")
    void = next(c for c in by_q["round outcome"] if c.metric == "void_rate")
    assert capped.status == "absent" and math.isnan(capped.p_holm)
    assert void.family == 1 and void.p_holm == pytest.approx(void.p)
    assert with_holm([]) == []


def test_match_length_is_paired_on_game(tmp_path) -> None:
    a = write_run(tmp_path, "ma", games=900, seed=3, match=True)
    b = write_run(tmp_path, "mb", games=900, seed=3, match=True)
    lf = open_runs(a)[0].scan()
    longer = lf.collect().with_columns(match_rounds=pl.col("match_rounds") + 1).lazy()
    c = compare_metric(lf, longer, "mean_match_rounds", paired=True)
    assert c.paired and not c.note and c.difference.value == pytest.approx(1.0)
    shorter = lf.filter(pl.col("round") < 5)  # matches of other lengths: rounds do not line up
    t = compare_metric(lf, shorter, "mean_turns", paired=True)
    assert not t.paired and "do not line up" in t.note
    results, _ = compare_runs(open_runs(a) + open_runs(b))
    assert any(r.comparison.metric == "mean_match_rounds" for r in results)


def test_equivalence_outcomes() -> None:
    rng = np.random.default_rng(4)
    a = list(rng.integers(20, 40, 4000))
    same = compare_metric(
        turns_frame(a), turns_frame(a[::-1]), "mean_turns", margin=parse_margin("5%")
    )
    assert same.equivalence is not None and same.equivalence.outcome == "same"
    far = compare_metric(
        turns_frame(a), turns_frame([x + 5 for x in a]), "mean_turns", margin=parse_margin("1")
    )
    assert far.equivalence is not None and far.equivalence.outcome == "different"
    small = compare_metric(
        turns_frame(a[:200]), turns_frame(a[200:400]), "mean_turns", margin=parse_margin("1%")
    )
    e = small.equivalence
    assert e is not None and e.outcome == "undecided" and e.games_needed and e.games_needed > 200
    # the games needed shrink the 90% interval to the room left inside (or outside) the margin
    d = small.difference
    inside = abs(d.value) < e.bound  # the 90% interval decides "same", the 95% "different"
    half = (e.high - e.low) / 2 if inside else (d.high - d.low) / 2
    room = abs(e.bound - abs(d.value))
    assert e.games_needed == math.ceil(200 * (half / room) ** 2)
    assert (
        equivalence(compare_metric(turns_frame(a), turns_frame(a), "dist_turns"), e.margin) is None
    )

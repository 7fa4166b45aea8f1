"""Effects of a sweep's axes: contrasts by hand from the Parquet rows, A vs A, compare's
paired difference, and the coverage of the intervals on synthetic paired data."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from uno_stats.analysis.compare import compare_metric
from uno_stats.analysis.effects import (
    UNCHANGED,
    Term,
    contrast,
    grid_of,
    metric_effects,
    ranked,
    sweep_effects,
    terms_of,
)
from uno_stats.analysis.quantiles import mid_quantile
from uno_stats.analysis.sweep_points import Sweep, SweepPoint, sweep_of
from uno_stats.cli import app
from uno_stats.errors import ResultsError
from uno_stats.store.verify import verified_runs

ROOT = Path(__file__).resolve().parents[2]
FACTORIAL = """\
name: fact
players: 4
games: 150
seed: 7
rules:
  preset: classic-house
sweep:
  players: [2, 3, 4]
  deck.decks: [1, 2]
  rules.jump_in: [false, true]
  rules.draw: [one, until-playable]
"""
A_VS_A = """\
name: ava
players: 4
games: 300
seed: 11
rules:
  preset: classic-house
sweep:
  rules.jump_in: [false, true]
  rules.max_turns: [5000, 6000]
"""


def _run(tmp: Path, name: str, text: str | None = None, games: int | None = None) -> Path:
    path = tmp / f"{name}.yaml"
    if text is not None:
        path.write_text(text)
    else:
        path = ROOT / "scenarios" / f"{name}.yaml"
    args = ["run", str(path), "--out", str(tmp / "results"), "--workers", "1", "--quiet"]
    if games is not None:
        args += ["--games", str(games)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return tmp / "results" / name


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("effects")
    return {
        "fact": _run(tmp, "fact", FACTORIAL),
        "ava": _run(tmp, "ava", A_VS_A),
        "jump-in": _run(tmp, "jump-in", games=400),
    }


def _sweep(folder: Path) -> Sweep:
    return sweep_of(verified_runs(folder))


def _rows(folder: Path) -> dict[tuple, pl.DataFrame]:
    """Each point's rows read straight from the sweep's Parquet parts (its ``point`` rows),
    keyed by its axis values."""
    out = {}
    every = pl.read_parquet(sorted((folder / "parts").glob("*.parquet")))
    for index, run in enumerate(verified_runs(folder)):
        frame = every.filter(pl.col("point") == index).drop("point")
        out[tuple(run.manifest.sweep_assignment.values())] = frame
    return out


def _value(frame: pl.DataFrame, metric: str) -> float:
    """The metric of one point computed from its rows by hand."""
    won = frame.filter(pl.col("status") == "won")
    if metric == "mean_turns":
        return float(frame["turns"].cast(pl.Float64).mean())
    if metric == "median_turns":
        values, counts = np.unique(frame["turns"].to_numpy(), return_counts=True)
        return mid_quantile(values, counts, 0.5)
    if metric == "first_mover_win_rate":
        return float((won["winner"].cast(pl.Int64) == won["first_player"].cast(pl.Int64)).mean())
    if metric == "first_mover_edge":
        return _value(frame, "first_mover_win_rate") - 1 / int(frame["players"][0])
    if metric == "comeback3_rate":
        winners = won.select(
            pl.col("max_deficit").list.get(pl.col("winner").cast(pl.Int64)).alias("w"),
            pl.col("max_deficit").list.eval(pl.element() >= 3).list.sum().alias("behind"),
        )
        return float((winners["w"] >= 3).sum() / winners["behind"].sum())
    raise AssertionError(metric)


def _cell_mean(values: dict[tuple, float], fixed: dict[int, object]) -> float:
    """Mean of the point values whose axis positions hold the ``fixed`` values."""
    chosen = [v for key, v in values.items() if all(key[i] == x for i, x in fixed.items())]
    return float(np.mean(chosen))


def _effect(effects, metric: str, term: str):
    (found,) = [e for e in effects if e.metric == metric and e.term.name == term]
    return found


@pytest.mark.engine
@pytest.mark.parametrize(
    "metric", ["mean_turns", "median_turns", "first_mover_edge", "comeback3_rate"]
)
def test_main_effects_and_interactions_equal_hand_contrasts(folders, metric):
    sweep = _sweep(folders["fact"])
    rows = _rows(folders["fact"])
    values = {key: _value(frame, metric) for key, frame in rows.items()}
    result = sweep_effects(sweep, [metric], three_factor=True, resamples=50)
    axes = list(sweep.axes)
    # main effects of every axis kind: booleans, rule values, players (3 levels), deck.decks
    hand = {
        "deck.decks": _cell_mean(values, {1: 2}) - _cell_mean(values, {1: 1}),
        "rules.jump_in": _cell_mean(values, {2: True}) - _cell_mean(values, {2: False}),
        "rules.draw": _cell_mean(values, {3: "until-playable"}) - _cell_mean(values, {3: "one"}),
        "players=3": _cell_mean(values, {0: 3}) - _cell_mean(values, {0: 2}),
        "players=4": _cell_mean(values, {0: 4}) - _cell_mean(values, {0: 2}),
    }

    # A:B = half the difference of A's effect at B's two levels
    def a_effect(i, hi, lo, fixed):
        return _cell_mean(values, {i: hi, **fixed}) - _cell_mean(values, {i: lo, **fixed})

    hand["rules.jump_in:rules.draw"] = (
        a_effect(2, True, False, {3: "until-playable"}) - a_effect(2, True, False, {3: "one"})
    ) / 2
    hand["players=4:rules.jump_in"] = (
        a_effect(0, 4, 2, {2: True}) - a_effect(0, 4, 2, {2: False})
    ) / 2
    hand["deck.decks:rules.jump_in:rules.draw"] = (
        (
            a_effect(1, 2, 1, {2: True, 3: "until-playable"})
            - a_effect(1, 2, 1, {2: False, 3: "until-playable"})
        )
        - (a_effect(1, 2, 1, {2: True, 3: "one"}) - a_effect(1, 2, 1, {2: False, 3: "one"}))
    ) / 4
    assert axes == ["players", "deck.decks", "rules.jump_in", "rules.draw"]
    for term, value in hand.items():
        assert _effect(result.effects, metric, term).estimate == pytest.approx(value, abs=1e-12)


def test_terms_and_contrast_weights():
    axes = {"a": (0, 1), "b": ("x", "y", "z"), "c": (True,)}
    names = [t.name for t in terms_of(axes, 2)]
    assert names == ["a", "b=y", "b=z", "a:b=y", "a:b=z"]
    sweep_axes = {"a": (0, 1), "b": (0, 1)}
    points = tuple(
        SweepPoint(f"{a}{b}", {"a": a, "b": b}, 1, 1, 4, (1,), pl.LazyFrame())
        for a, b in itertools.product((0, 1), (0, 1))
    )
    grid = grid_of(Sweep("s", sweep_axes, points))
    y = np.array([1.0, 2.0, 4.0, 8.0])  # (a, b) = 00, 01, 10, 11
    arranged = grid.arrange(y)
    assert contrast(arranged, grid, Term(("a",), (1,), "a")) == (4 + 8) / 2 - (1 + 2) / 2
    assert contrast(arranged, grid, Term(("a", "b"), (1, 1), "a:b")) == ((8 - 2) - (4 - 1)) / 2


@pytest.mark.engine
def test_pairing_follows_the_deal(folders):
    sweep = _sweep(folders["fact"])
    result = sweep_effects(sweep, ["mean_turns"], resamples=20)
    e = _effect(result.effects, "mean_turns", "rules.jump_in")
    assert e.method == "paired t within 6 deal groups, independent between"
    assert e.games == 6 * 150  # every deal group (players x decks) holds points of jump_in
    assert _effect(result.effects, "mean_turns", "players=3").games == 4 * 150  # 2 and 3 players
    assert "players, deck.decks change the deal" in result.pairing
    paired = sweep_effects(_sweep(folders["ava"]), ["mean_turns"], resamples=20)
    assert _effect(paired.effects, "mean_turns", "rules.jump_in").method == "paired t over games"
    assert paired.pairing.startswith("Every point replays the same 300 deals (seed 11)")


@pytest.mark.engine
def test_a_vs_a_axis_is_exactly_zero_and_never_changed_a_game(folders):
    sweep = _sweep(folders["ava"])
    metrics = ["mean_turns", "median_turns", "p90_turns", "first_mover_edge", "comeback3_rate"]
    result = sweep_effects(sweep, metrics, resamples=50)
    assert result.unchanged_axes == ("rules.max_turns",)
    for metric in metrics:
        for term in ("rules.max_turns", "rules.jump_in:rules.max_turns"):
            e = _effect(result.effects, metric, term)
            assert (e.estimate, e.low, e.high) == (0.0, 0.0, 0.0)
            assert e.verdict == UNCHANGED and math.isnan(e.p) and math.isnan(e.p_holm)
        assert _effect(result.effects, metric, "rules.jump_in").status == "tested"


@pytest.mark.engine
def test_single_axis_effect_equals_compare_paired_difference(folders):
    sweep = _sweep(folders["jump-in"])
    off, on = (p.rows for p in sweep.points)
    for rows in (off, on):  # every round won: compare's paired shares count the same rounds
        assert rows.select((pl.col("status") != "won").sum()).collect().item() == 0
    metrics = ["mean_turns", "median_turns", "p90_turns", "comeback3_rate", "first_mover_edge"]
    result = sweep_effects(sweep, metrics, resamples=200)
    for metric in metrics:
        c = compare_metric(off, on, metric, paired=True)
        e = _effect(result.effects, metric, "rules.jump_in")
        assert e.estimate == pytest.approx(c.difference.value, abs=1e-12)
        if metric in ("mean_turns", "comeback3_rate"):  # the same interval too
            assert (e.low, e.high) == pytest.approx((c.difference.low, c.difference.high))
            assert e.p == pytest.approx(c.p)


@pytest.mark.engine
def test_margin_names_no_practical_effect(folders):
    from uno_stats.analysis.metrics import parse_margin

    sweep = _sweep(folders["ava"])
    wide = sweep_effects(sweep, ["mean_turns"], margin=parse_margin("50")).effects
    assert {e.term.name: e.verdict for e in wide} == {
        "rules.jump_in": "no practical effect",
        "rules.max_turns": UNCHANGED,
        "rules.jump_in:rules.max_turns": UNCHANGED,
    }
    narrow = sweep_effects(sweep, ["mean_turns"], margin=parse_margin("0.01")).effects
    assert _effect(narrow, "mean_turns", "rules.jump_in").verdict == ""


def _void_p(a: int, b: int) -> float:
    return 0.2 + 0.05 * a + 0.02 * b + 0.02 * a * b


def _synthetic_sweep(rng: np.random.Generator, games: int) -> Sweep:
    """A 2 x 2 factorial of whole-number 'turns' with ties, paired by a shared part per game:
    turns = S_k + Y_k,ab, S ~ NB(4, mean 20), Y_ab ~ NB(4, mean 20 + 3a + b + 2ab); and
    void rounds, P = 0.2 + 0.05a + 0.02b + 0.02ab, from one uniform per game shared by the
    points in half the games (so paired) and the point's own uniform in the others."""
    shared = rng.negative_binomial(4, 4 / 24, size=games)
    latent, mixed = rng.random(games), rng.random(games) < 0.5  # paired void rounds
    points = []
    for a, b in itertools.product((0, 1), (0, 1)):
        mean = 20 + 3 * a + b + 2 * a * b
        own = rng.negative_binomial(4, 4 / (4 + mean), size=games)
        void = np.where(mixed, latent, rng.random(games)) < _void_p(a, b)
        status = np.where(void, "void", "won")
        rows = pl.LazyFrame({"game": np.arange(games), "turns": shared + own, "status": status})
        points.append(SweepPoint(f"{a}{b}", {"a": a, "b": b}, 1, games, 4, (1,), rows))
    return Sweep("synthetic", {"a": (0, 1), "b": (0, 1)}, tuple(points))


def _true_median_effect() -> float:
    """The main effect of a on the population mid-median of S + Y_ab (pmfs convolved)."""
    from scipy import stats

    support = np.arange(400)

    def law(mean: float) -> np.ndarray:
        return stats.nbinom.pmf(support, 4, 4 / (4 + mean))

    shared = law(20)
    medians = {}
    for a, b in itertools.product((0, 1), (0, 1)):
        pmf = np.convolve(shared, law(20 + 3 * a + b + 2 * a * b))[: len(support)]
        medians[a, b] = mid_quantile(support.astype(float), pmf / pmf.sum(), 0.5)
    return (medians[1, 0] + medians[1, 1] - medians[0, 0] - medians[0, 1]) / 2


@pytest.mark.slow
def test_coverage_of_effect_intervals_on_paired_whole_numbers():
    rng = np.random.default_rng(2026)
    truth = {("mean_turns", "a"): 4.0, ("mean_turns", "a:b"): 1.0}
    truth[("median_turns", "a")] = _true_median_effect()
    truth[("void_rate", "a")] = 0.06
    truth[("void_rate", "a:b")] = 0.01
    covered = dict.fromkeys(truth, 0)
    reps = 1000
    for _ in range(reps):
        sweep = _synthetic_sweep(rng, 400)
        grid = grid_of(sweep)
        terms = terms_of(sweep.axes, 2)
        for metric in ("mean_turns", "median_turns", "void_rate"):
            for e in metric_effects(sweep, grid, metric, terms, resamples=200):
                key = (metric, e.term.name)
                if key in truth:
                    covered[key] += e.low <= truth[key] <= e.high
    for key, hits in covered.items():
        assert 0.93 <= hits / reps <= 0.97, (key, hits / reps)


def _points(deals: list[tuple], turns: list[np.ndarray], extra: list[np.ndarray]) -> Sweep:
    """A 2-point synthetic sweep over axis ``a`` with the given deals and columns."""
    points = []
    for a, (deal, t, x) in enumerate(zip(deals, turns, extra, strict=True)):
        rows = pl.LazyFrame({"game": np.arange(len(t)), "turns": t, "x": x})
        points.append(SweepPoint(str(a), {"a": a}, deal[0], len(t), 4, deal, rows))
    return Sweep("s", {"a": (0, 1)}, tuple(points))


def test_points_with_other_deals_are_independent_and_identical_columns_say_so():
    rng = np.random.default_rng(5)
    turns = [rng.integers(10, 60, 300), rng.integers(10, 60, 300)]
    same = np.ones(300)
    paired = _points([(1, 300, 4), (1, 300, 4)], turns, [same, same])
    other = _points([(1, 300, 4), (1, 300, 5)], turns, [same, same])
    (e_paired,) = sweep_effects(paired, ["mean_turns"]).effects
    (e_other,) = sweep_effects(other, ["mean_turns"]).effects
    assert e_paired.method == "paired t over games"
    assert e_other.method == "independent points, t"
    assert e_paired.estimate == e_other.estimate
    from scipy import stats

    d = (turns[1] - turns[0]).astype(float)  # the paired t by hand
    half = stats.t.ppf(0.975, 299) * d.std(ddof=1) / math.sqrt(300)
    assert (e_paired.high - e_paired.low) / 2 == pytest.approx(half, rel=1e-9)
    va, vb = (t.astype(float).var(ddof=1) / 300 for t in turns)  # Welch by hand
    df = (va + vb) ** 2 / (va**2 / 299 + vb**2 / 299)
    half = stats.t.ppf(0.975, df) * math.sqrt(va + vb)
    assert (e_other.high - e_other.low) / 2 == pytest.approx(half, rel=1e-9)
    (flat,) = sweep_effects(paired, ["mean_x"]).effects
    assert flat.status == "identical" and flat.verdict == "identical in every game"
    assert (flat.estimate, flat.low, flat.high) == (0.0, 0.0, 0.0)
    short = _points([(1, 300, 4), (1, 300, 4)], [turns[0], turns[1][:299]], [same, same[:299]])
    (e_short,) = sweep_effects(short, ["mean_turns"]).effects
    assert e_short.method == "independent points, t"


def test_relative_margin_is_a_share_of_the_mean_over_points():
    from uno_stats.analysis.metrics import parse_margin

    rng = np.random.default_rng(6)
    turns = [rng.integers(10, 60, 300), rng.integers(12, 62, 300)]
    sweep = _points([(1, 300, 4), (1, 300, 4)], turns, [turns[0], turns[0]])
    (e,) = sweep_effects(sweep, ["mean_turns"], margin=parse_margin("10%")).effects
    assert e.bound == pytest.approx(0.1 * (turns[0].mean() + turns[1].mean()) / 2)


def _two_level_sweep(cells: list[tuple[int, int, int]], design: dict | None) -> Sweep:
    """Synthetic points of axes a, b, c at the given level cells, paired by game."""
    rng = np.random.default_rng(8)
    shared = rng.integers(10, 40, 200)
    points = []
    for a, b, c in cells:
        turns = shared + rng.integers(0, 10 + 4 * a + 2 * b + a * c, 200)
        rows = pl.LazyFrame({"game": np.arange(200), "turns": turns})
        points.append(SweepPoint(f"{a}{b}{c}", {"a": a, "b": b, "c": c}, 1, 200, 4, (1,), rows))
    return Sweep("frac", {"a": (0, 1), "b": (0, 1), "c": (0, 1)}, tuple(points), design)


def test_sign_contrast_equals_nested_differences_on_a_full_two_level_factorial():
    from uno_stats.analysis.effects import Grid, fraction_weights

    sweep = _two_level_sweep(list(itertools.product((0, 1), repeat=3)), None)
    grid = grid_of(sweep)
    values = np.array([float(p.rows.collect()["turns"].mean()) for p in sweep.points])
    as_fraction = Grid(grid.axes, grid.shape, None, grid.levels)
    for term in terms_of(sweep.axes, 3):
        nested = float(contrast(grid.arrange(values), grid, term))
        signs = float(fraction_weights(as_fraction, term) @ values)
        assert signs == pytest.approx(nested, abs=1e-12), term.name


def test_half_fraction_main_effects_by_hand():
    from uno_stats.analysis.effects import fraction_weights

    cells = [(0, 0, 1), (0, 1, 0), (1, 0, 0), (1, 1, 1)]  # C = AB in +-1 codes
    record = {"kind": "fractional", "resolution": 3, "generators": ["C=AB"], "points": 4}
    sweep = _two_level_sweep(cells, record)
    with pytest.raises(Exception, match="no point"):
        grid_of(_two_level_sweep(cells, None))  # without the design: an incomplete sweep
    grid = grid_of(sweep)
    values = np.array([float(p.rows.collect()["turns"].mean()) for p in sweep.points])
    by_hand = (values[2] + values[3] - values[0] - values[1]) / 2  # a = 1 minus a = 0
    (main_a,) = [t for t in terms_of(sweep.axes, 1) if t.name == "a"]
    assert float(grid.apply(grid.prepare(values), main_a)) == pytest.approx(by_hand)
    terms = {t.name: t for t in terms_of(sweep.axes, 3)}
    assert np.array_equal(fraction_weights(grid, terms["a:b"]), fraction_weights(grid, terms["c"]))
    with pytest.raises(Exception, match="aliased with the mean"):
        fraction_weights(grid, terms["a:b:c"])  # the defining word ABC


def test_half_fraction_effects_name_their_aliases():
    pytest.importorskip("uno_stats.scenario.designs")  # the alias table (the sweep designs)
    cells = [(0, 0, 1), (0, 1, 0), (1, 0, 0), (1, 1, 1)]
    record = {"kind": "fractional", "resolution": 3, "generators": ["C=AB"], "points": 4}
    result = sweep_effects(_two_level_sweep(cells, record), ["mean_turns"], interactions=True)
    names = {e.term.name: e for e in result.effects}
    assert "a:b:c" not in names  # aliased with the mean: not estimable
    assert names["a:b"].estimate == pytest.approx(names["c"].estimate)  # C = AB
    assert names["c"].aliases == ("a:b",) and names["a"].aliases == ("b:c",)


def test_chain_rate_is_a_rate_in_compare_and_effects():
    rng = np.random.default_rng(9)
    frames = []
    for shift in (0, 1):
        stack = rng.integers(0, 4, 500) + shift * rng.integers(0, 2, 500)
        frames.append(
            pl.LazyFrame({"game": np.arange(500), "round": np.zeros(500), "longest_stack": stack})
        )
    points = tuple(
        SweepPoint(str(a), {"a": a}, 1, 500, 4, (1,), rows) for a, rows in enumerate(frames)
    )
    (e,) = sweep_effects(Sweep("s", {"a": (0, 1)}, points), ["chain2_rate"]).effects
    shares = [float((f.collect()["longest_stack"] >= 2).mean()) for f in frames]
    assert e.estimate == pytest.approx(shares[1] - shares[0], abs=1e-12)
    c = compare_metric(frames[0], frames[1], "chain2_rate", paired=True)
    assert c.test == "McNemar" and c.difference.value == pytest.approx(e.estimate, abs=1e-12)


FRACTION_AXES = """\
players: 4
games: 1500
seed: 5
rules:
  preset: classic-house
sweep:
  rules.jump_in: [false, true]
  rules.seven_zero: [false, true]
  rules.stack_draw_two: [false, true]
  rules.draw: [one, until-playable]
"""


@pytest.mark.slow
def test_a_fraction_estimates_the_main_effects_of_the_full_factorial(tmp_path) -> None:
    """The 2^(4-1) resolution IV fraction (8 of the 16 points, D = ABC) and the full
    factorial of the same four rules play the same deals, so the fraction's points are the
    full factorial's points, game for game. At resolution IV a main effect is aliased only
    with a three-factor term (I = ABCD: A with BCD, ...), so each main effect of the
    fraction is exactly the full factorial's main effect plus its aliased three-factor
    interaction (up to float rounding), and the fraction's interval holds it."""
    full = _run(tmp_path, "full", "name: full\n" + FRACTION_AXES)
    frac = _run(
        tmp_path,
        "frac",
        "name: frac\n" + FRACTION_AXES + "design: {type: fractional, resolution: 4}\n",
    )
    full_runs, frac_runs = verified_runs(full), verified_runs(frac)
    assert (len(full_runs), len(frac_runs)) == (16, 8)
    axes = list(sweep_of(full_runs).axes)

    def effects(runs, three: bool) -> dict[tuple[str, ...], tuple[float, float, float, float]]:
        result = sweep_effects(
            sweep_of(runs), metrics=["mean_turns"], interactions=three, three_factor=three
        )
        return {
            tuple(sorted(e.term.axes)): (e.estimate, e.low, e.high, e.p) for e in result.effects
        }

    whole, part = effects(full_runs, True), effects(frac_runs, False)
    assert sorted(part) == sorted((a,) for a in axes)
    for axis in axes:
        alias = tuple(sorted(a for a in axes if a != axis))
        estimate, three = whole[(axis,)][0], whole[alias][0]
        other, other_low, other_high, _ = part[(axis,)]
        assert other == pytest.approx(estimate + three, abs=1e-9), axis
        assert other_low < other < other_high
    largest = max(axes, key=lambda a: abs(whole[(a,)][0]))
    assert largest == "rules.draw" and part[(largest,)][1] > 10  # draw until playable, clearly


# --- exact values on synthetic sweeps (engine-free: these run under make mutation) ---------


def _sweep_of(
    axes: dict[str, tuple], columns: dict[tuple, dict[str, object]], deals: dict[tuple, tuple]
) -> Sweep:
    """Points at every key of ``columns`` (values on ``axes`` in order), rows from its columns."""
    points = []
    for key, cols in columns.items():
        values = dict(zip(axes, key, strict=True))
        n = len(next(iter(cols.values())))  # type: ignore[arg-type]
        rows = pl.LazyFrame({"game": np.arange(n), **cols})
        deal = deals.get(key, (1, n, 4, 1, 7))
        label = ",".join(f"{a}={v}" for a, v in values.items())
        points.append(SweepPoint(label, values, deal[0], deal[1], deal[2], deal, rows))
    return Sweep("s", axes, tuple(points))


def test_a_quantile_effect_is_the_mid_quantile_difference_with_a_joint_bootstrap():
    from scipy import special

    from uno_stats.analysis.estimates import BOOTSTRAP_SEED

    rng = np.random.default_rng(3)
    shared = rng.integers(5, 30, 60)
    turns = {(0,): shared, (1,): shared + rng.integers(0, 6, 60)}
    sweep = _sweep_of({"a": (0, 1)}, {k: {"turns": v} for k, v in turns.items()}, {})
    result = sweep_effects(sweep, ["median_turns"], resamples=40)
    assert result.sweep is sweep and result.pairing == (
        "Every point replays the same 60 deals (seed 1), so each effect is a contrast of "
        "paired values and its interval is taken over game indices."
    )
    (e,) = result.effects
    med = {k: mid_quantile(*np.unique(v, return_counts=True), 0.5) for k, v in turns.items()}
    assert e.estimate == med[(1,)] - med[(0,)] and e.kind == "quantile"
    draws = np.random.default_rng([BOOTSTRAP_SEED, 0]).multinomial(60, np.full(60, 1 / 60), 40)
    reps = {}
    for k, v in turns.items():  # each replicate: the games drawn, the same for both points
        distinct = np.unique(v)
        reps[k] = [
            mid_quantile(distinct, np.bincount(np.searchsorted(distinct, v), w), 0.5) for w in draws
        ]
    se = float(np.std(np.subtract(reps[(1,)], reps[(0,)]), ddof=1))
    z = float(special.ndtri(0.975))
    assert (e.low, e.high) == pytest.approx((e.estimate - z * se, e.estimate + z * se))
    assert e.p == pytest.approx(2 * special.ndtr(-abs(e.estimate) / se))
    assert e.p_holm == e.p and e.games == 60 and e.status == "tested"
    assert e.method == "paired bootstrap SE (mid-quantile) over games"
    tz = float(special.ndtri(0.95))
    assert e.tost == pytest.approx((e.estimate - tz * se, e.estimate + tz * se))
    both = sweep_effects(sweep, ["median_turns", "p90_turns"], resamples=40).effects
    assert both[0] == e  # one bootstrap serves both quantiles: the same draws
    (p90,) = sweep_effects(sweep, ["p90_turns"], resamples=40).effects
    assert both[1] == p90


def test_a_rate_effect_has_a_delta_method_normal_interval():
    from scipy import special

    void = {(0,): np.array([1, 0, 0, 1, 0, 0, 0, 1]), (1,): np.array([1, 1, 0, 1, 0, 1, 0, 1])}
    columns = {k: {"status": np.where(v == 1, "void", "won")} for k, v in void.items()}
    sweep = _sweep_of({"a": (0, 1)}, columns, {})
    (e,) = sweep_effects(sweep, ["void_rate"]).effects
    assert e.estimate == pytest.approx(5 / 8 - 3 / 8, abs=1e-15)
    infl = (void[(1,)] - 5 / 8) - (void[(0,)] - 3 / 8)  # den 1 per game
    se = infl.std(ddof=1) / math.sqrt(8)
    z = float(special.ndtri(0.975))
    assert (e.low, e.high) == pytest.approx((0.25 - z * se, 0.25 + z * se))
    assert e.p == pytest.approx(2 * special.ndtr(-0.25 / se))
    assert e.method == "paired delta method over games" and e.kind == "rate"
    assert (e.metric, e.label, e.level, e.seed) == ("void_rate", "void rate", 0.95, 1)


def test_points_in_two_deal_groups_pair_within_and_add_variances_between():
    from scipy import stats

    rng = np.random.default_rng(11)
    x = {(a, d): rng.integers(10, 50, 40 + 10 * d).astype(float) for a in (0, 1) for d in (0, 1)}
    x[(1, 0)] += x[(0, 0)] / 2  # paired within a group
    deals = {(a, d): (1, 40 + 10 * d, 2 + d, 1, 7) for a in (0, 1) for d in (0, 1)}
    sweep = _sweep_of(
        {"a": (0, 1), "players": (0, 1)}, {k: {"turns": v} for k, v in x.items()}, deals
    )
    result = sweep_effects(sweep, ["mean_turns"], interactions=False)
    assert result.pairing == (
        "Partly paired: players, game count change the deal, so points that differ in it do not replay "
        "the same deals. Within each of the 2 deal groups the points pair game by game "
        "(intervals over game indices); the groups are independent."
    )
    a = _effect(result.effects, "mean_turns", "a")
    m = {k: v.mean() for k, v in x.items()}
    assert a.estimate == pytest.approx((m[1, 0] - m[0, 0] + m[1, 1] - m[0, 1]) / 2)
    var = [((x[1, d] - x[0, d]) / 2).var(ddof=1) / (40 + 10 * d) for d in (0, 1)]
    df = sum(var) ** 2 / (var[0] ** 2 / 39 + var[1] ** 2 / 49)
    half = stats.t.ppf(0.975, df) * math.sqrt(sum(var))
    assert (a.high - a.low) / 2 == pytest.approx(half, rel=1e-9)
    assert a.p == pytest.approx(2 * stats.t.sf(abs(a.estimate) / math.sqrt(sum(var)), df))
    assert a.method == "paired t within 2 deal groups, independent between"
    assert a.games == 90
    players = _effect(result.effects, "mean_turns", "players")
    assert players.games == 90 and players.estimate == pytest.approx(
        (m[0, 1] + m[1, 1] - m[0, 0] - m[1, 0]) / 2
    )
    with pytest.raises(
        ResultsError, match=r"^effects of seat0_win_rate: the points seat different player counts$"
    ):
        sweep_effects(sweep, ["seat0_win_rate"])


def test_points_with_their_own_seeds_are_not_paired_and_ranked_by_size():
    turns = {(a, b): np.arange(20.0) + 3 * a + b for a in (0, 1) for b in (0, 1)}
    deals = {k: (i, 20, 4, 1, 7) for i, k in enumerate(turns)}
    sweep = _sweep_of(
        {"a": (0, 1), "b": (0, 1)}, {k: {"turns": v} for k, v in turns.items()}, deals
    )
    result = sweep_effects(sweep, ["mean_turns"])
    assert result.pairing == (
        "Not paired: seed differ between the points, so no two points replay the same deals; "
        "every point is taken as independent."
    )
    assert [e.term.name for e in ranked(result.effects)] == ["a", "b", "a:b"]
    names = [e.term.name for e in result.effects]
    assert names == ["a", "b", "a:b"] and [e.term.order for e in result.effects] == [1, 1, 2]
    (inter,) = [e for e in result.effects if e.term.name == "a:b"]
    assert inter.estimate == 0.0 and inter.status == "tested"  # nonzero games, zero contrast
    assert result.effects[0].method == "independent points, t"
    other_games = _sweep_of(
        {"a": (0, 1)},
        {(0,): {"turns": turns[0, 0]}, (1,): {"turns": turns[1, 0][:19]}},
        {(1,): (1, 19, 4, 1, 7)},
    )
    assert "game count" in sweep_effects(other_games, ["mean_turns"]).pairing


def test_an_axis_that_changes_nothing_gets_no_test_and_the_rest_keep_holm():
    from uno_stats.analysis.effects import unchanged_axes

    rng = np.random.default_rng(4)
    base = rng.integers(10, 40, 50)
    turns = {(a, c): base + a * rng.integers(0, 9, 50) for a in (0, 1) for c in (0, 1)}
    turns[(1, 1)] = turns[(1, 0)]  # c never changes a game
    turns[(0, 1)] = turns[(0, 0)]
    sweep = _sweep_of({"a": (0, 1), "c": (0, 1)}, {k: {"turns": v} for k, v in turns.items()}, {})
    assert unchanged_axes(sweep, grid_of(sweep)) == ("c",)
    result = sweep_effects(sweep, ["mean_turns", "p90_turns"], resamples=30)
    assert result.unchanged_axes == ("c",)
    for e in result.effects:
        if e.term.name == "a":
            assert e.status == "tested" and e.p_holm == e.p and 0 < e.p < 0.05
            assert e.verdict == "" and e.method != UNCHANGED
        else:
            assert (e.status, e.method, e.verdict) == ("unchanged", UNCHANGED, UNCHANGED)
            assert (e.estimate, e.low, e.high) == (0.0, 0.0, 0.0) and math.isnan(e.p)
    assert ranked(result.effects)[0].term.name == "a"


def test_holm_adjusts_over_the_terms_of_one_metric():
    from uno_stats.analysis.estimates import holm

    rng = np.random.default_rng(12)
    base = rng.integers(10, 40, 80)
    turns = {(a, b): base + rng.integers(0, 4 + 2 * a + b, 80) for a in (0, 1) for b in (0, 1)}
    sweep = _sweep_of({"a": (0, 1), "b": (0, 1)}, {k: {"turns": v} for k, v in turns.items()}, {})
    effects = sweep_effects(sweep, ["mean_turns"]).effects
    assert [e.p_holm for e in effects] == pytest.approx(list(holm([e.p for e in effects])))
    assert any(e.p_holm > e.p for e in effects)


def test_margins_name_the_terms_inside_them():
    from uno_stats.analysis.metrics import parse_margin

    turns = {(0,): np.arange(100.0), (1,): np.arange(100.0) + np.tile([0.0, 0.2], 50)}
    sweep = _sweep_of({"a": (0, 1)}, {k: {"turns": v} for k, v in turns.items()}, {})
    (inside,) = sweep_effects(sweep, ["mean_turns"], margin=parse_margin("0.5")).effects
    assert (inside.bound, inside.practical, inside.verdict) == (0.5, False, "no practical effect")
    (near,) = sweep_effects(sweep, ["mean_turns"], margin=parse_margin("0.1")).effects
    assert near.tost[1] > 0.1 > near.tost[0] and near.practical is True and near.verdict == ""
    (below,) = sweep_effects(sweep, ["mean_turns"], margin=parse_margin("0.05")).effects
    assert below.practical is True
    void = {(0,): ["won"] * 90 + ["void"] * 10, (1,): ["won"] * 89 + ["void"] * 11}
    rates = _sweep_of({"a": (0, 1)}, {k: {"status": v} for k, v in void.items()}, {})
    (rate,) = sweep_effects(rates, ["void_rate"], margin=parse_margin("50")).effects
    assert rate.bound == 0.5 and rate.practical is False  # 50 percentage points
    (share,) = sweep_effects(rates, ["void_rate"], margin=parse_margin("10%")).effects
    assert share.bound == pytest.approx(0.1 * 0.105)


def _full_rows(n: int, shift: int) -> dict[str, object]:
    rng = np.random.default_rng(shift)
    return {
        "round": np.zeros(n, dtype=np.int64),
        "turns": rng.integers(10, 40, n) + shift,
        "status": ["won"] * n,
        "winner": rng.integers(0, 4, n),
        "first_player": rng.integers(0, 4, n),
        "players": [4] * n,
        "max_deficit": [list(rng.integers(0, 7, 4)) for _ in range(n)],
        "longest_stack": rng.integers(0, 4, n),
    }


def test_default_metrics_skip_the_columns_the_results_lack():
    from uno_stats.analysis.effects import DEFAULT_METRICS

    sweep = _sweep_of({"a": (0, 1)}, {(0,): _full_rows(40, 0), (1,): _full_rows(40, 3)}, {})
    result = sweep_effects(sweep, resamples=20)
    wanted = [m for m in DEFAULT_METRICS if m != "mean_cards_drawn"]
    assert [e.metric for e in result.effects] == wanted
    assert result.notes == ["mean cards drawn: not in these results (no column 'cards_drawn')"]
    with pytest.raises(
        ResultsError, match=r"^effects of mean_cards_drawn: no column 'cards_drawn' in a=0$"
    ):
        sweep_effects(sweep, ["mean_cards_drawn"])
    (edge,) = sweep_effects(sweep, ["first_mover_edge"]).effects
    (share,) = sweep_effects(sweep, ["first_mover_win_rate"]).effects
    assert edge.estimate == pytest.approx(share.estimate)  # the same players: 1/4 cancels


def test_points_that_lack_a_column_the_others_hold_are_read_together():
    """A column only some points hold (results written before it existed): a metric of it
    is refused naming the point without it; every other metric is the one of points that
    all lack it."""
    rows = {(0,): _full_rows(40, 0), (1,): _full_rows(40, 3)}
    plain = _sweep_of({"a": (0, 1)}, rows, {})
    drawn = {**rows[(0,)], "cards_drawn": np.arange(40)}
    mixed = _sweep_of({"a": (0, 1)}, {(0,): drawn, (1,): rows[(1,)]}, {})
    with pytest.raises(
        ResultsError, match=r"^effects of mean_cards_drawn: no column 'cards_drawn' in a=1$"
    ):
        sweep_effects(mixed, ["mean_cards_drawn"])
    found, expected = sweep_effects(mixed, resamples=20), sweep_effects(plain, resamples=20)
    assert repr(found.effects) == repr(expected.effects) and len(found.effects) > 5
    assert found.notes == expected.notes


def test_default_interactions_follow_the_number_of_axes(monkeypatch):
    import uno_stats.analysis.effects as fx

    turns = {k: {"turns": np.arange(10) + sum(k)} for k in itertools.product((0, 1), repeat=3)}
    sweep = _sweep_of({"a": (0, 1), "b": (0, 1), "c": (0, 1)}, turns, {})

    def orders(**kw) -> list[int]:
        return sorted({e.term.order for e in sweep_effects(sweep, ["mean_turns"], **kw).effects})

    assert orders() == [1, 2] and orders(interactions=False) == [1]
    assert orders(three_factor=True) == [1, 2, 3] and orders(interactions=True) == [1, 2]
    monkeypatch.setattr(fx, "INTERACTION_AXES", 3)
    assert orders() == [1, 2]
    monkeypatch.setattr(fx, "INTERACTION_AXES", 2)
    assert orders() == [1] and orders(interactions=True) == [1, 2]


def test_sweeps_effects_cannot_read_are_one_line_errors():
    from uno_stats.analysis.effects import effect_spec

    one = {(0,): {"turns": np.arange(5)}}
    with pytest.raises(ResultsError, match=r"^s: no sweep axis has two values"):
        sweep_effects(_sweep_of({"a": (0,)}, one, {}), ["mean_turns"])
    three = {(a, b): {"turns": np.arange(5)} for a, b in [(0, 0), (0, 1), (1, 0)]}
    missing = (
        r"^s: 1 combination\(s\) of the axes have no point; effects needs every combination "
        r"\(a full factorial sweep, complete\) or a fractional design$"
    )
    with pytest.raises(ResultsError, match=missing):
        grid_of(_sweep_of({"a": (0, 1), "b": (0, 1)}, three, {}))
    twice = _sweep_of(
        {"a": (0, 1)}, {(0,): {"turns": np.arange(5)}, (1,): {"turns": np.arange(5)}}, {}
    )
    doubled = Sweep("s", twice.axes, (*twice.points, twice.points[1]))
    with pytest.raises(ResultsError, match=r"^s: two points at a=1"):
        grid_of(doubled)
    wide = {(a, b): {"turns": np.arange(5)} for a, b in [(0, 0), (1, 1), (2, 0)]}
    record = {"kind": "fractional", "resolution": 3, "generators": [], "points": 3}
    fraction = _sweep_of({"a": (0, 1, 2), "b": (0, 1)}, wide, {})
    with pytest.raises(ResultsError, match="3 combination"):
        grid_of(Sweep("s", fraction.axes, fraction.points, record))
    with pytest.raises(
        ResultsError,
        match=re.escape(
            "effects of dist_turns: use a mean, quantile or rate metric (mean_COL, median_COL, "
            "pNN_COL, a rate or share), not a distribution"
        ),
    ):
        effect_spec("dist_turns")
    assert effect_spec("mean_turns").kind == "mean"


def test_levels_of_a_three_valued_axis_are_named_by_value():
    from uno_stats.analysis.effects import term_name

    axes = {"players": (2, 3, 4), "rules.draw": ("one", "until-playable", "x"), "r": (0.5, 1.0)}
    assert term_name(axes, "players", 2) == "players=4"
    assert term_name(axes, "rules.draw", 1) == "rules.draw=until-playable"
    assert term_name(axes, "r", 1) == "r"
    flags = {"flag": (False, True, None)}  # as a scenario file spells them
    assert [term_name(flags, "flag", i) for i in (1, 2)] == ["flag=true", "flag=null"]
    turns = {(p,): {"turns": np.arange(6.0) * p} for p in (2, 3, 4)}
    sweep = _sweep_of({"players": (2, 3, 4)}, turns, {})
    effects = sweep_effects(sweep, ["mean_turns"]).effects
    assert [(e.term.name, e.estimate) for e in effects] == [("players=3", 2.5), ("players=4", 5.0)]


def test_a_duplicate_of_the_first_point_and_a_fraction_grid():
    from uno_stats.analysis.effects import fraction_weights

    twice = _sweep_of({"a": (0, 1)}, {(k,): {"turns": np.arange(3)} for k in (0, 1)}, {})
    with pytest.raises(ResultsError, match=r"^s: two points at a=0$"):
        grid_of(Sweep("s", twice.axes, (twice.points[0], twice.points[1], twice.points[0])))
    record = {"kind": "fractional", "resolution": 2, "generators": ["B=A"], "points": 2}
    pair = _sweep_of(
        {"a": (0, 1), "b": (0, 1)}, {k: {"turns": np.arange(3)} for k in [(0, 0), (1, 1)]}, {}
    )
    grid = grid_of(Sweep("s", pair.axes, pair.points, record))
    assert not grid.complete and grid.shape == (2, 2) and grid.levels.tolist() == [[0, 0], [1, 1]]
    (a,) = [t for t in terms_of(pair.axes, 1) if t.name == "a"]
    assert fraction_weights(grid, a).tolist() == [-1.0, 1.0]  # one point on each side
    with pytest.raises(AssertionError, match=r"^a fraction has no full grid$"):
        grid.arrange(np.arange(2))


def test_the_points_a_term_uses_are_those_with_a_coefficient_in_its_contrast():
    """Grid.used_by, in O(points), is the nonzero pattern of the term's contrast applied to
    the identity (each point's coefficient), on full grids of 2 and 3 axes and a fraction."""
    for sizes in ((2, 3), (3, 2, 4), (4,)):
        axes = {f"x{i}": tuple(range(n)) for i, n in enumerate(sizes)}
        cells = {k: {"turns": np.arange(3)} for k in itertools.product(*map(range, sizes))}
        sweep = _sweep_of(axes, cells, {})
        grid = grid_of(sweep)
        identity = grid.prepare(np.eye(len(sweep.points)))
        for term in terms_of(axes, min(3, len(sizes))):
            coefficients = grid.apply(identity, term)
            used = grid.used_by(term)
            assert used.tolist() == (coefficients != 0).tolist(), term.name
            assert np.arange(len(used))[used].tolist() == np.flatnonzero(coefficients).tolist()
    record = {"kind": "fractional", "resolution": 2, "generators": ["B=A"], "points": 2}
    pair = _sweep_of(
        {"a": (0, 1), "b": (0, 1)}, {k: {"turns": np.arange(3)} for k in [(0, 0), (1, 1)]}, {}
    )
    fraction = grid_of(Sweep("s", pair.axes, pair.points, record))
    (a,) = [t for t in terms_of(pair.axes, 1) if t.name == "a"]
    assert fraction.used_by(a).tolist() == [True, True]
    assert np.arange(2)[fraction.used_by(a)].tolist() == [0, 1]  # a mask: selects the points


def test_pairing_names_only_what_changes_the_deal():
    turns = {(a,): {"turns": np.arange(20.0) + a} for a in (0, 1)}
    one_count = _sweep_of(
        {"a": (0, 1), "players": (4,)},
        {(a, 4): v for (a,), v in turns.items()},
        {(1, 4): (2, 20, 4, 1, 7)},
    )
    assert one_count.points[1].seed == 2
    assert sweep_effects(one_count, ["mean_turns"]).pairing.startswith(
        "Not paired: seed differ between the points,"
    )
    decks = _sweep_of({"a": (0, 1)}, turns, {(1,): (1, 20, 4, 2, 7)})  # decks not an axis
    assert sweep_effects(decks, ["mean_turns"]).pairing.startswith(
        "Not paired: the deal differ between the points,"
    )
    games = _sweep_of(
        {"a": (0, 1)},
        {(0,): turns[(0,)], (1,): {"turns": np.arange(19.0)}},
        {(1,): (1, 19, 4, 1, 7)},
    )
    assert sweep_effects(games, ["mean_turns"]).pairing.startswith(
        "Not paired: game count differ between the points,"
    )
    (e,) = sweep_effects(one_count, ["mean_turns"]).effects
    assert (
        one_count.axes["players"] == (4,)
        and sweep_effects(one_count, ["mean_turns"]).unchanged_axes == ()
    )
    assert e.term.name == "a"


def test_a_ratio_over_several_rounds_a_game_clusters_by_game():
    from scipy import stats

    rng = np.random.default_rng(21)
    n = 30
    game = np.sort(np.concatenate([np.arange(n), np.arange(0, n, 3)]))  # 1 or 2 rounds
    ta = rng.integers(5, 40, len(game)).astype(float)
    tb = ta + rng.integers(0, 8, len(game))
    points = tuple(
        SweepPoint(str(a), {"a": a}, 1, n, 4, (1,), pl.LazyFrame({"game": game, "turns": t}))
        for a, t in enumerate((ta, tb))
    )
    (e,) = sweep_effects(Sweep("s", {"a": (0, 1)}, points), ["mean_turns"]).effects
    sums = [np.bincount(game, t) for t in (ta, tb)]
    ra, rb = ta.mean(), tb.mean()
    den = np.bincount(game)
    z = (sums[1] - rb * den) / den.mean() - (sums[0] - ra * den) / den.mean()  # (num - R den)
    half = stats.t.ppf(0.975, n - 1) * z.std(ddof=1) / math.sqrt(n)
    assert e.estimate == pytest.approx(rb - ra)
    assert (e.low, e.high) == pytest.approx((rb - ra - half, rb - ra + half))
    assert e.games == n


def test_rates_with_no_denominator_at_a_point_are_undefined():
    won = {(0,): ["void"] * 6, (1,): ["won"] + ["void"] * 5}
    columns = {k: {"status": v, "winner": [0] * 6, "round": [0] * 6} for k, v in won.items()}
    sweep = _sweep_of({"a": (0, 1)}, columns, {})
    (e,) = sweep_effects(sweep, ["seat0_win_rate"]).effects
    assert e.status == "undefined" and math.isnan(e.estimate) and math.isnan(e.p)
    one = {(0,): ["won"] + ["void"] * 5, (1,): ["won", "won"] + ["void"] * 4}
    winners = {(0,): [0] * 6, (1,): [1, 0, 0, 0, 0, 0]}
    cols = {k: {"status": v, "winner": winners[k], "round": [0] * 6} for k, v in one.items()}
    (f,) = sweep_effects(_sweep_of({"a": (0, 1)}, cols, {}), ["seat0_win_rate"]).effects
    assert f.estimate == -0.5 and f.status == "tested"  # 1 of 1 won rounds, then 1 of 2


def test_the_first_movers_edge_subtracts_each_points_fair_share():
    rows = {(p,): _full_rows(60, p) for p in (0, 1)}
    for p, cols in rows.items():
        cols["players"] = [3 + p[0]] * 60
    deals = {(p,): (1, 60, 3 + p, 1, 7) for p in (0, 1)}
    sweep = _sweep_of({"players": (0, 1)}, rows, deals)
    (edge,) = sweep_effects(sweep, ["first_mover_edge"]).effects
    (share,) = sweep_effects(sweep, ["first_mover_win_rate"]).effects
    assert edge.estimate == pytest.approx(share.estimate - (1 / 4 - 1 / 3))
    (seat,) = sweep_effects(_sweep_of({"a": (0, 1)}, rows, {}), ["seat0_win_rate"]).effects
    assert seat.status == "tested"  # one player count: a seat's rate has an effect


def test_a_quantile_without_the_shared_bootstrap_is_the_same_effect():
    rng = np.random.default_rng(8)
    turns = {(a,): {"turns": rng.integers(5, 30, 50) + 2 * a} for a in (0, 1)}
    sweep = _sweep_of({"a": (0, 1)}, turns, {})
    grid = grid_of(sweep)
    terms = terms_of(sweep.axes, 1)
    alone = metric_effects(sweep, grid, "p90_turns", terms, resamples=25)
    shared = sweep_effects(sweep, ["median_turns", "p90_turns"], resamples=25).effects
    assert alone == [shared[1]]


def test_three_factor_terms_stop_at_three_axes_and_a_fraction_drops_the_defining_word():
    turns = {k: {"turns": np.arange(6) + sum(k)} for k in itertools.product((0, 1), repeat=4)}
    sweep = _sweep_of({"a": (0, 1), "b": (0, 1), "c": (0, 1), "d": (0, 1)}, turns, {})
    effects = sweep_effects(sweep, ["mean_turns"], three_factor=True).effects
    assert max(e.term.order for e in effects) == 3 and len(effects) == 4 + 6 + 4
    cells = [(0, 0, 1), (0, 1, 0), (1, 0, 0), (1, 1, 1)]  # C = AB
    record = {"kind": "fractional", "resolution": 3, "generators": ["C=AB"], "points": 4}
    names = [
        e.term.name
        for e in sweep_effects(
            _two_level_sweep(cells, record), ["mean_turns"], three_factor=True
        ).effects
    ]
    assert names == ["a", "b", "c", "a:b", "a:c", "b:c"]  # a:b:c is the mean's alias


def test_a_term_that_skips_a_deal_group_still_counts_the_later_ones():
    rng = np.random.default_rng(13)
    x = {(a, p): rng.integers(10, 50, 30) + 0.0 for a in (0, 1) for p in (0, 1, 2)}
    deals = {(a, p): (1, 30, 2 + p, 1, 7) for a in (0, 1) for p in (0, 1, 2)}
    sweep = _sweep_of(
        {"a": (0, 1), "players": (0, 1, 2)}, {k: {"turns": v} for k, v in x.items()}, deals
    )
    result = sweep_effects(sweep, ["mean_turns", "median_turns"], interactions=False, resamples=20)
    for metric in ("mean_turns", "median_turns"):
        two = _effect(result.effects, metric, "players=2")
        assert two.games == 60 and math.isfinite(two.low)  # groups players=0 and 2, not 1
        assert _effect(result.effects, metric, "a").games == 90
    var = [(x[0, p] + x[1, p]).var(ddof=1) / 4 / 30 for p in (0, 2)]
    mean_two = _effect(result.effects, "mean_turns", "players=2")
    from scipy import stats

    df = sum(var) ** 2 / sum(v * v / 29 for v in var)
    half = stats.t.ppf(0.975, df) * math.sqrt(sum(var))
    assert (mean_two.high - mean_two.low) / 2 == pytest.approx(half, rel=1e-9)


def test_points_of_one_or_two_games_and_small_spreads():
    from scipy import stats

    tiny = {(0,): {"turns": np.array([0.1, 0.3])}, (1,): {"turns": np.array([0.2, 0.7])}}
    deals = {(0,): (1, 2, 4, 1, 7), (1,): (2, 2, 4, 1, 7)}  # independent points of 2 games
    (e,) = sweep_effects(_sweep_of({"a": (0, 1)}, tiny, deals), ["mean_turns"]).effects
    va, vb = np.var([0.1, 0.3], ddof=1) / 2, np.var([0.2, 0.7], ddof=1) / 2
    df = (va + vb) ** 2 / (va**2 + vb**2)  # Welch, one degree of freedom each
    half = stats.t.ppf(0.975, df) * math.sqrt(va + vb)
    assert (e.high - e.low) / 2 == pytest.approx(half, rel=1e-9)
    one = {(0,): {"turns": np.array([3.0])}, (1,): {"turns": np.array([5.0])}}
    deals = {(0,): (1, 1, 4, 1, 7), (1,): (2, 1, 4, 1, 7)}
    (single,) = sweep_effects(_sweep_of({"a": (0, 1)}, one, deals), ["mean_turns"]).effects
    assert single.estimate == 2.0 and math.isnan(single.low) and math.isnan(single.p)


def test_a_margin_crossed_below_is_not_no_practical_effect():
    from uno_stats.analysis.metrics import parse_margin

    turns = {(0,): np.arange(100.0) + np.tile([0.0, 0.2], 50), (1,): np.arange(100.0)}
    sweep = _sweep_of({"a": (0, 1)}, {k: {"turns": v} for k, v in turns.items()}, {})
    (e,) = sweep_effects(sweep, ["mean_turns"], margin=parse_margin("0.1")).effects
    assert e.tost[0] < -0.1 < e.tost[1] < 0.1 and e.practical is True and e.verdict == ""


def test_bootstrap_draws_in_batches_give_the_same_replicates(monkeypatch):
    import uno_stats.analysis.effects as fx

    rng = np.random.default_rng(14)
    turns = {(a,): {"turns": rng.integers(5, 30, 50) + a} for a in (0, 1)}
    sweep = _sweep_of({"a": (0, 1)}, turns, {})
    whole = sweep_effects(sweep, ["median_turns"], resamples=30).effects
    monkeypatch.setattr(fx, "CELLS", 7 * 50)  # 7 replicates a batch: 5 batches, the last short
    assert sweep_effects(sweep, ["median_turns"], resamples=30).effects == whole
    (two,) = sweep_effects(sweep, ["median_turns"], resamples=2).effects
    assert math.isfinite(two.high - two.low)  # two replicates have a spread


def test_a_point_without_values_has_an_undefined_quantile_effect_not_a_crash():
    turns = {(0,): np.arange(5, 25), (1,): np.array([], dtype=np.int64)}
    sweep = _sweep_of(
        {"a": (0, 1)}, {k: {"turns": v} for k, v in turns.items()}, {(1,): (2, 0, 4, 1, 7)}
    )
    (e,) = sweep_effects(sweep, ["median_turns"], resamples=40).effects
    assert e.status == "undefined" and math.isnan(e.estimate) and math.isnan(e.low)
    assert e.games == 20


def test_aliases_of_a_half_fraction_of_five_stop_at_three_factors():
    pytest.importorskip("uno_stats.scenario.designs")  # the alias table (the sweep designs)
    from uno_stats.analysis.effects import term_aliases

    axes = {name: (0, 1) for name in "abcde"}
    record = {"kind": "fractional", "resolution": 5, "generators": ["E=ABCD"], "points": 16}
    sweep = Sweep("half5", axes, (), record)
    terms = {t.name: t for t in terms_of(axes, 2)}
    assert term_aliases(sweep, terms["a:b"]) == ("c:d:e",)  # AB x ABCDE = CDE
    assert term_aliases(sweep, terms["a"]) == ()  # its alias b:c:d:e has four factors
    assert term_aliases(sweep, terms["a"], 4) == ("b:c:d:e",)


def test_a_point_without_values_before_others_leaves_their_groups_in():
    turns = {(0,): np.array([], dtype=np.int64), (1,): np.arange(5, 25), (2,): np.arange(6, 26)}
    sweep = _sweep_of(
        {"a": (0, 1, 2)}, {k: {"turns": v} for k, v in turns.items()}, {(0,): (2, 0, 4, 1, 7)}
    )  # the empty point is a deal group of its own, the first
    effects = {e.term.name: e for e in sweep_effects(sweep, ["median_turns"], resamples=40).effects}
    assert {e.status for e in effects.values()} == {"undefined"}  # every main effect uses a=0
    assert all(e.games == 20 for e in effects.values())  # the other group's games counted

"""Plots a person can trust at a glance: categories as categories, zero-based or marked value
axes, integer ticks for counts, one colour scale per report, legends outside, 150 dpi."""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from test_report import png_size

from uno_stats.analysis.estimates import Estimate
from uno_stats.analysis.seats import DeficitTable
from uno_stats.present import plots
from uno_stats.present.measures import MEASURES

MEAN = MEASURES[0]
EDGE = next(m for m in MEASURES if m.key == "first_mover_edge")


def _axes():
    fig = Figure()
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _points(key: str, values, base: float = 45.0):
    return [
        ({key: v}, Estimate(base + i, base + i - 0.5, base + i + 0.5, 100))
        for i, v in enumerate(values)
    ]


def test_a_false_true_sweep_is_two_categories_on_a_zero_based_axis() -> None:
    _fig, ax = _axes()
    plots._sweep_panel(ax, ["rules.stack"], MEAN, _points("rules.stack", [False, True]), False)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["False", "True"]
    assert list(ax.get_xticks()) == [0.0, 1.0]
    assert ax.get_ylim()[0] == 0.0  # 45 vs 46 turns: not an axis cut to 44.5-46.5
    assert all(
        len(line.get_xdata()) <= 1 or line.get_linestyle() == "None" for line in ax.get_lines()
    )


def test_integer_axes_get_integer_ticks_and_rotations_are_categories() -> None:
    _fig, ax = _axes()
    plots._sweep_panel(ax, ["players"], MEAN, _points("players", [2, 4, 6]), False)
    assert list(ax.get_xticks()) == [2.0, 4.0, 6.0]
    _fig, ax = _axes()
    plots._sweep_panel(ax, ["rotation"], MEAN, _points("rotation", [0, 1, 2, 3, 4]), True)
    assert list(ax.get_xticks()) == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2", "3", "4"]


def test_an_axis_spanning_sixteen_times_or_more_is_drawn_on_a_log_scale() -> None:
    """Rollouts 4 to 1,024 sit evenly apart (their labels would overlap on a linear axis),
    labelled with their values; players 2 to 6 stay linear."""
    _fig, ax = _axes()
    rollouts = [4, 16, 64, 256, 1024]
    plots._sweep_panel(ax, ["rollouts"], MEAN, _points("rollouts", rollouts), False)
    assert list(ax.get_xticks()) == [2.0, 4.0, 6.0, 8.0, 10.0]
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(v) for v in rollouts]
    assert ax.get_xlabel() == "rollouts (log scale)"
    for values, log_scale in (([2, 4, 6], False), ([1, 15], False), ([0, 100], False)):
        positions, on_log = plots.numeric_positions(values)  # short of 16 times; log of 0
        assert list(positions) == [float(v) for v in values] and on_log == log_scale
    positions, on_log = plots.numeric_positions(rollouts)
    assert list(positions) == [2.0, 4.0, 6.0, 8.0, 10.0] and on_log


def test_a_long_figure_title_is_wrapped_to_the_figure_and_a_short_one_kept() -> None:
    fig, _ax = _axes()
    fig.set_figwidth(8.0)
    long = "Effect of each value of strategies.challenge against " * 3
    plots.fitted_title(fig, long)
    lines = fig.get_suptitle().split("\n")
    assert len(lines) > 1 and max(len(line) for line in lines) <= 8.0 * 72 / 10 / 0.7 + 1
    plots.fitted_title(fig, "Main answers")
    assert fig.get_suptitle() == "Main answers"


def test_an_edge_axis_holds_zero() -> None:
    _fig, ax = _axes()
    points = [
        ({"k": v}, Estimate(0.02 + v / 100, 0.015 + v / 100, 0.025 + v / 100, 9)) for v in (1, 2)
    ]
    plots._sweep_panel(ax, ["k"], EDGE, points, False)
    low, high = ax.get_ylim()
    assert low <= 0 <= high


def test_every_main_answer_is_plotted_and_the_legend_is_outside(tmp_path) -> None:
    series = [(m, _points("players", [2, 3])) for m in MEASURES[:4]]
    path = plots.sweep("s", ["players"], series, tmp_path / "s.png")
    assert png_size(path)[0] == 1200  # 8 in at 150 dpi
    fig, ax = _axes()
    grid = [({"a": a, "b": b}, Estimate(1, 0.5, 1.5, 9)) for a in (1, 2) for b in ("x", "y")]
    plots._sweep_panel(ax, ["a", "b"], MEAN, grid, False)
    plots._figure_legend(fig, [ax])
    assert ax.get_legend() is None and len(fig.legends) == 1
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["b=x", "b=y"]


def _deficit(rate_top: float) -> DeficitTable:
    rate = np.full((3, 2), rate_top / 200)
    rate[0, 0] = rate_top / 100
    n = np.full((3, 2), 100)
    return DeficitTable(4, np.array([10, 20]), np.arange(3), n, n * rate, rate, rate, rate)


def test_heat_maps_of_one_report_share_one_colour_scale(tmp_path) -> None:
    tables = [_deficit(40.0), _deficit(70.0)]
    top = plots.deficit_scale(tables)
    assert top == 70.0
    for i, t in enumerate(tables):
        path = plots.deficit_heatmap(f"t{i}", t, tmp_path / f"d{i}.png", vmax=top)
        assert png_size(path) == (1200, 675)
    sparse = _deficit(90.0)
    sparse.n[0, 0] = 5  # below the minimum cell size: not shown, not on the scale
    assert plots.deficit_scale([sparse]) == 45.0


def test_a_rate_of_zero_draws_although_its_wilson_bound_sits_a_hair_above() -> None:
    _fig, ax = _axes()
    zero = Estimate(0.0, 1.08e-19, 0.0019, 2000)  # what proportion(0, 2000) returns
    rate = next(m for m in MEASURES if m.key == "not_out_rate")
    plots._sweep_panel(ax, ["k"], rate, [({"k": 1}, zero), ({"k": 2}, zero)], False)
    assert ax.get_ylim()[0] == 0.0


def _grid(levels: int, keys: int) -> list:
    """Every combination of ``keys`` two-level keys after a first key of ``levels`` values."""
    import itertools

    names = ["a", *(f"k{i}" for i in range(keys))]
    combos = itertools.product(range(levels), *([(False, True)] * keys))
    return [
        ({n: v for n, v in zip(names, combo, strict=True)}, Estimate(50 - i, 49 - i, 51 - i, 9))
        for i, combo in enumerate(combos)
    ]


def test_a_sweep_with_more_series_than_a_legend_can_hold_ranks_its_points(tmp_path) -> None:
    """Past MAX_SERIES series (the combinations after the first key) every panel ranks the
    points by their estimate, coloured by the first key, with a legend of its values only;
    up to MAX_SERIES the chart keeps one series per combination."""
    few, many = _grid(2, 3), _grid(3, 4)  # 8 series, 16 series
    axes = ["a", "k0", "k1", "k2", "k3"]
    assert plots.sweep_series(axes[:4], few) == plots.MAX_SERIES
    assert plots.sweep_series(axes, many) == 16 > plots.MAX_SERIES
    fig, ax = _axes()
    plots._ranked_panel(ax, axes, MEAN, many)
    xs = np.concatenate([line.get_xdata() for line in ax.get_lines()])
    ys = np.concatenate([line.get_ydata() for line in ax.get_lines()])
    order = np.argsort(xs)
    assert sorted(xs) == list(range(1, 49)) and np.all(np.diff(ys[order]) >= 0)  # ranked
    plots._figure_legend(fig, [ax])
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["a=0", "a=1", "a=2"]
    assert ax.get_xlabel() == "the 48 points, ranked by this answer" and ax.get_ylim()[0] == 0
    path = plots.sweep("s", axes, [(MEAN, many)], tmp_path / "many.png")
    assert png_size(path)[0] == 1200
    fig, ax = _axes()
    plots._sweep_panel(ax, axes[:4], MEAN, few, False)
    plots._figure_legend(fig, [ax])
    assert len(fig.legends[0].get_texts()) == 8  # one entry per series

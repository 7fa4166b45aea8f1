"""PNG plots for reports: one style, labelled axes with units, intervals drawn.

Figures are built with matplotlib's object API directly on the Agg canvas (no pyplot,
no global backend switch, safe in any process), at 8 x 4.5 in (taller for small
multiples) and 150 dpi (1200 x 675 px). Each function takes already-computed answers
from :mod:`uno_stats.analysis.questions` and writes one file. Legends sit outside the
data (below the axes); categorical axes (False/True, names) are drawn as categories
without connecting lines; counts get integer ticks; value axes start at zero unless the
axis is an edge around zero, which is marked.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ParamSpec

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from uno_stats.analysis.estimates import Estimate
from uno_stats.analysis.questions import Histogram, SurvivalCurve
from uno_stats.analysis.seats import ComebackCurve, DeficitTable, SeatWinRates
from uno_stats.analysis.tournament import SkillSpread, TournamentTable
from uno_stats.present.measures import Measure

P = ParamSpec("P")
SIZE = (8.0, 4.5)
DPI = 150
MIN_CELL_N = 30  # heat-map cells with fewer seat-rounds are left blank
MAX_SERIES = 8  # a sweep chart's series (and legend entries) at most; beyond: points ranked
STYLE: dict[str, Any] = {
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 12,
    "axes.labelsize": 10,
    "legend.fontsize": 8,
    "legend.frameon": False,
    "font.size": 10,
}
COLORS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)


def _styled(plot: Callable[P, Path]) -> Callable[P, Path]:
    """Run a plotting function inside the report style (rc parameters)."""

    @functools.wraps(plot)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> Path:
        with matplotlib.rc_context(STYLE):  # type: ignore[arg-type]
            return plot(*args, **kwargs)

    return wrapper


def _figure() -> tuple[Figure, Any]:
    fig = Figure(figsize=SIZE, dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _panels(count: int, columns: int = 3, sharey: bool = True) -> tuple[Figure, list[Any]]:
    """A grid of ``count`` small multiples (unused cells removed)."""
    cols = min(columns, count)
    rows = -(-count // cols)
    fig = Figure(figsize=(SIZE[0], max(SIZE[1], 2.6 * rows + 1.0)), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.subplots(rows, cols, sharey=sharey, squeeze=False)
    axes = [ax for row in grid for ax in row]
    for ax in axes[count:]:
        ax.remove()
    return fig, axes[:count]


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, dpi=DPI, format="png")
    return path


def _color(i: int) -> str:
    return COLORS[i % len(COLORS)]


def _panel_title(label: str, width: int = 34) -> str:
    """A run name broken over lines for a small panel: a sweep point's ``[...]`` on a line of
    its own, its ``_``-joined axis values wrapped at ``width`` characters."""
    if len(label) <= width:
        return label
    name, bracket, point = label.partition("[")
    lines = [name] if bracket else []
    line = ""
    for part in (bracket + point if bracket else label).split("_"):
        piece = part if not line else f"{line}_{part}"
        if line and len(piece) > width:
            lines.append(line + "_")
            piece = part
        line = piece
    return "\n".join([*lines, line])


def _legend(ax: Any, entries: int) -> None:
    """The legend outside the data: below the axes, in up to three columns."""
    if entries:
        _figure_legend(ax.figure, [ax])


def _figure_legend(fig: Figure, axes: Sequence[Any]) -> None:
    """One legend below a grid of panels for the entries the panels share."""
    entries: dict[str, Any] = {}
    for ax in axes:
        handles, labels = ax.get_legend_handles_labels()
        entries.update(zip(labels, handles, strict=True))
    if entries:
        # three columns of short labels; long ones (a sweep point's run name) in fewer, so
        # that no label runs off the figure's edge
        longest = max(len(label) for label in entries)
        columns = 3 if longest <= 36 else 2 if longest <= 56 else 1
        fig.legend(
            list(entries.values()),
            list(entries),
            loc="outside lower center",
            ncols=min(columns, len(entries)),
        )


def _fair_lines(ax: Any, fairs: set[float], x_from: float, x_to: dict[float, float]) -> None:
    """Grey dashed reference lines at each fair share (in %), labelled once."""
    for i, fair in enumerate(sorted(fairs)):
        ax.hlines(
            100 * fair,
            x_from,
            x_to[fair],
            colors="0.35",
            linestyles="dashed",
            linewidth=1.1,
            label="fair share 1/players" if i == 0 else None,
            zorder=3,
        )


@_styled
def turns_histogram(runs: Sequence[tuple[str, Histogram]], path: Path) -> Path:
    """Share of rounds per turn count (step lines, one per run, common bins)."""
    fig, ax = _figure()
    for i, (label, hist) in enumerate(runs):
        width = hist.edges[1] - hist.edges[0]
        density = hist.counts / (hist.n * width)
        ax.stairs(
            density, hist.edges, color=_color(i), linewidth=1.5, label=f"{label} (n = {hist.n:,})"
        )
    ax.set_xlabel("round length (turns)")
    ax.set_ylabel("share of rounds per turn")
    ax.set_title("Distribution of round length")
    ax.set_xlim(0, max(h.edges[-1] for _, h in runs))
    _legend(ax, len(runs))
    return _save(fig, path)


@_styled
def survival(runs: Sequence[tuple[str, SurvivalCurve]], path: Path) -> Path:
    """P(round still running after t turns) with pointwise 95% Wilson bands."""
    fig, ax = _figure()
    for i, (label, curve) in enumerate(runs):
        ax.fill_between(
            curve.t, curve.low, curve.high, step="post", color=_color(i), alpha=0.25, linewidth=0
        )
        ax.step(
            curve.t,
            curve.survival,
            where="post",
            color=_color(i),
            linewidth=1.5,
            label=f"{label} (n = {curve.n:,})",
        )
    ax.set_xlabel("turns t")
    ax.set_ylabel("P(round still running after t turns)")
    ax.set_title("Survival of a round (95% bands)")
    ax.set_ylim(0, 1.02)
    _legend(ax, len(runs))
    return _save(fig, path)


def _errors(estimates: Sequence[Estimate], scale: float = 1.0) -> np.ndarray:
    """Error-bar lengths below and above each estimate (2 x n), never negative: a Wilson
    bound of 0 of n can sit 1e-19 above its estimate of 0."""
    below = [max(0.0, e.value - e.low) for e in estimates]
    above = [max(0.0, e.high - e.value) for e in estimates]
    return scale * np.array([below, above])


def _interval_dots(
    ax: Any, x: np.ndarray, estimates: Sequence[Estimate], color: str, **kw: Any
) -> None:
    """Dots at the estimates (in %) with their 95% intervals as error bars."""
    values = 100 * np.array([e.value for e in estimates])
    err = _errors(estimates, 100)
    ax.errorbar(x, values, yerr=err, fmt="o", color=color, capsize=3, linewidth=1.2, **kw)


@_styled
def seat_win_rates(runs: Sequence[tuple[str, SeatWinRates]], path: Path) -> Path:
    """Win share by seat as dots with 95% Wilson intervals and the fair share 1/players:
    one panel per run (small multiples sharing the zero-based y axis)."""
    fig, axes = _panels(len(runs))
    for i, (ax, (label, seats)) in enumerate(zip(axes, runs, strict=True)):
        x = np.arange(seats.players)
        ax.hlines(
            100 * seats.fair,
            -0.5,
            seats.players - 0.5,
            colors="0.35",
            linestyles="dashed",
            linewidth=1.1,
            label="fair share 1/players",
        )
        _interval_dots(ax, x, seats.seats, _color(0 if len(runs) > 3 else i))
        ax.set_xticks(x, [str(k) for k in x])
        ax.set_xlim(-0.5, seats.players - 0.5)
        ax.set_ylim(bottom=0)
        ax.set_title(f"{_panel_title(label)}\n(n = {seats.n_won:,} won rounds)", fontsize=9)
        ax.set_xlabel("seat (0 = dealer's left)", fontsize=8)
    axes[0].set_ylabel("share of won rounds (%)")
    fig.suptitle("Win share by seat (dots: estimates; bars: 95% Wilson intervals)")
    _figure_legend(fig, axes[:1])
    return _save(fig, path)


def _comeback_lines(ax: Any, curve: ComebackCurve, color: str, label: str | None) -> None:
    """P(win | k+ behind) solid and P(win | never k behind) dashed, with 95% bands."""
    ks = np.array(curve.ks)
    for part, style, name in ((curve.rates, "-", label), (curve.never, "--", None)):
        ok = np.array([r.n > 0 for r in part])
        rate = 100 * np.array([r.value for r in part])
        low = 100 * np.array([r.low for r in part])
        high = 100 * np.array([r.high for r in part])
        ax.fill_between(ks[ok], low[ok], high[ok], color=color, alpha=0.2, linewidth=0)
        ax.plot(
            ks[ok],
            rate[ok],
            style,
            marker="o",
            markersize=3,
            color=color,
            linewidth=1.5,
            label=name,
        )
    ax.set_xticks(sorted(set(curve.ks)))
    ax.set_ylim(0, 100)


COMEBACK_TITLE = "Comeback: k or more behind (solid) vs never k behind (dashed), 95% bands"


@_styled
def comeback(runs: Sequence[tuple[str, ComebackCurve]], path: Path) -> Path:
    """P(win | max deficit >= k) (solid) against P(win | never k behind) (dashed), 95% bands:
    one chart for up to four runs, else one panel per run."""
    if len(runs) <= 4:
        fig, ax = _figure()
        for i, (label, curve) in enumerate(runs):
            _comeback_lines(ax, curve, _color(i), label)
        ax.set_xlabel("k: most cards ever held above the smallest hand")
        ax.set_ylabel("P(win) (%)")
        ax.set_title(COMEBACK_TITLE)
        _legend(ax, len(runs))
        return _save(fig, path)
    fig, axes = _panels(len(runs))
    for ax, (label, curve) in zip(axes, runs, strict=True):
        _comeback_lines(ax, curve, _color(0), None)
        ax.set_title(_panel_title(label), fontsize=9)
        ax.set_xlabel("k: most cards ever behind", fontsize=8)
    axes[0].set_ylabel("P(win) (%)")
    fig.suptitle(COMEBACK_TITLE)
    return _save(fig, path)


def _shown_rates(table: DeficitTable, max_deficit: int) -> np.ndarray:
    """P(win) in % of the rows drawn; NaN where fewer than MIN_CELL_N seat-rounds."""
    rows = min(table.deficits.size, max_deficit + 1)
    return np.where(table.n[:rows] >= MIN_CELL_N, 100 * table.rate[:rows], np.nan)


MAX_DEFICIT = 15


def deficit_scale(tables: Sequence[DeficitTable], max_deficit: int = MAX_DEFICIT) -> float:
    """The top of the one colour scale (P(win) in %) shared by a report's heat maps."""
    tops = [
        np.nanmax(r) for r in (_shown_rates(t, max_deficit) for t in tables) if np.isfinite(r).any()
    ]
    return float(max(tops)) if tops else 100.0


@_styled
def deficit_heatmap(
    label: str,
    table: DeficitTable,
    path: Path,
    max_deficit: int = MAX_DEFICIT,
    vmax: float | None = None,
) -> Path:
    """Heat map of P(win | deficit d at turn t); cells with n < MIN_CELL_N are blank.

    ``vmax``: the top of the colour scale (from :func:`deficit_scale`, so every heat map of
    one report reads on the same scale); by default this table's largest value."""
    fig, ax = _figure()
    ax.grid(False)
    rate = _shown_rates(table, max_deficit)
    rows = rate.shape[0]
    top = vmax if vmax is not None else deficit_scale([table], max_deficit)
    image = ax.pcolormesh(np.ma.masked_invalid(rate), cmap="viridis", vmin=0, vmax=top)
    step = max(1, table.turns.size // 10)
    ax.set_xticks(np.arange(0, table.turns.size, step) + 0.5, [str(t) for t in table.turns[::step]])
    ax.set_yticks(
        np.arange(0, rows, max(1, rows // 8)) + 0.5,
        [str(d) for d in range(0, rows, max(1, rows // 8))],
    )
    ax.set_xlabel("checkpoint: after turn t")
    ax.set_ylabel("deficit d (cards above the smallest hand)")
    ax.set_title(f"P(win | deficit d at turn t), {label}")
    fig.colorbar(image, ax=ax, label="P(win) (%)")
    return _save(fig, path)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


GEOMETRIC_SPAN = 16
"""A numeric axis whose positive values span this factor or more is drawn on a log scale."""


def numeric_positions(values: Sequence[float]) -> tuple[np.ndarray, bool]:
    """x positions of a numeric axis's values, and whether they are on a log scale: the
    values, or their base-2 logarithms when all are positive and span
    :data:`GEOMETRIC_SPAN` times or more (rollouts 4, 16, 64, 256, 1024 evenly apart, so
    their tick labels do not overlap)."""
    x = np.array(values, dtype=float)
    log_scale = x.size > 1 and bool(x.min() > 0) and x.max() >= GEOMETRIC_SPAN * x.min()
    return (np.log2(x) if log_scale else x), log_scale


def fitted_title(fig: Figure, text: str, fontsize: float = 10) -> None:
    """The figure's title, wrapped to its width so that a long one is not cut at the edges
    (a character taken as 1/1.45, about 0.69, of the type size wide, wider than most: a
    margin to spare)."""
    width = max(40, int(fig.get_figwidth() * 72 * 1.45 / fontsize))
    fig.suptitle(textwrap.fill(text, width), fontsize=fontsize)


def _sweep_x(values: Sequence[Any], categorical: bool) -> tuple[np.ndarray, bool, bool]:
    """x positions of an axis's values, whether they are categories (evenly spaced), and
    whether they are on a log scale (:func:`numeric_positions`)."""
    if not categorical and all(_is_number(v) for v in values):
        positions, log_scale = numeric_positions(values)
        return positions, False, log_scale
    return np.arange(len(values), dtype=float), True, False


def _sweep_panel(
    ax: Any,
    axes: Sequence[str],
    measure: Measure,
    points: Sequence[tuple[dict[str, Any], Estimate | None]],
    categorical: bool,
) -> None:
    """One measure against the first swept key, one series per value of the other keys."""
    xs = list(dict.fromkeys(p[axes[0]] for p, _ in points))
    x_pos, as_categories, log_scale = _sweep_x(xs, categorical)
    groups: dict[tuple[Any, ...], list[tuple[Any, Estimate]]] = {}
    for point, e in points:
        if e is not None:
            groups.setdefault(tuple(point[a] for a in axes[1:]), []).append((point[axes[0]], e))
    scale = 100 if measure.percent else 1
    span = float(x_pos.max() - x_pos.min()) if x_pos.size > 1 else 1.0
    dodge = (0.08 if as_categories else 0.02 * span) if len(groups) > 1 else 0.0  # no overdraw
    for i, (key, members) in enumerate(groups.items()):
        shift = (i - (len(groups) - 1) / 2) * dodge
        x = np.array([x_pos[xs.index(v)] for v, _ in members]) + shift
        y = scale * np.array([e.value for _, e in members])
        err = _errors([e for _, e in members], scale)
        label = ", ".join(f"{a}={v}" for a, v in zip(axes[1:], key, strict=True)) or None
        ax.errorbar(
            x,
            y,
            yerr=err,
            fmt="o" if as_categories else "o-",
            capsize=3,
            color=_color(i),
            markersize=4,
            linewidth=1.2,
            label=label,
        )
    if as_categories or log_scale or all(isinstance(v, int) for v in xs):
        ax.set_xticks(x_pos, [str(v) for v in xs])
    if as_categories:
        ax.set_xlim(-0.5, len(xs) - 0.5)
    _value_axis(ax, measure)
    ax.set_xlabel(f"{axes[0]} (log scale)" if log_scale else axes[0], fontsize=8)


def _value_axis(ax: Any, measure: Measure) -> None:
    """A panel's value axis from zero (an edge's: holding zero, drawn dashed) and its title."""
    if measure.reference is not None:
        ax.axhline(measure.reference, color="0.35", linestyle="dashed", linewidth=1)
        low, high = ax.get_ylim()
        ax.set_ylim(min(low, measure.reference), max(high, measure.reference))
    else:
        ax.set_ylim(bottom=0)
    unit = {"pp": "percentage points", "%": "%"}.get(measure.unit, measure.unit)
    ax.set_title(f"{measure.label} ({unit})", fontsize=9)


def sweep_series(axes: Sequence[str], points: Sequence[tuple[dict[str, Any], Any]]) -> int:
    """How many series a sweep chart draws: the combinations of the keys after the first."""
    return len({tuple(point[a] for a in axes[1:]) for point, _ in points})


def _ranked_panel(
    ax: Any,
    axes: Sequence[str],
    measure: Measure,
    points: Sequence[tuple[dict[str, Any], Estimate | None]],
) -> None:
    """One measure's points sorted by their estimate (rank on x, 95% error bars), coloured
    by the first swept key when it has at most :data:`MAX_SERIES` values."""
    known = sorted(((p, e) for p, e in points if e is not None), key=lambda pe: pe[1].value)
    scale = 100 if measure.percent else 1
    x = np.arange(1, len(known) + 1)
    levels = list(dict.fromkeys(p[axes[0]] for p, _ in points))
    coloured = 1 < len(levels) <= MAX_SERIES
    for i, level in enumerate(levels if coloured else [None]):
        at = [k for k, (p, _) in enumerate(known) if not coloured or p[axes[0]] == level]
        if not at:
            continue
        chosen = [known[k][1] for k in at]
        ax.errorbar(
            x[at],
            scale * np.array([e.value for e in chosen]),
            yerr=_errors(chosen, scale),
            fmt="o",
            markersize=2.5,
            elinewidth=0.8,
            capsize=0,
            color=_color(i),
            label=f"{axes[0]}={level}" if coloured else None,
        )
    ax.set_xlim(0, len(known) + 1)
    _value_axis(ax, measure)
    ax.set_xlabel(f"the {len(known)} points, ranked by this answer", fontsize=8)


@_styled
def sweep(
    name: str,
    axes: Sequence[str],
    series: Sequence[tuple[Measure, Sequence[tuple[dict[str, Any], Estimate | None]]]],
    path: Path,
    categorical: bool = False,
) -> Path:
    """Every main answer against the swept keys, one panel per answer, 95% error bars.

    ``series``: per measure, (sweep point, estimate) pairs. The first swept key is the x
    axis (categories when its values are not all numbers, or when ``categorical``), the
    other keys make one series each. With more than :data:`MAX_SERIES` series (a legend
    no reader could match to its lines), each panel ranks the points by their estimate
    instead, coloured by the first key (the report's table names every point). Value
    axes start at zero; an edge's axis holds zero, drawn dashed."""
    fig, panels = _panels(len(series), columns=2 if len(series) <= 4 else 3, sharey=False)
    ranked = bool(series) and sweep_series(axes, series[0][1]) > MAX_SERIES
    for ax, (measure, points) in zip(panels, series, strict=True):
        if ranked:
            _ranked_panel(ax, axes, measure, points)
        else:
            _sweep_panel(ax, axes, measure, points, categorical)
    if ranked:
        count = len(series[0][1])
        fig.suptitle(f"Sweep {name}: {count} points ranked by each answer (95% intervals)")
    else:
        fig.suptitle(f"Main answers across sweep {name} (95% intervals)")
    _figure_legend(fig, panels[:1])
    return _save(fig, path)


@_styled
def tournament_win_shares(table: TournamentTable, path: Path) -> Path:
    """Win share per strategy over every rotation, 95% Wilson error bars, fair share 1/players."""
    fig, ax = _figure()
    x = np.arange(len(table.rows))
    values = np.array([r.win.value for r in table.rows])
    err = np.array(
        [
            [r.win.value - r.win.low for r in table.rows],
            [r.win.high - r.win.value for r in table.rows],
        ]
    )
    ax.bar(x, 100 * values, 0.6, color=[_color(i) for i in range(len(x))], alpha=0.8)
    ax.errorbar(x, 100 * values, yerr=100 * err, fmt="none", ecolor="black", capsize=3, linewidth=1)
    _fair_lines(ax, {table.fair}, -0.5, {table.fair: len(x) - 0.5})
    ax.set_xticks(x, [r.label for r in table.rows])
    ax.set_xlabel("strategy")
    ax.set_ylabel("share of seat-rounds won (%)")
    ax.set_title(
        f"{table.name}: win share by strategy, {table.rotations} "
        f"{'tables seated at random' if table.random_seating else 'seatings'} "
        f"(n = {table.n_won:,} won rounds)"
    )
    _legend(ax, 1)
    return _save(fig, path)


@_styled
def skill_spreads(spreads: Sequence[SkillSpread], path: Path) -> Path:
    """Best-minus-worst win share per tournament (rule preset), with 95% error bars."""
    fig, ax = _figure()
    x = np.arange(len(spreads))
    values = np.array([s.spread.value for s in spreads])
    err = np.array(
        [
            [s.spread.value - s.spread.low for s in spreads],
            [s.spread.high - s.spread.value for s in spreads],
        ]
    )
    ax.bar(x, 100 * values, 0.6, color=[_color(i) for i in range(len(x))], alpha=0.8)
    ax.errorbar(x, 100 * values, yerr=100 * err, fmt="none", ecolor="black", capsize=3, linewidth=1)
    ax.set_xticks(x, [" = ".join([s.preset, *s.same_presets]) for s in spreads])
    ax.set_xlabel("rule preset")
    ax.set_ylabel("best minus worst win share (percentage points)")
    ax.set_title("Skill vs luck: win-share spread between the best and worst strategy")
    return _save(fig, path)

"""PNG plots for reports: one style, labelled axes with units, intervals drawn.

Figures are built with matplotlib's object API directly on the Agg canvas (no pyplot,
no global backend switch, safe in any process), at
8 x 4.5 in and 120 dpi (960 x 540 px). Each function takes already-computed answers
from :mod:`uno_stats.analysis.questions` and writes one file.
"""

from __future__ import annotations

import functools
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

P = ParamSpec("P")
SIZE = (8.0, 4.5)
DPI = 120
MIN_CELL_N = 30  # heat-map cells with fewer seat-rounds are left blank
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


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, dpi=DPI, format="png")
    return path


def _color(i: int) -> str:
    return COLORS[i % len(COLORS)]


def _legend(ax: Any, entries: int) -> None:
    """Legend inside the axes for a few entries, outside on the right for many."""
    if entries > 4:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    else:
        ax.legend(loc="best")


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


@_styled
def seat_win_rates(runs: Sequence[tuple[str, SeatWinRates]], path: Path) -> Path:
    """Win share by seat with 95% Wilson error bars and each run's fair share 1/players."""
    fig, ax = _figure()
    k = len(runs)
    width = 0.8 / k
    for i, (label, seats) in enumerate(runs):
        x = np.arange(seats.players) + (i - (k - 1) / 2) * width
        values = np.array([s.value for s in seats.seats])
        err = np.array(
            [[s.value - s.low for s in seats.seats], [s.high - s.value for s in seats.seats]]
        )
        ax.bar(
            x,
            100 * values,
            width,
            color=_color(i),
            alpha=0.8,
            label=f"{label} (n = {seats.n_won:,} won rounds)",
        )
        ax.errorbar(
            x, 100 * values, yerr=100 * err, fmt="none", ecolor="black", capsize=3, linewidth=1
        )
    players = max(s.players for _, s in runs)
    ends = {s.fair: s.players - 0.5 for _, s in runs}
    _fair_lines(ax, set(ends), -0.5, ends)
    ax.set_xticks(np.arange(players), [str(s) for s in range(players)])
    ax.set_xlabel("seat (0 = dealer's left)")
    ax.set_ylabel("share of won rounds (%)")
    ax.set_title("Win rate by seat (95% Wilson intervals)")
    _legend(ax, len(runs) + 1)
    return _save(fig, path)


@_styled
def comeback(runs: Sequence[tuple[str, ComebackCurve]], path: Path) -> Path:
    """P(win | max deficit >= k) (solid) against P(win | never k behind) (dashed), 95% bands."""
    fig, ax = _figure()
    for i, (label, curve) in enumerate(runs):
        ks = np.array(curve.ks)
        for part, style, name in ((curve.rates, "-", label), (curve.never, "--", None)):
            ok = np.array([r.n > 0 for r in part])
            rate = 100 * np.array([r.value for r in part])
            low = 100 * np.array([r.low for r in part])
            high = 100 * np.array([r.high for r in part])
            ax.fill_between(ks[ok], low[ok], high[ok], color=_color(i), alpha=0.2, linewidth=0)
            ax.plot(ks[ok], rate[ok], style, marker="o", color=_color(i), linewidth=1.5, label=name)
    ks_all = [k for _, c in runs for k in c.ks]
    ax.set_xlabel("k: most cards ever held above the smallest hand")
    ax.set_ylabel("P(win) (%)")
    ax.set_title("Comeback: k or more behind (solid) vs never k behind (dashed), 95% bands")
    ax.set_xticks(sorted(set(ks_all)))
    ax.set_ylim(bottom=0)
    _legend(ax, len(runs))
    return _save(fig, path)


@_styled
def deficit_heatmap(label: str, table: DeficitTable, path: Path, max_deficit: int = 15) -> Path:
    """Heat map of P(win | deficit d at turn t); cells with n < MIN_CELL_N are blank."""
    fig, ax = _figure()
    ax.grid(False)
    rows = min(table.deficits.size, max_deficit + 1)
    rate = np.where(table.n[:rows] >= MIN_CELL_N, 100 * table.rate[:rows], np.nan)
    image = ax.pcolormesh(
        np.ma.masked_invalid(rate),
        cmap="viridis",
        vmin=0,
        vmax=np.nanmax(rate) if np.isfinite(rate).any() else 100,
    )
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


def _axis_values(values: Sequence[Any]) -> tuple[np.ndarray, list[str] | None]:
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    if numeric:
        return np.array(values, dtype=float), None
    return np.arange(len(values), dtype=float), [str(v) for v in values]


@_styled
def sweep(
    name: str, axes: Sequence[str], points: Sequence[tuple[dict[str, Any], Estimate]], path: Path
) -> Path:
    """Mean turns against the swept keys: a line with 95% error bars (one axis, one line per
    combination of the other axes) or a heat map (two axes)."""
    fig, ax = _figure()
    if len(axes) == 2:
        ax.grid(False)
        xs = list(dict.fromkeys(p[axes[0]] for p, _ in points))
        ys = list(dict.fromkeys(p[axes[1]] for p, _ in points))
        grid = np.full((len(ys), len(xs)), np.nan)
        cells: dict[tuple[int, int], Estimate] = {}
        for point, est in points:
            cell = (ys.index(point[axes[1]]), xs.index(point[axes[0]]))
            grid[cell] = est.value
            cells[cell] = est
        image = ax.pcolormesh(np.ma.masked_invalid(grid), cmap="viridis")
        for (r, c), est in cells.items():
            ax.text(
                c + 0.5,
                r + 0.5,
                f"{est.value:.1f}\n[{est.low:.1f}, {est.high:.1f}]",
                ha="center",
                va="center",
                color="white",
                fontsize=8,
                bbox={"facecolor": "black", "alpha": 0.25, "linewidth": 0},
            )
        ax.set_xticks(np.arange(len(xs)) + 0.5, [str(v) for v in xs])
        ax.set_yticks(np.arange(len(ys)) + 0.5, [str(v) for v in ys])
        ax.set_ylabel(axes[1])
        fig.colorbar(image, ax=ax, label="mean round length (turns)")
    else:
        others = axes[1:]
        groups: dict[tuple[Any, ...], list[tuple[Any, Estimate]]] = {}
        for point, est in points:
            groups.setdefault(tuple(point[a] for a in others), []).append((point[axes[0]], est))
        xs_all = list(dict.fromkeys(p[axes[0]] for p, _ in points))
        x_pos, labels = _axis_values(xs_all)
        for i, (key, members) in enumerate(groups.items()):
            x = np.array([x_pos[xs_all.index(v)] for v, _ in members])
            y = np.array([e.value for _, e in members])
            err = np.array(
                [[e.value - e.low for _, e in members], [e.high - e.value for _, e in members]]
            )
            label = ", ".join(f"{a}={v}" for a, v in zip(others, key, strict=True)) or name
            ax.errorbar(x, y, yerr=err, marker="o", capsize=3, color=_color(i), label=label)
        if labels is not None:
            ax.set_xticks(x_pos, labels)
        ax.set_ylabel("mean round length (turns)")
        _legend(ax, len(groups))
    ax.set_xlabel(axes[0])
    ax.set_title(f"Mean round length across sweep {name} (95% intervals)")
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

"""PNG pictures of a sweep's effects (docs/METHODS.md "Effects"): a tornado chart of the
main effects on one metric, an interaction plot of the largest two-factor interactions,
and each many-level axis's level effects along the axis.

The data of each picture are computed apart from the drawing (:func:`tornado_bars`,
:func:`interaction_cells`, :func:`level_points`) so that tests can hold them against the
effects rows. Style as :mod:`uno_stats.present.plots` (its rc parameters, colours,
object API on the Agg canvas), at 150 dpi, legends outside the data.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from uno_stats.analysis.effects import Effect, SweepEffects, ranked
from uno_stats.analysis.metrics import RATE_KINDS, metric_spec
from uno_stats.analysis.ratios import RATIO_KINDS, fair_share, game_counts
from uno_stats.present.effects import short_name
from uno_stats.present.plots import COLORS, STYLE, fitted_title, numeric_positions

DPI = 150
INTERACTIONS_SHOWN = 4
"""Panels of the interaction plot: the largest tested two-factor interactions."""


def _scale(effect: Effect) -> float:
    """Rates and shares are drawn in percentage points, other metrics in their units."""
    return 100.0 if effect.kind in RATE_KINDS else 1.0


def unit_label(metric: str) -> str:
    """``turns``, ``cards`` or ``pp``: the unit an effect on ``metric`` is drawn in."""
    spec = metric_spec(metric)
    if spec.kind in RATE_KINDS:
        return "pp"
    return spec.unit or "units"


def level_unit(metric: str) -> str:
    """The unit of a metric's value itself (not of a difference): ``%`` for rates and
    shares, ``pp`` for the first mover's edge (already a difference from 1/players)."""
    spec = metric_spec(metric)
    if spec.kind == "first_mover_edge":
        return "pp"
    return "%" if spec.kind in RATE_KINDS else unit_label(metric)


def _figure(size: tuple[float, float], panels: tuple[int, int] = (1, 1)) -> tuple[Figure, Any]:
    fig = Figure(figsize=size, dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(*panels, squeeze=False)
    return fig, axes


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, dpi=DPI, format="png")
    return path


# --- tornado -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    """One bar of a tornado chart: a main effect (or level) in drawing units."""

    term: str
    subject: str
    estimate: float
    low: float
    high: float
    tested: bool


def tornado_bars(result: SweepEffects, metric: str) -> list[Bar]:
    """The main effects (and level terms) on ``metric``, largest first, as drawn."""
    from uno_stats.present.effects import term_subject

    main = [e for e in result.effects if e.metric == metric and e.term.order == 1]
    out = []
    for e in ranked(main):
        k = _scale(e)
        tested = e.status == "tested"
        out.append(
            Bar(e.term.name, term_subject(result, e), k * e.estimate, k * e.low, k * e.high, tested)
        )
    return [b for b in out if b.tested] + [b for b in out if not b.tested]


def tornado_figure(result: SweepEffects, metric: str) -> Figure:
    """The tornado chart of ``metric`` (bars are :func:`tornado_bars`, top to bottom)."""
    bars = [b for b in tornado_bars(result, metric) if math.isfinite(b.estimate)]
    effects = [e for e in result.effects if e.metric == metric]
    unit = unit_label(metric)
    with matplotlib.rc_context(STYLE):  # type: ignore[arg-type]
        height = max(3.0, 1.2 + 0.32 * len(bars))
        fig, axes = _figure((8.0, height))
        ax = axes[0][0]
        ax.grid(axis="y", visible=False)
        y = np.arange(len(bars))[::-1].astype(float)
        est = np.array([b.estimate for b in bars])
        colors = [(COLORS[1] if b.estimate > 0 else COLORS[0]) if b.tested else "0.6" for b in bars]
        ax.barh(y, est, height=0.6, color=colors, alpha=0.75, zorder=2)
        err = np.array([[b.estimate - b.low for b in bars], [b.high - b.estimate for b in bars]])
        ax.errorbar(
            est,
            y,
            xerr=err,
            fmt="none",
            ecolor="black",
            capsize=3,
            linewidth=1,
            zorder=3,
            label="95% interval",
        )
        ax.axvline(0.0, color="black", linewidth=1, zorder=4)
        bound = next((e.bound for e in effects if e.bound is not None), None)
        if bound is not None:
            k = _scale(effects[0])
            ax.axvspan(
                -k * bound,
                k * bound,
                color="0.85",
                zorder=1,
                label=f"margin +-{k * bound:.3g} {unit}",
            )
        ax.set_yticks(y, [b.subject for b in bars])
        ax.set_ylim(-0.7, len(bars) - 0.3)
        ax.set_xlabel(f"effect ({unit})")
        ax.set_title(f"Main effects on {short_name(metric)}, largest first")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def tornado(result: SweepEffects, metric: str, path: Path) -> Path:
    """Write :func:`tornado_figure` to ``path``."""
    return _save(tornado_figure(result, metric), path)


# --- interactions --------------------------------------------------------------------------


def point_values(result: SweepEffects, metric: str) -> np.ndarray:
    """Each point's value of a ratio metric (as the effects analysis computes it: the
    ratio of sums over the point's games, minus the fair share for the first mover's edge)."""
    spec = metric_spec(metric)
    if spec.kind not in RATIO_KINDS:
        raise ValueError(f"{metric}: the pictures draw ratio metrics only")
    out = np.empty(len(result.sweep.points))
    for i, point in enumerate(result.sweep.points):
        frame = game_counts(point.rows, spec)
        den = float(frame["den"].sum())
        ratio = float(frame["num"].sum()) / den if den > 0 else math.nan
        out[i] = ratio - fair_share(point.players, spec)
    return out


@dataclass(frozen=True)
class Cells:
    """An interaction A:B drawn as the mean of the metric in its four cells.

    ``means[i][j]``: the mean over the points with A at ``a_values[i]`` and B at
    ``b_values[j]`` (each point weighted equally), in drawing units."""

    effect: Effect
    a: str
    b: str
    a_values: tuple[Any, Any]
    b_values: tuple[Any, Any]
    means: tuple[tuple[float, float], tuple[float, float]]


def interaction_effects(result: SweepEffects, metric: str, shown: int) -> list[Effect]:
    """The ``shown`` largest tested two-factor interactions on ``metric``."""
    two = [
        e
        for e in result.effects
        if e.metric == metric and e.term.order == 2 and e.status == "tested"
    ]
    return ranked(two)[:shown]


def interaction_cells(
    result: SweepEffects,
    metric: str,
    shown: int = INTERACTIONS_SHOWN,
    values: np.ndarray | None = None,
) -> list[Cells]:
    """The four cell means of each of the largest interactions on ``metric``."""
    chosen = interaction_effects(result, metric, shown)
    if not chosen:
        return []
    per_point = point_values(result, metric) if values is None else values
    sweep = result.sweep
    out = []
    for e in chosen:
        (a, b), (la, lb) = e.term.axes, e.term.levels
        av = (sweep.axes[a][0], sweep.axes[a][la])
        bv = (sweep.axes[b][0], sweep.axes[b][lb])
        k = _scale(e)
        means = tuple(
            tuple(
                k
                * float(
                    np.mean(
                        [
                            per_point[i]
                            for i, p in enumerate(sweep.points)
                            if p.values[a] == x and p.values[b] == y
                        ]
                    )
                )
                for y in bv
            )
            for x in av
        )
        out.append(Cells(e, a, b, av, bv, means))  # type: ignore[arg-type]
    return out


def _show(value: Any) -> str:
    from uno_stats.scenario.checks import show_value

    return value if isinstance(value, str) else show_value(value)


def interaction_figure(result: SweepEffects, metric: str, cells: Sequence[Cells]) -> Figure:
    """One panel per interaction: A's two values as categories on x, one marker series per
    value of B (the classical interaction plot: parallel segments mean no interaction)."""
    unit = unit_label(metric)
    spec_unit = "pp" if unit == "pp" else unit
    with matplotlib.rc_context(STYLE):  # type: ignore[arg-type]
        cols = min(2, len(cells))
        rows = math.ceil(len(cells) / cols)
        fig, axes = _figure((8.0, 1.0 + 2.9 * rows), (rows, cols))
        for n, c in enumerate(cells):
            ax = axes[n // cols][n % cols]
            x = np.array([0.0, 1.0])
            for j, bval in enumerate(c.b_values):
                y = [c.means[0][j], c.means[1][j]]
                ax.plot(
                    x + (j - 0.5) * 0.04,
                    y,
                    marker="o",
                    color=COLORS[j],
                    linewidth=1.4,
                    label=f"{c.b.rpartition('.')[2]} = {_show(bval)}",
                )
            ax.set_xticks(x, [_show(v) for v in c.a_values])
            ax.set_xlim(-0.35, 1.35)
            ax.set_xlabel(c.a.rpartition(".")[2])
            k = _scale(c.effect)
            ax.set_title(
                f"{c.effect.term.name.replace('rules.', '')}\n{k * c.effect.estimate:+.2f} "
                f"[{k * c.effect.low:.2f}, {k * c.effect.high:.2f}] {spec_unit}",
                fontsize=8,
            )
            ax.set_ylabel(f"cell mean ({level_unit(metric)})", fontsize=8)
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7)
        for n in range(len(cells), rows * cols):
            axes[n // cols][n % cols].set_visible(False)
        fitted_title(
            fig,
            f"Largest interactions on {short_name(metric)}: cell means (above each: the "
            "interaction and its 95% interval)",
        )
    return fig


def interactions(result: SweepEffects, metric: str, path: Path) -> Path | None:
    """Write the interaction plot of ``metric`` (None when it has no tested interaction)."""
    cells = interaction_cells(result, metric)
    if not cells:
        return None
    return _save(interaction_figure(result, metric, cells), path)


# --- many-level axes -----------------------------------------------------------------------


@dataclass(frozen=True)
class LevelPoint:
    """One value of a many-level axis: its effect against the axis's first value."""

    value: Any
    estimate: float
    low: float
    high: float


def many_level_axes(result: SweepEffects) -> list[str]:
    """The sweep's axes with more than two values."""
    return [a for a, v in result.sweep.axes.items() if len(v) > 2]


def level_points(result: SweepEffects, axis: str, metric: str) -> list[LevelPoint]:
    """The first value (0 by definition) then each level term's effect, in the axis's order."""
    values = result.sweep.axes[axis]
    found = {
        e.term.levels[0]: e for e in result.effects if e.metric == metric and e.term.axes == (axis,)
    }
    out = [LevelPoint(values[0], 0.0, 0.0, 0.0)]
    for level in range(1, len(values)):
        e = found.get(level)
        if e is None:
            continue
        k = _scale(e)
        out.append(LevelPoint(values[level], k * e.estimate, k * e.low, k * e.high))
    return out


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def levels_figure(result: SweepEffects, axis: str, metrics: Sequence[str]) -> Figure:
    """One panel per metric: the effect of each value of ``axis`` against its first, with
    95% intervals; a numeric axis on a numeric x joined by a line, a categorical one as
    separate categories (no line)."""
    with matplotlib.rc_context(STYLE):  # type: ignore[arg-type]
        cols = min(2, len(metrics))
        rows = math.ceil(len(metrics) / cols)
        fig, axes = _figure((8.0, 1.0 + 2.8 * rows), (rows, cols))
        for n, metric in enumerate(metrics):
            ax = axes[n // cols][n % cols]
            pts = level_points(result, axis, metric)
            values = [p.value for p in pts]
            numeric = _numeric(values)
            x, log_scale = (
                numeric_positions(values)
                if numeric
                else (np.arange(len(values), dtype=float), False)
            )
            y = np.array([p.estimate for p in pts])
            err = np.array([[p.estimate - p.low for p in pts], [p.high - p.estimate for p in pts]])
            ax.errorbar(
                x,
                y,
                yerr=err,
                marker="o",
                capsize=3,
                color=COLORS[0],
                linestyle="-" if numeric else "none",
            )
            ax.axhline(0.0, color="black", linewidth=0.8)
            ax.set_xticks(x, [_show(v) for v in values])
            ax.set_xlabel(f"{axis} (log scale)" if log_scale else axis)
            ax.set_ylabel(f"vs {axis} = {_show(values[0])} ({unit_label(metric)})", fontsize=8)
            ax.set_title(short_name(metric), fontsize=9)
        for n in range(len(metrics), rows * cols):
            axes[n // cols][n % cols].set_visible(False)
        fitted_title(
            fig,
            f"Effect of each value of {axis} against {axis} = {_show(result.sweep.axes[axis][0])}, "
            "averaged over the other axes (95% intervals)",
        )
    return fig


def levels(result: SweepEffects, axis: str, metrics: Sequence[str], path: Path) -> Path:
    """Write :func:`levels_figure` to ``path``."""
    return _save(levels_figure(result, axis, metrics), path)

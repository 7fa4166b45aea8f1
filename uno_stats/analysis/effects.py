"""Factorial effects of a sweep's axes on each metric, with intervals that use the design.

A sweep is a full factorial over its axes (every combination of the values). For a term
(docs/METHODS.md "Effects"):

- a two-level axis A: the main effect is the mean of the metric over the points at A's
  second value minus the mean over the points at its first (each point weighted equally);
- a level l of an axis with more values: the same with l in place of the second value
  (term ``players=5``), averaged over the other axes;
- an interaction A:B: half the difference of A's effect at B's two levels (each as above);
  A:B:C: half the difference of the A:B interaction at C's two levels.

Each is computed cell by cell as nested differences over the grid of points
(:func:`contrast`), then averaged over the other axes, so that an axis whose points are
identical gives exactly 0.

Intervals: every point of a sweep replays the same deals game by game (the same seed, the
same game count; the random stream of game k depends on the seed and k only), so a term is
a contrast of paired values and its interval is taken over game indices (the deal is the
cluster). A ratio metric (:mod:`uno_stats.analysis.ratios`: means, rates, shares, comeback
rates) contributes the per-game delta-method influence (num_k - R den_k) / mean(den) of
each point; the term's per-game influence is the same contrast of them, and its standard
error sd / sqrt(games). A mean gets a t interval, the other ratios a normal one. A
quantile's replicates come from a bootstrap over game indices, drawn jointly for every
point. Points whose deals differ (another seed, game count, player count, deck count or
hand size: :data:`uno_stats.analysis.sweep_points.DEAL_AXES`) are not paired: each set of
points with one deal (a deal group) pairs within itself, and the groups are independent
(their variances add; a mean's t then takes Welch-Satterthwaite degrees of freedom).

Holm's correction runs over each metric's family of terms. A term whose points never
differ in any game (an axis that changes nothing) is reported as exactly 0 with a
zero-width interval and no test. A regular fractional factorial (two-level axes) is read
through the sign contrast of each term (:func:`fraction_weights`), with the terms it is
confounded with named by :func:`term_aliases` (none in a full factorial).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from uno_stats.analysis.estimates import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, LEVEL, holm
from uno_stats.analysis.metrics import RATE_KINDS, TOST_LEVEL, Margin, MetricSpec, metric_spec
from uno_stats.analysis.quantiles import CELLS, mid_quantile, mid_quantiles
from uno_stats.analysis.ratios import RATIO_KINDS, fair_share, game_counts
from uno_stats.analysis.sweep_points import DEAL_AXES, Sweep, by_point
from uno_stats.errors import ResultsError
from uno_stats.store.parts import POINT

DEFAULT_METRICS: tuple[str, ...] = (
    "mean_turns",
    "median_turns",
    "p90_turns",
    "first_mover_win_rate",
    "first_mover_edge",
    "comeback3_rate",
    "comeback5_rate",
    "mean_cards_drawn",
    "chain2_rate",
    "void_rate",
    "capped_rate",
)
INTERACTION_AXES = 8
"""Two-factor interactions are estimated by default for sweeps of at most this many axes."""
UNCHANGED = "never changed a game"
IDENTICAL = "identical in every game"


@dataclass(frozen=True)
class Term:
    """A main effect (one axis), or an interaction of two or three axes.

    ``levels``: per axis, the index of the value compared with the axis's first value.
    """

    axes: tuple[str, ...]
    levels: tuple[int, ...]
    name: str

    @property
    def order(self) -> int:
        """1 for a main effect, 2 for a two-factor interaction, 3 for a three-factor one."""
        return len(self.axes)


@dataclass(frozen=True)
class Effect:
    """One term's effect on one metric: estimate, 95% interval, test, Holm p and verdict.

    ``status``: ``tested``, ``unchanged`` (the term's axes never changed a game: exactly 0,
    no test), ``identical`` (the metric's per-game contrast is 0 in every game) or
    ``undefined`` (the metric has no value at some point, e.g. no seat ever 5 cards behind).
    ``practical``: with a margin, True when the 90% interval lies inside it.
    """

    metric: str
    label: str
    kind: str
    term: Term
    estimate: float
    low: float
    high: float
    p: float
    p_holm: float
    games: int
    method: str
    status: str
    tost: tuple[float, float]
    level: float = LEVEL
    seed: int = 0
    aliases: tuple[str, ...] = ()
    bound: float | None = None
    practical: bool | None = None

    @property
    def verdict(self) -> str:
        """``never changed a game``, ``no practical effect`` (inside the margin) or ``""``."""
        if self.status == "unchanged":
            return UNCHANGED
        if self.status == "identical":
            return IDENTICAL
        if self.practical is False:
            return "no practical effect"
        return ""


@dataclass(frozen=True)
class SweepEffects:
    """Every metric's effects for one sweep, the axes that changed nothing, and notes."""

    sweep: Sweep
    effects: list[Effect]
    unchanged_axes: tuple[str, ...]
    pairing: str
    notes: list[str] = field(default_factory=list)


# --- the design: grid, terms and contrasts -------------------------------------------------


@dataclass(frozen=True)
class Grid:
    """The sweep's points as a factorial grid.

    A full factorial: ``index[cell]`` is the position of the point in each cell (C order
    over ``axes``). A fractional one (``index`` None, every varying axis two-level):
    ``levels[point]`` holds each point's level indices (0 or 1) on ``axes``.
    """

    axes: tuple[str, ...]
    shape: tuple[int, ...]
    index: np.ndarray | None  # (cells,) point positions; None for a fraction
    levels: np.ndarray  # (points, axes) level indices

    @property
    def complete(self) -> bool:
        """Every combination of the axes' values is a point (a full factorial)."""
        return self.index is not None

    def arrange(self, per_point: np.ndarray) -> np.ndarray:
        """``per_point`` (points, ...) laid out as the grid: shape ``shape + (...)``."""
        assert self.index is not None, "a fraction has no full grid"
        return per_point[self.index].reshape(self.shape + per_point.shape[1:])

    def prepare(self, per_point: np.ndarray) -> np.ndarray:
        """What :meth:`apply` takes: the grid layout (full) or the points' rows (fraction)."""
        return self.arrange(per_point) if self.complete else np.asarray(per_point)

    def used_by(self, term: Term) -> np.ndarray:
        """Whether each point's coefficient in the term is nonzero (what ``apply`` of the
        identity would show, in O(points)): on a full grid, the points at the first or the
        compared level of every axis of the term; on a fraction, every point."""
        if not self.complete:
            return np.ones(len(self.levels), dtype=bool)
        at = self.levels[:, [self.axes.index(a) for a in term.axes]]
        return np.asarray(np.all((at == 0) | (at == np.array(term.levels)), axis=1))

    def apply(self, prepared: np.ndarray, term: Term) -> np.ndarray:
        """The term's contrast of prepared values: :func:`contrast` on a full grid, the
        sign contrast (:func:`fraction_weights`) on a fraction."""
        if self.complete:
            return contrast(prepared, self, term)
        return np.tensordot(fraction_weights(self, term), prepared, axes=1)


def grid_of(sweep: Sweep) -> Grid:
    """The grid of a sweep: a full factorial, or a fractional design's points (the
    manifest's design record says ``fractional``, every varying axis has two values).
    Any other sweep with a missing point, or a repeated point, raises."""
    axes = tuple(sweep.axes)
    shape = tuple(len(sweep.axes[a]) for a in axes)
    cells = np.full(int(np.prod(shape)), -1, dtype=np.int64)
    levels = np.zeros((len(sweep.points), len(axes)), dtype=np.int64)
    for i, point in enumerate(sweep.points):
        at = tuple(sweep.axes[a].index(point.values[a]) for a in axes)
        levels[i] = at
        flat = int(np.ravel_multi_index(at, shape))
        if cells[flat] >= 0:
            raise ResultsError(f"{sweep.name}: two points at {point.label}")
        cells[flat] = i
    if not (cells < 0).any():
        return Grid(axes, shape, cells, levels)
    fractional = (sweep.design or {}).get("kind") == "fractional"
    if fractional and all(n <= 2 for n in shape):
        return Grid(axes, shape, None, levels)
    missing = int((cells < 0).sum())
    raise ResultsError(
        f"{sweep.name}: {missing} combination(s) of the axes have no point; effects needs "
        "every combination (a full factorial sweep, complete) or a fractional design"
    )


def _signs(grid: Grid, term: Term) -> np.ndarray:
    """Each point's sign in a two-level term: the product of its axes' +-1 codes."""
    codes = 2 * grid.levels[:, [grid.axes.index(a) for a in term.axes]] - 1
    return np.asarray(codes.prod(axis=1))


def fraction_weights(grid: Grid, term: Term) -> np.ndarray:
    """Each point's weight in a term of a two-level fraction: the term's sign column s
    (the product of the +-1 codes of its axes), as mean(y | s = +1) - mean(y | s = -1).

    On a full two-level factorial this is the same number as :func:`contrast` (the
    classical effect: twice the regression coefficient of s). Raises when s is constant
    (the term is aliased with the mean: the design cannot estimate it)."""
    sign = _signs(grid, term)
    plus, minus = int((sign > 0).sum()), int((sign < 0).sum())
    if plus == 0 or minus == 0:
        raise ResultsError(f"{term.name} is aliased with the mean in this design: no estimate")
    return np.where(sign > 0, 1 / plus, -1 / minus)


def term_name(axes: dict[str, tuple[Any, ...]], axis: str, level: int) -> str:
    """``axis`` for a two-level axis, ``axis=value`` for a level of an axis with more."""
    from uno_stats.scenario.fields import show_value

    values = axes[axis]
    if len(values) == 2:
        return axis
    value = values[level]
    return f"{axis}={value if isinstance(value, str) else show_value(value)}"


def terms_of(axes: dict[str, tuple[Any, ...]], max_order: int) -> list[Term]:
    """Every term up to ``max_order`` axes: main effects first, then interactions, in the
    sweep's axis order; axes with one value have no effect."""
    varying = [a for a, values in axes.items() if len(values) > 1]
    out = []
    for order in range(1, max_order + 1):
        for combo in itertools.combinations(varying, order):
            for levels in itertools.product(*(range(1, len(axes[a])) for a in combo)):
                name = ":".join(term_name(axes, a, lv) for a, lv in zip(combo, levels, strict=True))
                out.append(Term(combo, tuple(levels), name))
    return out


def contrast(arranged: np.ndarray, grid: Grid, term: Term) -> np.ndarray:
    """The term's contrast of values laid out on the grid (shape ``grid.shape + rest``).

    Nested differences (level minus first level) along each axis of the term, halved once
    per axis beyond the first, then the mean over the grid: the shape ``rest``.
    """
    x = arranged
    for axis, level in zip(term.axes, term.levels, strict=True):
        pos = grid.axes.index(axis)
        x = np.take(x, [level], axis=pos) - np.take(x, [0], axis=pos)
    if term.order > 1:
        x = x * 0.5 ** (term.order - 1)
    return np.asarray(x.mean(axis=tuple(range(len(grid.shape)))))


def term_aliases(sweep: Sweep, term: Term, max_order: int = 3) -> tuple[str, ...]:
    """The effects ``term`` is confounded with (``A:B`` names): none in a full factorial.

    The hook where a fractional design's alias table is attached: the design rebuilt from
    the sweep manifest's record (:mod:`uno_stats.scenario.designs`), ``term`` times each word of
    its defining relation, up to ``max_order`` factors."""
    record = sweep.design
    if not record or record.get("kind") != "fractional":
        return ()
    from uno_stats.scenario import designs  # type: ignore[attr-defined,unused-ignore]

    sizes = [len(v) for v in sweep.axes.values()]
    design = designs.design_from_record(list(sweep.axes), sizes, record)
    return tuple(":".join(a) for a in designs.aliases(design, term.axes, max_order))


# --- pairing: deal groups -----------------------------------------------------------------


def deal_groups(sweep: Sweep) -> list[list[int]]:
    """Points (by position) that share one deal: same seed, games, players, decks, hand size."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, point in enumerate(sweep.points):
        groups.setdefault(point.deal, []).append(i)
    return list(groups.values())


def pairing_text(sweep: Sweep, groups: Sequence[Sequence[int]]) -> str:
    """One sentence on how the points pair up game by game."""
    first = sweep.points[0]
    if len(groups) == 1:
        return (
            f"Every point replays the same {first.games:,} deals (seed {first.seed}), so each "
            "effect is a contrast of paired values and its interval is taken over game indices."
        )
    changing = [a for a in DEAL_AXES if a in sweep.axes and len(sweep.axes[a]) > 1]
    other = [
        name
        for name, pos in (("seed", 0), ("game count", 1))
        if len({p.deal[pos] for p in sweep.points}) > 1
    ]
    what = ", ".join(changing + other) or "the deal"
    if all(len(g) == 1 for g in groups):
        return (
            f"Not paired: {what} differ between the points, so no two points replay the same "
            "deals; every point is taken as independent."
        )
    return (
        f"Partly paired: {what} change the deal, so points that differ in it do not replay "
        f"the same deals. Within each of the {len(groups)} deal groups the points pair "
        "game by game (intervals over game indices); the groups are independent."
    )


# --- per-point data for one metric --------------------------------------------------------


@dataclass(frozen=True)
class _GroupData:
    """One deal group's game-aligned data: per point of the group, per-game influences
    (ratio metrics) or bootstrap replicates (quantiles), as rows of ``values``."""

    members: list[int]
    values: np.ndarray  # (members, games) influences, or (members, resamples) replicates
    games: int


def _split_unaligned(
    sweep: Sweep, groups: list[list[int]], keys: list[np.ndarray]
) -> list[list[int]]:
    """Groups whose points' game indices differ (incomplete runs) split into single points."""
    out: list[list[int]] = []
    for g in groups:
        first = keys[g[0]]
        if all(np.array_equal(keys[i], first) for i in g[1:]):
            out.append(g)
        else:
            out.extend([i] for i in g)
    return out


def _ratio_data(
    sweep: Sweep, spec: MetricSpec, groups: list[list[int]]
) -> tuple[np.ndarray, list[_GroupData]]:
    """Each point's value of a ratio metric and each group's per-game influences (every
    point's per-game counts, read a part at a time: a part holds whole games)."""
    pieces = [game_counts(piece, spec, (POINT,)) for piece in sweep.row_pieces()]
    counts = by_point(pl.concat(pieces).sort(POINT, "game"), len(sweep.points))
    values = np.empty(len(counts))
    influence = []
    for i, (frame, point) in enumerate(zip(counts, sweep.points, strict=True)):
        num, den = frame["num"].to_numpy(), frame["den"].to_numpy()
        total = float(den.sum())
        ratio = float(num.sum()) / total if total > 0 else math.nan
        values[i] = ratio - fair_share(point.players, spec)
        with np.errstate(invalid="ignore", divide="ignore"):
            influence.append((num - ratio * den) / (total / len(den)))
    keys = [frame["game"].to_numpy() for frame in counts]
    data = [
        _GroupData(g, np.stack([influence[i] for i in g]), len(keys[g[0]]))
        for g in _split_unaligned(sweep, groups, keys)
    ]
    return values, data


def _per_game_values(sweep: Sweep, column: str) -> list[pl.DataFrame]:
    """Each point's ``game`` and value ``v`` of ``column`` (non-null), read a part at a time."""
    rows = [
        piece.select(POINT, pl.col("game"), pl.col(column).cast(pl.Float64).alias("v"))
        .drop_nulls("v")
        .collect()
        for piece in sweep.row_pieces()
    ]
    return by_point(pl.concat(rows), len(sweep.points))


QuantileData = tuple[dict[float, np.ndarray], dict[float, list["_GroupData"]]]
"""Per quantile: each point's mid-quantile, and each deal group's bootstrap replicates."""


def quantile_data(
    sweep: Sweep,
    column: str,
    qs: Sequence[float],
    groups: list[list[int]],
    resamples: int,
) -> QuantileData:
    """Each point's ``q`` mid-quantiles and, per group, their bootstrap replicates: game
    indices resampled (Multinomial(games, 1/games) weights), the same draws for every
    point of the group, every round of a drawn game kept with it."""
    from scipy import sparse  # lazy: slow to import

    frames = _per_game_values(sweep, column)
    keys = [np.unique(f["game"].to_numpy()) for f in frames]
    estimates = {q: np.empty(len(frames)) for q in qs}
    cells: list[tuple[np.ndarray, Any]] = []
    for i, (frame, games) in enumerate(zip(frames, keys, strict=True)):
        distinct, counts = np.unique(frame["v"].to_numpy(), return_counts=True)
        for q in qs:
            estimates[q][i] = mid_quantile(distinct, counts, q) if counts.size else math.nan
        row = np.searchsorted(games, frame["game"].to_numpy())
        col = np.searchsorted(distinct, frame["v"].to_numpy())
        matrix = sparse.csr_matrix(
            (np.ones(len(row)), (row, col)), shape=(len(games), len(distinct))
        )
        cells.append((distinct, matrix))
    out: dict[float, list[_GroupData]] = {q: [] for q in qs}
    for number, g in enumerate(_split_unaligned(sweep, groups, keys)):
        n = len(keys[g[0]])
        if n == 0:  # no game of these points has a value: no quantile, no replicate
            for q in qs:
                out[q].append(_GroupData(g, np.full((len(g), resamples), math.nan), n))
            continue
        rng = np.random.default_rng([BOOTSTRAP_SEED, number])
        reps = {q: np.empty((len(g), resamples)) for q in qs}
        batch = max(1, CELLS // max(1, n))
        for start in range(0, resamples, batch):
            size = min(batch, resamples - start)
            weights = rng.multinomial(n, np.full(n, 1 / n), size=size).astype(np.float64)
            for row_of, i in enumerate(g):
                distinct, matrix = cells[i]
                cum = np.cumsum(np.asarray((matrix.T @ weights.T).T), axis=1)
                for q in qs:
                    reps[q][row_of, start : start + size] = mid_quantiles(distinct, cum, q)
        for q in qs:
            out[q].append(_GroupData(g, reps[q], n))
    return estimates, out


# --- fingerprints: which axes change nothing ----------------------------------------------


def _fingerprints(sweep: Sweep) -> list[tuple[int, int, int]]:
    """Each point's rows, and the wrapping sum and xor of every row's hash (read a part at a
    time): equal for identical results."""
    points = len(sweep.points)
    rows, total, xor = (np.zeros(points, dtype=np.uint64) for _ in range(3))
    for piece in sweep.row_pieces():
        hashes = piece.select(POINT, pl.struct(pl.exclude(POINT)).hash(seed=0).alias("h"))
        frame = hashes.collect()
        point, h = frame[POINT].to_numpy().astype(np.int64), frame["h"].to_numpy()
        np.add.at(rows, point, 1)
        np.add.at(total, point, h.astype(np.uint64))  # wraps modulo 2^64, as the sum did
        np.bitwise_xor.at(xor, point, h.astype(np.uint64))
    return [(int(n), int(t), int(x)) for n, t, x in zip(rows, total, xor, strict=True)]


def unchanged_axes(sweep: Sweep, grid: Grid) -> tuple[str, ...]:
    """Axes along which every cell's points hold exactly the same rows (a turn cap that
    never binds): their terms never changed a game."""
    ids: dict[tuple[int, int, int], int] = {}
    prints = np.array([ids.setdefault(f, len(ids)) for f in _fingerprints(sweep)])
    arranged = grid.arrange(prints)
    same = []
    for pos, axis in enumerate(grid.axes):
        if len(sweep.axes[axis]) > 1 and np.all(arranged == np.take(arranged, [0], axis=pos)):
            same.append(axis)
    return tuple(same)


# --- one metric's effects -----------------------------------------------------------------


def _t_quantile(level: float, df: float) -> float:
    from scipy import special

    return (
        float(special.stdtrit(df, 0.5 + level / 2))
        if math.isfinite(df)
        else float(special.ndtri(0.5 + level / 2))
    )


def _test(estimate: float, se: float, df: float) -> float:
    from scipy import special

    if not se > 0:
        return math.nan
    stat = abs(estimate) / se
    if math.isfinite(df):
        return float(2 * special.stdtr(df, -stat))
    return float(2 * special.ndtr(-stat))


def _method(spec: MetricSpec, groups: Sequence[_GroupData]) -> str:
    base = {
        "mean": "t",
        "quantile": "bootstrap SE (mid-quantile)",
    }.get(spec.kind, "delta method")
    if len(groups) == 1:
        return f"paired {base} over games"
    if all(len(g.members) == 1 for g in groups):
        return f"independent points, {base}"
    return f"paired {base} within {len(groups)} deal groups, independent between"


def effect_spec(metric: str) -> MetricSpec:
    """The metric's spec; a metric with no effect estimate (a distribution) raises."""
    spec = metric_spec(metric)
    if spec.kind not in (*RATIO_KINDS, "quantile"):
        raise ResultsError(
            f"effects of {metric}: use a mean, quantile or rate metric (mean_COL, median_COL, "
            "pNN_COL, a rate or share), not a distribution"
        )
    return spec


def metric_effects(
    sweep: Sweep,
    grid: Grid,
    metric: str,
    terms: Sequence[Term],
    unchanged: Sequence[str] = (),
    margin: Margin | None = None,
    resamples: int = BOOTSTRAP_RESAMPLES,
    quantile_cache: dict[str, QuantileData] | None = None,
) -> list[Effect]:
    """Every term's effect on ``metric``, Holm-adjusted over the terms (module doc).

    ``quantile_cache``: per column, :func:`quantile_data` of the quantiles asked for (the
    same bootstrap draws serve every quantile of a column)."""
    spec = effect_spec(metric)
    if spec.kind == "seat" and len({p.players for p in sweep.points}) > 1:
        raise ResultsError(f"effects of {metric}: the points seat different player counts")
    if spec.column is not None:
        for point in sweep.points:
            if spec.column not in point.column_names:
                raise ResultsError(
                    f"effects of {metric}: no column {spec.column!r} in {point.label}"
                )
    groups = deal_groups(sweep)
    if spec.kind == "quantile":
        assert spec.column is not None and spec.q is not None
        cached = (quantile_cache or {}).get(spec.column)
        if cached is None or spec.q not in cached[0]:
            cached = quantile_data(sweep, spec.column, [spec.q], groups, resamples)
        values, group_data = cached[0][spec.q], cached[1][spec.q]
    else:
        values, group_data = _ratio_data(sweep, spec, groups)
    prepared_values = grid.prepare(values)
    method = _method(spec, group_data)
    is_mean = spec.kind == "mean"
    prepared_groups = []
    for g in group_data:  # each group's rows on the grid, zero at the other points
        full = np.zeros((len(values), g.values.shape[1]))
        full[g.members] = g.values
        prepared_groups.append(grid.prepare(full))
    member_rows = [np.asarray(g.members) for g in group_data]  # indexed once per term
    out = []
    for term in terms:
        estimate = float(grid.apply(prepared_values, term))
        used = grid.used_by(term)  # the points with a coefficient in the term
        variances, dfs, all_zero, games = [], [], True, 0
        for g, members, prepared in zip(group_data, member_rows, prepared_groups, strict=True):
            if not np.any(used[members]):
                continue  # the term does not use this group's points
            games += g.games
            z = grid.apply(prepared, term)
            all_zero = all_zero and bool(np.all(z == 0))
            if spec.kind == "quantile":
                finite = z[np.isfinite(z)]
                v = float(finite.var(ddof=1)) if finite.size > 1 else math.nan
                dfs.append(math.inf)
            else:
                v = float(z.var(ddof=1)) / g.games if g.games > 1 else math.nan
                dfs.append(g.games - 1)
            variances.append(v)
        var = float(sum(variances))
        se = math.sqrt(var) if var >= 0 else math.nan
        df = _satterthwaite(variances, dfs) if is_mean else math.inf
        if any(a in unchanged for a in term.axes):
            status = "unchanged"
        elif not math.isfinite(estimate):
            status = "undefined"
        elif all_zero and estimate == 0:
            status = "identical"
        else:
            status = "tested"
        # Reading: unchanged and identical terms come out as exactly 0 with se 0 by
        # themselves (nested differences of equal values); they get no test.
        half = _t_quantile(LEVEL, df) * se
        low, high = estimate - half, estimate + half
        p = _test(estimate, se, df) if status == "tested" else math.nan
        tost_half = _t_quantile(TOST_LEVEL, df) * se
        tost = (estimate - tost_half, estimate + tost_half)
        out.append(
            Effect(
                metric=spec.key,
                label=spec.label,
                kind=spec.kind,
                term=term,
                estimate=estimate,
                low=low,
                high=high,
                p=p,
                p_holm=math.nan,
                games=games,
                method=UNCHANGED if status == "unchanged" else method,
                status=status,
                tost=tost,
                seed=sweep.seed,
                aliases=term_aliases(sweep, term),
            )
        )
    adjusted = holm([e.p for e in out])
    out = [_with(e, p_holm=float(p)) for e, p in zip(out, adjusted, strict=True)]
    if margin is not None:
        baseline = float(np.nanmean(values))
        bound = margin.absolute(baseline, spec.kind in RATE_KINDS)
        out = [
            _with(e, bound=bound, practical=not (-bound < e.tost[0] and e.tost[1] < bound))
            for e in out
        ]
    return out


def _with(effect: Effect, **changes: Any) -> Effect:
    from dataclasses import replace

    return replace(effect, **changes)


def _satterthwaite(variances: Sequence[float], dfs: Sequence[float]) -> float:
    """Welch-Satterthwaite degrees of freedom of a sum of independent variance estimates."""
    total = sum(variances)
    denom = sum(v * v / d for v, d in zip(variances, dfs, strict=True) if d > 0)
    if not (total > 0 and denom > 0):
        return float(min(dfs)) if dfs else math.inf
    return total * total / denom


def ranked(effects: Sequence[Effect]) -> list[Effect]:
    """Tested terms by size (largest |estimate| first), then the others in term order."""
    tested = [e for e in effects if e.status == "tested"]
    rest = [e for e in effects if e.status != "tested"]
    return sorted(tested, key=lambda e: -abs(e.estimate)) + rest


def sweep_effects(
    sweep: Sweep,
    metrics: Sequence[str] | None = None,
    interactions: bool | None = None,
    three_factor: bool = False,
    margin: Margin | None = None,
    resamples: int = BOOTSTRAP_RESAMPLES,
    default: Sequence[str] = DEFAULT_METRICS,
) -> SweepEffects:
    """Every term's effect on every metric of ``sweep``.

    ``metrics``: default ``default``, :data:`DEFAULT_METRICS` (those the results lack a column for
    are skipped with a note; a metric asked for by name never is). ``interactions``: None for
    the default (two-factor interactions when the sweep has at most
    :data:`INTERACTION_AXES` varying axes). ``three_factor`` adds the three-factor ones.
    """
    grid = grid_of(sweep)
    varying = [a for a, v in sweep.axes.items() if len(v) > 1]
    if not varying:
        raise ResultsError(f"{sweep.name}: no sweep axis has two values: no effect to estimate")
    with_two = interactions if interactions is not None else len(varying) <= INTERACTION_AXES
    order = 3 if three_factor else (2 if with_two or three_factor else 1)
    terms = terms_of(sweep.axes, order)
    if not grid.complete:  # a fraction cannot estimate the terms aliased with the mean
        terms = [t for t in terms if len(set(np.sign(_signs(grid, t)))) == 2]
    unchanged = unchanged_axes(sweep, grid) if grid.complete else ()
    notes: list[str] = []
    wanted = list(metrics) if metrics else list(default)
    effects: list[Effect] = []
    qs: dict[str, list[float]] = {}
    for metric in wanted:
        spec = metric_spec(metric)
        if spec.kind == "quantile" and spec.column is not None and spec.q is not None:
            qs.setdefault(spec.column, []).append(spec.q)
    cache: dict[str, QuantileData] = {}
    names = [p.column_names for p in sweep.points]
    for column, wanted_qs in qs.items():
        if all(column in n for n in names):
            cache[column] = quantile_data(sweep, column, wanted_qs, deal_groups(sweep), resamples)
    for metric in wanted:
        spec = metric_spec(metric)
        if not metrics and spec.column is not None and any(spec.column not in n for n in names):
            notes.append(f"{spec.label}: not in these results (no column {spec.column!r})")
            continue
        effects.extend(
            metric_effects(sweep, grid, metric, terms, unchanged, margin, resamples, cache)
        )
    groups = deal_groups(sweep)
    return SweepEffects(sweep, effects, unchanged, pairing_text(sweep, groups), notes)

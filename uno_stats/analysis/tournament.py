"""Tournaments: strategies pooled over balanced seatings, pairwise shares, skill spread.

A tournament's seatings (:mod:`uno_stats.scenario.load`) put every strategy in every seat and
behind every other strategy equally often. The seatings share the run's seed, so game ``g``
of every seating starts from the same deal: the deal (the ``game`` column: a round, or a
whole match) is the unit of independence. Every interval here is therefore cluster-robust
over games (:func:`uno_stats.analysis.estimates.cluster_ratio`), and differences between
strategies or between tournaments keep the covariance that shared deals bring.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import polars as pl

from uno_stats.analysis.estimates import (
    Estimate,
    cluster_difference,
    cluster_ratio,
    cluster_variance,
    has_column,
    holm,
    normal_estimate,
    normal_interval,
    require_rows,
)
from uno_stats.analysis.questions import run_preset, run_rules, run_scoring, run_seats
from uno_stats.analysis.seats import seat_label, seat_matrix, seat_scores, won_frame
from uno_stats.errors import ResultsError
from uno_stats.store.runs import Run

METHOD = "cluster-robust normal interval over deals (games shared by every seating)"


@dataclass(frozen=True)
class TournamentRow:
    """One strategy pooled over every seating: win share per seat-round and points scored."""

    label: str
    seat_rounds: int
    wins: int
    win: Estimate
    points_scored: Estimate


@dataclass(frozen=True)
class TournamentPair:
    """P(``label`` wins | ``label`` or ``opponent`` wins), over seatings that seat both."""

    label: str
    opponent: str
    wins: int
    opponent_wins: int
    ahead: Estimate


@dataclass(frozen=True, eq=False)
class TournamentTable:
    """A tournament's strategies (seat advantage cancels over the seatings) and its pairs.

    ``games`` are the deal ids and ``influence[label]`` each deal's influence on that
    strategy's win share (aligned with ``games``), kept for spreads and their comparisons.
    ``same_as`` names tournaments whose results were identical game by game (merged).
    ``random_seating``: each game seated its table in a random order (``seating: random``)
    instead of the balanced seatings (positions mapped to strategies by the ``seating``
    column).
    """

    name: str
    players: int
    rotations: int
    n_won: int
    fair: float
    rows: tuple[TournamentRow, ...]
    pairs: tuple[TournamentPair, ...]
    seed: int | None
    games: np.ndarray
    influence: dict[str, np.ndarray]
    fingerprint: tuple[int, ...] = ()
    same_as: tuple[str, ...] = ()
    random_seating: bool = False


def tournament_groups(runs: Sequence[Run]) -> list[tuple[str, list[Run]]]:
    """The seating runs of each tournament (manifest ``tournament`` set), by scenario name."""
    groups: dict[str, list[Run]] = {}
    for run in runs:
        if run.manifest.tournament:
            groups.setdefault(run.manifest.name, []).append(run)
    return list(groups.items())


def tournament_preset(runs: Sequence[Run]) -> str:
    """The rule preset of a tournament's seating runs."""
    return str(run_preset(runs[0]))


def _fingerprint(lf: pl.LazyFrame) -> tuple[int, ...]:
    """Rows, total turns and cards drawn, and a sum of row hashes over each round's game,
    round, winner, turns and cards drawn: equal only for results identical game by game."""
    row_hash = pl.struct("game", "round", "winner", "turns", "cards_drawn").hash(7)
    row = (
        lf.select(
            pl.len(),
            pl.col("turns").cast(pl.Int64).sum(),
            pl.col("cards_drawn").cast(pl.Int64).sum(),
            (row_hash % 1_000_000_007).cast(pl.Int64).sum(),
        )
        .collect()
        .row(0)
    )
    return tuple(int(v or 0) for v in row)


def _seatings(runs: Sequence[Run]) -> tuple[list[list[str]], list[str], int]:
    """Each run's seat labels, every label in order of appearance, and 1 + the largest game."""
    labels = [[seat_label(s) for s in run_seats(run)] for run in runs]
    order = list(dict.fromkeys(label for seating in labels for label in seating))
    games = 0
    for run in runs:
        top = run.scan().select(pl.col("game").max()).collect().item()
        games = max(games, int(top) + 1 if top is not None else 0)
    return labels, order, games


@dataclass(frozen=True)
class _Seen:
    """One seating run's won rounds: deal, winning position, the strategy at every position
    (rows x positions) and whether the seating is fixed (else drawn at random per game)."""

    game: np.ndarray
    winner: np.ndarray
    label_at: np.ndarray
    fixed: bool


def _masks(label_at: np.ndarray, label: int) -> np.ndarray:
    """Per row, the positions ``label`` holds as a bit mask."""
    bits = (1 << np.arange(label_at.shape[1], dtype=np.int64))[None, :]
    return ((label_at == label) * bits).sum(axis=1)


def pairwise(
    seen: Sequence[_Seen], a: int, b: int, size: int, used: np.ndarray
) -> tuple[int, int, Estimate]:
    """A's and B's wins where both sit, and P(A wins | A or B wins), seat-balanced.

    Rounds seated at random (``seating: random``) are balanced by design: each seating and
    its mirror image (A and B swapped) are equally likely, so the plain share of A's wins
    estimates P(A wins | A or B wins) with no seat artefact. Fixed seatings are not mirror
    images of each other: A may sit first and B third in one and never the other way round,
    so the plain share carries the seats' own advantage (with five identical strategies
    about +-0.6 pp). There each cell c (the positions A and B hold) is corrected by the seat
    effect theta_c = P(a player at A's positions wins | a player at A's or B's positions
    wins), estimated from every fixed seating of the tournament (all strategies at those
    positions, which the balanced design puts there equally often):

        P = 1/2 + sum_c D_c (r_c - theta_c) / sum_c D_c

    with r_c A's share of the D_c rounds of cell c that A or B won. Identical strategies
    give 1/2 in expectation, and P(A, B) + P(B, A) = 1 exactly. The interval is
    cluster-robust over deals with the influence of every ratio, theta_c included.
    """
    cells: dict[tuple[int, int], list[np.ndarray]] = {}
    plain_x, plain_d = np.zeros(size), np.zeros(size)
    wins_a = wins_b = 0
    for s in seen:
        ma, mb = _masks(s.label_at, a), _masks(s.label_at, b)
        both = (ma > 0) & (mb > 0)
        bit = np.int64(1) << s.winner.astype(np.int64)
        xa, xb = both & ((bit & ma) > 0), both & ((bit & mb) > 0)
        wins_a, wins_b = wins_a + int(xa.sum()), wins_b + int(xb.sum())
        plain_x += np.bincount(s.game, weights=xa, minlength=size)
        plain_d += np.bincount(s.game, weights=xa | xb, minlength=size)
        if s.fixed and both.any():
            key = (int(ma[both][0]), int(mb[both][0]))  # a fixed seating: one cell
            cells.setdefault(key, []).append(np.bincount(s.game, weights=xa | xb, minlength=size))
    if not cells or not all(s.fixed for s in seen):  # seated at random: balanced by design
        ahead, _ = cluster_ratio(plain_x[used], plain_d[used], share=True)
        return wins_a, wins_b, ahead
    games = np.concatenate([s.game for s in seen])
    bits = np.int64(1) << np.concatenate([s.winner for s in seen]).astype(np.int64)
    per_cell = []
    for (at_a, at_b), parts in cells.items():
        d = np.sum(parts, axis=0)
        tx = np.bincount(games, weights=(bits & at_a) > 0, minlength=size)
        td = np.bincount(games, weights=(bits & (at_a | at_b)) > 0, minlength=size)
        per_cell.append((d, tx, td, float(tx.sum()) / float(td.sum())))
    total = float(plain_d.sum())
    if total == 0:
        return wins_a, wins_b, Estimate(math.nan, math.nan, math.nan, 0)
    share = float(plain_x.sum()) / total  # R: A's share of the rounds A or B won
    seat = float(np.sum([float(d.sum()) * theta for d, _, _, theta in per_cell])) / total  # T
    # P = 1/2 + R - T; each ratio linearised over deals (theta_c's too)
    influence = (plain_x - share * plain_d) / total
    for d, tx, td, theta in per_cell:
        influence -= (theta - seat) * d / total
        influence -= float(d.sum()) / total * (tx - theta * td) / float(td.sum())
    value = 0.5 + share - seat
    se = math.sqrt(cluster_variance(influence[used]))
    low, high = normal_interval(value, se)
    n = int(np.count_nonzero(plain_d[used]))
    return wins_a, wins_b, Estimate(value, max(0.0, low), min(1.0, high), n)


def tournament_table(runs: Sequence[Run]) -> TournamentTable:
    """Pool a tournament's seating runs (won rounds only), clustering by deal.

    Per strategy: wins / seat-rounds and points scored / seat-round. Per ordered pair (A, B):
    P(A wins | A or B wins), seat-balanced (:func:`pairwise`). Every interval is
    cluster-robust over games (:data:`METHOD`).
    """
    if not runs:
        raise ResultsError("no tournament runs given")
    players = {run.players for run in runs}
    if len(players) != 1:
        raise ResultsError("tournament runs differ in player count")
    seat_labels, order, size = _seatings(runs)
    k = len(order)
    n, wins, score = (np.zeros((k, size)) for _ in range(3))
    seen: list[_Seen] = []
    for run, labels in zip(runs, seat_labels, strict=True):
        lf = run.scan()
        seating = has_column(lf, "seating")
        df = won_frame(lf, pl.col("game").cast(pl.Int64), "points", *(["seating"] * seating))
        game, winner = df["game"].to_numpy(), df["winner"].to_numpy()
        held = seat_matrix(df, "points")
        scores = seat_scores(held, winner, run_scoring(run))
        # RULES.md S16: the scenario seat sitting at each position (identity when fixed)
        sitter = seat_matrix(df, "seating") if seating else np.arange(held.shape[1])[None, :]
        label_of_seat = np.array([order.index(x) for x in labels])
        label_at = np.broadcast_to(label_of_seat[sitter], held.shape)
        winner_label = label_at[np.arange(len(winner)), winner] if len(winner) else winner
        per_run = np.zeros((k, size))
        for j in np.unique(label_at):
            mine = label_at == j
            n[j] += np.bincount(game, weights=mine.sum(axis=1), minlength=size)
            per_run[j] += np.bincount(game, weights=winner_label == j, minlength=size)
            score[j] += np.bincount(game, weights=(scores * mine).sum(axis=1), minlength=size)
        wins += per_run
        fixed = not seating or run_rules(run).get("seating") != "random"
        seen.append(_Seen(game, winner, np.asarray(label_at[: len(winner)]), fixed))
    require_rows(int(n.sum()), "won rounds")
    used = n.sum(axis=0) > 0  # deals with a won round in some seating: the clusters
    n, wins, score = n[:, used], wins[:, used], score[:, used]
    rows, influence = [], {}
    for j, label in enumerate(order):
        if n[j].sum() == 0:
            continue
        share, e = cluster_ratio(wins[j], n[j], share=True)
        points, _ = cluster_ratio(score[j], n[j])
        influence[label] = e
        rows.append(TournamentRow(label, int(n[j].sum()), int(wins[j].sum()), share, points))
    pairs = []
    for a, la in enumerate(order):
        for b, lb in enumerate(order):
            if a != b:
                wa, wb, ahead = pairwise(seen, a, b, size, used)
                pairs.append(TournamentPair(la, lb, wa, wb, ahead))
    n_players = players.pop()
    return TournamentTable(
        runs[0].manifest.name,
        n_players,
        len(runs),
        int(wins.sum()),
        1 / n_players,
        tuple(rows),
        tuple(pairs),
        runs[0].manifest.seed,
        np.flatnonzero(used),
        influence,
        tuple(v for run in runs for v in _fingerprint(run.scan())),
        random_seating=any(run_rules(run).get("seating") == "random" for run in runs),
    )


def merge_identical(tables: Sequence[TournamentTable]) -> list[TournamentTable]:
    """Tournaments whose results are identical game by game, reported once.

    Two tournaments whose rule difference never fires (e.g. a key that only matters with
    forgetful players) replay the same games from the same seed: the first is kept and
    names the others in ``same_as``.
    """
    kept: list[TournamentTable] = []
    for t in tables:
        twin = next((k for k in kept if t.fingerprint and k.fingerprint == t.fingerprint), None)
        if twin is None:
            kept.append(t)
        else:
            i = kept.index(twin)
            kept[i] = replace(twin, same_as=(*twin.same_as, t.name))
    return kept


@dataclass(frozen=True, eq=False)
class SkillSpread:
    """Best minus worst strategy's win share in one tournament: the bigger, the more skill.

    ``influence``: each deal's influence on the spread (aligned with ``games``).
    """

    name: str
    preset: str
    best: str
    worst: str
    spread: Estimate
    p: float
    games: np.ndarray
    influence: np.ndarray
    seed: int | None = None
    same_as: tuple[str, ...] = ()
    same_presets: tuple[str, ...] = ()


RANGE_DRAWS = 20_000
"""Normal draws behind the spread's p-value (its Monte Carlo SE at p = 0.05: 0.15%)."""
RANGE_SEED = 2026


def range_p(influence: np.ndarray, observed: float, draws: int = RANGE_DRAWS) -> float:
    """P(max - min of the strategies' shares >= ``observed``) when all shares are equal.

    ``influence``: (deals, strategies) cluster influences of the shares; under equal shares
    the share vector is asymptotically normal with the cluster-robust covariance
    m/(m-1) E'E, and the spread's null law is that of the range of such a vector, found by
    ``draws`` normal draws (fixed seed, so a report is reproducible). The range is the
    statistic of every pair at once, so picking the best and worst after looking costs
    nothing (a max-statistic test). p counts the observed draw: (1 + hits) / (1 + draws).
    """
    e = np.asarray(influence, dtype=np.float64)
    m = e.shape[0]
    if m < 2 or not math.isfinite(observed):
        return math.nan
    cov = m / (m - 1) * (e.T @ e)
    rng = np.random.default_rng(RANGE_SEED)
    z = rng.multivariate_normal(np.zeros(e.shape[1]), cov, size=draws, method="eigh")
    spread = z.max(axis=1) - z.min(axis=1)
    return float((1 + np.count_nonzero(spread >= observed)) / (1 + draws))


def skill_spread(
    table: TournamentTable, preset: str, same_presets: tuple[str, ...] = ()
) -> SkillSpread:
    """The win-share gap between a tournament's best and worst strategy.

    Both shares come from the same deals, so the interval is cluster-robust over games for
    the difference itself (it keeps their covariance); it is the interval of the gap of the
    two strategies named, picked after looking. ``p`` tests equal shares for every strategy
    by the range of all shares (:func:`range_p`), which accounts for that pick (the z test
    of the picked pair, used before, rejected about 29% of the time with five equal
    strategies). ``n`` is the number of deals.
    """
    if len(table.rows) < 2:
        raise ResultsError(f"{table.name}: a tournament needs two strategies for a spread")
    best = max(table.rows, key=lambda r: r.win.value)
    worst = min(table.rows, key=lambda r: r.win.value)
    eb, ew = table.influence[best.label], table.influence[worst.label]
    gap, _ = cluster_difference((best.win, eb), (worst.win, ew))
    gap = Estimate(gap.value, gap.low, gap.high, int(table.games.size))
    every = np.column_stack([table.influence[r.label] for r in table.rows])
    p = range_p(every, gap.value)
    return SkillSpread(
        table.name,
        preset,
        best.label,
        worst.label,
        gap,
        p,
        table.games,
        eb - ew,
        table.seed,
        table.same_as,
        same_presets,
    )


@dataclass(frozen=True)
class SpreadDifference:
    """Spread of tournament ``first`` minus spread of ``second``: a z test (Holm over pairs)."""

    first: str
    second: str
    difference: Estimate
    z: float
    p: float
    p_holm: float
    paired: bool
    seed: int | None = None  # the shared seed of paired tournaments


def _aligned(a: SkillSpread, b: SkillSpread) -> tuple[np.ndarray, np.ndarray]:
    games = np.union1d(a.games, b.games)
    ea, eb = np.zeros(games.size), np.zeros(games.size)
    ea[np.searchsorted(games, a.games)] = a.influence
    eb[np.searchsorted(games, b.games)] = b.influence
    return ea, eb


def spread_differences(spreads: Sequence[SkillSpread]) -> list[SpreadDifference]:
    """Whether the skill spread differs between tournaments: every pair, z test, Holm.

    Tournaments with the same seed replay the same deals game by game, so their spreads are
    paired by game (the variance of the difference keeps the covariance); otherwise the
    deals are independent and the variances add (the same formula, with no shared deal).
    """
    out = []
    for i, a in enumerate(spreads):
        for b in spreads[i + 1 :]:
            paired = a.seed is not None and a.seed == b.seed
            if paired:
                ea, eb = _aligned(a, b)
                variance = cluster_variance(ea - eb)
            else:
                variance = cluster_variance(a.influence) + cluster_variance(b.influence)
            d, p = normal_estimate(
                a.spread.value - b.spread.value, math.sqrt(variance), a.spread.n + b.spread.n
            )
            se = math.sqrt(variance)
            z = d.value / se if se > 0 else math.nan
            seed = a.seed if paired else None
            out.append(SpreadDifference(a.name, b.name, d, z, p, math.nan, paired, seed))
    adjusted = holm([d.p for d in out])
    return [replace(d, p_holm=float(h)) for d, h in zip(out, adjusted, strict=True)]


@dataclass(frozen=True)
class Tournaments:
    """Every tournament among some runs: tables (identical ones merged), spreads, tests."""

    tables: tuple[TournamentTable, ...]
    spreads: tuple[SkillSpread, ...]
    differences: tuple[SpreadDifference, ...]


def tournaments(runs: Sequence[Run]) -> Tournaments:
    """The tournaments among ``runs``; spreads and their comparisons need two or more."""
    groups = tournament_groups(runs)
    presets = {name: tournament_preset(g) for name, g in groups}
    tables = merge_identical([tournament_table(g) for _, g in groups])
    spreads = []
    if len(groups) >= 2:
        for t in tables:
            if len(t.rows) >= 2:
                twins = tuple(presets[n] for n in t.same_as)
                spreads.append(skill_spread(t, presets[t.name], twins))
    return Tournaments(tuple(tables), tuple(spreads), tuple(spread_differences(spreads)))

"""``settle``: run two scenarios paired, batch by batch, until the answer is decided.

Both scenarios are run with the same seed (so game k of each starts from the same deal; B's
own seed is replaced by A's, and said so, unless ``seed`` sets both) and grown one batch of
games at a time through :func:`uno_stats.run.runner.run_scenario`. After every batch the
paired per-game counts update an anytime-valid confidence sequence of B - A
(:mod:`uno_stats.analysis.sequential`): for a mean the paired differences d_k = b_k - a_k,
for a rate or share the delta-method influences of the ratio of per-game counts
(:mod:`uno_stats.analysis.ratios`: the same thing when every game counts once). For a
quantile metric (``median_COL``, ``pNN_COL``) each run's values update a time-uniform band on
its mid-quantile instead (:mod:`uno_stats.analysis.sequential_quantiles`, alpha / 2 per
run, combined into a conservative interval of the difference). The loop stops as soon as it
decides (``different`` / ``same``) or at ``max_games`` (``undecided``).

A settle is complete by its own rule: when it stops early both runs are sealed to the games
played (:func:`uno_stats.debates.settle_folder.recut`), so each folder is a complete run of
exactly those games, and :mod:`uno_stats.debates.settle_record` writes beside them how it
stopped, with the confidence sequence, for ``summary``, ``compare`` and ``report``. A
later settle of the same scenarios with another ``max_games`` or ``batch`` re-cuts the
folders to its own plan and reuses every game on disk.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from tqdm import tqdm

from uno_stats.analysis.metrics import RATE_KINDS, Margin, MetricSpec, metric_spec
from uno_stats.analysis.quantiles import mid_quantile
from uno_stats.analysis.ratios import RATIO_KINDS, RatioMoments, fair_share, game_counts
from uno_stats.analysis.sequential import ALPHA, cs_radius, decide, rho_squared
from uno_stats.analysis.sequential_quantiles import RunningCounts, difference_bounds
from uno_stats.debates.settle_folder import recut
from uno_stats.debates.settle_record import SettleRecord, write_record
from uno_stats.errors import RunError
from uno_stats.run.interrupts import deferred_stops
from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import Scenario, with_overrides
from uno_stats.store.parts import part_path
from uno_stats.store.runs import Run
from uno_stats.store.verify import verified_runs

SETTLE_METRICS = (
    "mean_COL (e.g. mean_turns, mean_cards_drawn), median_COL, pNN_COL (e.g. p90_turns), "
    "won_rate, void_rate, capped_rate, seatK_win_rate, first_mover_win_rate, "
    "first_mover_edge, comebackK_rate"
)
DEFAULT_BATCH = 20_000
DEFAULT_MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class SettleResult:
    """What ``settle`` decided (``record``, also written beside the runs) and its two runs."""

    metric: MetricSpec
    a: Run
    b: Run
    record: SettleRecord
    margin: Margin | None = None

    @property
    def outcome(self) -> str:
        """``different``, ``same`` or ``undecided``."""
        return self.record.outcome

    @property
    def estimate(self) -> float:
        """B - A at the last look."""
        return self.record.estimate

    @property
    def low(self) -> float:
        """Low end of the confidence sequence of B - A at the last look."""
        return self.record.low

    @property
    def high(self) -> float:
        """High end of the confidence sequence of B - A at the last look."""
        return self.record.high

    @property
    def mean_a(self) -> float:
        """A's value of the metric (its mid-quantile for a quantile metric)."""
        return self.record.value_a

    @property
    def mean_b(self) -> float:
        """B's value of the metric."""
        return self.record.value_b

    @property
    def games(self) -> int:
        """Paired games played (matches, for a match scenario)."""
        return self.record.games

    @property
    def changed_games(self) -> int:
        """Paired games in which the metric's counts differ between A and B."""
        return self.record.changed_games


def _check(spec: MetricSpec, s: Scenario) -> None:
    if s.point_count:
        raise RunError(f"settle compares two single scenarios; {s.name} is a sweep or tournament")
    if spec.kind not in (*RATIO_KINDS, "quantile"):
        raise RunError(f"settle decides {SETTLE_METRICS}; not {spec.key}")
    if spec.column == "match_rounds" and s.match_target is None:
        raise RunError(f"{s.name} plays single rounds: it has no {spec.label}")
    if s.match_target is not None and spec.kind == "quantile" and spec.column != "match_rounds":
        raise RunError(
            f"{s.name} plays matches, whose rounds do not line up game by game: settle a "
            f"quantile of match_rounds, or a mean or rate, instead of {spec.key}"
        )
    if spec.kind == "seat" and (spec.seat or 0) >= s.players:
        raise RunError(f"{s.name} seats {s.players} players: there is no seat {spec.seat}")


def _values(run_dir: Path, chunk: int, spec: MetricSpec) -> pl.DataFrame:
    """A quantile metric's value per game in one chunk's part: columns game, v."""
    lf = pl.scan_parquet(part_path(run_dir, chunk))
    if spec.column == "match_rounds":
        lf = lf.filter(pl.col("match_rounds").is_not_null())
    names = lf.collect_schema().names()
    if spec.column is not None and spec.column not in names:
        raise RunError(f"cannot settle {spec.label}: no column {spec.column!r} in the results")
    return lf.select("game", pl.col(str(spec.column)).cast(pl.Float64).alias("v")).collect()


def _counts(run_dir: Path, chunk: int, spec: MetricSpec) -> pl.DataFrame:
    """A ratio metric's counts per game in one chunk's part: columns game, num, den."""
    try:
        return game_counts(pl.scan_parquet(part_path(run_dir, chunk)), spec)
    except ValueError as exc:
        raise RunError(f"cannot settle {spec.label}: {exc}") from None


def seed_note(scenario_a: Scenario, scenario_b: Scenario, seed: int | None = None) -> str:
    """What settle says when it replaces B's own seed by A's (empty when it does not)."""
    if seed is not None or scenario_b.seed == scenario_a.seed:
        return ""
    return (
        f"{scenario_b.name}'s seed {scenario_b.seed} is replaced by {scenario_a.name}'s "
        f"seed {scenario_a.seed}, so that game k of both starts from the same deal "
        "(--seed sets both)"
    )


def _paired(
    scenario_a: Scenario, scenario_b: Scenario, seed: int | None
) -> tuple[Scenario, Scenario, str]:
    """Both scenarios on one seed, and a note when B's own seed was replaced by A's."""
    note = seed_note(scenario_a, scenario_b, seed)
    if seed is not None:
        return with_overrides(scenario_a, seed=seed), with_overrides(scenario_b, seed=seed), ""
    return scenario_a, with_overrides(scenario_b, seed=scenario_a.seed), note


class _Looks:
    """The running state of one settle: what the looks so far have seen."""

    def __init__(self, spec: MetricSpec, a: Scenario, b: Scenario, alpha: float, batch: int):
        self.spec, self.alpha, self.batch = spec, alpha, batch
        self.fair = (fair_share(a.players, spec), fair_share(b.players, spec))
        self.pairs = RatioMoments()
        self.seen = (RunningCounts(), RunningCounts())
        self.games = self.changed = 0

    def add(self, dirs: tuple[Path, Path], chunk: int) -> None:
        """Read chunk ``chunk`` of both runs and add its paired games."""
        spec = self.spec
        if spec.kind == "quantile":
            va, vb = (_values(d, chunk, spec) for d in dirs)
        else:
            va, vb = (_counts(d, chunk, spec) for d in dirs)
        joined = va.join(vb, on="game", how="inner", suffix="_b")
        if not (joined.height == va.height == vb.height):
            raise RunError(f"batch {chunk}: the two runs' games do not line up")
        self.games += joined.height
        if spec.kind == "quantile":
            x, y = joined["v"].to_numpy(), joined["v_b"].to_numpy()
            self.changed += int(np.count_nonzero(y != x))
            self.seen[0].update(x)
            self.seen[1].update(y)
            return
        rows = joined.select("num", "den", "num_b", "den_b").to_numpy().astype(np.float64)
        self.changed += int(np.count_nonzero((rows[:, :2] != rows[:, 2:]).any(axis=1)))
        self.pairs.update(rows)

    def interval(self, rho2: float) -> tuple[float, float, float, float, float, float]:
        """value_a, value_b, estimate, low, high and the spread that may decide (0: none)."""
        if self.spec.kind == "quantile":
            q = float(self.spec.q or 0.5)
            sa, sb = self.seen
            est, low, high = difference_bounds(sa, sb, q, self.alpha, self.batch)
            value_a = mid_quantile(sa.values, sa.counts, q)
            # Reading: the band is never degenerate, so it may decide from the first look
            return value_a, value_a + est, est, low, high, 1.0
        ra, rb = self.pairs.ratios()
        d, sd = self.pairs.difference()
        fa, fb = self.fair
        est = d - (fb - fa)
        half = float(cs_radius(self.pairs.n, sd, rho2, self.alpha))
        spread = sd if math.isfinite(sd) else 0.0
        return ra - fa, rb - fb, est, est - half, est + half, spread


def settle(
    a: Scenario,
    b: Scenario,
    metric: str = "mean_turns",
    margin: Margin | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    batch: int = DEFAULT_BATCH,
    alpha: float = ALPHA,
    out_dir: str | Path = "results/settle",
    workers: int | None = None,
    progress: bool = True,
    fresh: bool = False,
    seed: int | None = None,
) -> SettleResult:
    """Run ``a`` and ``b`` paired in batches until decided or ``max_games`` (see the module doc).

    The pairing: both play ``seed``, or without it a's seed (``record.seed_note`` says when
    b's own was replaced). A mean, rate or share uses the (1 - alpha) asymptotic confidence
    sequence of the paired difference b - a (:mod:`uno_stats.analysis.sequential`), tuned
    to be tightest near sqrt(batch x max_games) games (a reading: halfway, on a log scale,
    between the first look and the last); a quantile the time-uniform band of each run's
    mid-quantile (:func:`uno_stats.analysis.sequential_quantiles.difference_bounds`, valid
    from the first look on). A relative margin is taken of a's running value. Runs go to
    ``out_dir/<name>/`` with chunks of ``batch`` games; games already there from an earlier
    settle of the same scenarios and seed are reused whatever its ``max_games`` and
    ``batch``; a folder holding other results is an error unless ``fresh`` (which clears it
    first).
    """
    spec = metric_spec(metric)
    if a.name == b.name:
        raise RunError(f"both scenarios are named {a.name!r}; settle needs two names")
    if max_games < 1 or batch < 1:
        raise RunError("max games and batch must be at least 1")
    batch = min(batch, max_games)
    for s in (a, b):
        _check(spec, s)
    a, b, seed_note = _paired(a, b, seed)
    a, b = with_overrides(a, games=max_games), with_overrides(b, games=max_games)
    out = Path(out_dir)
    dirs = (out / a.name, out / b.name)
    if not fresh:
        for s, d in zip((a, b), dirs, strict=True):
            recut(d, s, batch)
    rho2 = rho_squared(math.sqrt(batch * max_games), alpha)
    looks = _Looks(spec, a, b, alpha, batch)
    started = time.perf_counter()
    bar = tqdm(
        total=max_games,
        unit="game",
        unit_scale=True,
        desc=f"settle {spec.key}",
        file=sys.stderr,
        disable=None if progress else True,
        dynamic_ncols=True,
    )
    outcome = "undecided"
    value_a = value_b = estimate = low = high = math.nan
    bound: float | None = None
    look = 0
    try:
        for look, limit in enumerate(range(batch, max_games + batch, batch)):
            limit = min(limit, max_games)
            for s in (a, b):
                run_scenario(
                    s,
                    out_dir=out,
                    workers=workers,
                    progress=False,
                    chunk_size=batch,
                    fresh=fresh and look == 0,
                    games_limit=limit,
                )
            before = looks.games
            with deferred_stops():  # polars runs Python from Rust: a stop waits for the look
                looks.add(dirs, look)
                value_a, value_b, estimate, low, high, spread = looks.interval(rho2)
            bound = None if margin is None else margin.absolute(value_a, spec.kind in RATE_KINDS)
            bar.update(looks.games - before)
            bar.set_postfix_str(f"d={estimate:+.4g} [{low:+.4g}, {high:+.4g}]")
            decision = str(decide(np.array(low), np.array(high), np.array(spread), bound))
            if decision:
                outcome = decision
                break
    finally:
        bar.close()
    seconds = time.perf_counter() - started
    played = min((look + 1) * batch, max_games)
    for s, d in zip((a, b), dirs, strict=True):
        recut(d, with_overrides(s, games=played), batch)  # sealed: complete by its own rule
    run_a, run_b = (verified_runs(d, deep=False)[0] for d in dirs)
    record = SettleRecord(
        metric=spec.key,
        outcome=outcome,
        stopped="max-games" if outcome == "undecided" else "decided",
        a=run_a.manifest.display_name,
        b=run_b.manifest.display_name,
        a_path=str(dirs[0]),
        b_path=str(dirs[1]),
        a_run=run_a.manifest.run_id,
        b_run=run_b.manifest.run_id,
        a_config=run_a.manifest.config_hash,
        b_config=run_b.manifest.config_hash,
        seed=a.seed,
        value_a=value_a,
        value_b=value_b,
        estimate=estimate,
        low=low,
        high=high,
        games=looks.games,
        max_games=max_games,
        batch=batch,
        looks=look + 1,
        alpha=alpha,
        margin=margin.text() if margin is not None else None,
        bound=bound,
        changed_games=looks.changed,
        seconds=round(seconds, 3),
        seed_note=seed_note,
    )
    write_record(dirs[0], dirs[1], record)
    return SettleResult(spec, run_a, run_b, record, margin)

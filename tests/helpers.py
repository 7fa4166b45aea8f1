"""Synthetic results folders for the stats and report tests (the engine is not needed).

``write_run`` writes ``manifest.json`` (built by the planner's own ``new_manifest``) and
``parts/part-000000.parquet`` with the columns the runner writes: every column of
:mod:`uno_stats.engine.schema`, ``status`` as a string, the hand-size checkpoints packed into
one ``hand_checkpoints`` binary column. The data are random
but plausible: turns from a gamma-Poisson law with a chosen mean, winners by chosen seat
probabilities, losers holding larger hands and deeper deficits than winners.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from uno_stats.engine.schema import (
    CHECKPOINT_TURNS,
    CHECKPOINTS,
    COLUMNS,
    NOT_REACHED,
    ROUND_COUNTERS,
    STATUS_NAMES,
)
from uno_stats.engine.strategy_table import default_seat
from uno_stats.run.plan import new_manifest
from uno_stats.run.sweep_plan import new_sweep_manifest
from uno_stats.scenario.load import SweepPoint, parse_scenario, scenario_from_dict
from uno_stats.store.manifest import Manifest, PointFoldersManifest, SweepManifest, write_manifest
from uno_stats.store.parts import PARTS_DIR, tool_version

_DTYPES: dict[str, pl.DataType] = {
    "uint8": pl.UInt8(),
    "uint16": pl.UInt16(),
    "uint32": pl.UInt32(),
    "uint64": pl.UInt64(),
    "int8": pl.Int8(),
}


def schema_frame(columns: dict[str, Any]) -> pl.DataFrame:
    """A frame with the schema's columns and dtypes (per-seat ones as lists), checkpoints aside."""
    out = {}
    for col in COLUMNS:
        if col.per_checkpoint:
            continue
        dtype = pl.String() if col.name == "status" else _DTYPES[col.dtype]
        if col.per_seat:
            dtype = pl.List(dtype)
        out[col.name] = pl.Series(col.name, columns[col.name]).cast(dtype)
    return pl.DataFrame(out)


def synthetic_rows(
    games: int,
    players: int = 4,
    seed: int = 1,
    mean_turns: float = 40.0,
    win_probs: list[float] | None = None,
    void_p: float = 0.01,
    capped_p: float = 0.0,
    max_turns: int = 10_000,
    match: bool = False,
) -> pl.DataFrame:
    """``games`` random rounds with the schema's columns."""
    rng = np.random.default_rng(seed)
    status = rng.choice(3, size=games, p=[1 - void_p - capped_p, void_p, capped_p])
    r = 4.0
    turns = 1 + rng.negative_binomial(r, r / (r + mean_turns - 1), size=games)
    turns = np.where(status == 2, max_turns, turns)
    won = status == 0
    winner = np.where(won, rng.choice(players, size=games, p=win_probs), -1)
    seat = np.arange(players)
    is_winner = seat[None, :] == winner[:, None]
    hands = np.where(is_winner, 0, rng.integers(1, 13, size=(games, players)))
    points = hands * rng.integers(3, 13, size=(games, players))
    max_deficit = np.where(
        is_winner, rng.integers(0, 6, size=(games, players)), rng.integers(0, 12, (games, players))
    )
    cols: dict[str, Any] = {
        "players": np.full(games, players),
        "dealer": np.full(games, players - 1),
        "first_player": np.where(rng.random(games) < 0.9, 0, rng.integers(0, players, games)),
        "winner": winner,
        "status": np.array(STATUS_NAMES)[status],
        "turns": turns,
        "cards_drawn": turns // 2 + rng.poisson(5, games),
        "hand_sizes": hands,
        "seating": np.tile(seat, (games, 1)),
        "points": points,
        "max_deficit": max_deficit,
        "knocked_out": np.zeros((games, players), dtype=np.int64),  # no mercy rule (S22)
    }
    cols["reshuffles"] = cols["cards_drawn"] // 80
    for name in ROUND_COUNTERS:  # the rarer counters: none of these events happened
        if name not in cols:
            cols[name] = np.zeros(games, dtype=np.int64)
    checkpoints = np.empty((games, len(CHECKPOINT_TURNS), players), dtype=np.uint8)
    for k, t in enumerate(CHECKPOINT_TURNS):
        held = np.where(
            is_winner, rng.integers(1, 7, (games, players)), rng.integers(1, 13, (games, players))
        )
        checkpoints[:, k, :] = np.where((turns > t)[:, None], held, NOT_REACHED)
    if match:
        lengths = rng.integers(3, 13, size=games)
        match_id = np.repeat(np.arange(games), lengths)[:games]
        starts = np.searchsorted(match_id, match_id)
        rounds = np.arange(games) - starts
        last = np.append(match_id[1:] != match_id[:-1], True)
        cols |= {
            "game": match_id,
            "round": rounds,
            "match_rounds": pl.Series(np.where(last, rounds + 1, 0)).cast(pl.UInt16),
            "match_winner": pl.Series(rng.integers(0, players, games)).cast(pl.Int8),
        }
        for name in ("match_rounds", "match_winner"):
            cols[name] = pl.select(
                pl.when(pl.lit(pl.Series(last))).then(pl.lit(cols[name]))
            ).to_series()
    else:
        cols |= {
            "game": np.arange(games),
            "round": np.zeros(games, dtype=np.int64),
            "match_rounds": pl.Series([None] * games, dtype=pl.UInt16),
            "match_winner": pl.Series([None] * games, dtype=pl.Int8),
        }
    packed = [row.tobytes() for row in checkpoints.reshape(games, -1)]
    return schema_frame(cols).with_columns(pl.Series(CHECKPOINTS, packed, dtype=pl.Binary))


def write_frame(folder: Path, frame: pl.DataFrame) -> None:
    """Write ``frame`` as the run's only Parquet part."""
    (folder / PARTS_DIR).mkdir(parents=True, exist_ok=True)
    frame.write_parquet(folder / PARTS_DIR / "part-000000.parquet")


def run_manifest(
    name: str,
    games: int,
    players: int = 4,
    seed: int = 1,
    description: str = "A synthetic test run",
    preset: str = "mattel-2022",
    rules: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] | None = None,
    match_target: int | None = None,
    sweep_label: str | None = None,
    sweep_assignment: dict[str, Any] | None = None,
    tournament: list[str] | None = None,
    deck: dict[str, Any] | None = None,
) -> Manifest:
    """The manifest the runner writes for this scenario (built by the runner's own function).

    ``seats`` lists per-seat knob overrides (``{}`` keeps a seat's defaults).
    """
    data: dict[str, Any] = {
        "name": name,
        "description": description,
        "players": players,
        "games": games,
        "seed": seed,
        "rules": {"preset": preset, **(rules or {})},
    }
    if seats:
        data["strategies"] = [default_seat() | seat for seat in seats]
    if match_target is not None:
        data["match"] = {"target": match_target}
    if deck is not None:
        data["deck"] = deck
    point = None
    if sweep_label is not None:
        point = SweepPoint(dict(sweep_assignment or {}), sweep_label, scenario_from_dict(data))
    manifest = new_manifest(scenario_from_dict(data, source=f"{name}.yaml"), 1000, point)
    manifest.created = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC).isoformat(timespec="seconds")
    manifest.tournament = tournament
    manifest.wall_time_s = 1.25
    manifest.games_per_s = games / 1.25
    manifest.rows = games
    manifest.complete = True
    return manifest


def engine_columns(first: int, n: int, players: int) -> dict[str, np.ndarray]:
    """Engine-shaped arrays for games ``first`` .. ``first + n - 1`` (values do not matter:
    for the tests of verification, which read only a part's record, rows and statistics)."""
    out: dict[str, np.ndarray] = {}
    for col in COLUMNS:
        out[col.name] = np.zeros(col.shape(n, players), dtype=col.dtype)
        if col.nullable:
            out[col.name + "__valid"] = np.zeros(n, dtype=bool)
    out["hand_checkpoints"][:] = NOT_REACHED
    out["game"] = np.arange(first, first + n, dtype=np.uint64)
    return out


SWEEP_OF_MATCHES = """\
name: s
players: 3
games: 10
seed: 4
rules: {preset: mattel-2022}
match: {target: 500}
sweep:
  rules.preset: [mattel-2022, mattel-2001, classic-house]
  rules.stack_draw_two: [false, true]
"""
"""Six points of 10 matches each (60 games in the dataset)."""


def sweep_manifest(chunk_size: int, text: str = SWEEP_OF_MATCHES) -> SweepManifest:
    """The manifest the runner writes for the sweep ``text`` (by the planner's own
    ``new_sweep_manifest``), in chunks of ``chunk_size`` games."""
    return new_sweep_manifest(parse_scenario(text), chunk_size)


def write_run(
    root: Path,
    name: str = "baseline",
    games: int = 2000,
    players: int = 4,
    seed: int = 1,
    manifest: Manifest | None = None,
    frame: pl.DataFrame | None = None,
    **rows: Any,
) -> Path:
    """Write a results folder ``root/name`` and return it; ``rows`` go to ``synthetic_rows``."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    if frame is None:
        frame = synthetic_rows(games, players, seed, **rows)
    meta = manifest or run_manifest(
        name, games, players, seed, match_target=500 if rows.get("match") else None
    )
    meta.rows = frame.height
    write_manifest(folder, meta)
    write_frame(folder, frame)
    return folder


def write_sweep(
    root: Path,
    name: str,
    axes: dict[str, list[Any]],
    games: int = 1000,
    seed: int = 7,
    checkpoints: bool = True,
) -> Path:
    """A sweep folder over ``players`` and/or ``mean_turns`` (a synthetic stand-in for a rule).

    ``checkpoints=False`` drops the ``hand_checkpoints`` column (as an older engine might).
    """
    import itertools

    folder = root / name
    labels = []
    for i, values in enumerate(itertools.product(*axes.values())):
        assignment = dict(zip(axes, values, strict=True))
        label = ",".join(f"{k}={v}" for k, v in assignment.items())
        labels.append(label)
        players = int(assignment.get("players", 4))
        meta = run_manifest(
            name, games, players, seed + i, sweep_label=label, sweep_assignment=assignment
        )
        mean = float(assignment.get("mean_turns", 30 + 5 * players))
        frame = synthetic_rows(games, players, seed + i, mean_turns=mean)
        if not checkpoints:
            frame = frame.drop(CHECKPOINTS)
        write_run(folder, label, games, players, seed + i, manifest=meta, frame=frame)
    sweep = PointFoldersManifest(
        name=name,
        version=tool_version(),
        seed=seed,
        games=games,
        axes=axes,
        points=labels,
        config_hash="synthetic",
        complete=True,
    )
    write_manifest(folder, sweep)
    return folder

"""Engine throughput: rounds per second by worker count, compile and start-up time excluded.

Each measurement starts its workers, warms them (the compiled engine loaded and a small
chunk played), and only then times a full set of chunks through the same chunk function,
backends and chunk sizes that :func:`uno_stats.run.runner.run_scenario` uses. Workers return
only row counts and write nothing: this measures the simulation itself (a real run adds
Parquet writing, done in the workers; ``uno-stats run`` prints that end-to-end rate).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from uno_stats import engine
from uno_stats.run import plan as planning
from uno_stats.run import runner
from uno_stats.run.backends import Backend, execute, make_backend

if TYPE_CHECKING:
    from uno_stats.run.scenario import Scenario

DEFAULT_SCENARIO = """\
name: bench-4p
description: Benchmark table - four random players, Mattel 2022 rules, single rounds.
players: 4
games: 200000
seed: 2026
rules:
  preset: mattel-2022
"""
WARM_UP_GAMES = 200


@dataclass(frozen=True)
class BenchResult:
    """One timed measurement: games (and rounds, which differ for matches) per second."""

    workers: int
    games: int
    rounds: int
    seconds: float
    start_s: float  # starting and warming the workers (not timed)
    chunk_size: int

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields, rates included."""
        return {
            **asdict(self),
            "games_per_s": round(self.games_per_s, 1),
            "rounds_per_s": round(self.rounds_per_s, 1),
        }


def load_bench_scenario(path: Path | None) -> Scenario:
    """The scenario at ``path``, or the built-in four-player Mattel 2022 table."""
    from uno_stats.run.scenario import load_scenario, parse_scenario

    if path is not None:
        return load_scenario(path)
    return parse_scenario(DEFAULT_SCENARIO, source="<bench default>")


def warm_up_engine(config: Any) -> float:
    """Compile (or load from numba's cache) and play a few games; seconds it took."""
    started = time.perf_counter()
    engine.warm_up()
    runner.run_chunk(config, 0, WARM_UP_GAMES)
    return time.perf_counter() - started


def simulate_rows(config: Any, first_game: int, n_games: int) -> int:
    """Play one chunk in a worker and return only its row count (nothing else to ship)."""
    return len(runner.run_chunk(config, first_game, n_games)["game"])


def _submit(backend: Backend, config: Any, chunk: planning.Chunk) -> Any:
    return backend.submit(simulate_rows, config, chunk.first_game, chunk.n_games)


def measure(config: Any, games: int, workers: int, chunk_size: int) -> BenchResult:
    """Time ``games`` games on ``workers`` warmed workers."""
    chunks = planning.plan_chunks(0, games, chunk_size)
    warm = planning.plan_chunks(0, WARM_UP_GAMES * 2 * workers, WARM_UP_GAMES)
    started = time.perf_counter()
    rounds = 0
    with make_backend(workers) as backend:
        execute(backend, warm, lambda b, c: _submit(b, config, c), lambda c, r: None)
        timed = time.perf_counter()

        def count(chunk: planning.Chunk, rows: int) -> None:
            nonlocal rounds
            rounds += rows

        execute(backend, chunks, lambda b, c: _submit(b, config, c), count)
        seconds = time.perf_counter() - timed
    return BenchResult(workers, games, rounds, seconds, timed - started, chunk_size)


def benchmark(scenario: Scenario, games: int, workers_list: list[int]) -> list[BenchResult]:
    """Games/s and rounds/s of ``scenario`` for each worker count, compile time excluded."""
    from uno_stats.run.scenario import with_overrides

    sized = with_overrides(scenario, games=games)
    config = engine.EngineConfig.from_scenario(sized)
    warm_up_engine(config)
    results = []
    for workers in workers_list:
        chunk_size = planning.default_chunk_size(sized, workers)
        results.append(measure(config, games, workers, chunk_size))
    return results


def results_table(results: list[BenchResult], tablefmt: str = "simple") -> str:
    """The measurements as a table, with the speed-up over one worker."""
    base = next((r.rounds_per_s for r in results if r.workers == 1), None)
    rows = [
        [
            r.workers,
            f"{r.games:,}",
            f"{r.rounds:,}",
            f"{r.seconds:.2f}",
            f"{r.games_per_s:,.0f}",
            f"{r.rounds_per_s:,.0f}",
            f"{r.rounds_per_s / base:.2f}x" if base else "-",
            f"{r.start_s:.2f}",
        ]
        for r in results
    ]
    headers = ["workers", "games", "rounds", "s", "games/s", "rounds/s", "speed-up", "start s"]
    return tabulate(rows, headers, tablefmt=tablefmt, disable_numparse=True)


def notes(results: list[BenchResult]) -> str:
    """What the numbers include and exclude."""
    return (
        "Timed after the engine was compiled or loaded from numba's cache and every worker had "
        "played a warm-up chunk\n('start s': starting and warming the workers, not timed). "
        "Parquet writing is not included.\nCold start (empty numba cache) vs warm start of a "
        "whole `uno-stats run`: see scripts/bench.py."
    )

"""Engine throughput: rounds per second by worker count, compile and start-up time excluded.

Each measurement starts its workers, warms them (the compiled engine loaded and a small
chunk played), and only then times a full set of chunks through the same chunk function,
backends and chunk sizes that :func:`uno_stats.run.runner.run_scenario` uses. Workers return
only row counts and write nothing: this measures the simulation itself (a real run adds
Parquet writing, done in the workers; ``uno-stats run`` prints that end-to-end rate).
With ``repeat`` > 1 each worker count is timed that many times, the counts taking turns,
and the median is kept.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from uno_stats.engine.jit import ensure_compiled
from uno_stats.run import plan as planning
from uno_stats.run import tasks
from uno_stats.run.backends import SLOTS_PER_WORKER, Backend, execute, make_backend

if TYPE_CHECKING:
    from uno_stats.scenario.load import Scenario

DEFAULT_PRESET = "mattel-2022"
DEFAULT_STRATEGY = "random"
BENCH_PLAYERS = 4
WARM_UP_GAMES = 200


def bench_scenario_text(
    preset: str = DEFAULT_PRESET, strategy: str = DEFAULT_STRATEGY, players: int = BENCH_PLAYERS
) -> str:
    """The benchmark table as scenario YAML: ``players`` seats of ``strategy`` under ``preset``."""
    return (
        f"name: bench-{players}p-{preset}-{strategy}\n"
        f"description: Benchmark table - {players} {strategy} players, {preset} rules, "
        "single rounds.\n"
        f"players: {players}\n"
        "games: 200000\n"
        "seed: 2026\n"
        f"rules:\n  preset: {preset}\n"
        f"strategies:\n  - strategy: {strategy}\n"
    )


DEFAULT_SCENARIO = bench_scenario_text()


@dataclass(frozen=True)
class BenchResult:
    """One timed measurement: games (and rounds, which differ for matches) per second."""

    workers: int
    games: int
    rounds: int
    seconds: float  # the median of ``repeats`` timings
    start_s: float  # starting and warming the workers (not timed)
    chunk_size: int
    repeats: int = 1
    where: str = "local"  # "local" (a process pool, or this process) or the Dask scheduler
    timings: tuple[float, ...] = ()  # every timing, in the order taken (one per turn)

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


def load_bench_scenario(
    path: Path | None, preset: str | None = None, strategy: str | None = None
) -> Scenario:
    """The scenario at ``path``, or the built-in four-player table (Mattel 2022 and ``random``
    unless ``preset`` or ``strategy`` says otherwise)."""
    from uno_stats.errors import UnoStatsError
    from uno_stats.scenario.load import load_scenario, parse_scenario

    if path is not None:
        if preset or strategy:
            raise UnoStatsError("give either a scenario file or --preset/--strategy, not both")
        return load_scenario(path)
    text = bench_scenario_text(preset or DEFAULT_PRESET, strategy or DEFAULT_STRATEGY)
    return parse_scenario(text, source="<bench table>")


def warm_up_engine(config: Any) -> float:
    """Compile (or load from numba's cache) and play a few games; seconds it took."""
    started = time.perf_counter()
    ensure_compiled()
    tasks.run_chunk(config, 0, WARM_UP_GAMES)
    return time.perf_counter() - started


def simulate_rows(config: Any, first_game: int, n_games: int) -> int:
    """Play one chunk in a worker and return only its row count (nothing else to ship)."""
    return len(tasks.run_chunk(config, first_game, n_games)["game"])


def _submit(backend: Backend, config: Any, chunk: planning.Chunk) -> Any:
    return backend.submit(simulate_rows, config, chunk.first_game, chunk.n_games)


def measure(
    config: Any,
    games: int,
    workers: int,
    chunk_size: int,
    repeat: int = 1,
    scheduler: str | None = None,
) -> BenchResult:
    """Time ``games`` games on ``workers`` warmed workers (or a Dask cluster), ``repeat`` times;
    the median time is kept."""
    chunks = list(planning.plan_chunks(0, games, chunk_size))  # timed `repeat` times
    started = time.perf_counter()
    timings, rounds = [], 0
    with make_backend(workers, scheduler) as backend:
        in_flight = max(1, backend.slots)  # warm every worker of a pool or cluster
        warm = list(planning.plan_chunks(0, WARM_UP_GAMES * in_flight, WARM_UP_GAMES))
        execute(backend, warm, lambda b, c: _submit(b, config, c), lambda c, r: None)
        start_s = time.perf_counter() - started
        for _ in range(max(1, repeat)):
            rounds = 0

            def count(chunk: planning.Chunk, rows: int) -> None:
                nonlocal rounds
                rounds += rows

            timed = time.perf_counter()
            execute(backend, chunks, lambda b, c: _submit(b, config, c), count)
            timings.append(time.perf_counter() - timed)
        if scheduler:
            workers = max(1, backend.slots // SLOTS_PER_WORKER)  # Dask: its worker threads
    seconds = statistics.median(timings)
    where = scheduler or "local"
    return BenchResult(workers, games, rounds, seconds, start_s, chunk_size, len(timings), where)


def benchmark(
    scenario: Scenario,
    games: int,
    workers_list: list[int],
    repeat: int = 1,
    scheduler: str | None = None,
) -> list[BenchResult]:
    """Games/s and rounds/s of ``scenario`` for each worker count, compile time excluded:
    the median of ``repeat`` timings, the worker counts taking turns.

    With ``scheduler`` (a Dask address or ``"local"``) the cluster is timed once, with its
    own workers, instead of local processes.
    """
    from uno_stats import engine
    from uno_stats.scenario.load import with_overrides

    sized = with_overrides(scenario, games=games)
    config = engine.EngineConfig.from_scenario(sized)
    warm_up_engine(config)
    if scheduler:
        top = max(workers_list)
        size = planning.default_chunk_size(sized, top)
        return [measure(config, games, top, size, repeat, scheduler)]
    # Worker counts alternate, one timing each per turn, so that every count sees the same
    # minutes of a machine whose speed drifts (a shared VM's does, by 15% and more)
    timed: dict[int, list[BenchResult]] = {workers: [] for workers in workers_list}
    for _ in range(max(1, repeat)):
        for workers in workers_list:
            chunk_size = planning.default_chunk_size(sized, workers)
            timed[workers].append(measure(config, games, workers, chunk_size))
    return [median_result(timed[workers]) for workers in workers_list]


def median_result(results: list[BenchResult]) -> BenchResult:
    """The timing of median length among ``results`` (the lower one of an even count), with
    the number of timings it was taken from and every timing in the order taken."""
    ordered = sorted(results, key=lambda r: r.seconds)
    chosen = ordered[(len(ordered) - 1) // 2]
    timings = tuple(t for r in results for t in (r.timings or (r.seconds,)))
    return replace(chosen, repeats=sum(r.repeats for r in results), timings=timings)


def speed_up(result: BenchResult, base: BenchResult | None) -> float | None:
    """``result``'s speed-up over ``base`` (one worker): the median of the ratios of timings
    taken in the same turn (``base``'s timing over ``result``'s) when both hold one timing per
    turn, otherwise the ratio of their rates. Pairs follow a machine whose speed drifts, where
    two medians taken minutes apart would not; an odd number of turns gives their middle."""
    if base is None or base.rounds_per_s <= 0:
        return None
    if result is base:
        return 1.0
    paired = len(result.timings) == len(base.timings) >= 2 and result.rounds == base.rounds
    if paired and min(result.timings) > 0:
        return statistics.median(b / r for b, r in zip(base.timings, result.timings, strict=True))
    return result.rounds_per_s / base.rounds_per_s


def base_result(results: list[BenchResult]) -> BenchResult | None:
    """The one-worker local measurement of ``results``, the base of every speed-up."""
    return next((r for r in results if r.workers == 1 and r.where == "local"), None)


def results_table(results: list[BenchResult], tablefmt: str = "simple") -> str:
    """The measurements as a table, with the speed-up over one worker."""
    base = base_result(results)
    rows = [
        [
            r.workers,
            f"{r.games:,}",
            f"{r.rounds:,}",
            f"{r.seconds:.2f}",
            f"{r.games_per_s:,.0f}",
            f"{r.rounds_per_s:,.0f}",
            shown_speed_up(speed_up(r, base)),
            f"{r.start_s:.2f}",
            r.where,
        ]
        for r in results
    ]
    headers = [
        "workers",
        "games",
        "rounds",
        "s",
        "games/s",
        "rounds/s",
        "speed-up",
        "start s",
        "where",
    ]
    return tabulate(rows, headers, tablefmt=tablefmt, disable_numparse=True)


def shown_speed_up(value: float | None) -> str:
    """A speed-up as the tables show it (``1.97x``, or ``-`` without a base)."""
    return "-" if value is None else f"{value:.2f}x"


def notes(results: list[BenchResult]) -> str:
    """What the numbers include and exclude."""
    repeats = max((r.repeats for r in results), default=1)
    median = (
        f" Median of {repeats} timings, the worker counts taking turns; a speed-up is the "
        "median of the ratios of the timings of one turn."
        if repeats > 1
        else ""
    )
    return (
        "Timed after the engine was compiled or loaded from numba's cache and every worker had "
        "played a warm-up chunk\n('start s': starting and warming the workers, not timed). "
        f"Parquet writing is not included.{median}\nEnd to end, cold and warm starts, memory "
        "and the C yardstick: `uno-stats bench --report`."
    )

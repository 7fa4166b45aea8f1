"""The compiled UNO engine: play chunks of games into result columns, or trace one game.

``simulate`` is what the runner calls in each worker; ``trace_game`` replays one game
of a run move by move with the same compiled code and the same random stream.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from uno_stats.engine.cards import build_deck
from uno_stats.engine.rules import (
    R_SCORING,
    R_SEATING,
    SCORING_PARTNERS,
    SEATING_RANDOM,
    encode_rules,
)
from uno_stats.engine.schema import CHECKPOINTS, COLUMNS, NOT_REACHED
from uno_stats.engine.strategy_table import (
    RECORDS_PLAYS,
    S_KIND,
    encode_strategies,
    keeps_memory,
    records_plays,
    strategy_id,
)
from uno_stats.errors import ResultsError

if TYPE_CHECKING:
    import numpy as np

    from uno_stats.engine.state import Table

# The compiled modules (chunk, state and what they import) load numba, a noticeable part of a
# short command's start (docs/PERFORMANCE.md), so they are imported inside the functions that
# play games, and numpy inside the functions that use it: ``import uno_stats.engine.rules``
# (for ``validate``, ``rules``, ``strategies``) imports neither.

__all__ = ["EngineConfig", "seed_key", "simulate", "trace_game", "warm_up"]


def seed_key(seed: int) -> int:
    """The run's 64-bit key from its seed (via numpy's SeedSequence)."""
    import numpy as np

    return int(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0])


class ScenarioLike(Protocol):
    """What the engine reads of a validated scenario (``uno_stats.scenario.model.Scenario``,
    a layer above the engine, provides it)."""

    @property
    def players(self) -> int: ...
    @property
    def rules(self) -> dict[str, Any]: ...
    @property
    def seats(self) -> tuple[dict[str, Any], ...]: ...
    @property
    def match_target(self) -> int | None: ...
    @property
    def seed(self) -> int: ...
    @property
    def deck(self) -> dict[str, Any] | None: ...


@dataclass(frozen=True)
class EngineConfig:
    """Everything a worker needs to play games of one scenario: small arrays and ints."""

    players: int
    rules: np.ndarray
    seats: np.ndarray
    deck: np.ndarray
    match_target: int  # 0: single rounds
    key: int

    @classmethod
    def from_scenario(cls, scenario: ScenarioLike) -> EngineConfig:
        """Encode a validated scenario for the engine."""
        return cls.build(
            players=scenario.players,
            rules=scenario.rules,
            seats=scenario.seats,
            match_target=scenario.match_target or 0,
            seed=scenario.seed,
            deck=scenario.deck,
        )

    @classmethod
    def build(
        cls,
        players: int,
        rules: dict[str, Any],
        seats: list[dict[str, Any]] | tuple[dict[str, Any], ...],
        match_target: int = 0,
        seed: int = 0,
        deck: dict[str, Any] | None = None,
    ) -> EngineConfig:
        """Encode resolved rules and per-seat strategies (a notebook-friendly constructor).

        ``deck`` is a scenario's resolved ``deck`` section (S19: ``decks`` and ``counts``);
        None plays one classic deck.
        """
        import numpy as np

        encoded = encode_rules(rules)
        return cls(
            players=players,
            rules=encoded,
            seats=encode_strategies(list(seats)),
            deck=build_deck(
                int(rules["shuffle_hands_cards"]),
                int(rules["custom_cards"]),
                dict((deck or {}).get("counts", {})),
                int((deck or {}).get("decks", 1)),
            ).astype(np.int64),
            match_target=int(match_target),
            key=seed_key(seed),
        )

    @property
    def scoring(self) -> int:
        """The encoded scoring mode."""
        return int(self.rules[R_SCORING])


def engine_seats(seats: np.ndarray) -> np.ndarray:
    """The per-seat array the engine plays with: a copy of ``seats``, and when a seat plays
    ``search`` as many rows again below, the rollout seats it rebuilds at each decision."""
    import numpy as np

    if bool((seats[:, S_KIND] == strategy_id("search")).any()):
        return np.vstack([seats, seats])
    return seats.copy()


def _new_table(config: EngineConfig, max_events: int = 0) -> Table:
    from uno_stats.engine.state import ST_OBSERVED, ST_PARTNERS, Table

    table = Table(config.players, config.rules, config.deck, max_events)
    table.st[ST_PARTNERS] = 1 if config.scoring == SCORING_PARTNERS else 0
    observed = 1 if keeps_memory(config.seats) else 0
    table.st[ST_OBSERVED] = observed | (RECORDS_PLAYS if records_plays(config.seats) else 0)
    return table


_outputs = threading.local()


def _reused_outputs(capacity: int, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This thread's output arrays for ``capacity`` rows, allocated once and reused.

    A worker plays chunk after chunk of the same size; fresh arrays each time cost a page
    fault per 4 KiB (docs/PERFORMANCE.md, "Measurements"). Reuse is safe because
    :func:`_columns` copies every column out before the next chunk starts, and each thread
    (a Dask worker may run several) has its own pair.
    """
    from uno_stats.engine.chunk import allocate_outputs

    kept = getattr(_outputs, "arrays", None)
    if kept is None or kept[0].shape[1] != capacity or kept[2].shape[2] != players:
        kept = allocate_outputs(capacity, players)
        _outputs.arrays = kept
    return kept


def _play(
    config: EngineConfig,
    table: Table,
    first_game: int,
    n_games: int,
    capacity: int,
    reuse: bool = False,
):
    import numpy as np

    from uno_stats.engine.chunk import allocate_outputs, run_chunk
    from uno_stats.engine.state import T_SEATING

    if reuse:
        out_s, out_p, out_c = _reused_outputs(capacity, config.players)
    else:
        out_s, out_p, out_c = allocate_outputs(capacity, config.players)
    totals = np.zeros(config.players, dtype=np.int64)
    # seating: random reorders the seats' rows in place (S16): it gets a copy, in scenario
    # order, matching the table's seating row
    seating = int(config.rules[R_SEATING]) == SEATING_RANDOM
    # search seats play their rollouts with the rollout seats below the table's (search.py):
    # a copy, so that threads sharing a config never see another's
    searching = bool((config.seats[:, S_KIND] == strategy_id("search")).any())
    seats = engine_seats(config.seats) if seating or searching else config.seats
    if seating:
        table.tab[T_SEATING, : config.players] = np.arange(config.players)
    rows = run_chunk(
        np.uint64(config.key),
        first_game,
        n_games,
        table.tab,
        seats,
        table.rng,
        table.events,
        config.match_target,
        config.scoring,
        totals,
        out_s,
        out_p,
        out_c,
    )
    return rows, out_s, out_p, out_c


def simulate(config: EngineConfig, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    """Play games ``first_game .. first_game + n_games - 1``; one array per result column.

    Arrays have one row per round: ``(rows,)``, ``(rows, players)`` for per-seat columns, and
    ``(rows, 20, players)`` uint8 for ``hand_checkpoints`` (``NOT_REACHED`` after the round
    ended); ``NAME__valid`` marks the rows where a nullable column has a value. Each game's
    random stream depends only on the run's seed and the game index, so the result does
    not depend on how games are split into chunks or workers.
    """
    table = _new_table(config)
    capacity = n_games if config.match_target == 0 else max(64, n_games * 24)
    while True:
        rows, out_s, out_p, out_c = _play(config, table, first_game, n_games, capacity, reuse=True)
        if rows >= 0:
            break
        capacity *= 2  # a chunk of unusually long matches: replay it with more room
    return _columns(config, out_s[:, :rows], out_p[:, :rows], out_c[:rows])


def _columns(
    config: EngineConfig, out_s: np.ndarray, out_p: np.ndarray, out_c: np.ndarray
) -> dict[str, np.ndarray]:
    """The engine's outputs as one typed array per result column (each a copy of its own).

    Raises :class:`ResultsError` for a hand the checkpoint bytes cannot hold (255 cards or
    more at a checkpoint, possible only with several decks) rather than store a wrong size.
    """
    import numpy as np

    from uno_stats.engine.chunk import (
        OC_LARGEST_CHECKPOINT,
        OC_MATCH_VALID,
        SCALAR_COLUMNS,
        SEAT_PLANES,
    )

    rows = out_s.shape[1]
    raw: dict[str, np.ndarray] = {name: out_s[i] for i, name in enumerate(SCALAR_COLUMNS)}
    raw["players"] = np.full(rows, config.players)
    raw.update({name: out_p[i] for i, name in enumerate(SEAT_PLANES)})
    match_valid = out_s[OC_MATCH_VALID] != 0
    largest = int(out_s[OC_LARGEST_CHECKPOINT].max(initial=0))
    if largest >= NOT_REACHED:
        raise ResultsError(
            f"a hand of {largest} cards cannot be stored in {CHECKPOINTS} "
            f"(at most {NOT_REACHED - 1} cards a checkpoint)"
        )
    raw[CHECKPOINTS] = out_c
    cols: dict[str, np.ndarray] = {}
    for column in COLUMNS:
        cols[column.name] = raw[column.name].astype(column.dtype)  # a copy: outputs are reused
    cols["match_winner__valid"] = match_valid
    cols["match_rounds__valid"] = match_valid
    return cols


def _traced(config: EngineConfig, game: int, max_events: int):
    """Play game ``game`` with tracing on, growing the output rows until the whole game fits
    (a match may take up to ``MATCH_ROUND_CAP`` rounds); the table holds the events."""
    from uno_stats.engine.state import ST_EV_N, ST_TRACE

    table = _new_table(config, max_events=max_events)
    capacity = 1 if config.match_target == 0 else 256
    while True:
        table.st[ST_TRACE] = 1
        table.st[ST_EV_N] = 0
        rows, out_s, out_p, out_c = _play(config, table, game, 1, capacity)
        if rows >= 0:
            return table, rows, out_s, out_p, out_c
        capacity *= 2


def trace_game(config: EngineConfig, game: int, max_events: int = 500_000) -> list[str]:
    """Game ``game`` of the run, move by move, as lines of text (a match: every round)."""
    from uno_stats.engine.state import ST_EV_N
    from uno_stats.engine.trace import describe

    table, rows, out_s, out_p, out_c = _traced(config, game, max_events)
    n_events = int(table.st[ST_EV_N])
    events = table.events[: min(n_events, max_events)]
    cols = _columns(config, out_s[:, :rows], out_p[:, :rows], out_c[:rows])
    return describe(events, config.players, cols, truncated=n_events > max_events)


def trace_events(config: EngineConfig, game: int, max_events: int = 500_000) -> np.ndarray:
    """The raw event rows of game ``game`` (for tests and tools that replay the moves);
    at most ``max_events`` of them (the first ones)."""
    from uno_stats.engine.state import ST_EV_N

    table, *_rest = _traced(config, game, max_events)
    return table.events[: min(int(table.st[ST_EV_N]), max_events)].copy()


def warm_up() -> None:
    """Compile the engine (or load it from numba's cache) by playing a tiny chunk."""
    from uno_stats.engine.rules import preset_rules
    from uno_stats.engine.strategy_table import default_seat

    rules = preset_rules("mattel-2022")
    config = EngineConfig.build(2, rules, [default_seat()] * 2)
    simulate(config, 0, 1)

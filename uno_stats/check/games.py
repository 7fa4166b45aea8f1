"""Check whole games: replay a game's trace and compare it with the engine's result rows.

A game's trace events go through :class:`uno_stats.check.replay.Replay`; the rounds it
replays are then compared with the game's result columns (winner, status, turns, every
seat's hand size and hand points). It shares no code with the compiled engine beyond the
card tables, so a new strategy or rule that breaks the rules shows up here::

    from uno_stats.check.games import check_played_game
    from uno_stats.engine import EngineConfig

    config = EngineConfig.build(4, rules, seats, seed=1)
    for game in range(100):
        problems = check_played_game(config, game)
        assert not problems, "\\n".join(str(p) for p in problems[:5])
"""

from __future__ import annotations

import numpy as np

from uno_stats.check.legality import decode_rules
from uno_stats.check.replay import Replay, Violation
from uno_stats.engine import EngineConfig, simulate, trace_events


def check_game(
    config: EngineConfig,
    events: np.ndarray,
    columns: dict[str, np.ndarray] | None = None,
    complete: bool = True,
    seating: np.ndarray | None = None,
) -> list[Violation]:
    """Replay one game's trace events (``trace_events(config, game)``); the broken rules.

    ``complete``: the events are the whole game, so it must end with a finished round
    (a single round when ``config`` plays no match). ``columns``: the game's result
    columns (``simulate(config, game, 1)``), checked against the replay round by round:
    winner, status, turns, and every seat's hand size and hand points.
    """
    if seating is None and columns is not None and "seating" in columns:
        seating = columns["seating"][0]  # S16: which scenario seat sits at each position
    replay = Replay(config, None if seating is None else [int(x) for x in seating])
    for index, row in enumerate(events):
        replay.event(index, row)
    if complete:
        replay.index = len(events)
        replay.finish()
    problems = replay.violations
    end = Violation(len(events), replay.rounds, "")
    if complete:
        if not replay.ended:
            problems.append(Violation(end.event, end.round, "the trace stops inside a round"))
        if config.match_target == 0 and replay.rounds != 1:
            problems.append(
                Violation(end.event, end.round, f"{replay.rounds} rounds in a single-round game")
            )
    if columns is not None:
        problems += _compare_columns(replay, columns)
    return problems


def _compare_columns(replay: Replay, columns: dict[str, np.ndarray]) -> list[Violation]:
    rows = len(columns["status"])
    out: list[Violation] = []
    if rows != len(replay.ends):
        out.append(Violation(-1, rows, f"{rows} result rows for {len(replay.ends)} rounds"))
    for r, replayed in enumerate(replay.ends[:rows]):
        reported = (
            int(columns["winner"][r]),
            int(columns["status"][r]),
            int(columns["turns"][r]),
            [int(x) for x in columns["hand_sizes"][r]],
            [int(x) for x in columns["points"][r]],
        )
        if reported != replayed:
            out.append(
                Violation(
                    -1,
                    r,
                    f"result row {r} says winner, status, turns, hand sizes, points {reported}; "
                    f"the replay gives {replayed}",
                )
            )
    return out


def check_played_game(
    config: EngineConfig, game: int, max_events: int = 500_000
) -> list[Violation]:
    """Trace game ``game`` of ``config``, replay it and compare it with its result rows.

    A game longer than ``max_events`` events is replayed as far as it was traced.
    """
    events = trace_events(config, game, max_events=max_events)
    complete = events.shape[0] < max_events
    columns = simulate(config, game, 1) if complete else None
    seating = None
    if columns is None and decode_rules(config)["seating"] == "random":
        # S16: the seats' knobs by position need the game's seating even when cut short
        seating = simulate(config, game, 1)["seating"][0]
    return check_game(config, events, columns, complete=complete, seating=seating)

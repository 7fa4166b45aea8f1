"""The one worker of a small run, forked as soon as the scenario is read.

A default run (no worker count, no cluster) with at most :data:`SMALL_RUN_GAMES` games to
play uses one forked worker (:mod:`uno_stats.run.runner`), which loads the cached engine
itself: about a second (numba, the scipy modules numba loads, the compiled code). Forked
before the run imports its runner, locks and plans its folder, the worker spends that time
loading while this process does all of that and imports the summary's modules; the run
then hands it its chunks (:func:`~uno_stats.run.runner.run_scenario`, ``early``).

This module imports nothing heavy: the worker is forked before numpy is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_stats import engine
from uno_stats.engine import jit
from uno_stats.run.backends import START_METHOD, PoolBackend

if TYPE_CHECKING:
    from uno_stats.run.scenario import Scenario

SMALL_RUN_GAMES = 20_000
"""Runs with at most this many games left to play, and no worker count asked for, play on
one worker: about a tenth of a second of engine time, less than starting a pool costs."""
# Reading: "small" counts games (a match scenario's games are matches, each several rounds).


def early_worker(
    scenario: Scenario, workers: int | None, scheduler: str | None
) -> PoolBackend | None:
    """A pool of one forked worker already loading the engine, for a run of ``scenario``
    that will play on exactly that (see above); None when the run may need anything else.

    Only a single run (no sweep, no tournament) of at most :data:`SMALL_RUN_GAMES` games,
    without ``workers`` or ``scheduler``, with a cached engine and forked workers qualifies:
    a cold engine compiles in this process first, with its notice. The caller passes it to
    ``run_scenario`` (which uses it or discards it) and discards it if the run fails first.
    """
    # Reading: a sweep's games are counted per point; it plans as usual (its worker is forked
    # after planning), rather than adding up points here
    single = scenario.sweep is None and scenario.tournament is None
    if workers is not None or scheduler or START_METHOD != "fork" or not single:
        return None
    if scenario.games > SMALL_RUN_GAMES or not jit.engine_is_cached():
        return None
    pool = PoolBackend(1, warm_parent=False)
    pool.preload(engine.warm_up)
    return pool

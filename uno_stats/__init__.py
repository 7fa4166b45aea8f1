"""uno-stats: settle UNO house-rule debates with data.

The library API (see README "From Python (a notebook)"), importable without loading numpy,
polars or numba::

    import uno_stats as uno

    results = uno.simulate(uno.load_scenario("scenarios/stacking-all.yaml"), games=20_000)
    uno.summarise(results)  # a polars DataFrame

:func:`load_scenario`, :func:`simulate`, :func:`open_results`, :func:`summarise`, :func:`compare`,
:func:`settle` and :func:`effects` are defined in :mod:`uno_stats.api`; their names stay here when
the modules behind them move.
"""

from uno_stats.api import (
    Results,
    Scenario,
    Settled,
    compare,
    effects,
    load_scenario,
    open_results,
    settle,
    simulate,
    summarise,
)

__all__ = [
    "Results",
    "Scenario",
    "Settled",
    "compare",
    "effects",
    "load_scenario",
    "open_results",
    "settle",
    "simulate",
    "summarise",
]

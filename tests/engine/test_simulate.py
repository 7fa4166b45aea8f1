"""``simulate``: chunks reuse their thread's output arrays without sharing them with results."""

from __future__ import annotations

import threading

import numpy as np

from uno_stats.engine import EngineConfig, simulate
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.strategy_table import default_seat


def _config() -> EngineConfig:
    return EngineConfig.build(4, preset_rules("mattel-2022"), [default_seat()] * 4)


def test_a_later_chunk_does_not_change_an_earlier_result() -> None:
    config = _config()
    first = simulate(config, 0, 300)
    kept = {name: column.copy() for name, column in first.items()}
    simulate(config, 300, 300)  # same size: plays into the same output arrays
    for name, column in first.items():
        assert np.array_equal(column, kept[name]), name


def test_chunks_in_threads_equal_chunks_played_alone() -> None:
    config = _config()
    alone = [simulate(config, start, 200) for start in (0, 200)]
    together: list[dict[str, np.ndarray]] = [{}, {}]

    def play(i: int) -> None:
        for _ in range(3):
            together[i] = simulate(config, 200 * i, 200)

    threads = [threading.Thread(target=play, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for solo, threaded in zip(alone, together, strict=True):
        assert solo.keys() == threaded.keys()
        for name in solo:
            assert np.array_equal(solo[name], threaded[name]), name

"""``simulate``: chunks reuse their thread's output arrays without sharing them with results,
and the hand-size checkpoints come out as the bytes stored on disk."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from uno_stats.engine import EngineConfig, _columns, simulate
from uno_stats.engine.chunk import OC_LARGEST_CHECKPOINT, allocate_outputs
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.schema import CHECKPOINT_TURNS, CHECKPOINTS, NOT_REACHED, STATUS_WON
from uno_stats.engine.strategy_table import default_seat
from uno_stats.errors import ResultsError


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


def test_checkpoints_are_reached_exactly_while_the_round_lasts() -> None:
    config = _config()
    cols = simulate(config, 0, 2000)
    hands = cols[CHECKPOINTS]
    assert hands.dtype == np.uint8 and hands.shape == (2000, len(CHECKPOINT_TURNS), 4)
    won = cols["status"] == STATUS_WON
    assert won.all()
    turns = cols["turns"].astype(np.int64)
    for k, t in enumerate(CHECKPOINT_TURNS):
        reached = hands[:, k, :] != NOT_REACHED
        # measured after a turn that did not end the round (hands.measure)
        assert (reached == (turns > t)[:, None]).all(), t
        held = hands[:, k, :].astype(np.int64)
        assert (held.sum(axis=1)[turns > t] <= 112).all()  # cards are in hands or piles
        assert (held.max(axis=1) <= cols["largest_hand"])[turns > t].all()
    halfway = hands[:, CHECKPOINT_TURNS.index(50), 0] != NOT_REACHED
    assert 0 < halfway.sum() < 2000  # rounds that lasted past turn 50 and rounds that did not


def test_a_hand_the_checkpoint_bytes_cannot_hold_is_refused() -> None:
    config = _config()
    out_s, out_p, out_c = allocate_outputs(3, config.players)
    out_s[:] = 0
    out_p[:] = 0
    out_c[:] = 7
    assert _columns(config, out_s, out_p, out_c)[CHECKPOINTS].max() == 7
    out_s[OC_LARGEST_CHECKPOINT, 1] = 300  # several decks (RULES.md S19): 300 would wrap to 44
    with pytest.raises(ResultsError, match="a hand of 300 cards cannot be stored"):
        _columns(config, out_s, out_p, out_c)

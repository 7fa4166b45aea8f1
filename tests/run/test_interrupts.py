"""Stop signals held by deferred_stops: raised when the block ends, never inside it."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from uno_stats.run.interrupts import Stopped, deferred_stops, stop_on_signals

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def test_a_deferred_stop_is_raised_when_the_block_ends_not_inside_it() -> None:
    reached = []
    with pytest.raises(Stopped) as stop, stop_on_signals():
        with deferred_stops():
            os.kill(os.getpid(), signal.SIGTERM)
            reached.append("after the signal")  # the handler returned: nothing raised here
        reached.append("after the block")  # never: the held stop is raised at the block's end
    assert reached == ["after the signal"]
    assert stop.value.signum == signal.SIGTERM


def test_outside_a_deferred_block_a_stop_raises_at_once() -> None:
    reached = []
    with pytest.raises(Stopped), stop_on_signals():
        with deferred_stops():
            reached.append("held block done")
        os.kill(os.getpid(), signal.SIGTERM)
        reached.append("after the signal")  # never
    assert reached == ["held block done"]


def test_a_deferred_block_without_a_signal_raises_nothing() -> None:
    with stop_on_signals(), deferred_stops():
        value = 1
    assert value == 1

"""Stop signals: Ctrl-C (SIGINT), SIGTERM and SIGHUP stop a run the same way, and a second
one ends the process at once.

Inside :func:`stop_on_signals` the first stop signal raises :class:`Stopped` (a
``KeyboardInterrupt``) in the main thread, where the runner stops its workers, counts what
is on disk and says so; any later one writes a line and exits at once (``os._exit``), so a
user is never left waiting on the clean-up. A signal that was ignored when the block began
(``nohup``, a background job's SIGINT) stays ignored.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Stopped(KeyboardInterrupt):
    """A stop signal arrived; ``signum`` is which one."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


def exit_code(exc: BaseException) -> int:
    """The shell's exit code for a process stopped by ``exc``: 128 + the signal number."""
    return 128 + int(getattr(exc, "signum", signal.SIGINT))


class _State:
    depth = 0
    stopping = False
    stopped = False  # a stop signal was handled in this process (never reset)
    deferring = 0  # depth of deferred_stops blocks
    pending = 0  # the signal a deferred_stops block holds, 0 for none
    at_once = "Interrupted again: stopped at once; run the same command again to resume."


def _handler(signum: int, frame: FrameType | None) -> None:
    if _State.stopping:
        os.write(2, f"\n{_State.at_once}\n".encode())
        os._exit(128 + signum)
    _State.stopping = True
    _State.stopped = True
    if _State.deferring:
        _State.pending = signum
        return
    raise Stopped(signum)


def was_stopped() -> bool:
    """Whether a stop signal was handled in this process: its exit should not wait for
    threads of work it abandoned (a pool's feeder, a chunk still playing)."""
    return _State.stopped


@contextmanager
def stop_on_signals(at_once: str | None = None) -> Iterator[None]:
    """Within the block (main thread only), stop signals raise :class:`Stopped` once and
    then exit at once, writing ``at_once``; the previous handlers come back afterwards.

    Blocks nest: the outermost one decides the message and restores the handlers.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}
    if _State.depth == 0:
        for signum in STOP_SIGNALS:
            old = signal.getsignal(signum)
            if old is signal.SIG_IGN:
                continue
            previous[signum] = old
            signal.signal(signum, _handler)
        _State.stopping = False
        if at_once:
            _State.at_once = at_once
    _State.depth += 1
    try:
        yield
    finally:
        _State.depth -= 1
        if _State.depth == 0:
            for signum, old in previous.items():
                signal.signal(signum, old)
            _State.stopping = False


@contextmanager
def deferred_stops() -> Iterator[None]:
    """Within the block (inside :func:`stop_on_signals`) a first stop signal is held and
    raised as :class:`Stopped` when the block ends; a second one still exits at once.

    For analysis with polars, which runs Python code from Rust (building dtypes, loading
    numpy's C API): a :class:`Stopped` raised by the handler inside that code makes Rust
    panic, exit code 1 and a Rust backtrace instead of a clean stop (seen once in about
    ten stops of a settle between two batches)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _State.deferring += 1
    try:
        yield
    finally:
        _State.deferring -= 1
    if _State.deferring == 0 and _State.pending:
        signum, _State.pending = _State.pending, 0
        raise Stopped(signum)

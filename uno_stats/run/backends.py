"""Where chunks run: in this process, on a local process pool, or on a Dask cluster.

In this process, a run plays its chunks one at a time while a second thread writes the part of
the chunk played before (:class:`PipelinedBackend`): the engine releases the GIL, so writing
costs the run no time of its one worker.

Each backend takes a function and its arguments and hands back future-like objects with
``result()``; :func:`make_backend` picks one and shuts it down (cancelling what is still
queued) when the run ends or fails.

Pool workers die with the run: on Linux each asks the kernel for ``SIGKILL`` when its
parent dies (``PR_SET_PDEATHSIG``), and everywhere the chunk function checks between
chunks that its parent is still alive (see :func:`uno_stats.run.runner.run_and_write_chunk`).
When a worker or the cluster fails, :meth:`Backend.explain` says what happened in words.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import multiprocessing as mp
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.connection import wait as mp_wait
from typing import Any, Protocol, TypeVar

from uno_stats import engine
from uno_stats.errors import RunError
from uno_stats.run.interrupts import STOP_SIGNALS

START_METHOD = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
"""How pool workers start. ``fork`` inherits the parent's already loaded engine, so a pool
starts without importing anything; ``spawn`` re-imports numpy and numba and reloads the
compiled engine in every worker (the cost of each: docs/PERFORMANCE.md, "Parquet parts and
pool start"). The engine uses no numba threading layer, so forking it is safe."""

T = TypeVar("T")

SLOTS_PER_WORKER = 2
"""Chunks in flight per worker: one running, one queued, so no worker waits for the parent."""

SIGNAL_POLL_S = 0.1
"""Longest sleep of the main thread while it waits for chunks. Python runs a signal handler
only in the main thread, and a signal the kernel hands to another thread (the pool's
feeder, a Dask client's loop) does not wake a main thread asleep on a lock: waiting in
short steps lets Ctrl-C, SIGTERM and SIGHUP through within this time."""


def wait_first(futures: list[Future]) -> set[Future]:
    """Block until at least one of ``futures`` is done, in short steps (see
    :data:`SIGNAL_POLL_S`); the done ones."""
    while True:
        done, _ = wait(futures, timeout=SIGNAL_POLL_S, return_when=FIRST_COMPLETED)
        if done:
            return done


class Backend(Protocol):
    """Runs functions somewhere and reports which of its futures are done."""

    slots: int
    shares_disk: bool  # True: a chunk may write its own Parquet part on this machine

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Start ``fn(*args)``; a future with ``result()``."""
        ...

    def wait_any(self, futures: list[Any]) -> list[Any]:
        """Block until at least one of ``futures`` is done; the done ones."""
        ...

    def result(self, future: Any) -> Any:
        """The value of a done ``future`` (raises what its task raised)."""
        ...

    def close(self, cancel: bool) -> None:
        """Release the workers; drop queued work first when ``cancel``."""
        ...

    def abandon(self) -> None:
        """Stop at once (a stop signal): drop queued work and stop running work without
        waiting for it, so that no further part is written; returns within about a second."""
        ...

    def explain(self, error: BaseException) -> str | None:
        """Words for ``error`` when the backend failed (a worker died, the cluster went
        away) rather than the task; None when the task itself raised it."""
        ...


class InlineBackend:
    """Runs each function at once in this process (``workers=1``): no pickling, easy debugging."""

    slots = 1
    shares_disk = True  # chunks write their own Parquet part

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args))
        except Exception as exc:  # handed to the caller through the future, like a pool would
            fut.set_exception(exc)
        return fut

    def wait_any(self, futures: list[Any]) -> list[Any]:
        return list(futures)

    def result(self, future: Any) -> Any:
        return future.result()

    def close(self, cancel: bool) -> None:
        return None

    def abandon(self) -> None:
        return None

    def explain(self, error: BaseException) -> str | None:
        return None


class DaemonThreads:
    """A minimal thread pool of daemon threads handing back :class:`Future` objects.

    Unlike :class:`~concurrent.futures.ThreadPoolExecutor`, whose threads the interpreter
    joins at exit, a process whose run was stopped can exit while one of these threads is
    still inside a long compiled chunk.
    """

    def __init__(self, workers: int, name: str) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True)
            for i in range(workers)
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        future: Future = Future()
        self._queue.put((future, fn, args))
        return future

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            future, fn, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # handed to the caller through the future
                future.set_exception(exc)

    def shutdown(self, wait: bool, cancel_futures: bool) -> None:
        """Stop taking work (queued futures cancelled with ``cancel_futures``); ``wait``
        for the running work to end."""
        if cancel_futures:
            with contextlib.suppress(queue.Empty):
                while True:
                    item = self._queue.get_nowait()
                    if item is not None:
                        item[0].cancel()
        for _ in self._threads:
            self._queue.put(None)
        if wait:
            for thread in self._threads:
                thread.join()


class PipelinedBackend:
    """One worker in this process whose chunks overlap their writing with the next chunk's play.

    Two threads take chunks in submission order; the chunk function (see
    :func:`uno_stats.run.runner.run_and_write_chunk`) holds :attr:`playing` while it
    simulates, so one chunk plays at a time (one worker's worth of engine) while the other
    thread writes the part of the chunk before. Once a chunk fails or the run is stopped
    (:attr:`stopped`), no further chunk starts playing, so a failing chunk leaves exactly
    the parts before it on disk, as :class:`InlineBackend` would. A part gets its final
    name only through :meth:`commit`, never once the run is abandoned: the parts on disk
    are then exactly those counted.
    """

    slots = 2
    shares_disk = True

    def __init__(self) -> None:
        self.playing = threading.Lock()
        self.stopped = threading.Event()
        self._committing = threading.Lock()
        self._abandoned = False
        self._writes = threading.Condition()
        self._writing = 0
        self._threads = DaemonThreads(2, "uno-stats-chunk")
        self._order: dict[Any, int] = {}
        self._submitted = 0

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        future = self._threads.submit(fn, *args)
        self._order[future] = self._submitted
        self._submitted += 1
        return future

    def wait_any(self, futures: list[Any]) -> list[Any]:
        done = wait_first(futures)
        # In submission order: a chunk that failed comes before any later one stopped by it.
        return sorted(done, key=lambda f: self._order.pop(f, 0))

    def result(self, future: Any) -> Any:
        return future.result()

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Around the writing of a played chunk's part (which :meth:`abandon` waits for)."""
        with self._writes:
            self._writing += 1
        try:
            yield
        finally:
            with self._writes:
                self._writing -= 1
                self._writes.notify_all()

    def commit(self, rename: Callable[[], object]) -> bool:
        """Call ``rename`` (a part's move to its final name) unless the run was abandoned."""
        with self._committing:
            if self._abandoned:
                return False
            rename()
            return True

    def close(self, cancel: bool) -> None:
        if cancel:
            self.stopped.set()
        self._threads.shutdown(wait=True, cancel_futures=cancel)

    def abandon(self) -> None:
        """No chunk starts from now on; the part of a chunk already played is finished (up
        to :data:`KILL_WAIT_S`), then no part is committed any more; a chunk still playing
        is left to its daemon thread, which ends with the process."""
        self.stopped.set()
        self._threads.shutdown(wait=False, cancel_futures=True)
        with self._writes:
            self._writes.wait_for(lambda: self._writing == 0, timeout=KILL_WAIT_S)
        with self._committing:
            self._abandoned = True

    def explain(self, error: BaseException) -> str | None:
        return None


PR_SET_PDEATHSIG = 1
"""``prctl`` option (linux/prctl.h): the signal this process gets when its parent dies."""


def die_with_parent(parent_pid: int) -> bool:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux); True if set.

    Exits at once when the parent is already gone (it died before the request was made).
    """
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):  # no libc or no prctl: the between-chunk check remains
            armed = False
    if os.getppid() != parent_pid:
        os._exit(1)
    return armed


def _init_worker(parent_pid: int) -> None:
    """Pool worker start-up: die with the parent; leave Ctrl-C to the parent, which stops
    the pool cleanly; die at once of SIGTERM and SIGHUP (unless ignored, as under nohup).

    Forked inside the run's ``stop_on_signals``, a worker inherits its handler, which turns
    a signal into an exception the worker survives. The executor stops the others with
    SIGTERM when one dies: had the dead one held the call queue's read lock (as an idle
    worker does), a survivor went back for work and waited on that lock for ever, and the
    run with it (``tests/run/test_faults.py``, a worker killed while idle)."""
    die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"was killed by signal {-exitcode}"
    return f"exited with code {exitcode}"


class PoolBackend:
    """A local :class:`~concurrent.futures.ProcessPoolExecutor` of ``workers`` processes."""

    shares_disk = True  # workers write their own Parquet parts

    def __init__(
        self, workers: int, start_method: str = START_METHOD, warm_parent: bool = True
    ) -> None:
        if start_method == "fork" and warm_parent:
            engine.warm_up()  # compile or load once here; forked workers inherit it
        context = mp.get_context(start_method)
        self.executor = ProcessPoolExecutor(
            workers, mp_context=context, initializer=_init_worker, initargs=(os.getpid(),)
        )
        self.slots = SLOTS_PER_WORKER * workers
        self._workers: dict[int, Any] = {}

    def discard(self) -> None:
        """Stop at once a pool whose work is not wanted: its workers are killed (SIGKILL,
        which also ends a stopped or deadlocked one) and waited for, up to
        :data:`KILL_WAIT_S`, so that none writes a part afterwards (a no-op once closed)."""
        self._workers.update(getattr(self.executor, "_processes", None) or {})
        procs = [p for p in self._workers.values() if p.exitcode is None]
        for proc in procs:
            with contextlib.suppress(OSError, ValueError):  # it may end meanwhile
                proc.kill()
        deadline = time.monotonic() + KILL_WAIT_S
        with contextlib.suppress(OSError, ValueError):
            mp_wait([p.sentinel for p in procs], timeout=KILL_WAIT_S)
            while any(p.is_alive() for p in procs) and time.monotonic() < deadline:
                time.sleep(0.01)
        self.executor.shutdown(wait=False, cancel_futures=True)

    def abandon(self) -> None:
        self.discard()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        future = self.executor.submit(fn, *args)
        # Remember the worker processes (the executor forgets them once broken) so that a
        # death can be reported by pid and signal. ``_processes`` is the executor's own map.
        self._workers.update(getattr(self.executor, "_processes", None) or {})
        return future

    def wait_any(self, futures: list[Any]) -> list[Any]:
        return list(wait_first(futures))

    def result(self, future: Any) -> Any:
        return future.result()

    def close(self, cancel: bool) -> None:
        self.executor.shutdown(wait=True, cancel_futures=cancel)

    def explain(self, error: BaseException) -> str | None:
        if not isinstance(error, BrokenProcessPool):
            return None
        # The executor reaps its workers in its own thread: give it a moment to record how
        # the dead one ended (the rest are stopped with SIGTERM once the pool is broken).
        deadline = time.monotonic() + 2.0
        while True:
            culprits = [
                f"worker process {pid} {_death(proc.exitcode)}"
                for pid, proc in self._workers.items()
                if proc.exitcode not in (None, 0, -signal.SIGTERM)
            ]
            if culprits or time.monotonic() > deadline:
                return "; ".join(culprits) or "a worker process died"
            time.sleep(0.05)


KILL_WAIT_S = 1.0
"""How long a stopped run waits for its killed pool workers to be gone."""

NO_WORKER_TIMEOUT_S = 60.0
"""How long a Dask run waits with no worker at all before it gives up with an error."""
DASK_POLL_S = 5.0
"""How often a Dask run checks its cluster while waiting for a chunk."""


class DaskBackend:
    """The same chunk function on a Dask distributed cluster (``"local"``: start one here).

    Losing the scheduler, or having no worker for ``no_worker_timeout`` seconds, ends the
    run with a :class:`RunError` (finished chunks are on disk; rerunning resumes).
    """

    shares_disk = False  # workers may be other machines: columns come back to the parent

    def __init__(
        self, scheduler: str, workers: int, no_worker_timeout: float | None = None
    ) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise RunError("--scheduler needs Dask: pip install 'uno-stats[dask]'") from None
        self.address = scheduler
        # The client logs a traceback when it loses the scheduler; the run's own one-line
        # error says it, so the client is quiet while it runs (restored on close).
        self._log = logging.getLogger("distributed.client")
        self._log_level = self._log.level
        self._log.setLevel(logging.CRITICAL)
        self.no_worker_timeout = (
            NO_WORKER_TIMEOUT_S if no_worker_timeout is None else no_worker_timeout
        )
        self.cluster = None
        try:
            if scheduler == "local":
                self.cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
                self.client = Client(self.cluster)
            else:
                self.client = Client(scheduler, timeout="10s")
        except Exception as exc:  # bad address, refused, timed out: all one message
            self._close_cluster()
            self._log.setLevel(self._log_level)
            raise RunError(
                f"cannot reach Dask scheduler {scheduler}: {_one_line(exc)}; nothing was "
                "written: check the address, or run without --scheduler"
            ) from None
        try:
            self.client.wait_for_workers(1, timeout=30)
        except Exception:  # TimeoutError, or the scheduler went away meanwhile
            self.close(cancel=False)
            raise RunError(
                f"Dask scheduler {scheduler} has no workers (waited 30 s); nothing was written"
            ) from None
        self.slots = SLOTS_PER_WORKER * max(1, sum(self.client.nthreads().values()))
        self._pending: set[Any] = set()
        self._no_worker_since: float | None = None

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            fut = self.client.submit(fn, *args, pure=False)
        except Exception as exc:
            raise self._lost(exc) from None
        self._pending.add(fut)
        return fut

    def wait_any(self, futures: list[Any]) -> list[Any]:
        from dask.distributed import wait as dask_wait

        checked = time.monotonic()
        while True:
            try:
                done = dask_wait(futures, timeout=SIGNAL_POLL_S, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                if time.monotonic() - checked >= DASK_POLL_S:
                    self._check_cluster()
                    checked = time.monotonic()
                continue
            except Exception as exc:  # connection closed or refused: the scheduler is gone
                raise self._lost(exc) from None
            # Forget finished futures: a referenced future keeps its result in worker memory.
            self._pending.difference_update(done)
            return [f for f in futures if f in done]

    def result(self, future: Any) -> Any:
        """The chunk's columns, fetched from the worker that holds them, checking the cluster
        while they do not come: a worker killed after finishing a chunk took its result
        with it, which Dask then recomputes, so with no worker left ``Future.result()``
        would wait forever (the run instead ends as :meth:`_check_cluster` says)."""
        checked = time.monotonic()
        while True:
            try:
                return future.result(timeout=SIGNAL_POLL_S)  # a failed chunk raises its error
            except TimeoutError:
                if future.status == "error":  # the chunk itself raised a TimeoutError
                    raise
                if time.monotonic() - checked >= DASK_POLL_S:
                    self._check_cluster()
                    checked = time.monotonic()

    def _check_cluster(self) -> None:
        """Fail when the scheduler is gone or no worker has been there for too long."""
        try:
            workers = len(self.client.scheduler_info().get("workers", {}))
        except Exception as exc:
            raise self._lost(exc) from None
        if self.client.status not in ("running", "connecting"):
            raise self._lost(None)
        if workers:
            self._no_worker_since = None
            return
        now = time.monotonic()
        self._no_worker_since = self._no_worker_since or now
        if now - self._no_worker_since >= self.no_worker_timeout:
            raise RunError(
                f"no Dask worker left on {self.address} for {self.no_worker_timeout:.0f} s; "
                "finished chunks are saved: start workers, then run the same command again "
                "to resume"
            )

    def _lost(self, exc: BaseException | None) -> RunError:
        cancelled = exc is not None and "Cancelled" in type(exc).__name__
        detail = f" ({_one_line(exc)})" if exc is not None and not cancelled else ""
        return RunError(
            f"lost the Dask scheduler {self.address}{detail}; finished chunks are saved: run "
            "the same command again to resume"
        )

    def explain(self, error: BaseException) -> str | None:
        status = getattr(self.client, "status", "running")
        if status not in ("running", "connecting") or isinstance(error, OSError):
            return f"lost the Dask scheduler {self.address} ({_one_line(error)})"
        if type(error).__name__ in ("CancelledError", "FutureCancelledError", "KilledWorker"):
            return f"the Dask cluster gave up on a chunk ({_one_line(error)})"
        return None

    def close(self, cancel: bool) -> None:
        try:
            if cancel and self._pending:
                self.client.cancel(list(self._pending))
            self._pending.clear()
            self.client.close(timeout=10)
        except Exception:  # the scheduler may be gone: nothing left to release there
            pass
        self._close_cluster()
        self._log.setLevel(self._log_level)

    def abandon(self) -> None:
        """Cancel every chunk still pending on the cluster (their results would come here
        to be written) and leave without waiting for the cluster to confirm. Dask's own
        logging is silenced meanwhile: connections closed mid-call log tracebacks, and the
        run's one line already says what happened."""
        quiet = logging.getLogger("distributed")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)
        try:
            with contextlib.suppress(Exception):  # the scheduler may be gone
                if self._pending:
                    self.client.cancel(list(self._pending), asynchronous=False)
            self._pending.clear()
            with contextlib.suppress(Exception):
                self.client.close(timeout=1)
            with contextlib.suppress(Exception):
                self._close_cluster()
        finally:
            quiet.setLevel(level)
            self._log.setLevel(self._log_level)

    def _close_cluster(self) -> None:
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0][:200]}" if lines else type(exc).__name__


@contextmanager
def make_backend(
    workers: int,
    scheduler: str | None = None,
    pipelined: bool = False,
    warm_parent: bool = True,
    pool: bool = False,
) -> Iterator[Backend]:
    """The backend for a run; closed (queued work cancelled on error) when the block ends.

    One worker runs in this process: a :class:`PipelinedBackend` with ``pipelined`` (for
    chunks that write their own part), else an :class:`InlineBackend`; ``pool`` puts even one
    worker in a process of its own. ``warm_parent=False``: a local pool's workers load the
    compiled engine themselves (from the cache), so this process need not load it first.
    """
    if scheduler:
        backend: Backend = DaskBackend(scheduler, workers)
    elif workers == 1 and not pool:
        backend = PipelinedBackend() if pipelined else InlineBackend()
    else:
        backend = PoolBackend(workers, warm_parent=warm_parent)
    try:
        yield backend
    except KeyboardInterrupt:  # a stop signal: workers are stopped, not waited for
        backend.abandon()
        raise
    except BaseException:
        backend.close(cancel=True)
        raise
    backend.close(cancel=False)


class TaskFailed(Exception):
    """A task failed; ``task`` is the failing task, ``__cause__`` the error.

    ``backend_problem`` says in words what went wrong when the backend failed (a worker
    died, the cluster went away) rather than the task's own code; None otherwise.
    """

    def __init__(self, task: Any, error: BaseException, backend_problem: str | None = None) -> None:
        self.task = task
        self.error = error
        self.backend_problem = backend_problem
        super().__init__(f"{task!r}: {type(error).__name__}: {error}")


def execute(
    backend: Backend,
    tasks: Iterable[T],
    submit: Callable[[Backend, T], Any],
    on_done: Callable[[T, Any], None],
    started: Callable[[], None] | None = None,
) -> None:
    """Run ``tasks`` with at most ``backend.slots`` in flight, handing each result to ``on_done``.

    Results arrive in completion order. The first failing task raises :class:`TaskFailed`;
    the caller's ``make_backend`` block then cancels what is still queued. ``started`` is
    called once, after the first tasks are submitted (a pool's workers are running then).
    """
    queue = iter(tasks)
    pending: dict[Any, T] = {}

    def refill() -> None:
        while len(pending) < backend.slots:
            task = next(queue, _END)
            if task is _END:
                return
            try:
                pending[submit(backend, task)] = task
            except Exception as exc:  # e.g. a pool broken by a worker that just died
                problem = backend.explain(exc)
                if problem is None:
                    raise
                raise TaskFailed(task, exc, problem) from exc

    refill()
    if started is not None:
        started()
    while pending:
        for fut in backend.wait_any(list(pending)):
            task = pending.pop(fut)
            try:
                result = backend.result(fut)
            except RunError:  # the backend's own verdict on the cluster (Dask)
                raise
            except Exception as exc:
                raise TaskFailed(task, exc, backend.explain(exc)) from exc
            on_done(task, result)
        refill()


_END: Any = object()

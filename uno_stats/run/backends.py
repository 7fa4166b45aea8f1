"""Where chunks run: in this process, on a local process pool, or on a Dask cluster.

Each backend takes a function and its arguments and hands back future-like objects with
``result()``; :func:`make_backend` picks one and shuts it down (cancelling what is still
queued) when the run ends or fails.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from uno_stats import engine
from uno_stats.errors import RunError

START_METHOD = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
"""How pool workers start. ``fork`` inherits the parent's already loaded engine, so a pool
is ready in milliseconds; ``spawn`` re-imports numpy and numba and reloads the compiled
engine in every worker (see README "Performance" for the measurement). The engine uses no
numba threading layer, so forking it is safe."""

T = TypeVar("T")

SLOTS_PER_WORKER = 2
"""Chunks in flight per worker: one running, one queued, so no worker waits for the parent."""


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

    def close(self, cancel: bool) -> None:
        """Release the workers; drop queued work first when ``cancel``."""
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

    def close(self, cancel: bool) -> None:
        return None


def _init_worker() -> None:
    """Pool worker start-up: leave Ctrl-C to the parent, which stops the pool cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class PoolBackend:
    """A local :class:`~concurrent.futures.ProcessPoolExecutor` of ``workers`` processes."""

    shares_disk = True  # workers write their own Parquet parts

    def __init__(self, workers: int, start_method: str = START_METHOD) -> None:
        if start_method == "fork":
            engine.warm_up()  # compile or load once here; forked workers inherit it
        context = mp.get_context(start_method)
        self.executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker)
        self.slots = SLOTS_PER_WORKER * workers

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        return self.executor.submit(fn, *args)

    def wait_any(self, futures: list[Any]) -> list[Any]:
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        return list(done)

    def close(self, cancel: bool) -> None:
        self.executor.shutdown(wait=True, cancel_futures=cancel)


class DaskBackend:
    """The same chunk function on a Dask distributed cluster (``"local"``: start one here)."""

    shares_disk = False  # workers may be other machines: columns come back to the parent

    def __init__(self, scheduler: str, workers: int) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise RunError("--scheduler needs Dask: pip install 'uno-stats[dask]'") from None
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
            raise RunError(f"cannot reach Dask scheduler {scheduler}: {exc}") from None
        try:
            self.client.wait_for_workers(1, timeout=30)
        except TimeoutError:
            self.close(cancel=False)
            raise RunError(f"Dask scheduler {scheduler} has no workers (waited 30 s)") from None
        self.slots = SLOTS_PER_WORKER * max(1, sum(self.client.nthreads().values()))
        self._pending: set[Any] = set()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        fut = self.client.submit(fn, *args, pure=False)
        self._pending.add(fut)
        return fut

    def wait_any(self, futures: list[Any]) -> list[Any]:
        from dask.distributed import wait as dask_wait

        done = dask_wait(futures, return_when="FIRST_COMPLETED").done
        # Forget finished futures: a referenced future keeps its result in worker memory.
        self._pending.difference_update(done)
        return [f for f in futures if f in done]

    def close(self, cancel: bool) -> None:
        if cancel and self._pending:
            self.client.cancel(list(self._pending))
        self._pending.clear()
        self.client.close()
        self._close_cluster()

    def _close_cluster(self) -> None:
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None


@contextmanager
def make_backend(workers: int, scheduler: str | None = None) -> Iterator[Backend]:
    """The backend for a run; closed (queued work cancelled on error) when the block ends."""
    if scheduler:
        backend: Backend = DaskBackend(scheduler, workers)
    elif workers == 1:
        backend = InlineBackend()
    else:
        backend = PoolBackend(workers)
    try:
        yield backend
    except BaseException:
        backend.close(cancel=True)
        raise
    backend.close(cancel=False)


class TaskFailed(Exception):
    """A task raised in its worker; ``task`` is the failing task, ``__cause__`` the error."""

    def __init__(self, task: Any, error: BaseException) -> None:
        self.task = task
        self.error = error
        super().__init__(f"{task!r}: {type(error).__name__}: {error}")


def execute(
    backend: Backend,
    tasks: Iterable[T],
    submit: Callable[[Backend, T], Any],
    on_done: Callable[[T, Any], None],
) -> None:
    """Run ``tasks`` with at most ``backend.slots`` in flight, handing each result to ``on_done``.

    Results arrive in completion order. The first failing task raises :class:`TaskFailed`;
    the caller's ``make_backend`` block then cancels what is still queued.
    """
    queue = iter(tasks)
    pending: dict[Any, T] = {}

    def refill() -> None:
        while len(pending) < backend.slots:
            task = next(queue, _END)
            if task is _END:
                return
            pending[submit(backend, task)] = task

    refill()
    while pending:
        for fut in backend.wait_any(list(pending)):
            task = pending.pop(fut)
            try:
                result = fut.result()
            except Exception as exc:
                raise TaskFailed(task, exc) from exc
            on_done(task, result)
        refill()


_END: Any = object()

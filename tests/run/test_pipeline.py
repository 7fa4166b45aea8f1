"""How a run starts and overlaps its work: in-process chunks play one at a time while the
part before is written, small default runs start no pool of every core, and the caller's
``while_running`` hook runs once while chunks play."""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
from pathlib import Path

import pytest

from uno_stats.engine import jit
from uno_stats.run import backends, runner, tasks
from uno_stats.run.plan import MIN_CHUNKS_PER_WORKER
from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import load_scenario
from uno_stats.store.manifest import read_run_manifest

TINY = "name: tiny\nplayers: 4\ngames: 1200\nseed: 7\nrules:\n  preset: mattel-2022\n"
REAL_RUN_CHUNK = tasks.run_chunk


def tiny(tmp_path: Path):
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY)
    return load_scenario(path)


class Playing:
    """A stand-in for ``tasks.run_chunk`` that counts how many chunks play at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.most = 0
        self.played: list[int] = []

    def __call__(self, config, first_game, n_games):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(0.01)  # long enough for a second thread to try to play meanwhile
        try:
            return REAL_RUN_CHUNK(config, first_game, n_games)
        finally:
            with self.lock:
                self.now -= 1
                self.played.append(first_game)


def test_one_worker_plays_one_chunk_at_a_time(tmp_path, monkeypatch):
    playing = Playing()
    monkeypatch.setattr(tasks, "run_chunk", playing)
    outcome = run_scenario(
        tiny(tmp_path), tmp_path / "out", workers=1, progress=False, chunk_size=100
    )
    assert playing.most == 1
    assert sorted(playing.played) == list(range(0, 1200, 100))
    manifest = read_run_manifest(outcome.path)
    assert manifest.complete and manifest.chunks_done == 12 and manifest.rows == 1200


class NoPool:
    def __init__(self, *args, **kwargs) -> None:
        raise AssertionError("a pool was started")


def test_small_default_run_starts_no_pool(tmp_path, monkeypatch):
    monkeypatch.setattr(backends, "PoolBackend", NoPool)
    outcome = run_scenario(tiny(tmp_path), tmp_path / "out", progress=False)
    assert read_run_manifest(outcome.path).complete
    with pytest.raises(AssertionError, match="a pool was started"):
        run_scenario(tiny(tmp_path), tmp_path / "other", workers=2, progress=False)


def test_small_default_run_forks_one_worker_that_loads_the_engine(tmp_path, monkeypatch):
    """With a cached engine and something to prepare meanwhile, the one worker is a forked
    process that loads the engine itself; this process does not load it first."""
    started: list[tuple[int, bool]] = []
    real = backends.PoolBackend

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, workers: int, **kwargs) -> None:
            started.append((workers, kwargs.get("warm_parent", True)))
            super().__init__(workers, **kwargs)

    monkeypatch.setattr(backends, "PoolBackend", Recording)
    monkeypatch.setattr(jit, "engine_is_cached", lambda: True)
    calls: list[int] = []
    outcome = run_scenario(
        tiny(tmp_path), tmp_path / "out", progress=False, while_running=lambda: calls.append(1)
    )
    assert started == [(1, False)]
    assert calls == [1]
    assert read_run_manifest(outcome.path).rows == 1200


@pytest.mark.skipif(backends.START_METHOD != "fork", reason="a small run forks its worker")
def test_forked_worker_of_a_small_run_leaves_the_parts_to_this_process(tmp_path, monkeypatch):
    """The one forked worker only plays; this process writes every part (so the worker never
    needs pyarrow), and the run is the same as one played in process."""
    log = tmp_path / "writers.txt"
    real = runner.write_part

    def recording(*args, **kwargs):
        with log.open("a") as handle:
            handle.write(f"{os.getpid()}\n")
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "write_part", recording)
    monkeypatch.setattr(jit, "engine_is_cached", lambda: True)
    forked = run_scenario(
        tiny(tmp_path), tmp_path / "forked", progress=False, while_running=lambda: None
    )
    writers = log.read_text().split()
    assert len(writers) == read_run_manifest(forked.path).chunks_done > 1
    assert set(writers) == {str(os.getpid())}
    inline = run_scenario(tiny(tmp_path), tmp_path / "inline", workers=1, progress=False)
    frames = [outcome.runs[0].scan().collect() for outcome in (forked, inline)]
    assert frames[0].equals(frames[1])


def test_while_running_is_called_once_and_only_with_work_to_do(tmp_path):
    calls: list[int] = []
    s = tiny(tmp_path)
    run_scenario(
        s,
        tmp_path / "out",
        workers=1,
        progress=False,
        chunk_size=300,
        while_running=lambda: calls.append(1),
    )
    assert calls == [1]
    run_scenario(
        s, tmp_path / "out", workers=1, progress=False, while_running=lambda: calls.append(2)
    )
    assert calls == [1]  # nothing left to play: the finished run is only verified


def test_small_default_run_is_cut_for_its_one_worker(tmp_path):
    """A default run small enough for one worker gets that worker's few chunks, not a few
    per core (each part costs its writer time); asking for workers cuts for them."""
    default = run_scenario(tiny(tmp_path), tmp_path / "default", progress=False)
    two = run_scenario(tiny(tmp_path), tmp_path / "two", workers=2, progress=False)
    assert read_run_manifest(default.path).chunks == MIN_CHUNKS_PER_WORKER
    assert read_run_manifest(two.path).chunks == 2 * MIN_CHUNKS_PER_WORKER


@pytest.mark.skipif(backends.START_METHOD != "fork", reason="a small run forks its worker")
def test_ctrl_c_stops_a_small_runs_worker_and_the_run_resumes(tmp_path, monkeypatch):
    """Interrupted while its forked worker loads, a small run stops that worker (its chunks
    would come back here to be written) and says so; the same call then finishes the run."""
    monkeypatch.setattr(jit, "engine_is_cached", lambda: True)
    s = tiny(tmp_path)
    assert mp.active_children() == []

    def interrupt() -> None:
        raise KeyboardInterrupt

    with pytest.raises(runner.RunInterrupted):
        run_scenario(s, tmp_path / "out", progress=False, while_running=interrupt)
    assert mp.active_children() == []
    again = run_scenario(s, tmp_path / "out", progress=False, while_running=lambda: None)
    assert again.runs[0].complete

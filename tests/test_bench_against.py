"""scripts/bench_against.py: reading perf's and callgrind's counts into work per round."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_against.py"


@pytest.fixture(scope="module")
def bench_against() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_against", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_against"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


# perf stat -x, as it prints on a machine with a PMU, and on this VM (no PMU driver)
PERF_COUNTED = """# started on Tue Dec  1 11:00:00 2026

4000000,,instructions:u,1000,100.00,2.00,insn per cycle
2000000,,cycles:u,1000,100.00,,
"""
PERF_UNSUPPORTED = """<not supported>,,instructions:u,0,100.00,,
<not supported>,,cycles:u,0,100.00,,
"""
# the header and last lines of a callgrind part, as valgrind 3.19 writes them
CALLGRIND_PART = """version: 1
creator: callgrind-3.19.0
desc: Trigger: --dump-before=sys_getswitchinterval
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
summary: 1000 400 200 3 5 7 1 2 4 100 11 20 6
totals: 1000 400 200 3 5 7 1 2 4 100 11 20 6
"""


def test_perf_counts_are_read(bench_against: ModuleType) -> None:
    work = bench_against.parse_perf(PERF_COUNTED)
    assert (work.instructions, work.cycles) == (4_000_000, 2_000_000)
    assert work.l1_misses is None


def test_perf_without_counters_is_an_error_naming_the_alternative(
    bench_against: ModuleType,
) -> None:
    with pytest.raises(SystemExit, match=r"not supported.*--counter valgrind"):
        bench_against.parse_perf(PERF_UNSUPPORTED)


def test_callgrind_counts_and_cycle_estimate(bench_against: ModuleType) -> None:
    work = bench_against.parse_callgrind(CALLGRIND_PART)
    assert work.instructions == 1000
    assert work.l1_misses == 3 + 5 + 7  # I1 + D1 reads + D1 writes
    assert work.ll_misses == 1 + 2 + 4
    assert work.mispredicts == 11 + 6
    assert work.cycles == 1000 + 10 * (15 + 17) + 100 * 7  # KCachegrind's estimate


def test_callgrind_part_without_cache_simulation_is_an_error(bench_against: ModuleType) -> None:
    with pytest.raises(SystemExit, match="not all of"):
        bench_against.parse_callgrind("events: Ir\nsummary: 1000\n")


def test_work_per_round_is_the_difference_over_n(bench_against: ModuleType) -> None:
    work = bench_against.Work
    single, double = work(1_500, 3_000, 10, 4, 6), work(2_500, 4_600, 30, 4, 16)
    per_round = double.per_round(single, 100)
    assert (per_round.instructions, per_round.cycles) == (10, 16)
    assert (per_round.l1_misses, per_round.ll_misses, per_round.mispredicts) == (0.2, 0, 0.1)
    assert work(20, 40).per_round(work(10, 10), 10).l1_misses is None


def test_valgrind_children_use_their_own_cache_and_cpu(
    bench_against: ModuleType, tmp_path: Path
) -> None:
    env = bench_against.count_env(Path("/tree"), "valgrind", tmp_path, "haswell")
    assert env["NUMBA_CACHE_DIR"] == str(tmp_path / "numba-count")
    assert (env["NUMBA_CPU_NAME"], env["NUMBA_CPU_FEATURES"]) == ("haswell", "")
    assert env["PYTHONPATH"] == "/tree"
    perf_env = bench_against.count_env(Path("/tree"), "perf", tmp_path, "haswell")
    # perf counts the engine as it runs here: the environment's own cache and CPU
    assert perf_env.get("NUMBA_CPU_NAME") == os.environ.get("NUMBA_CPU_NAME")
    assert perf_env.get("NUMBA_CACHE_DIR") == os.environ.get("NUMBA_CACHE_DIR")


def test_a_missing_counter_is_a_one_line_error(bench_against: ModuleType) -> None:
    with pytest.raises(SystemExit, match=r"no-such-tool is not installed.*--count-games 0"):
        bench_against.run_child(Path("."), {}, ["no-such-tool"], [])

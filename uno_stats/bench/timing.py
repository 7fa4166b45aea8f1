"""What every bench measurement shares: a measured figure (:class:`Row`), timing whole
commands in subprocesses (wall and CPU seconds), and medians with their intervals."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from uno_stats.errors import UnoStatsError


@dataclass(frozen=True)
class Row:
    """One measured figure: what, the value and its unit, and the command that measured it."""

    what: str
    value: float
    unit: str
    command: str
    note: str = ""
    interval: tuple[float, float] | None = None  # 95%, where the figure has one


def cli_command() -> list[str]:
    """How to start ``uno-stats`` in a subprocess: the console script beside this Python."""
    script = Path(sys.executable).parent / "uno-stats"
    return [str(script)] if script.exists() else [sys.executable, "-m", "uno_stats.cli"]


def _children_cpu() -> float:
    """CPU seconds (user + system) of every finished child process of this one so far."""
    import resource  # Unix only, like the peak-memory figures

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_cpu(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (every process it started included) of one subprocess; its
    failure is an error naming the command. CPU time moves less than wall time on a busy
    machine."""
    cpu = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise UnoStatsError(f"bench: {' '.join(args)} failed ({done.returncode}): {last}")
    return seconds, _children_cpu() - cpu


def timed(args: list[str], env: dict[str, str] | None = None) -> float:
    """Wall seconds of one subprocess; its failure is an error naming the command."""
    return timed_cpu(args, env)[0]


def median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def median_interval(values: list[float], level: float = 0.95) -> tuple[float, float] | None:
    """A distribution-free interval for the median of what ``values`` sample: the k-th
    smallest and k-th largest value, k the largest with P(Binomial(n, 1/2) < k) at most
    (1 - level) / 2, so that the interval covers the median with at least ``level``
    probability whatever the distribution. None when there are too few values (under 6 at
    95%) for any such interval."""
    from scipy.stats import binom

    n = len(values)
    k = 0
    while k + 1 <= n // 2 and binom.cdf(k, n, 0.5) <= (1 - level) / 2:
        k += 1  # P(fewer than k + 1 values below the median) still within the tail
    if k == 0:
        return None
    ordered = sorted(values)
    return ordered[k - 1], ordered[n - k]

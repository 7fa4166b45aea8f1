"""Fingerprint every shipped scenario: a SHA-256 of its result columns for a fixed seed.

Runs each ``scenarios/*.yaml`` (every sweep point or tournament rotation) for a few
thousand games in process with the compiled engine and prints one line per scenario:
``name  sha256``. Two engine versions that print the same lines played the same games.
``--columns`` restricts the hash to the named columns (e.g. the columns of an older
version when new ones were added since); by default every column the engine returns is
hashed, in name order. ``--values`` hashes each column's values as int64 instead of its
bytes and dtype, so that widening a column's type (e.g. uint8 to uint16) keeps the hash.
``--stored`` hashes instead the Arrow table a run writes to Parquet (types and values of every
stored column), which stays the same when only the engine's output layout changes.
``--through-run`` runs each scenario (``--workers``, ``--chunk-size``) into a temporary
folder and hashes what each point reads back from disk (its rows in game order, every
column's values): the same lines before and after a change of the results folder's layout
mean every point stores and reads the same games (run it with an older checkout on
``PYTHONPATH`` for the "before").

    PYTHONPATH=$PWD python scripts/fingerprint.py [--games 2000] [--columns a,b,...] [--values]
        [--stored] [files...]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

from uno_stats.engine import EngineConfig, simulate
from uno_stats.scenario.load import Scenario, load_scenario

ROOT = Path(__file__).resolve().parents[1]


def _points(scenario: Scenario) -> list[tuple[str, Scenario]]:
    points = scenario.sweep_points()
    if not points:
        return [("", scenario)]
    return [(p.label, p.scenario) for p in points]


def fingerprint(
    path: Path, games: int, columns: list[str] | None, values: bool = False, stored: bool = False
) -> str:
    """SHA-256 over the result columns of every point of the scenario at ``path``."""
    digest = hashlib.sha256()
    for label, scenario in _points(load_scenario(path)):
        config = EngineConfig.from_scenario(scenario)
        n = games if scenario.match_target is None else max(1, games // 10)
        cols = simulate(config, 0, n)
        digest.update(label.encode())
        if stored:
            from uno_stats.store.parts import arrow_table

            table = arrow_table(cols, scenario.players)
            for name in columns if columns is not None else table.column_names:
                column = table.column(name)
                digest.update(f"{name} {column.type}".encode())
                digest.update(repr(column.to_pylist()).encode())
            continue
        for name in columns if columns is not None else sorted(cols):
            array = np.ascontiguousarray(cols[name])
            if values:
                array = np.ascontiguousarray(array.astype(np.int64))
            digest.update(name.encode())
            digest.update(("int64" if values else str(array.dtype)).encode())
            digest.update(array.tobytes())
    return digest.hexdigest()


def through_run(path: Path, games: int, workers: int, chunk_size: int | None) -> str:
    """SHA-256 over every point's rows as read back from a real run of ``path``."""
    import tempfile

    from uno_stats.run.runner import run_scenario
    from uno_stats.scenario.load import with_overrides

    try:
        from uno_stats.store.runs import open_runs
    except ImportError:  # a checkout before the sweep dataset
        from uno_stats.store.parts import open_runs  # type: ignore[attr-defined,no-redef]
    scenario = load_scenario(path)
    n = games if scenario.match_target is None else max(1, games // 10)
    digest = hashlib.sha256()
    with tempfile.TemporaryDirectory() as out:
        outcome = run_scenario(
            with_overrides(scenario, games=n),
            out,
            workers=workers,
            progress=False,
            chunk_size=chunk_size,
        )
        for run in open_runs(outcome.path):
            frame = run.scan().collect().sort("game", "round")
            digest.update(f"{run.manifest.sweep_label or ''} {frame.schema}".encode())
            digest.update(frame.hash_rows(seed=7).to_numpy().tobytes())
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--games", type=int, default=2000, help="games per point (matches: /10)")
    parser.add_argument("--columns", help="comma-separated columns to hash (default: all)")
    parser.add_argument(
        "--values", action="store_true", help="hash values as int64 (dtype changes keep the hash)"
    )
    parser.add_argument(
        "--stored", action="store_true", help="hash the Arrow table a run writes instead"
    )
    parser.add_argument(
        "--through-run", action="store_true", help="hash what a real run stores and reads back"
    )
    parser.add_argument("--workers", type=int, default=1, help="--through-run: workers")
    parser.add_argument("--chunk-size", type=int, help="--through-run: games per chunk")
    args = parser.parse_args(argv)
    files = args.files or sorted((ROOT / "scenarios").glob("*.yaml"))
    columns = args.columns.split(",") if args.columns else None
    for path in files:
        if args.through_run:
            line = through_run(path, args.games, args.workers, args.chunk_size)
        else:
            line = fingerprint(path, args.games, columns, args.values, args.stored)
        print(f"{path.stem:32s} {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What ``settle`` decided, recorded beside its two runs (``settle.json`` in each folder).

A settle that stops is complete by its own rule: its runs are sealed to the games it
played (:mod:`uno_stats.debates.settle_folder`), and this record says how it stopped, with the
confidence sequence and the verdict line it printed, so that ``summary``, ``compare`` and
``report`` show the settled answer first. A record holds both runs' identities (run id and
configuration hash); it is shown only while both folders still hold exactly those runs (a
later run or settle into either folder makes it stale, and it is then ignored).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from uno_stats.store.manifest import MANIFEST, Manifest, read_manifest, write_json

SETTLE_FILE = "settle.json"


@dataclass(frozen=True)
class SettleRecord:
    """One settle of B against baseline A: the decision, its sequence and how it stopped.

    ``value_a`` / ``value_b``: each run's value of the metric (a mid-quantile for a quantile
    metric); ``estimate``, ``low``, ``high``: B - A and its (1 - alpha) confidence sequence
    at the last look; ``stopped``: ``decided`` (at look ``looks``) or ``max-games``;
    ``seed_note``: set when B's own seed was replaced to pair the runs.
    """

    metric: str
    outcome: str  # "different", "same" or "undecided"
    stopped: str  # "decided" or "max-games"
    a: str
    b: str
    a_path: str
    b_path: str
    a_run: str
    b_run: str
    a_config: str
    b_config: str
    seed: int
    value_a: float
    value_b: float
    estimate: float
    low: float
    high: float
    games: int
    max_games: int
    batch: int
    looks: int
    alpha: float
    margin: str | None
    bound: float | None
    changed_games: int
    seconds: float
    seed_note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The record as JSON (NaN as null)."""
        return {
            k: (None if isinstance(v, float) and not math.isfinite(v) else v)
            for k, v in asdict(self).items()
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SettleRecord:
        """A record read back (null floats as NaN); a malformed one raises ValueError."""
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in names}
        for key in ("value_a", "value_b", "estimate", "low", "high"):
            values[key] = math.nan if values.get(key) is None else float(values[key])
        return cls(**values)


def _identity(folder: Path) -> tuple[str, str] | None:
    if not (folder / MANIFEST).exists():
        return None
    try:
        m = read_manifest(folder)
    except Exception:  # a broken partner folder only makes the record stale
        return None
    return (m.run_id, m.config_hash) if isinstance(m, Manifest) else None


def _read(folder: Path) -> list[SettleRecord]:
    path = Path(folder) / SETTLE_FILE
    try:
        data = json.loads(path.read_text())
        return [SettleRecord.from_json(r) for r in data["settles"]]
    except (OSError, ValueError, TypeError, KeyError):
        return []


def _partner(folder: Path, recorded: str) -> Path:
    """The partner folder: beside ``folder`` under its recorded name (so a moved results
    folder keeps its records), else where it was recorded."""
    beside = folder.parent / Path(recorded).name
    return beside if (beside / MANIFEST).exists() else Path(recorded)


def _valid(record: SettleRecord, folder: Path) -> bool:
    """Both runs of ``record`` are still the ones in their folders (``folder``: one of them)."""
    own = _identity(folder)
    a, b = (record.a_run, record.a_config), (record.b_run, record.b_config)
    if own == a:
        return _identity(_partner(folder, record.b_path)) == b
    if own == b:
        return _identity(_partner(folder, record.a_path)) == a
    return False


def write_record(a_dir: Path, b_dir: Path, record: SettleRecord) -> None:
    """Add ``record`` to both folders' ``settle.json``, dropping an earlier settle of the
    same pair and metric and every record that is no longer valid."""
    for folder in (Path(a_dir), Path(b_dir)):
        kept = [
            r.to_json()
            for r in _read(folder)
            if (r.metric, r.a, r.b) != (record.metric, record.a, record.b) and _valid(r, folder)
        ]
        write_json(folder / SETTLE_FILE, {"settles": [*kept, record.to_json()]})


def records_for(folders: list[Path]) -> list[SettleRecord]:
    """The valid settle records of ``folders`` (each once, in the order found)."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for folder in folders:
        for r in _read(Path(folder)):
            key = (r.a_run, r.b_run, r.metric)
            if key not in seen and _valid(r, Path(folder)):
                seen.add(key)
                out.append(r)
    return out

"""The run model: what ``manifest.json`` records about a run folder, as typed objects.

Every reader (runner, CLI, analysis, reports, tests) goes through :class:`Manifest` (one run
folder) and :class:`SweepManifest` (a sweep or tournament folder holding one run folder per
point); nobody reads manifest keys by hand. A run's scenario is stored in the scenario file's
own shape (:meth:`Scenario.to_dict`) and read back through the same validation as a file
(:attr:`Manifest.scenario`), so a manifest can never describe a scenario the tool would not
accept.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from uno_stats.errors import ResultsError, ScenarioError
from uno_stats.run.scenario import Scenario, scenario_from_dict

MANIFEST = "manifest.json"


def _checked(data: Any, path: Path, types: dict[str, tuple[type, ...]]) -> dict[str, Any]:
    """``data`` as a dict whose listed keys exist with one of the listed types."""
    if not isinstance(data, dict):
        raise ResultsError(f"{path}: not a manifest (a JSON object was expected)")
    out = {}
    for key, allowed in types.items():
        if key not in data:
            raise ResultsError(f"{path}: manifest has no {key!r}; rerun with --fresh")
        value = data[key]
        if isinstance(value, bool) and bool not in allowed:
            value = None  # JSON true/false never counts as a number here
        if not isinstance(value, allowed):
            kinds = " or ".join("null" if t is type(None) else t.__name__ for t in allowed)
            raise ResultsError(f"{path}: manifest key {key!r} must be {kinds}; rerun with --fresh")
        out[key] = value
    return out


_NUMBER = (int, float)
_OPTIONAL_STR = (str, type(None))


def _patches(data: dict[str, Any], path: Path) -> list[str] | None:
    """The optional ``numba_patches`` key (older manifests have none): a list of names."""
    value = data.get("numba_patches")
    if value is not None and not (
        isinstance(value, list) and all(isinstance(v, str) for v in value)
    ):
        raise ResultsError(f"{path}: manifest key 'numba_patches' must list patch names")
    return value


@dataclass
class Manifest:
    """One run folder: its scenario (a single run or one sweep point), progress and provenance.

    ``scenario_data`` is the resolved scenario in the file's shape; :attr:`scenario` is it
    validated. ``chunks_done``/``rows``/``complete`` follow the parts on disk as the run goes.
    ``run_id`` is drawn when the folder is first filled and kept when a run resumes; every
    part records it, so parts of another run (an older one, or an orphaned worker's) are
    never counted.
    """

    name: str
    version: str
    seed: int
    games: int
    scenario_data: dict[str, Any]
    chunk_size: int
    chunks: int
    config_hash: str
    engine_hash: str
    created: str
    run_id: str = ""
    sweep_label: str | None = None
    sweep_assignment: dict[str, Any] | None = None
    tournament: list[str] | None = None
    chunks_done: int = 0
    rows: int = 0
    complete: bool = False
    wall_time_s: float = 0.0
    games_per_s: float | None = None
    numba_patches: list[str] | None = None  # the engine's numba patches; None: not recorded
    source: Path | None = field(default=None, compare=False)

    _TYPES: ClassVar[dict[str, tuple[type, ...]]] = {
        "name": (str,),
        "version": (str,),
        "seed": (int,),
        "games": (int,),
        "scenario": (dict,),
        "chunk_size": (int,),
        "chunks": (int,),
        "config_hash": (str,),
        "engine_hash": (str,),
        "created": (str,),
        "run_id": (str,),
        "sweep_label": _OPTIONAL_STR,
        "sweep_assignment": (dict, type(None)),
        "tournament": (list, type(None)),
        "chunks_done": (int,),
        "rows": (int,),
        "complete": (bool,),
        "wall_time_s": _NUMBER,
        "games_per_s": (*_NUMBER, type(None)),
    }

    @cached_property
    def scenario(self) -> Scenario:
        """The run's scenario, validated as a scenario file would be."""
        where = str(self.source or MANIFEST)
        try:
            return scenario_from_dict(self.scenario_data, source=f"{where} (scenario)")
        except ScenarioError as exc:
            raise ResultsError(f"{where}: the recorded scenario is not valid: {exc}") from None

    @property
    def display_name(self) -> str:
        """Scenario name, plus the sweep point label if any (``name[label]``)."""
        return f"{self.name}[{self.sweep_label}]" if self.sweep_label else self.name

    def to_json(self) -> dict[str, Any]:
        """The JSON object written as ``manifest.json``."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "source"}
        out["scenario"] = out.pop("scenario_data")
        return out

    @classmethod
    def from_json(cls, data: Any, path: Path) -> Manifest:
        """Parse a run folder's manifest; any missing or mistyped key is a :class:`ResultsError`."""
        values = _checked(data, path, cls._TYPES)
        values["numba_patches"] = _patches(data, path)
        values["scenario_data"] = values.pop("scenario")
        values["wall_time_s"] = float(values["wall_time_s"])
        if values["games_per_s"] is not None:
            values["games_per_s"] = float(values["games_per_s"])
        return cls(**values, source=path)


@dataclass
class SweepManifest:
    """A sweep (or tournament) folder: the axes, the point folders, and overall progress.

    A tournament's axis is ``rotation`` and ``tournament`` lists its strategies.
    """

    name: str
    version: str
    seed: int
    games: int
    axes: dict[str, list[Any]]
    points: list[str]
    config_hash: str
    tournament: list[str] | None = None
    complete: bool = False
    wall_time_s: float = 0.0
    games_per_s: float | None = None
    source: Path | None = field(default=None, compare=False)

    _TYPES: ClassVar[dict[str, tuple[type, ...]]] = {
        "name": (str,),
        "version": (str,),
        "seed": (int,),
        "games": (int,),
        "axes": (dict,),
        "points": (list,),
        "config_hash": (str,),
        "tournament": (list, type(None)),
        "complete": (bool,),
        "wall_time_s": _NUMBER,
        "games_per_s": (*_NUMBER, type(None)),
    }

    def to_json(self) -> dict[str, Any]:
        """The JSON object written as the sweep folder's ``manifest.json``."""
        out = asdict(self)
        out.pop("source")
        return {"sweep": True, **out}

    @classmethod
    def from_json(cls, data: Any, path: Path) -> SweepManifest:
        """Parse a sweep folder's manifest; any missing or mistyped key is a ResultsError."""
        values = _checked(data, path, cls._TYPES)
        if not all(isinstance(p, str) and p and "/" not in p for p in values["points"]):
            raise ResultsError(f"{path}: manifest key 'points' must list folder names")
        values["wall_time_s"] = float(values["wall_time_s"])
        if values["games_per_s"] is not None:
            values["games_per_s"] = float(values["games_per_s"])
        return cls(**values, source=path)


def _read_json(folder: Path) -> Any:
    path = folder / MANIFEST
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise ResultsError(f"{folder}: not a results folder (no {MANIFEST})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{path}: unreadable manifest ({exc}); rerun with --fresh") from None
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read ({exc.strerror or exc})") from None


def read_manifest(folder: Path) -> Manifest | SweepManifest:
    """The manifest of ``folder``: a :class:`SweepManifest` for a sweep folder, else a run's."""
    data = _read_json(Path(folder))
    path = Path(folder) / MANIFEST
    if isinstance(data, dict) and data.get("sweep") is True:
        return SweepManifest.from_json(data, path)
    return Manifest.from_json(data, path)


def read_run_manifest(folder: Path) -> Manifest:
    """The manifest of a single run folder (a sweep folder is an error here)."""
    manifest = read_manifest(folder)
    if not isinstance(manifest, Manifest):
        raise ResultsError(f"{folder}: a sweep folder, not a single run")
    return manifest


def write_manifest(folder: Path, manifest: Manifest | SweepManifest) -> None:
    """Write ``manifest.json`` atomically (a temporary name, then a rename)."""
    write_json(Path(folder) / MANIFEST, manifest.to_json())


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON atomically: a partly written file never has the final name."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w") as handle:
            handle.write(json.dumps(data, indent=2, default=str) + "\n")
            handle.flush()
            os.fsync(handle.fileno())  # a full disk fails here, before the rename
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)

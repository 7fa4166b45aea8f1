"""The run model: what ``manifest.json`` records about a run folder, as typed objects.

Every reader (runner, CLI, analysis, reports, tests) goes through :class:`Manifest` (one run
folder), :class:`SweepManifest` (a sweep or tournament: one dataset of every point's games)
and :class:`PointFoldersManifest` (a sweep folder of the earlier per-point layout, still
read); nobody reads manifest keys by hand. A run's scenario is stored in the scenario file's
own shape (:meth:`Scenario.to_dict`) and read back through the same validation as a file
(:attr:`Manifest.scenario`), so a manifest can never describe a scenario the tool would not
accept.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import types
import typing
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Any

from uno_stats.errors import ResultsError, ScenarioError, shortened
from uno_stats.limits import MAX_JSON_BYTES, load_json, read_bounded
from uno_stats.scenario.load import Scenario, scenario_from_dict
from uno_stats.store.layout import Layout

MANIFEST = "manifest.json"


class UnreadableManifest(ResultsError):
    """A ``manifest.json`` that is there but cannot be parsed (truncated, garbled, hostile)."""


def _checked(
    data: Any, path: Path, types: dict[str, tuple[type, ...]], optional: frozenset[str]
) -> dict[str, Any]:
    """``data`` as a dict whose listed keys exist (the ``optional`` ones may be missing) with
    one of the listed types."""
    if not isinstance(data, dict):
        raise ResultsError(f"{path}: not a manifest (a JSON object was expected)")
    out = {}
    for key, allowed in types.items():
        if key not in data and key in optional:
            continue
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


_JSON_NAMES = {"scenario_data": "scenario"}
"""Dataclass fields stored under another key in ``manifest.json``."""


def _allowed(hint: Any) -> tuple[type, ...]:
    """The JSON value types a field annotated ``hint`` accepts (a float: any number)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return tuple(t for arg in typing.get_args(hint) for t in _allowed(arg))
    if hint is type(None):
        return (type(None),)
    base = typing.get_origin(hint) or hint
    return (int, float) if base is float else (base,)


def json_types(cls: type) -> tuple[dict[str, tuple[type, ...]], frozenset[str]]:
    """The manifest keys of dataclass ``cls`` with the JSON types each accepts, derived from
    its fields (all but ``source``), and the keys that may be missing (fields marked
    ``optional`` in their metadata, added after manifests were first written)."""
    if cls in _KEY_TYPES:
        return _KEY_TYPES[cls]
    hints = typing.get_type_hints(cls)
    keys, optional = {}, set()
    for f in fields(cls):
        if f.name == "source":
            continue
        key = _JSON_NAMES.get(f.name, f.name)
        keys[key] = _allowed(hints[f.name])
        if f.metadata.get("optional"):
            optional.add(key)
    _KEY_TYPES[cls] = keys, frozenset(optional)
    return _KEY_TYPES[cls]


_KEY_TYPES: dict[type, tuple[dict[str, tuple[type, ...]], frozenset[str]]] = {}


def scenario_hash(data: dict[str, Any], chunk_size: int, version: str, engine: str) -> str:
    """The configuration hash of a run folder: its resolved scenario (the file's shape,
    without ``source``), chunk size, tool version and engine hash."""
    scenario = {k: v for k, v in data.items() if k != "source"}
    payload = {"scenario": scenario, "chunk_size": chunk_size, "version": version, "engine": engine}
    return hashlib.sha256(_canonical(payload).encode()).hexdigest()[:16]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def field_digests(data: dict[str, Any]) -> dict[str, str]:
    """A short digest of every field of a scenario in the file's shape, by dotted path
    (``players``, ``rules.stack_draw_two``; a list is one field), so that a manifest whose
    scenario was edited can name what changed."""
    out: dict[str, str] = {}

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict) and value:
            for key, inner in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), inner)
        else:
            out[prefix] = hashlib.sha256(_canonical(value).encode()).hexdigest()[:8]

    walk("", {k: v for k, v in data.items() if k != "source"})
    return out


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
    scenario_fields: dict[str, str] | None = field(default=None, metadata={"optional": True})
    numba_patches: list[str] | None = field(default=None, metadata={"optional": True})
    source: Path | None = field(default=None, compare=False)

    @cached_property
    def scenario(self) -> Scenario:
        """The run's scenario, validated as a scenario file would be."""
        return _recorded_scenario(self.scenario_data, self.source)

    @property
    def planned_games(self) -> int:
        """Games in the run folder's dataset."""
        return self.games

    @property
    def layout(self) -> Layout:
        """How the run's games are cut into chunks (the layout of one point)."""
        return Layout(1, self.games, self.chunk_size)

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
        """Parse a run folder's manifest; any missing or mistyped key, or a recorded scenario
        that does not match the folder's ``config_hash``, is a :class:`ResultsError`."""
        manifest = cls(**_dataset_values(cls, data, path), source=path)
        manifest.check_recorded_scenario()
        return manifest

    def check_recorded_scenario(self) -> None:
        """The recorded scenario, chunk size, version and engine give the recorded
        ``config_hash``, and the top-level copies agree with the scenario; else a
        :class:`ResultsError` naming the field (a hand-edited ``scenario.players`` would
        otherwise be reported as a table of 5 players nobody played)."""
        where, data = self.source or MANIFEST, self.scenario_data
        _check_copies(where, data, {key: getattr(self, key) for key in ("name", "seed", "games")})
        if self.chunk_size < 1 or self.chunks != -(-self.games // self.chunk_size):
            raise ResultsError(
                f"{where}: 'chunks' {self.chunks} does not match {self.games:,} games in chunks "
                f"of {self.chunk_size:,}: the manifest was edited; {EDITED}"
            )
        digest = scenario_hash(data, self.chunk_size, self.version, self.engine_hash)
        if digest == self.config_hash:
            return
        recorded = self.scenario_fields or {}
        now = field_digests(data)
        changed = sorted(k for k in recorded.keys() | now.keys() if recorded.get(k) != now.get(k))
        changed = changed if recorded else []  # a manifest of an earlier version has none
        named = ", ".join(f"scenario.{k}" for k in changed[:3]) + (
            f" (and {len(changed) - 3} more)" if len(changed) > 3 else ""
        )
        what = named or "the recorded scenario, 'chunk_size', 'version' or 'engine_hash'"
        raise ResultsError(
            f"{where}: {what} does not match the folder's config_hash {self.config_hash} "
            f"(the parts were played with other values): the manifest was edited; {EDITED}"
        )


@dataclass
class PointFoldersManifest:
    """A sweep (or tournament) folder of the per-point layout (uno-stats before the sweep
    dataset): the axes, one run folder per point, and overall progress. Still read; a run
    never writes one (a sweep is one dataset now: :class:`SweepManifest`).

    A tournament's axis is ``rotation`` and ``tournament`` lists its strategies. ``design``
    is a sweep's :meth:`uno_stats.scenario.designs.Design.record` (kind, resolution, generators,
    points; None for a tournament, or a folder written before designs: the full factorial).
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
    design: dict[str, Any] | None = field(default=None, metadata={"optional": True})
    source: Path | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The JSON object written as the sweep folder's ``manifest.json``."""
        out = asdict(self)
        out.pop("source")
        return {"sweep": True, **out}

    @classmethod
    def from_json(cls, data: Any, path: Path) -> PointFoldersManifest:
        """Parse a sweep folder's manifest; any missing or mistyped key is a ResultsError."""
        values = _checked(data, path, *json_types(cls))
        values.setdefault("design", None)  # folders written before designs have none
        if not all(isinstance(p, str) and p and "/" not in p for p in values["points"]):
            raise ResultsError(f"{path}: manifest key 'points' must list folder names")
        values["wall_time_s"] = float(values["wall_time_s"])
        if values["games_per_s"] is not None:
            values["games_per_s"] = float(values["games_per_s"])
        return cls(**values, source=path)


@dataclass
class SweepManifest:
    """A sweep (or tournament) folder: one results dataset of every point's games.

    The points are not listed: ``scenario_data`` (the sweep's scenario in the file's shape,
    axes and design included) regenerates them, in order (:attr:`scenario`'s
    :meth:`~uno_stats.scenario.load.Scenario.point_table`), so the manifest's size does not
    grow with the points. Games are laid out point after point (point ``p``'s game ``k`` is
    the dataset's game ``p * games + k``) and cut into chunks of ``chunk_size``
    (:class:`~uno_stats.store.layout.Layout`); every part holds a ``point`` column. A
    tournament's points are its rotations (``axes`` is ``rotation``) and ``tournament``
    lists its strategies; ``design`` is a sweep's design record (kind, resolution,
    generators, points).
    """

    name: str
    version: str
    seed: int
    games: int  # per point
    points: int
    axes: dict[str, list[Any]]
    scenario_data: dict[str, Any]
    chunk_size: int
    chunks: int
    config_hash: str
    engine_hash: str
    created: str
    run_id: str = ""
    tournament: list[str] | None = None
    design: dict[str, Any] | None = None
    chunks_done: int = 0
    rows: int = 0
    complete: bool = False
    wall_time_s: float = 0.0
    games_per_s: float | None = None
    numba_patches: list[str] | None = None
    source: Path | None = field(default=None, compare=False)

    LAYOUT = "dataset"

    @cached_property
    def scenario(self) -> Scenario:
        """The sweep's scenario (its points built from it on demand), validated as a file."""
        return _recorded_scenario(self.scenario_data, self.source)

    @property
    def planned_games(self) -> int:
        """Games in the whole dataset: every point's."""
        return self.points * self.games

    @property
    def layout(self) -> Layout:
        """How the points' games are cut into chunks."""
        return Layout(self.points, self.games, self.chunk_size)

    @property
    def display_name(self) -> str:
        """The sweep's name."""
        return self.name

    def to_json(self) -> dict[str, Any]:
        """The JSON object written as the sweep folder's ``manifest.json``."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "source"}
        out["scenario"] = out.pop("scenario_data")
        return {"sweep": True, "layout": self.LAYOUT, **out}

    @classmethod
    def from_json(cls, data: Any, path: Path) -> SweepManifest:
        """Parse a sweep dataset's manifest; a missing or mistyped key, or a recorded scenario
        that does not match its ``config_hash``, is a :class:`ResultsError`."""
        manifest = cls(**_dataset_values(cls, data, path), source=path)
        manifest.check_recorded_scenario()
        return manifest

    def check_recorded_scenario(self) -> None:
        """The recorded scenario, chunk size, version and engine give ``config_hash``, and the
        counts agree with it; else a :class:`ResultsError` saying the manifest was edited."""
        where, data = self.source or MANIFEST, self.scenario_data
        _check_copies(where, data, {key: getattr(self, key) for key in ("name", "seed", "games")})
        if (
            self.points < 1
            or self.chunk_size < 1
            or self.chunks != -(-self.planned_games // self.chunk_size)
        ):
            raise ResultsError(
                f"{where}: 'chunks' {self.chunks} does not match {self.points:,} points of "
                f"{self.games:,} games in chunks of {self.chunk_size:,}: the manifest was "
                f"edited; {EDITED}"
            )
        digest = scenario_hash(data, self.chunk_size, self.version, self.engine_hash)
        if digest != self.config_hash:
            raise ResultsError(
                f"{where}: the recorded scenario, 'chunk_size', 'version' or 'engine_hash' does "
                f"not match the folder's config_hash {self.config_hash} (the parts were played "
                f"with other values): the manifest was edited; {EDITED}"
            )


EDITED = "restore it, or rerun with --fresh to start over"
"""What to do about a manifest whose recorded scenario and copies disagree."""


def _recorded_scenario(data: dict[str, Any], source: Path | None) -> Scenario:
    """The scenario a manifest records, validated as a scenario file would be."""
    where = str(source or MANIFEST)
    try:
        return scenario_from_dict(data, source=f"{where} (scenario)")
    except ScenarioError as exc:
        raise ResultsError(f"{where}: the recorded scenario is not valid: {exc}") from None


def _dataset_values(cls: type, data: Any, path: Path) -> dict[str, Any]:
    """A run's or sweep's manifest JSON as the dataclass's fields (every key checked)."""
    values = _checked(data, path, *json_types(cls))
    values["numba_patches"] = _patches(data, path)
    values["scenario_data"] = values.pop("scenario")
    values["wall_time_s"] = float(values["wall_time_s"])
    if values["games_per_s"] is not None:
        values["games_per_s"] = float(values["games_per_s"])
    return values


def _check_copies(where: Path | str, data: dict[str, Any], copies: dict[str, Any]) -> None:
    """The manifest's top-level ``copies`` (name, seed, games) are the recorded scenario's."""
    for key, value in copies.items():
        if data.get(key) != value:
            raise ResultsError(
                f"{where}: {key!r} is {shortened(repr(value))} but the recorded scenario says "
                f"{shortened(repr(data.get(key)))}: the manifest was edited; {EDITED}"
            )


def _read_json(folder: Path) -> Any:
    """The parsed ``manifest.json`` of ``folder``, within the JSON limits (docs/SCENARIO.md)."""
    path = folder / MANIFEST
    try:
        return load_json(read_bounded(path, MAX_JSON_BYTES))
    except FileNotFoundError:
        raise ResultsError(f"{folder}: not a results folder (no {MANIFEST})") from None
    except ValueError as exc:  # not a regular file, too large, too deep, not JSON
        raise UnreadableManifest(
            f"{path}: unreadable manifest ({shortened(str(exc))}); rerun the same run command "
            "to rebuild it from the parts, or rerun with --fresh"
        ) from None
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read ({exc.strerror or exc})") from None


AnyManifest = Manifest | SweepManifest | PointFoldersManifest
"""What a results folder's ``manifest.json`` can be."""


def read_manifest(folder: Path) -> AnyManifest:
    """The manifest of ``folder``: a :class:`SweepManifest` for a sweep dataset, a
    :class:`PointFoldersManifest` for a sweep folder of the per-point layout, else a run's."""
    data = _read_json(Path(folder))
    path = Path(folder) / MANIFEST
    if isinstance(data, dict) and data.get("sweep") is True:
        layout = data.get("layout")
        if layout == SweepManifest.LAYOUT:
            return SweepManifest.from_json(data, path)
        if layout is not None:
            raise ResultsError(
                f"{path}: a sweep of layout {shortened(repr(layout))}, which this version of "
                "uno-stats does not know: read it with the version that wrote it, or rerun it"
            )
        return PointFoldersManifest.from_json(data, path)
    return Manifest.from_json(data, path)


def read_run_manifest(folder: Path) -> Manifest:
    """The manifest of a single run folder (a sweep folder is an error here)."""
    manifest = read_manifest(folder)
    if not isinstance(manifest, Manifest):
        raise ResultsError(f"{folder}: a sweep folder, not a single run")
    return manifest


def write_manifest(folder: Path, manifest: AnyManifest) -> None:
    """Write ``manifest.json`` atomically (a temporary name, then a rename)."""
    write_json(Path(folder) / MANIFEST, manifest.to_json())


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON atomically: a partly written file never has the final name.

    On a full disk the new file has no room beside the old one; when the old file's own
    blocks hold the new text it is rewritten in place instead, so that a run's manifest
    still counts the parts a full disk left (a write torn by a kill there leaves a manifest
    that reads as unreadable, which a rerun rebuilds from the parts)."""
    text = json.dumps(data, indent=2, default=str) + "\n"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())  # a full disk fails here, before the rename
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        if exc.errno != errno.ENOSPC or not _rewrite_in_place(path, text):
            raise
    finally:
        tmp.unlink(missing_ok=True)


def _rewrite_in_place(path: Path, text: str) -> bool:
    """Overwrite ``path`` with ``text`` within the blocks it already holds; False (nothing
    written) when it does not exist or ``text`` would need more room."""
    try:
        held = path.stat().st_blocks * 512
    except FileNotFoundError:
        return False
    data = text.encode()
    if len(data) > held:
        return False
    with path.open("r+b") as handle:
        handle.write(data)
        handle.truncate()
        handle.flush()
        os.fsync(handle.fileno())
    return True

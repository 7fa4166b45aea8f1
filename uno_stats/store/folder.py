"""The results folder at the edge: is it ours, clearing it for ``--fresh``, and OS errors.

Every operating-system error met while preparing or filling a results folder becomes one
:class:`RunError` line that names the path and says what to do.
"""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

from uno_stats.errors import RunError
from uno_stats.store.lock import LOCK_FILE
from uno_stats.store.manifest import MANIFEST
from uno_stats.store.parts import PARTS_DIR

_OURS = {LOCK_FILE, MANIFEST, PARTS_DIR, f"{MANIFEST}.tmp"}
"""Entries a results folder may hold beside sweep point folders (and hidden temp files)."""

_ADVICE = {
    errno.EROFS: "read-only file system: choose another --out",
    errno.ENOSPC: "no space left on device: free some space (or choose another --out), then "
    "run the same command again to resume",
    errno.EDQUOT: "disk quota exceeded: free some space (or choose another --out), then "
    "run the same command again to resume",
    errno.ENOTDIR: "a file is in the way where a folder is needed: choose another --out",
    errno.EEXIST: "a file is in the way where a folder is needed: choose another --out",
    errno.EACCES: "permission denied: choose another --out or fix the folder's permissions",
    errno.EPERM: "operation not permitted: choose another --out or fix the folder's permissions",
}


def os_error(exc: OSError, where: Path, doing: str = "") -> RunError:
    """One line for an OS error at ``where`` (or the path the error names): what and what to do."""
    path = exc.filename or where
    advice = _ADVICE.get(exc.errno or 0) or f"{exc.strerror or exc}"
    doing = f" ({doing})" if doing else ""
    return RunError(f"{path}: {advice}{doing}")


def _is_ours(entry: Path) -> bool:
    return entry.name in _OURS or (entry.name.startswith(".") and entry.name.endswith(".tmp"))


def _is_point_folder(entry: Path) -> bool:
    """A sweep point's run folder (it holds only what a run writes)."""
    if not entry.is_dir() or entry.is_symlink():
        return False
    inside = list(entry.iterdir())
    return bool(inside) and all(_is_ours(e) for e in inside)


def check_out_folder(path: Path) -> None:
    """Refuse, without writing anything, a target that is a file or a folder not ours.

    A folder holding only what a run writes (lock, temporary files, parts, and sweep point
    folders holding only those) counts as ours even without a manifest: a run killed before
    its first manifest left it, or the manifest was lost.
    """
    for parent in [path, *path.parents]:
        if parent.exists():
            if not parent.is_dir():
                raise RunError(f"{parent} is a file, not a folder: choose another --out")
            break
    if not path.is_dir():
        return
    if (path / MANIFEST).exists():
        return
    # a sweep folder whose own manifest was lost still holds its points' run folders
    if all(_is_ours(entry) or _is_point_folder(entry) for entry in path.iterdir()):
        return
    raise RunError(f"{path} exists and is not a results folder; move it away first")


def clear_folder(path: Path) -> None:
    """Empty a results folder for ``--fresh``, keeping its lock file (held by this run)."""
    for entry in path.iterdir():
        if entry.name == LOCK_FILE:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()

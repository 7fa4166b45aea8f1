"""An exclusive lock on a results folder for the whole of a run.

The lock is ``fcntl.flock`` on ``.lock`` inside the folder, which the operating system
releases when the process (and every worker forked from it) is gone, however it died; the
file holds who took it (pid, host, start time) so that a second run can say who is in the way.
The file itself is never deleted, not even by ``--fresh``: a deleted lock file would let a
second run lock a new file while the first still holds the old one.
"""

from __future__ import annotations

import errno
import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from uno_stats.errors import RunError
from uno_stats.limits import load_json, read_bounded

LOCK_FILE = ".lock"

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock; runs there are not locked
    fcntl = None  # type: ignore[assignment]


def holder(folder: Path) -> str:
    """Who holds (or last held) the lock of ``folder``, as words for an error message."""
    try:
        info = load_json(read_bounded(Path(folder) / LOCK_FILE, 4096) or b"{}")
    except (OSError, ValueError):
        info = {}
    if not isinstance(info, dict) or "pid" not in info:
        return "another process"
    return f"pid {info.get('pid')} on {info.get('host')}, started {info.get('started')}"


def is_locked(folder: Path) -> bool:
    """True when a run holds the lock of ``folder`` right now (checked without waiting)."""
    path = Path(folder) / LOCK_FILE
    if fcntl is None or not path.exists():
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold the exclusive lock of ``folder`` (created if need be) for the ``with`` block.

    A folder another run holds is a :class:`RunError` naming the holder. Worker processes
    forked during the block inherit the lock, so it stays held until every one of them is
    gone: an orphaned worker can never share the folder with a new run.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise
                raise RunError(
                    f"{folder} is in use by another run ({holder(folder)}); wait for it to "
                    "finish or stop it, or choose another --out"
                ) from None
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the flock (unless a forked worker still holds it)

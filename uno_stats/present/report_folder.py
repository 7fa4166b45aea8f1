"""The folder a report is written into: refused when it holds anything, unless forced.

A report is ``report.md``, ``report.html`` and PNG plots. An existing folder that holds
anything is refused without ``force``; with it, the previous report's files are deleted
first (so no stale plot of an earlier report stays beside the new one). A folder that
holds other files is refused even with ``force``: a report never deletes what it did not
write.
"""

from __future__ import annotations

from pathlib import Path

from uno_stats.errors import ResultsError

REPORT_FILES = ("report.md", "report.html")


def is_report_file(path: Path) -> bool:
    """Whether ``path`` is a file a report writes (its Markdown, HTML or a PNG plot)."""
    return path.is_file() and (path.name in REPORT_FILES or path.suffix.lower() == ".png")


def prepare_report_folder(out: Path, force: bool = False) -> Path:
    """Create ``out`` or, with ``force``, empty it of a previous report; else refuse.

    Raises :class:`ResultsError` (one line) when ``out`` is a file, holds anything and
    ``force`` is not given, or holds files a report does not write.
    """
    if out.exists() and not out.is_dir():
        raise ResultsError(f"{out}: --out: a file, not a folder: choose another --out")
    entries = sorted(out.iterdir()) if out.is_dir() else []
    if entries and not force:
        raise ResultsError(
            f"{out}: --out: the folder exists and is not empty: pass --force to replace the "
            "report in it, or choose another --out"
        )
    foreign = [p.name for p in entries if not is_report_file(p)]
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if foreign[3:] else "")
        raise ResultsError(
            f"{out}: --out: holds files a report does not write ({shown}); --force only "
            "replaces a report (report.md, report.html, *.png): choose another --out"
        )
    for path in entries:
        path.unlink()
    out.mkdir(parents=True, exist_ok=True)
    return out

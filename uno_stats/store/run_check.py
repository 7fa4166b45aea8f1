"""What verification found on disk for one run: the good part of each chunk and the bad parts.

Its own module, below both :mod:`uno_stats.store.parts` (a :class:`~uno_stats.store.parts.Run`
carries its check) and :mod:`uno_stats.store.verify` (which makes it), so neither imports
the other back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class BadPart:
    """A part file that failed verification, and why (one line)."""

    path: Path
    reason: str


@dataclass
class RunCheck:
    """What is on disk for one run: the good part of each chunk, and the parts that failed."""

    chunks: int
    games: int
    good: dict[int, Path] = field(default_factory=dict)
    bad: list[BadPart] = field(default_factory=list)
    games_done: int = 0
    rows: int = 0
    point_rows: dict[int, list[int]] = field(default_factory=dict)
    """A sweep of matches: per good chunk, the rows of each point it holds, in order."""

    @property
    def complete(self) -> bool:
        """Every planned chunk has a good part."""
        return len(self.good) == self.chunks

    @property
    def progress(self) -> str:
        """``3 of 8 chunks, 150,000 of 400,000 games``."""
        return (
            f"{len(self.good):,} of {self.chunks:,} chunks, "
            f"{self.games_done:,} of {self.games:,} games"
        )

"""How a results dataset's games are cut into chunks: one run's, or a sweep's point after point.

A sweep's games are laid out point after point: point ``p``'s game ``k`` is the dataset's game
``p * games + k``, and chunk ``c`` holds the dataset's games ``c * chunk_size`` onwards, so one
chunk may hold the end of one point and the start of the next (and a small point whole).
Every game keeps its own point's game index and so its own random stream: a point's games
are the same whichever chunks hold them. Everything here is arithmetic on three numbers, so
a sweep of 100,000 points plans, verifies and finds a point's parts without a table.
A single run is the layout of one point.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Slice:
    """The games ``first_game .. first_game + n_games - 1`` of point ``point`` in one chunk."""

    point: int
    first_game: int
    n_games: int


@dataclass(frozen=True)
class Layout:
    """``points`` points of ``games`` games each, in chunks of ``chunk_size`` games."""

    points: int
    games: int
    chunk_size: int

    @property
    def total(self) -> int:
        """Games in the whole dataset."""
        return self.points * self.games

    @property
    def chunks(self) -> int:
        """Chunks planned (the last one may be short)."""
        return -(-self.total // self.chunk_size)

    def chunk_range(self, index: int) -> tuple[int, int]:
        """The dataset's first game of chunk ``index`` and its number of games."""
        first = index * self.chunk_size
        return first, min(self.chunk_size, self.total - first)

    def slices(self, index: int) -> list[Slice]:
        """Chunk ``index``'s games as one slice per point it touches, in order."""
        first, n = self.chunk_range(index)
        out = []
        end = first + n
        while first < end:
            point, game = divmod(first, self.games)
            take = min(self.games - game, end - first)
            out.append(Slice(point, game, take))
            first += take
        return out

    def point_chunks(self, point: int) -> range:
        """The chunks holding games of ``point``."""
        first = point * self.games
        return range(first // self.chunk_size, (first + self.games - 1) // self.chunk_size + 1)

    def overlap(self, index: int, point: int) -> int:
        """Games of ``point`` in chunk ``index``."""
        first, n = self.chunk_range(index)
        low, high = max(first, point * self.games), min(first + n, (point + 1) * self.games)
        return max(0, high - low)

    def bounds(self, index: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """Chunk ``index``'s smallest and largest point, and smallest and largest game index
        (a point's own), as its part's column statistics must show them."""
        parts = self.slices(index)
        points = (parts[0].point, parts[-1].point)
        low = min(s.first_game for s in parts)
        high = max(s.first_game + s.n_games - 1 for s in parts)
        return points, (low, high)

"""Typed errors of the library; the CLI alone turns them into one ``Error:`` line."""

from __future__ import annotations


class UnoStatsError(Exception):
    """Base class of every error the library raises on purpose."""


class ScenarioError(UnoStatsError):
    """A scenario file that cannot be loaded: names the file, the line and the key."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        key: str | None = None,
    ) -> None:
        self.file = file
        self.line = line
        self.key = key
        self.detail = message
        where = file or "<scenario>"
        if line is not None:
            where = f"{where}:{line}"
        text = f"{where}: {key}: {message}" if key else f"{where}: {message}"
        super().__init__(text)


class ScenarioErrors(ScenarioError):
    """Every problem found in one scenario file, in the order checked: reads as the first
    (its file, line, key and message); ``errors`` holds them all, each one line."""

    def __init__(self, errors: list[ScenarioError]) -> None:
        first = errors[0]
        super().__init__(first.detail, file=first.file, line=first.line, key=first.key)
        self.errors = list(errors)


class ResultsError(UnoStatsError):
    """A results folder that is missing, empty or not comparable."""


class RunError(UnoStatsError):
    """A run that failed: names the chunk and the seed that failed."""

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


class ResultsError(UnoStatsError):
    """A results folder that is missing, empty or not comparable."""


class RunError(UnoStatsError):
    """A run that failed: names the chunk and the seed that failed."""


QUOTE_LIMIT = 80
"""Characters of an input an error message repeats; a longer one is cut with an ellipsis."""


def shortened(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``...`` when cut."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` quoted for an error message (its ``repr`` for text), at most ``limit``
    characters: a hostile input (a 5,000-digit number, a 1,000-entry list) is not repeated
    in full."""
    text = repr(value) if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return text
    return text[: limit - 4] + "...'" if isinstance(value, str) else shortened(text, limit)

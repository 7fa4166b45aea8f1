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


BARE_LIMIT = 160
"""A run of characters without spaces longer than this (a 5,000-digit number, not a path)
is cut by :func:`bounded` to :data:`QUOTE_LIMIT`."""
_OPENS_AFTER = " \t(:=,"
"""A quote opens a quoted input only at the start or after one of these (not "run's")."""


def _quoted_end(text: str, start: int) -> int | None:
    """The index after the quote closing the one at ``start`` (None: not a quoted input)."""
    quote = text[start]
    if start > 0 and text[start - 1] not in _OPENS_AFTER:
        return None
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i + 1
        i += 1
    return None


def _bracket_end(text: str, start: int) -> int:
    """The index after the bracket closing the one at ``start`` (quoted text skipped; the end
    of ``text`` when it is never closed)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c in "'\"":
            end = _quoted_end(text, i)
            i = end if end is not None else i + 1
            continue
        depth += c in "[{"
        depth -= c in "]}"
        i += 1
        if depth == 0:
            return i
    return len(text)


def bounded(message: str, limit: int = QUOTE_LIMIT) -> str:
    """``message`` with every input it repeats at most about ``limit`` characters: a quoted
    text, a list or mapping (``[...]``, ``{...}``) longer than ``limit``, or a run without
    spaces longer than :data:`BARE_LIMIT`, is cut with an ellipsis (the error funnel's last
    guard: a 1,000-entry ``seats`` list or a 5,000-digit number is not echoed in full)."""
    out, i = [], 0
    while i < len(message):
        c = message[i]
        end = None
        if c in "'\"":
            end = _quoted_end(message, i)
        elif c in "[{":
            end = _bracket_end(message, i)
        if end is not None:
            span = message[i:end]
            out.append(span if len(span) <= limit else span[: limit - 4] + "..." + span[-1])
            i = end
            continue
        if c.isspace():
            out.append(c)
            i += 1
            continue
        j = i + 1
        while j < len(message) and not message[j].isspace() and message[j] not in "'\"[{":
            j += 1
        word = message[i:j]
        out.append(word if len(word) <= BARE_LIMIT else shortened(word, limit))
        i = j
    return "".join(out)

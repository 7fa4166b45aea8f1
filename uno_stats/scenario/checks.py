"""Where a scenario's errors point, and the small checks every section uses.

:class:`ErrorContext` keeps the file's line of each key and value and the errors set aside, so
that one file's every problem is reported; the value checks raise :class:`Invalid` with what is
allowed. Below both :mod:`uno_stats.scenario.fields` and :mod:`uno_stats.scenario.deck`, which
use them.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NoReturn, TypeVar

from uno_stats.errors import ScenarioError, ScenarioErrors

Check = Callable[[Any], Any]
_T = TypeVar("_T")


class Invalid(Exception):
    """A value check failed; the message says what is allowed."""


@dataclass
class ErrorContext:
    """Where errors point: the source name and the line of each dotted key and value; and
    the errors :meth:`attempt` set aside, so that one file's every problem is reported."""

    source: str
    keys: dict[str, int] = field(default_factory=dict)
    values: dict[str, int] = field(default_factory=dict)
    errors: list[ScenarioError] = field(default_factory=list)

    def attempt(self, check: Callable[[], _T], fallback: _T) -> _T:
        """``check()``; if it raises a :class:`ScenarioError`, the error is kept for
        :meth:`raise_errors` and ``fallback`` returned, so that other keys are checked too."""
        try:
            return check()
        except ScenarioErrors as exc:
            self.errors.extend(exc.errors)
        except ScenarioError as exc:
            self.errors.append(exc)
        return fallback

    def raise_errors(self) -> None:
        """Raise the errors kept so far: the error itself if one, else :class:`ScenarioErrors`."""
        errors, self.errors = self.errors, []
        if len(errors) == 1:
            raise errors[0]
        if errors:
            raise ScenarioErrors(errors)

    def fail(self, key: str | None, message: str, line: int | None = None) -> NoReturn:
        """Raise the :class:`ScenarioError` at ``key`` (its key line unless ``line``)."""
        if line is None and key is not None:
            line = self.keys.get(key)
        key = key.replace("\n", "\\n") if key else key
        raise ScenarioError(message.replace("\n", " "), file=self.source, line=line, key=key)

    def bad_value(self, key: str, value: Any, allowed: str, line: int | None = None) -> NoReturn:
        """Raise "``value`` is not allowed: ``allowed``" at ``key``'s value line."""
        line = line if line is not None else self.values.get(key)
        self.fail(key, f"{show_value(value)} is not allowed: {allowed}", line)

    def checked(self, key: str, check: Check, value: Any, line: int | None = None) -> Any:
        """``check(value)``, or an error at ``key`` (value line unless ``line``) saying why."""
        try:
            return check(value)
        except Invalid as exc:
            self.fail(key, str(exc), line if line is not None else self.values.get(key))


def show_value(value: Any) -> str:
    """``value`` as a scenario file spells it: true, false, null, 'text' or the number."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return repr(value) if isinstance(value, str) else str(value)


def did_you_mean(word: Any, choices: list[str]) -> str:
    close = difflib.get_close_matches(str(word), choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def int_check(low: int, high: int | None) -> Callable[[Any], int]:
    """A check for an integer from ``low`` to ``high`` (no upper bound when None)."""
    allowed = f"an integer from {low} to {high}" if high is not None else ""
    allowed = allowed or f"an integer of at least {low}"

    def check(value: Any) -> int:
        if type(value) is not int:
            raise Invalid(f"{show_value(value)} is not allowed: {allowed}")
        if value < low or (high is not None and value > high):
            raise Invalid(f"{value} is out of range: {allowed}")
        return value

    return check


def mapping(value: Any, key: str, ctx: ErrorContext, example: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        ctx.bad_value(key, value, f"a mapping such as {example}")
    return value


def check_keys(
    mapping: dict, allowed: list[str], prefix: str, ctx: ErrorContext, hints: dict
) -> None:
    for key in mapping:
        if key in allowed:
            continue
        suggestion = did_you_mean(key, allowed)
        message = f"unknown key{suggestion}" if suggestion else ""
        message = message or f"unknown key: allowed keys are {', '.join(allowed)}"
        ctx.attempt(partial(ctx.fail, f"{prefix}{key}", hints.get(key, message)), None)

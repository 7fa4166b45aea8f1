"""Reading a scenario file's YAML safely: bounded size, no anchors or aliases, bounded nesting.

The loader follows YAML 1.2 for booleans and exponents: only ``true``/``false`` are booleans
(``yes``, ``no``, ``on``, ``off`` stay text, so they are reported instead of silently
becoming booleans) and ``1e-3`` is a float.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from uno_stats.errors import ScenarioError
from uno_stats.limits import MAX_DEPTH, MAX_FILE_BYTES, NotRegularFile, TooLarge, read_bounded


class LimitError(Exception):
    """The YAML uses an anchor or alias, or nests too deep; ``line`` is 1-based."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


class Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans (true/false only) and exponent floats such as 1e-3.

    Anchors and aliases are refused outright (scenarios do not need them, and aliases let
    a few lines expand to gigabytes), and nesting is bounded by ``MAX_DEPTH``.
    """

    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        line = event.start_mark.line + 1
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise LimitError(
                "anchors and aliases (&name, *name) are not allowed: write the values out", line
            )
        if self._depth >= MAX_DEPTH:
            raise LimitError(f"nested more than {MAX_DEPTH} levels deep", line)
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


_BOOL_TAG, MAP_TAG, SEQ_TAG = (f"tag:yaml.org,2002:{t}" for t in ("bool", "map", "seq"))
Loader.yaml_implicit_resolvers = {
    first: [r for r in resolvers if r[0] != _BOOL_TAG]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Loader.add_implicit_resolver(
    _BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float", re.compile(r"^[-+]?[0-9]+[eE][-+]?[0-9]+$"), list("-+0123456789")
)


def read_text(path: str | Path) -> str:
    """The text of the scenario file at ``path``; :class:`ScenarioError` when it cannot be read.

    Only a regular file is read: a FIFO, a device or a folder is refused without waiting
    for it (see :func:`~uno_stats.limits.read_bounded`). Files above ``MAX_FILE_BYTES``
    are refused without reading the rest.
    """
    source = str(path)
    try:
        raw = read_bounded(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise ScenarioError("file not found", file=source) from None
    except IsADirectoryError:
        raise ScenarioError("is a folder, not a scenario file", file=source) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read file: {exc.strerror}", file=source) from None
    except NotRegularFile as exc:
        raise ScenarioError(
            f"is {exc}, not a scenario file: give a YAML file", file=source
        ) from None
    except TooLarge:
        message = f"larger than {MAX_FILE_BYTES:,} bytes: is this a scenario file?"
        raise ScenarioError(message, file=source) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError("cannot read file: not UTF-8 text", file=source) from None

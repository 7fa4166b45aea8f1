"""Import-time checks that hand-written integer slots agree with the tables they index.

The engine reads module-level integers as compile-time constants, so slots stay plain
names (``ST_TURNS = 20``) that readers and type checkers can follow; this check ties
them to the ordered table they come from and raises (``assert`` would vanish under -O).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class SlotMismatch(ImportError):
    """A slot constant disagrees with its table: the module must not be used."""


def check_slots(
    namespace: Mapping[str, Any],
    prefix: str,
    names: Sequence[str],
    first: int = 0,
    extra: Sequence[str] = (),
) -> None:
    """Require ``<prefix><NAME> == first + i`` for the i-th of ``names`` and no other
    ``<prefix>*`` integer in ``namespace`` (except the names in ``extra``)."""
    expected = {prefix + name.upper().replace("-", "_"): first + i for i, name in enumerate(names)}
    if len(expected) != len(names):
        raise SlotMismatch(f"{prefix}*: duplicate names in the table")
    for const, index in expected.items():
        if namespace.get(const) != index:
            raise SlotMismatch(f"{const} is {namespace.get(const)!r}, the table says {index}")
    strays = [
        key
        for key, value in namespace.items()
        if key.startswith(prefix)
        and isinstance(value, int)
        and key not in expected
        and key not in extra
    ]
    if strays:
        raise SlotMismatch(f"{', '.join(sorted(strays))}: not in the table of {prefix}* slots")

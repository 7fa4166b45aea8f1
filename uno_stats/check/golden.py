"""Golden games: fixed games of every preset and every house-rule key, traced move by move.

Like OpenSpiel's playthroughs, ``scripts/golden.py`` writes each case's trace to
``tests/engine/golden/<name>.txt`` and a test regenerates them in memory and compares byte
for byte: any change in how a game plays out shows up as a readable diff. This module holds
what a case is (:class:`GoldenCase`) and how it is played and written; the cases themselves
are listed beside their test, in ``tests/engine/golden_cases.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from uno_stats.check.legality import decode_rules
from uno_stats.engine import EngineConfig, trace_events, trace_game
from uno_stats.engine.cards import card_id
from uno_stats.engine.rules import preset_deck, preset_rules
from uno_stats.engine.scripted import Position, deal_position
from uno_stats.engine.strategy_table import default_seat

GOLDEN_DIR = "tests/engine/golden"
"""Where the golden traces live, relative to the repository root."""

Witness = Callable[[np.ndarray], bool]
"""True on a trace's events (one row per event) where a case's rule key fires."""


@dataclass(frozen=True)
class GoldenCase:
    """One golden file: a table, its rules and the games traced."""

    name: str
    preset: str
    games: tuple[int, ...]
    players: int = 4
    rules: dict[str, Any] = field(default_factory=dict)  # overrides on the preset
    strategies: tuple[str, ...] = ("random",)  # seat s plays strategies[s % len]
    knobs: dict[str, Any] = field(default_factory=dict)  # for every seat
    match_target: int = 0
    seed: int = 2026
    key: str | None = None  # the rule key this case is about
    witness: Witness | None = None  # true on a trace where the key fires
    shows: str = ""  # where a reader sees the key fire
    deck: tuple[str, ...] = ()  # a scripted deal from this deck, first card dealt first

    def seats(self) -> list[dict[str, Any]]:
        """One resolved seat per player."""
        return [
            {
                **default_seat(),
                **self.knobs,
                "strategy": self.strategies[s % len(self.strategies)],
            }
            for s in range(self.players)
        ]

    def resolved_rules(self, **overrides: Any) -> dict[str, Any]:
        """The preset's rules with the case's overrides (and then ``overrides``)."""
        return {**preset_rules(self.preset), **self.rules, **overrides}

    def config(self, **overrides: Any) -> EngineConfig:
        """The engine configuration of the case (rules further overridden for comparisons)."""
        return EngineConfig.build(
            self.players,
            self.resolved_rules(**overrides),
            self.seats(),
            self.match_target,
            self.seed,
            preset_deck(self.preset),
        )

    def baseline(self) -> EngineConfig:
        """The case with its key back at the preset's value: the key's effect is the diff."""
        if self.key is None:
            raise ValueError(f"golden case {self.name} is about no rule key")
        return self.config(**{self.key: preset_rules(self.preset)[self.key]})


def case_events(case: GoldenCase, config: EngineConfig, game: int) -> np.ndarray:
    """The trace events of one game of ``case`` played under ``config``."""
    if case.deck:
        events = _scripted(case, config).events
        return np.zeros((0, 6), dtype=np.int64) if events is None else events
    return trace_events(config, game)


def _scripted(case: GoldenCase, config: EngineConfig) -> Position:
    return deal_position(
        case.deck,
        config.players,
        preset=case.preset,
        rules=decode_rules(config),
        seats=case.seats(),
        turns=None,
        seed=case.seed,
    )


def case_config(case: GoldenCase, config: EngineConfig | None = None) -> EngineConfig:
    """``config`` (default: the case's) with the deck the case deals from (for checking)."""
    config = config or case.config()
    if not case.deck:
        return config
    return replace(config, deck=np.array([card_id(c) for c in case.deck], dtype=np.int64))


def golden_lines(case: GoldenCase) -> list[str]:
    """The golden file of ``case`` as lines: a header, then each game as ``uno-stats trace``
    prints it (a scripted deal: as the scripted harness describes it)."""
    rules = ", ".join(f"{k}={v}" for k, v in case.rules.items()) or "none"
    knobs = ", ".join(f"{k}={v}" for k, v in case.knobs.items()) or "defaults"
    lines = [
        f"# golden games {case.name}: regenerate with `make golden`",
        f"# preset {case.preset}, {case.players} players, seed {case.seed}, "
        f"match target {case.match_target or 'none (single rounds)'}",
        f"# rule overrides: {rules}",
        f"# strategies by seat: {', '.join(s['strategy'] for s in case.seats())}; knobs: {knobs}",
    ]
    if case.key is not None:
        lines.append(f"# {case.key} fires: {case.shows}")
    config = case.config()
    if case.deck:
        lines.append(f"== a round dealt from the deck {', '.join(case.deck)}")
        return lines + _scripted(case, config).trace
    for game in case.games:
        lines.append(f"== game {game}")
        lines += trace_game(config, game)
    return lines


def golden_text(case: GoldenCase) -> str:
    """The golden file of ``case`` exactly as stored (lines ending in a newline)."""
    return "".join(line + "\n" for line in golden_lines(case))

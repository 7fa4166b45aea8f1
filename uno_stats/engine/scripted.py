"""Scripted positions: play the engine from hands and piles a test (or a teacher) writes.

Cards are written as :func:`uno_stats.engine.cards.card_name` writes them ("red 7",
"blue Draw Two", "Wild Draw Four"). Piles are listed top first: the first card of
``pile`` is the next card drawn. The engine code is the one runs use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from uno_stats.engine import EngineConfig, _new_table, engine_seats
from uno_stats.engine.cards import CARD_COLOR, COLOR_NAMES, card_id, card_name, no_mercy_card
from uno_stats.engine.events import EV_END
from uno_stats.engine.rng import seed_stream
from uno_stats.engine.round import play_turns, setup_round
from uno_stats.engine.rules import R_MAX_TURNS, preset_deck, preset_rules
from uno_stats.engine.schema import ROUND_COUNTERS, STATUS_CAPPED, STATUS_NAMES
from uno_stats.engine.state import (
    ST_COLOR,
    ST_CUR,
    ST_DIR,
    ST_DISC_N,
    ST_ELIMINATED,
    ST_EV_N,
    ST_FIRST,
    ST_LARGEST_HAND,
    ST_LEFT,
    ST_NO_MERCY_CARDS,
    ST_OUT,
    ST_PASSES,
    ST_PEND_CARDS,
    ST_PEND_KIND,
    ST_PENDING,
    ST_PILE_N,
    ST_STATUS,
    ST_TRACE,
    ST_TURNS,
    ST_WINNER,
    T_MEMORY,
    T_OUT,
    T_RULES,
    link_seats,
)
from uno_stats.engine.strategy_table import default_seat

# Every round counter (schema.ROUND_COUNTERS, laid out in that order from ST_TURNS), and
# the passes in a row.
_COUNTERS = {name: ST_TURNS + k for k, name in enumerate(ROUND_COUNTERS)} | {"passes": ST_PASSES}


@dataclass
class Position:
    """The table after scripted play: who holds what, what is on top, what is owed."""

    status: str
    winner: int
    turns: int
    current: int
    first_player: int
    direction: int
    color: str
    top: str
    hands: list[list[str]]
    pile: list[str]
    discard_size: int
    pending: int
    pending_cards: int
    counters: dict[str, int]
    knocked_out: list[int] = field(default_factory=list)  # by seat: 0, or k-th out (S22)
    trace: list[str] = field(default_factory=list)
    events: np.ndarray | None = None
    memory: np.ndarray | None = None  # the memory row of public events (memory_row.observe)

    def hand_sizes(self) -> list[int]:
        """Cards held by each seat."""
        return [len(h) for h in self.hands]


def _config(
    players: int,
    preset: str,
    rules: dict[str, Any] | None,
    seats: Sequence[dict[str, Any]] | dict[str, Any] | None,
    seed: int,
    deck: dict[str, Any] | None = None,
) -> EngineConfig:
    """Rules from ``preset`` with ``rules`` overridden; seats completed with default knobs;
    ``deck`` a resolved scenario ``deck`` section (S19), None for the preset's own deck (one
    classic deck but under ``no-mercy``, S21)."""
    resolved = preset_rules(preset)
    resolved.update(rules or {})
    if seats is None:
        seats = default_seat()
    if isinstance(seats, dict):
        seats = [{**default_seat(), **seats} for _ in range(players)]
    else:
        seats = [{**default_seat(), **s} for s in seats]
    if deck is None:
        deck = preset_deck(preset)
    return EngineConfig.build(players, resolved, seats, seed=seed, deck=deck)


def _ids(cards: Sequence[str]) -> list[int]:
    return [card_id(c) for c in cards]


def _play(config: EngineConfig, table: Any, turns: int | None) -> None:
    """Play until the round ends or ``turns`` turns have been taken (``None``: to the end).

    Reading (the engine has no stop of its own): the engine checks its turn limit, the
    ``max_turns`` rule, before each turn and lets nobody jump in once it is reached, so
    stopping after N turns is that same check at N. The table's copy of the limit is
    lowered to ``min(max_turns, turns)`` for this call only; a round halted by the stop
    rather than by ``max_turns`` is reported as still playing, without the END event the
    limit wrote. The rules themselves, ``max_turns`` included, are never changed.
    """
    limits = table.tab[T_RULES]
    cap = int(limits[R_MAX_TURNS])
    stop = cap if turns is None else min(cap, int(turns))
    limits[R_MAX_TURNS] = stop
    try:
        play_turns(table.tab, engine_seats(config.seats), table.rng, table.events)
    finally:
        limits[R_MAX_TURNS] = cap
    st = table.st
    if stop < cap and int(st[ST_STATUS]) == STATUS_CAPPED:
        st[ST_STATUS] = -1
        last = int(st[ST_EV_N]) - 1
        if 0 <= last < table.events.shape[0] and int(table.events[last, 0]) == EV_END:
            st[ST_EV_N] = last


def _position(config: EngineConfig, table: Any) -> Position:
    from uno_stats.engine.trace import describe

    st = table.st
    players = config.players
    n_ev = int(st[ST_EV_N])
    events = table.events[: min(n_ev, table.events.shape[0])].copy()
    status = int(st[ST_STATUS])
    return Position(
        status="playing" if status < 0 else STATUS_NAMES[status],
        winner=int(st[ST_WINNER]),
        turns=int(st[ST_TURNS]),
        current=int(st[ST_CUR]),
        first_player=int(st[ST_FIRST]),
        direction=int(st[ST_DIR]),
        color=COLOR_NAMES[int(st[ST_COLOR])] if int(st[ST_COLOR]) < 4 else "none",
        top=card_name(table.disc[int(st[ST_DISC_N]) - 1]),
        hands=[[card_name(c) for c in table.hands[s, : table.hn[s]]] for s in range(players)],
        pile=[card_name(c) for c in table.pile[: int(st[ST_PILE_N])][::-1]],
        discard_size=int(st[ST_DISC_N]),
        pending=int(st[ST_PENDING]),
        pending_cards=int(st[ST_PEND_CARDS]),
        counters={name: int(st[i]) for name, i in _COUNTERS.items()},
        knocked_out=[int(x) for x in table.tab[T_OUT, :players]],
        trace=describe(events, players),
        events=events,
        memory=table.tab[T_MEMORY].copy(),
    )


def play_position(
    hands: Sequence[Sequence[str]],
    *,
    top: str = "red 5",
    discard: Sequence[str] = (),
    pile: Sequence[str] = (),
    color: str | None = None,
    current: int = 0,
    direction: int = 1,
    pending: int = 0,
    pending_kind: int = 0,
    pending_cards: int = 0,
    preset: str = "classic-house",
    rules: dict[str, Any] | None = None,
    seats: Sequence[dict[str, Any]] | dict[str, Any] | None = None,
    turns: int | None = 1,
    seed: int = 0,
    deck: dict[str, Any] | None = None,
    out: Sequence[int] = (),
) -> Position:
    """Play from a written position; stop after ``turns`` turns (``None``: to the round's end).

    ``out``: seats already knocked out by the mercy rule (S22), whose hands must be empty.

    ``discard`` lists cards under ``top`` (used by refills); ``color`` is the active
    color (default: the top card's). Rules are ``preset`` with ``rules`` overridden. A
    round still going after ``turns`` turns has status ``"playing"``; ``"capped"`` means
    the ``max_turns`` rule ended it. ``deck`` (a resolved scenario ``deck`` section) is the
    deck the strategies know of (S19); the cards in play are the ones written.
    """
    players = len(hands)
    config = _config(players, preset, rules, seats, seed, deck)
    table = _new_table(config, max_events=10_000)
    st = table.st
    st[ST_TRACE] = 1
    st[ST_STATUS] = -1
    st[ST_WINNER] = -1
    st[ST_LEFT] = players - len(out)
    for k, s in enumerate(out):
        if hands[s]:
            raise ValueError(f"seat {s} is knocked out but holds cards")
        st[ST_OUT] |= 1 << s
        table.tab[T_OUT, s] = k + 1
        st[ST_ELIMINATED] = k + 1
    link_seats(st)  # the order of play passes the seats out by (next_seat)
    for s, hand in enumerate(hands):
        ids = _ids(hand)
        table.hands[s, : len(ids)] = ids
        table.hn[s] = len(ids)
    st[ST_LARGEST_HAND] = max(len(hand) for hand in hands)
    under = _ids(discard)[::-1]  # listed top first: the last listed is the bottom
    disc = [*under, card_id(top)]
    table.disc[: len(disc)] = disc
    st[ST_DISC_N] = len(disc)
    pile_ids = _ids(pile)[::-1]  # the first listed is drawn first, from the end
    table.pile[: len(pile_ids)] = pile_ids
    st[ST_PILE_N] = len(pile_ids)
    written = [*disc, *pile_ids, *(c for hand in hands for c in _ids(hand))]
    if any(no_mercy_card(c) for c in written):  # legality then tests No Mercy cards too
        st[ST_NO_MERCY_CARDS] = 1
    st[ST_COLOR] = COLOR_NAMES.index(color) if color else int(CARD_COLOR[card_id(top)])
    st[ST_CUR] = current
    st[ST_FIRST] = current
    st[ST_DIR] = direction
    st[ST_PENDING] = pending
    st[ST_PEND_KIND] = pending_kind or (pending if pending in (2, 4) else 0)
    st[ST_PEND_CARDS] = pending_cards or (1 if pending else 0)
    seed_stream(table.rng, np.uint64(config.key), 0)
    _play(config, table, turns)
    return _position(config, table)


def deal_position(
    deck_top_first: Sequence[str],
    players: int,
    *,
    dealer: int | None = None,
    preset: str = "classic-house",
    rules: dict[str, Any] | None = None,
    seats: Sequence[dict[str, Any]] | dict[str, Any] | None = None,
    turns: int | None = 0,
    seed: int = 0,
) -> Position:
    """Deal from a deck in the given order (first card dealt first), open, and stop after
    ``turns`` turns (``None``: play to the round's end)."""
    config = _config(players, preset, rules, seats, seed)
    deck = np.array(_ids(deck_top_first)[::-1], dtype=np.int64)
    # the table is as wide as the written deck needs (S19: up to 348 cards)
    table = _new_table(replace(config, deck=deck), max_events=10_000)
    seed_stream(table.rng, np.uint64(config.key), 0)
    table.set_deck(deck)
    setup_round(
        table.tab,
        config.seats,
        table.rng,
        table.events,
        players - 1 if dealer is None else dealer,
        True,
    )
    _play(config, table, turns)
    return _position(config, table)

"""Strategies decide from what their player may see, never from another player's hand.

Each compiled decision function is called on a random table, then again after every
opponent's hand has been replaced by random cards of the same size, with the same random
stream: the decisions must not change. A control test checks that the harness would catch a
decision that does read another hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from uno_stats.engine import EngineConfig, _new_table
from uno_stats.engine.cards import build_deck
from uno_stats.engine.piles import collect_playable
from uno_stats.engine.state import (
    ST_COLOR,
    ST_DIR,
    ST_DISC_N,
    ST_WD4_PREV_COLOR,
    ST_WD4_PREV_TOP,
    T_CAND,
    T_RULES,
)
from uno_stats.rules import preset_rules
from uno_stats.strategies import (
    choose_card_for,
    choose_color,
    choose_swap_target,
    smart_bluff_estimate,
    wants_challenge,
)
from uno_stats.strategy_table import STRATEGIES, default_seat

PLAYERS = 4
TABLES = 300


def _table(strategy: str, seed: int):
    """A random mid-round table: seat 0 to act, random hands, discards and active color."""
    rules = preset_rules("mattel-2001")
    rules["seven_zero"] = True
    seat = {**default_seat(), "strategy": strategy, "challenge": "smart"}
    config = EngineConfig.build(PLAYERS, rules, [seat] * PLAYERS, seed=seed)
    table = _new_table(config)
    gen = np.random.default_rng(seed)
    deck = gen.permutation(build_deck().astype(np.int64))
    sizes = gen.integers(1, 12, size=PLAYERS)
    at = 0
    for s, size in enumerate(sizes):
        table.hands[s, :size] = deck[at : at + size]
        table.hn[s] = size
        at += size
    discards = int(gen.integers(1, 20))
    table.disc[:discards] = deck[at : at + discards]
    table.st[ST_DISC_N] = discards
    at += discards
    table.st[ST_COLOR] = int(gen.integers(0, 4))
    table.st[ST_DIR] = 1 if gen.random() < 0.5 else -1
    table.st[ST_WD4_PREV_COLOR] = int(gen.integers(0, 4))
    table.st[ST_WD4_PREV_TOP] = int(table.disc[max(discards - 2, 0)])
    return config, table, deck[at:], gen


def _hide_opponents(table, unseen: np.ndarray, gen) -> None:
    """Give every opponent of seat 0 random unseen cards, keeping each hand's size."""
    pool = gen.permutation(
        np.concatenate([unseen, *[table.hands[s, : table.hn[s]] for s in range(1, PLAYERS)]])
    )
    at = 0
    for s in range(1, PLAYERS):
        size = int(table.hn[s])
        table.hands[s, :size] = pool[at : at + size]
        at += size


def _decisions(config, table, seed: int) -> tuple:
    """Every decision seat 0 makes here, each drawn from the same random stream."""
    kind = int(config.seats[0, 0])
    tab = table.tab
    top = int(table.disc[table.st[ST_DISC_N] - 1])
    rng = np.zeros(1, dtype=np.uint64)
    n = collect_playable(
        table.hands, table.hn, 0, top, int(table.st[ST_COLOR]), False, tab[T_RULES], tab[T_CAND]
    )
    rng[0] = seed
    card = int(table.hands[0, choose_card_for(kind, tab, 0, n, rng)]) if n else -1
    rng[0] = seed
    color = int(choose_color(kind, table.hands, table.hn, 0, rng))
    rng[0] = seed
    target = int(choose_swap_target(kind, table.st, table.hn, 0, rng))
    estimate = float(smart_bluff_estimate(tab, 0, PLAYERS - 1))
    challenge = bool(wants_challenge(config.seats, tab, 0, PLAYERS - 1))
    return card, color, target, round(estimate, 12), challenge


@pytest.mark.parametrize("strategy", [s.name for s in STRATEGIES])
def test_decisions_ignore_opponents_cards(strategy: str) -> None:
    changed_hands = 0
    for seed in range(TABLES):
        config, table, unseen, gen = _table(strategy, seed)
        before = _decisions(config, table, seed + 1)
        hands_before = table.hands[1:PLAYERS].copy()
        _hide_opponents(table, unseen, gen)
        changed_hands += not np.array_equal(hands_before, table.hands[1:PLAYERS])
        assert _decisions(config, table, seed + 1) == before, f"table {seed}"
    assert changed_hands > TABLES * 0.9  # the opponents' cards really were replaced


def test_the_harness_catches_a_peeking_decision() -> None:
    """Control: a 'decision' that reads seat 1's cards changes when they are replaced."""
    changes = 0
    for seed in range(50):
        _config, table, unseen, gen = _table("random", seed)
        peek = int(table.hands[1, : table.hn[1]].sum())
        _hide_opponents(table, unseen, gen)
        changes += peek != int(table.hands[1, : table.hn[1]].sum())
    assert changes > 40

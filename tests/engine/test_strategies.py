"""Strategies decide from what their player may see, never from another player's hand.

A strategy's decision functions receive only the deciding seat's own hand row, public
counts and facts, its own knobs and the memory row of public events (see
:mod:`uno_stats.engine.strategies`). The harness below calls each of them on a random
table with exactly those arguments, then again after every opponent's hand has been
replaced by random cards of the same size, with the same random stream: the decisions must
not change. A control runs a deliberately peeking decision through the same harness and
requires the harness to catch it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from uno_stats.engine import EngineConfig, _new_table
from uno_stats.engine.cards import CARD_COLOR, WILD, build_deck
from uno_stats.engine.multi_moves import choose_move
from uno_stats.engine.piles import collect_playable
from uno_stats.engine.rules import (
    MULTI_SAME_NUMBER,
    R_MULTI_PLAY,
    R_MULTI_PLAY_ACTIONS,
    R_WD4_RESTRICTION,
    preset_rules,
)
from uno_stats.engine.state import (
    ST_COLOR,
    ST_DIR,
    ST_DISC_N,
    ST_NO_MERCY_CARDS,
    ST_PARTNERS,
    ST_WD4_PREV_COLOR,
    ST_WD4_PREV_TOP,
    T_CAND,
    T_DECK,
    T_MEMORY,
    T_RANK,
    T_RULES,
)
from uno_stats.engine.strategies import (
    choose_card,
    choose_color,
    choose_swap_target,
    wants_challenge,
)
from uno_stats.engine.strategy_table import STRATEGIES, default_seat

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
    # seat 0's own memory: colors it saw each seat lack (public events)
    table.tab[T_MEMORY, :PLAYERS] = gen.integers(0, 16, size=PLAYERS)
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


def _decisions(config, table, seed: int, card_rule: Callable[..., Any]) -> tuple:
    """Every decision seat 0 makes here, each drawn from the same random stream, called with
    exactly the arguments the engine passes (``card_rule``: the card choice under test)."""
    kind = int(config.seats[0, 0])
    tab, st, hn = table.tab, table.st, table.hn
    hand = table.hands[0, : hn[0]]
    memory = tab[T_MEMORY]
    top = int(table.disc[st[ST_DISC_N] - 1])
    color = int(st[ST_COLOR])
    nxt = (PLAYERS + int(st[ST_DIR])) % PLAYERS
    cand = tab[T_CAND]
    classic = st[ST_NO_MERCY_CARDS] == 0
    n = collect_playable(table.hands, hn, 0, top, color, False, tab[T_RULES], cand, classic)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = seed
    card = -1
    if n > 0:
        card = int(hand[card_rule(kind, hand, n, cand, tab[T_RANK], color, hn, nxt, memory, rng)])
    move: tuple = ()
    if n > 0 and card >= 0:  # a multi-play built on that card, or random's whole move (S20)
        rules = tab[T_RULES].copy()
        rules[R_MULTI_PLAY] = MULTI_SAME_NUMBER
        rules[R_MULTI_PLAY_ACTIONS] = 1
        legal = legal_wild = 0  # colored cards by id, wilds by id - WILD
        for k in range(n):
            c = int(hand[cand[k]])
            if c < WILD:
                legal |= 1 << c
            else:
                legal_wild |= 1 << (c - WILD)
        legal = legal - (1 << 64) if legal >= 1 << 63 else legal
        counts = np.zeros(128, dtype=np.int64)
        out = np.zeros(128, dtype=np.int64)
        rng[0] = seed
        code = int(
            choose_move(kind, hand, legal, legal_wild, card, counts, out, rules, memory, nxt, rng)
        )
        move = (code, tuple(out.tolist()))
    rng[0] = seed
    named = int(choose_color(kind, hand, nxt, memory, rng))
    rng[0] = seed
    target = int(choose_swap_target(kind, 0, PLAYERS, int(st[ST_PARTNERS]), 0, hn, memory, rng))
    challenge = bool(
        wants_challenge(
            config.seats[0],
            memory,
            hand,
            int(hn[PLAYERS - 1]),
            table.disc[: st[ST_DISC_N]],
            tab[T_DECK, : len(config.deck)],
            int(tab[T_RULES, R_WD4_RESTRICTION]),
            int(st[ST_WD4_PREV_COLOR]),
            int(st[ST_WD4_PREV_TOP]),
        )
    )
    return card, move, named, target, challenge


def _real(table) -> Callable[..., Any]:
    return choose_card


def _tables_changed(strategy: str, card_rule_for: Callable[[Any], Callable[..., Any]]) -> int:
    """On how many random tables seat 0's decisions change when the opponents' cards do;
    ``card_rule_for(table)`` gives the card choice under test."""
    changed = 0
    replaced = 0
    for seed in range(TABLES):
        config, table, unseen, gen = _table(strategy, seed)
        card_rule = card_rule_for(table)
        before = _decisions(config, table, seed + 1, card_rule)
        hands_before = table.hands[1:PLAYERS].copy()
        _hide_opponents(table, unseen, gen)
        replaced += not np.array_equal(hands_before, table.hands[1:PLAYERS])
        changed += _decisions(config, table, seed + 1, card_rule) != before
    assert replaced > TABLES * 0.9  # the opponents' cards really were replaced
    return changed


@pytest.mark.parametrize("strategy", [s.name for s in STRATEGIES])
def test_decisions_ignore_opponents_cards(strategy: str) -> None:
    assert _tables_changed(strategy, _real) == 0


def test_the_harness_catches_a_peeking_strategy() -> None:
    """Control: a card choice that looks at seat 1's cards (through the table, as a strategy
    handed the table could) goes through the same harness, which must catch it."""

    def peeking_for(table) -> Callable[..., Any]:
        def peeking(kind, hand, n, cand, rank, color, sizes, nxt, memory, rng):
            seat1 = table.hands[1, : table.hn[1]]
            holds_color = any(c < WILD and CARD_COLOR[c] == color for c in seat1)
            return cand[0] if holds_color or n == 0 else cand[n - 1]

        return peeking

    assert _tables_changed("basic", peeking_for) > TABLES // 20


def _first_play(position, seat: int) -> str:
    line = next(t for t in position.trace if t.startswith(f"  seat {seat} plays"))
    return line.split(" plays ", 1)[1].rsplit(" (", 1)[0]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (["red 9", "red Skip", "Wild", "red 2"], "red 9"),  # numbers first, the highest
        (["red Skip", "Wild", "Wild Draw Four"], "red Skip"),  # actions before wilds
        (["Wild Draw Four", "Wild", "blue 1"], "Wild"),  # a Wild before a Wild Draw Four
    ],
)
def test_hoarder_keeps_actions_and_wilds_for_the_end(hand: list[str], expected: str) -> None:
    from uno_stats.engine.scripted import play_position

    pos = play_position(
        [hand, ["green 1"], ["green 2"]],
        top="red 5",
        seats={"strategy": "hoarder"},
        rules={"wd4_restriction": "none"},
    )
    assert _first_play(pos, 0) == expected


def _denial_position(strategy: str):
    """Seat 1 is seen drawing on yellow; seat 2 turns play to blue; then seat 0 chooses."""
    from uno_stats.engine.scripted import play_position

    return play_position(
        [["blue 2", "yellow 5", "green 9"], ["red 1", "red 2"], ["blue 5", "green 3"]],
        top="yellow 5",
        current=1,
        pile=["red 3", "red 4"],
        turns=3,
        seats=[{"strategy": strategy}, {"strategy": "basic"}, {"strategy": "basic"}],
    )


def test_color_denier_plays_the_color_the_next_player_lacks() -> None:
    denier = _denial_position("color-denier")
    basic = _denial_position("basic")
    assert any(t.startswith("  seat 1 draws") for t in denier.trace)  # seen lacking yellow
    assert _first_play(basic, 0) == "blue 2"  # basic: same color first
    assert _first_play(denier, 0) == "yellow 5"  # seat 1 was seen lacking yellow


@pytest.mark.parametrize("others", ["basic", "color-denier"])
@pytest.mark.parametrize("shift", [1, 2])
def test_color_denier_remembers_at_any_seat(shift: int, others: str) -> None:
    """The denial position turned by ``shift`` seats: the denier sits at seat ``shift``,
    beside basic players or other deniers (every denier reads the one memory row of
    public events, written once per event)."""
    from uno_stats.engine.scripted import play_position

    hands = [["blue 2", "yellow 5", "green 9"], ["red 1", "red 2"], ["blue 5", "green 3"]]
    seats = [{"strategy": "color-denier"}, {"strategy": others}, {"strategy": others}]
    turned = [hands[(s - shift) % 3] for s in range(3)]
    pos = play_position(
        turned,
        top="yellow 5",
        current=(1 + shift) % 3,
        pile=["red 3", "red 4"],
        turns=3,
        seats=[seats[(s - shift) % 3] for s in range(3)],
    )
    assert any(t.startswith(f"  seat {(1 + shift) % 3} draws") for t in pos.trace)
    assert _first_play(pos, shift) == "yellow 5"  # the seat after it was seen lacking yellow


def test_color_denier_names_the_lacking_color() -> None:
    from uno_stats.engine.scripted import play_position

    hands = [["Wild", "green 1", "green 2"], ["red 1", "red 2"], ["blue 5", "blue 3"]]
    kwargs = dict(top="yellow 5", current=1, pile=["red 3", "red 4"], turns=3)
    others = [{"strategy": "basic"}, {"strategy": "basic"}]
    denier = play_position(hands, seats=[{"strategy": "color-denier"}, *others], **kwargs)
    basic = play_position(hands, seats=[{"strategy": "basic"}, *others], **kwargs)
    assert _first_play(denier, 0) == _first_play(basic, 0) == "Wild"
    assert basic.color == "green"  # its commonest color
    assert denier.color == "yellow"  # the color seat 1 was seen to lack


def test_the_rules_loop_names_no_strategy_and_strategies_import_no_engine_state() -> None:
    engine = Path(__file__).resolve().parents[2] / "uno_stats" / "engine"
    names = {"RANDOM", "BASIC", "AGGRESSIVE", "HOARDER", "COLOR_DENIER"}
    names |= {s.name for s in STRATEGIES}
    rules_loop = ("round.py", "turn.py", "play.py", "chunk.py", "piles.py", "hands.py", "multi.py")
    for module in rules_loop:
        tree = ast.parse((engine / module).read_text())
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        used |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
        assert not (names & (used | strings)), module
    for module in ("strategies.py", "multi_moves.py"):
        tree = ast.parse((engine / module).read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not imported & {
            "uno_stats.engine.state",
            "uno_stats.engine.turn",
            "uno_stats.engine.play",
            "uno_stats.engine.multi",
        }, module

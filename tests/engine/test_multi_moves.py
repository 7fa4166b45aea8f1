"""Multi-play moves (RULES.md S20): the closed-form count of moves equals a brute-force
enumeration, and ``random`` picks uniformly among them."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from uno_stats.engine.cards import CARD_SYMBOL, N_CARD_TYPES, WILD, build_deck, card_id
from uno_stats.engine.multi_moves import MOVE_SHIFT, count_moves, random_move
from uno_stats.engine.rules import MULTI_SAME_CARD, MULTI_SAME_NUMBER


def _brute(hand, legal, mode, actions, no_action_finish) -> set:
    """Every move as (sorted cards played, top card), enumerated from the definition."""
    ids = sorted(set(int(c) for c in hand))
    held = Counter(int(c) for c in hand)
    moves = {((c,), c) for c in ids if (legal >> c) & 1}
    for symbol in range(13):
        if symbol >= 10 and not actions:
            continue
        same = [c for c in ids if c < WILD and CARD_SYMBOL[c] == symbol]
        groups = [same] if mode == MULTI_SAME_NUMBER else [[c] for c in same]
        for group in groups:
            for x in itertools.product(*[range(held[c] + 1) for c in group]):
                if sum(x) < 2 or (no_action_finish and symbol >= 10 and sum(x) == len(hand)):
                    continue
                cards = tuple(sorted(c for c, n in zip(group, x, strict=True) for _ in range(n)))
                for t, xt in zip(group, x, strict=True):
                    firsts = [
                        f
                        for f, xf in zip(group, x, strict=True)
                        if (legal >> f) & 1 and xf >= 1 + (f == t)
                    ]
                    if xt and firsts:
                        moves.add((cards, t))
    return moves


def _split(legal: int) -> tuple[int, int]:
    """A set of legal card ids (bit c of a Python int) as the engine's two masks: the colored
    cards as an int64 (bit 63 its sign), the wilds as bits ``card - WILD``."""
    colored = legal & ((1 << WILD) - 1)
    return colored - (1 << 64) if colored >= 1 << 63 else colored, legal >> WILD


def _hands(trials: int):
    gen = np.random.default_rng(7)
    deck = build_deck().astype(np.int64)
    for trial in range(trials):
        size = int(gen.integers(1, 14))
        hand = gen.choice(deck, size, replace=False)
        if trial % 2:  # many cards of one symbol
            symbol = int(gen.integers(0, 13))
            same = [c for c in deck if c < WILD and CARD_SYMBOL[c] == symbol]
            hand = np.array(same[: int(gen.integers(2, 9))] + list(hand[:3]), dtype=np.int64)
        legal = 0
        for c in set(hand.tolist()):
            if gen.random() < 0.5:
                legal |= 1 << int(c)
        yield hand, legal or 1 << int(hand[0])


def test_the_closed_form_count_is_the_enumerated_one():
    counts = np.zeros(128, dtype=np.int64)
    for hand, legal in _hands(300):
        for mode, actions, naf in itertools.product(
            (MULTI_SAME_NUMBER, MULTI_SAME_CARD), (0, 1), (0, 1)
        ):
            expected = len(_brute(hand, legal, mode, actions, naf))
            assert count_moves(hand, *_split(legal), counts, mode, actions, naf) == expected


def _decode(move: int, out: np.ndarray) -> tuple[tuple[int, ...], int]:
    cards = tuple(c for c in range(N_CARD_TYPES) for _ in range(int(out[c])))
    return cards, move % MOVE_SHIFT


@pytest.mark.parametrize("mode", [MULTI_SAME_NUMBER, MULTI_SAME_CARD])
def test_random_picks_uniformly_among_the_moves(mode):
    names = ["red 3", "red 3", "blue 3", "green 3", "red Skip", "blue Skip", "blue 7", "Wild"]
    hand = np.array([card_id(n) for n in names], dtype=np.int64)
    legal = 0  # on a red 5: the red cards and the Wild may start
    for n in ("red 3", "red Skip", "Wild"):
        legal |= 1 << card_id(n)
    moves = sorted(_brute(hand, legal, mode, 1, 0))
    counts = np.zeros(128, dtype=np.int64)
    out = np.zeros(128, dtype=np.int64)
    assert count_moves(hand, *_split(legal), counts, mode, 1, 0) == len(moves)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = 12345
    draws = 400 * len(moves)
    seen: Counter = Counter()
    for _ in range(draws):
        move = random_move(hand, *_split(legal), counts, out, mode, 1, 0, rng)
        seen[_decode(move, out)] += 1
    assert set(seen) == set(moves)  # every move reachable, nothing else
    # chi-square of the counts against uniform: a fair picker fails 1 run in 10,000
    assert chisquare([seen[m] for m in moves]).pvalue > 1e-4


@pytest.mark.slow
def test_the_engine_lets_random_pick_uniformly_among_the_moves():
    """Through the rules loop: on a red 5, red 3 / blue 3 / red 7 allow three moves (red 3,
    red 7, red 3 then blue 3); a blue 3 cannot start, so blue 3 then red 3 is none."""
    from rules_helpers import filler, plays

    from uno_stats.engine.scripted import play_position

    hand = ["red 3", "blue 3", "red 7"]
    others = [["yellow 1", "yellow 2"]] * 2
    seat = {"voluntary_draw": 0.0}
    seen: Counter = Counter()
    for seed in range(900):
        pos = play_position(
            [hand, *others],
            pile=filler(4),
            rules={"multi_play": "same-number"},
            seats=seat,
            seed=seed,
        )
        seen[tuple(p[1] for p in plays(pos.events))] += 1
    assert set(seen) == {("red 3",), ("red 7",), ("red 3", "blue 3")}
    assert chisquare(list(seen.values())).pvalue > 1e-4

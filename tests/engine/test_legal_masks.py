"""The per-turn legality masks agree with the card-by-card rules they replace."""

from __future__ import annotations

import numpy as np
import pytest

from uno_stats.engine.cards import (
    ACTION_MASK,
    CARD_IS_ACTION,
    COLOR_MASK,
    MAX_CARDS,
    N_CARD_TYPES,
    NO_MERCY_COUNTS,
    OTHER_WILDS_MASK,
    WILD,
    WILD_DRAW_FOUR,
    build_deck,
)
from uno_stats.engine.legal import blocks_wd4, wd4_top_key
from uno_stats.engine.piles import (
    collect_playable,
    playable,
    wd4_allowed,
    wd4_blockers,
    wild_wd4_blockers,
)
from uno_stats.engine.rules import (
    R_NO_ACTION_FINISH,
    R_WD4_RESTRICTION,
    WD4_COLOR,
    WD4_COLOR_OR_NUMBER,
    WD4_COLOR_OR_WILD,
    WD4_NO_OTHER_PLAY,
    WD4_NONE,
    encode_rules,
    preset_rules,
)

RESTRICTIONS = (WD4_COLOR, WD4_COLOR_OR_WILD, WD4_COLOR_OR_NUMBER, WD4_NO_OTHER_PLAY)


def test_action_and_color_masks_name_the_cards() -> None:
    # colored cards are bits of one int64 (bit 63 its sign), the wilds bits card - WILD
    unsigned = 1 << 64
    actions = sum(1 << c for c in range(WILD) if CARD_IS_ACTION[c])
    assert actions == ACTION_MASK % unsigned
    assert all(CARD_IS_ACTION[c] for c in range(WILD, N_CARD_TYPES))  # every wild acts
    assert int(np.bitwise_or.reduce(COLOR_MASK)) % unsigned == (1 << 64) - 1  # every colored card
    assert sum(bin(int(m) % unsigned).count("1") for m in COLOR_MASK) == 64
    assert OTHER_WILDS_MASK == ((1 << (N_CARD_TYPES - WILD)) - 1) ^ (1 << (WILD_DRAW_FOUR - WILD))


@pytest.mark.parametrize("restriction", RESTRICTIONS)
def test_wd4_blockers_is_blocks_wd4_as_a_mask(restriction: int) -> None:
    for color in range(4):
        for top in range(N_CARD_TYPES):
            mask = int(wd4_blockers(color, top, restriction)) % (1 << 64)
            wild_mask = int(wild_wd4_blockers(restriction))
            number = wd4_top_key(top, restriction)
            for card in range(N_CARD_TYPES):
                expected = bool(blocks_wd4(card, color, number, restriction))
                bit = (mask >> card) & 1 if card < WILD else (wild_mask >> (card - WILD)) & 1
                assert bool(bit) == expected, (color, top, card)


@pytest.mark.parametrize("restriction", (*RESTRICTIONS, WD4_NONE))
@pytest.mark.parametrize("no_action_finish", (False, True))
def test_collect_playable_is_playable_card_by_card(restriction: int, no_action_finish: bool):
    rules = encode_rules(preset_rules("mattel-2022"))
    rules[R_WD4_RESTRICTION] = restriction
    rules[R_NO_ACTION_FINISH] = 1 if no_action_finish else 0
    # the classic cards, the special wilds and every No Mercy card (S21)
    deck = np.concatenate([build_deck(1, 3), build_deck(0, 0, NO_MERCY_COUNTS)]).astype(np.int64)
    gen = np.random.default_rng(restriction * 2 + no_action_finish)
    hands = np.zeros((2, MAX_CARDS), dtype=np.int64)
    hn = np.zeros(2, dtype=np.int64)
    cand = np.zeros(MAX_CARDS, dtype=np.int64)
    for trial in range(3000):
        size = int(gen.integers(1, 12)) if trial % 4 else 1
        hands[1, :size] = gen.choice(deck, size, replace=False)
        hn[1] = size
        top = int(gen.choice(deck))
        color = int(gen.integers(0, 4))
        bluff = bool(gen.integers(0, 2))
        n = collect_playable(hands, hn, 1, top, color, bluff, rules, cand)
        wd4_ok = bluff or wd4_allowed(hands, hn, 1, color, top, rules)
        expected = [
            i for i in range(size) if playable(hands[1, i], size, top, color, wd4_ok, rules)
        ]
        assert list(cand[:n]) == expected, (list(hands[1, :size]), top, color, bluff)

"""The per-turn legality masks agree with the card-by-card rules they replace."""

from __future__ import annotations

import numpy as np
import pytest

from uno_stats.engine.cards import (
    ACTION_MASK,
    CARD_COLOR,
    CARD_IS_ACTION,
    CLASSIC_ACTION_MASK,
    CLASSIC_BIT,
    CLASSIC_COLOR_MASK,
    CLASSIC_COLORED_MASK,
    CLASSIC_WD4_BIT,
    CLASSIC_WILDS_MASK,
    COLOR_MASK,
    MAX_CARDS,
    N_CARD_TYPES,
    NO_MERCY_COUNTS,
    OTHER_WILDS_MASK,
    WILD,
    WILD_DRAW_FOUR,
    build_deck,
    no_mercy_card,
)
from uno_stats.engine.legal import blocks_wd4, wd4_top_key
from uno_stats.engine.piles import (
    classic_wd4_blockers,
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


def test_the_classic_word_gives_every_classic_card_a_bit_of_its_own() -> None:
    classic = [c for c in range(N_CARD_TYPES) if not no_mercy_card(c)]
    assert len(classic) == 56  # 4 x 13 colored kinds, Wild, Wild Draw Four, Shuffle, Custom
    bits = [int(CLASSIC_BIT[c]) for c in classic]
    assert len(set(bits)) == 56 and all(0 <= b < 63 for b in bits)
    for card in classic:
        bit = 1 << int(CLASSIC_BIT[card])
        assert bool(bit & CLASSIC_WILDS_MASK) == (card >= WILD)
        assert bool(bit & CLASSIC_COLORED_MASK) == (card < WILD)
        assert bool(bit & CLASSIC_ACTION_MASK) == bool(CARD_IS_ACTION[card])
        assert bool(bit & CLASSIC_WD4_BIT) == (card == WILD_DRAW_FOUR)
        for color in range(4):
            expected = card < WILD and CARD_COLOR[card] == color
            assert bool(bit & int(CLASSIC_COLOR_MASK[color])) == expected
    # a No Mercy card's bit is set in no classic mask (such a deck never takes that path)
    spare = {int(CLASSIC_BIT[c]) for c in range(N_CARD_TYPES) if no_mercy_card(c)}
    masks = CLASSIC_WILDS_MASK | CLASSIC_COLORED_MASK | CLASSIC_ACTION_MASK
    assert spare and all(not (masks >> b) & 1 for b in spare)


@pytest.mark.parametrize("restriction", RESTRICTIONS)
def test_classic_wd4_blockers_is_blocks_wd4_in_classic_bits(restriction: int) -> None:
    for color in range(4):
        for top in (c for c in range(N_CARD_TYPES) if not no_mercy_card(c)):
            mask = int(classic_wd4_blockers(color, top, restriction))
            number = wd4_top_key(top, restriction)
            for card in (c for c in range(N_CARD_TYPES) if not no_mercy_card(c)):
                expected = bool(blocks_wd4(card, color, number, restriction))
                assert bool((mask >> int(CLASSIC_BIT[card])) & 1) == expected, (color, top, card)


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
@pytest.mark.parametrize("classic", (True, False))
def test_collect_playable_is_playable_card_by_card(
    restriction: int, no_action_finish: bool, classic: bool
) -> None:
    rules = encode_rules(preset_rules("mattel-2022"))
    rules[R_WD4_RESTRICTION] = restriction
    rules[R_NO_ACTION_FINISH] = 1 if no_action_finish else 0
    # the classic cards and the special wilds (the one-word path), or those and every No
    # Mercy card (S21: the two-word path)
    deck = build_deck(1, 3).astype(np.int64)
    if not classic:
        deck = np.concatenate([deck, build_deck(0, 0, NO_MERCY_COUNTS)]).astype(np.int64)
    gen = np.random.default_rng(restriction * 4 + no_action_finish * 2 + classic)
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
        n = collect_playable(hands, hn, 1, top, color, bluff, rules, cand, classic)
        wd4_ok = bluff or wd4_allowed(hands, hn, 1, color, top, rules)
        expected = [
            i for i in range(size) if playable(hands[1, i], size, top, color, wd4_ok, rules)
        ]
        assert list(cand[:n]) == expected, (list(hands[1, :size]), top, color, bluff)

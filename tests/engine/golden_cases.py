"""The golden cases: which games of which table are traced, one case per golden file.

Every preset, a points match and a partners match, every house-rule key set to a value its
preset does not use, and the values added later to keys that already had a case. Each
rule-key case is played on games chosen so that the key fires: its ``witness`` says how (a
test checks it on the case's trace, or on the baseline's for keys that prevent something)
and ``shows`` tells a reader where to look. :mod:`uno_stats.check.golden` plays and writes
them.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from uno_stats.check.golden import GoldenCase, Witness
from uno_stats.engine import events as E
from uno_stats.engine.cards import (
    CARD_IS_ACTION,
    CARD_SYMBOL,
    REVERSE,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
)
from uno_stats.engine.schema import STATUS_CAPPED, STATUS_EXHAUSTED, STATUS_VOID


def _has(kind: int, **fields: int) -> Witness:
    """Some event of ``kind`` whose fields (``seat``, ``a``-``d``) equal the given values."""
    columns = {"seat": 1, "a": 2, "b": 3, "c": 4, "d": 5}

    def witness(events: np.ndarray) -> bool:
        rows = events[events[:, 0] == kind]
        for name, value in fields.items():
            rows = rows[rows[:, columns[name]] == value]
        return rows.shape[0] > 0

    return witness


def _multi_of_actions(events: np.ndarray) -> bool:
    """A multi-play of Skips, Reverses or Draw Twos (``multi_play_actions``, S20)."""
    rows = events[events[:, 0] == E.EV_MULTI]
    return any(int(CARD_SYMBOL[int(r[4])]) >= SKIP for r in rows)


def _draws_twice_in_a_turn(events: np.ndarray) -> bool:
    """A seat drew two cards in a row on its own turn (``draw: until-playable``)."""
    turn_draw = (events[:, 0] == E.EV_DRAW) & (events[:, 3] == E.DRAW_TURN)
    same_seat = events[1:, 1] == events[:-1, 1]
    return bool((turn_draw[1:] & turn_draw[:-1] & same_seat).any())


def _opens_on_reverse(events: np.ndarray) -> bool:
    start = events[events[:, 0] == E.EV_START]
    cards = start[:, 5]
    return bool(((cards < WILD) & (CARD_SYMBOL[np.minimum(cards, WILD)] == REVERSE)).any())


def _cross_stack(events: np.ndarray) -> bool:
    """A Draw Two stacked on a Wild Draw Four or the other way round."""
    plays = events[events[:, 0] == E.EV_PLAY]
    for before, after in pairwise(plays):
        if after[3] == E.PLAY_STACK and (before[2] == WILD_DRAW_FOUR) != (
            after[2] == WILD_DRAW_FOUR
        ):
            return True
    return False


def _roulette_named_by_its_player(events: np.ndarray) -> bool:
    """A Color Roulette whose color its player named (EV_ROULETTE: victim, color, namer)."""
    rows = events[events[:, 0] == E.EV_ROULETTE]
    return bool((rows[:, 1] != rows[:, 3]).any())


def _won_on_action_card(events: np.ndarray) -> bool:
    """A round won by playing an action card or wild as the last card."""
    plays = events[(events[:, 0] == E.EV_PLAY) & (events[:, 4] == 0)]
    return bool((CARD_IS_ACTION[plays[:, 2]] != 0).any())


MIXED = ("random", "basic", "aggressive", "hoarder", "color-denier")
_CHALLENGERS = {"challenge": "always", "bluff": 0.5}

PRESET_CASES: tuple[GoldenCase, ...] = tuple(
    GoldenCase(f"preset-{preset}", preset, games=(0, 1), strategies=MIXED[:4])
    # no-mercy: the 168-card No Mercy deck (S21), whose new cards all act in these games
    for preset in ("mattel-2022", "mattel-2001", "classic-house", "draw-until-playable", "no-mercy")
)

MATCH_CASES: tuple[GoldenCase, ...] = (
    GoldenCase(
        "match-points",
        "classic-house",
        games=(0,),
        players=3,
        strategies=("basic", "hoarder", "color-denier"),
        match_target=150,
    ),
    GoldenCase(
        "match-partners",
        "classic-house",
        games=(0,),
        rules={"scoring": "partners"},
        strategies=("aggressive", "random", "basic", "color-denier"),
        match_target=100,
    ),
)

# Each rule key at a value its preset does not use. ``witness`` is checked on the case's
# trace, except where the key works by preventing something (then on the baseline's).
RULE_CASES: tuple[GoldenCase, ...] = (
    GoldenCase(
        "rule-shuffle_hands_cards",
        "classic-house",
        games=(8,),
        rules={"shuffle_hands_cards": 4},
        key="shuffle_hands_cards",
        witness=_has(E.EV_SHUFFLE_HANDS),
        shows="a Wild Shuffle Hands is played and every hand is dealt out again",
    ),
    GoldenCase(
        "rule-custom_cards",
        "classic-house",
        games=(2,),
        rules={"custom_cards": 4},
        key="custom_cards",
        witness=_has(E.EV_EXTRA_TURN),
        shows="a Wild Customizable is played and its player takes another turn",
    ),
    GoldenCase(
        "rule-custom_card_rule",
        "mattel-2022",
        games=(12,),
        rules={"custom_card_rule": "wild"},
        key="custom_card_rule",
        witness=_has(E.EV_PLAY, a=WILD_CUSTOM),
        shows="a Wild Customizable is played as a plain wild: no extra turn",
    ),
    GoldenCase(
        "rule-hand_size",
        "classic-house",
        games=(5,),
        rules={"hand_size": 3},
        key="hand_size",
        witness=lambda ev: int((ev[:, 0] == E.EV_DEAL).sum()) == 3 * 4,
        shows="three cards are dealt to each seat",
    ),
    GoldenCase(
        "rule-opening_action",
        "classic-house",
        games=(18,),
        rules={"opening_action": "redraw"},
        key="opening_action",
        witness=_has(E.EV_TURN_UP, b=E.TURN_UP_COVERED),
        shows="an opening action card is covered by the next card turned",
    ),
    GoldenCase(
        "rule-opening_reverse",
        "classic-house",
        games=(97,),
        rules={"opening_reverse": "dealer-right-starts"},
        key="opening_reverse",
        witness=_opens_on_reverse,
        shows="the round opens on a Reverse and the dealer's right (seat 2) starts",
    ),
    GoldenCase(
        "rule-draw",
        "classic-house",
        games=(7,),
        rules={"draw": "until-playable"},
        key="draw",
        witness=_draws_twice_in_a_turn,
        shows="a stuck seat draws several cards in one turn until one fits",
    ),
    GoldenCase(
        "rule-drawn_card",
        "classic-house",
        games=(6,),
        rules={"drawn_card": "must-play"},
        knobs={"keep_drawn": 0.5},
        key="drawn_card",
        witness=_has(E.EV_PLAY, b=E.PLAY_DRAWN),
        shows="a playable drawn card is played at once although the seats would keep it half "
        "the time under may-play (knob keep_drawn 0.5)",
    ),
    GoldenCase(
        "rule-voluntary_draw",
        "classic-house",
        games=(6,),
        rules={"voluntary_draw": False},
        knobs={"voluntary_draw": 0.5},
        key="voluntary_draw",
        witness=_has(E.EV_VOLUNTARY),
        shows="seats willing to draw instead of playing (knob 0.5) may not (witness: baseline)",
    ),
    GoldenCase(
        "rule-two_player_rules",
        "classic-house",
        games=(7,),
        players=2,
        rules={"two_player_rules": False},
        key="two_player_rules",
        witness=_has(E.EV_REVERSE),
        shows="with two players a Reverse reverses instead of acting as a Skip",
    ),
    GoldenCase(
        "rule-no_action_finish",
        "classic-house",
        games=(39,),
        rules={"no_action_finish": True},
        key="no_action_finish",
        witness=_won_on_action_card,
        shows="a seat whose last card is an action card or wild must draw instead (witness: "
        "the baseline's round won on one)",
    ),
    GoldenCase(
        "rule-deadlock",
        "classic-house",
        games=(0,),
        players=2,
        rules={"deadlock": "cap", "hand_size": 2, "max_turns": 12},
        deck=("blue 1", "blue 3", "blue 2", "blue 4", "red 5"),
        key="deadlock",
        witness=_has(E.EV_END, a=STATUS_VOID),
        shows="nobody can play and nothing can be drawn: the seats pass on to max_turns "
        "(witness: the baseline's void round). Deadlocks almost never happen in random "
        "deals, so this round is dealt from a five-card deck",
    ),
    GoldenCase(
        "rule-max_turns",
        "classic-house",
        games=(6,),
        rules={"max_turns": 20},
        key="max_turns",
        witness=_has(E.EV_END, a=STATUS_CAPPED),
        shows="the round is capped after 20 turns",
    ),
    GoldenCase(
        "rule-wd4_restriction",
        "classic-house",
        games=(3,),
        rules={"wd4_restriction": "none"},
        key="wd4_restriction",
        witness=_has(E.EV_PLAY, a=WILD_DRAW_FOUR),
        shows="a Wild Draw Four is played while holding the active color",
    ),
    GoldenCase(
        "rule-wd4_challenge",
        "classic-house",
        games=(6,),
        rules={"wd4_challenge": False},
        knobs=_CHALLENGERS,
        key="wd4_challenge",
        witness=_has(E.EV_CHALLENGE),
        shows="nobody challenges or bluffs a Wild Draw Four (witness: the baseline's challenge)",
    ),
    GoldenCase(
        "rule-challenge_penalty",
        "classic-house",
        games=(7,),
        rules={"challenge_penalty": 2},
        knobs=_CHALLENGERS,
        key="challenge_penalty",
        witness=_has(E.EV_PENALTY, a=2, b=E.DRAW_CHALLENGE),
        shows="a failed challenger draws 2 cards instead of 6",
    ),
    GoldenCase(
        "rule-stack_draw_two",
        "classic-house",
        games=(0,),
        rules={"stack_draw_two": True},
        key="stack_draw_two",
        witness=_has(E.EV_PLAY, b=E.PLAY_STACK),
        shows="a Draw Two passes a pending Draw Two on",
    ),
    GoldenCase(
        "rule-stack_draw_four",
        "classic-house",
        games=(26,),
        rules={"stack_draw_four": True, "wd4_restriction": "none"},
        key="stack_draw_four",
        witness=_has(E.EV_PLAY, a=WILD_DRAW_FOUR, b=E.PLAY_STACK),
        shows="a Wild Draw Four passes a pending Wild Draw Four on (restriction none)",
    ),
    GoldenCase(
        "rule-stack_cross",
        "classic-house",
        games=(12,),
        rules={"stack_cross": True, "wd4_restriction": "none"},
        key="stack_cross",
        witness=_cross_stack,
        shows="a Draw Two answers a Wild Draw Four or the other way round",
    ),
    GoldenCase(
        "rule-stack_victim_skips",
        "classic-house",
        games=(4,),
        rules={"stack_victim_skips": False},
        key="stack_victim_skips",
        witness=_has(E.EV_PENALTY),
        shows="a seat that draws a penalty then takes its turn",
    ),
    GoldenCase(
        "rule-final_penalty",
        "classic-house",
        games=(18,),
        rules={"final_penalty": False},
        key="final_penalty",
        witness=_has(E.EV_DRAW, b=E.DRAW_FINAL),
        shows="a round won on a draw card ends without the penalty (witness: the baseline's)",
    ),
    GoldenCase(
        "rule-seven_zero",
        "classic-house",
        games=(11,),
        rules={"seven_zero": True},
        key="seven_zero",
        witness=lambda ev: _has(E.EV_SWAP)(ev) and _has(E.EV_ROTATE)(ev),
        shows="a 7 swaps two hands and a 0 passes every hand on",
    ),
    GoldenCase(
        "rule-jump_in",
        "classic-house",
        games=(0,),
        rules={"jump_in": True},
        key="jump_in",
        witness=_has(E.EV_JUMP),
        shows="a seat holding the identical card jumps in out of turn",
    ),
    GoldenCase(
        "rule-uno_penalty",
        "classic-house",
        games=(8,),
        rules={"uno_penalty": 4},
        knobs={"forget_uno": 0.5, "catch_uno": 0.5},
        key="uno_penalty",
        witness=_has(E.EV_DRAW, b=E.DRAW_UNO),
        shows="a seat caught not calling UNO draws 4",
    ),
    GoldenCase(
        "rule-invalid_play_penalty",
        "classic-house",
        games=(5,),
        rules={"invalid_play_penalty": 2},
        knobs={"mistake": 0.3},
        key="invalid_play_penalty",
        witness=_has(E.EV_DRAW, b=E.DRAW_MISTAKE),
        shows="a seat that tries a card that does not fit draws 2",
    ),
    GoldenCase(
        "rule-scoring",
        "classic-house",
        games=(30,),
        rules={"scoring": "low-score"},
        match_target=60,
        key="scoring",
        witness=lambda ev: int((ev[:, 0] == E.EV_END).sum()) > 1,
        shows="a low-score match: every seat adds its own hand until one reaches 60",
    ),
    GoldenCase(
        "rule-seating",
        "classic-house",
        games=(0,),
        rules={"seating": "random"},
        strategies=MIXED[:4],
        key="seating",
        # who sits where is no event: the key's effect is the difference from fixed
        # seating (checked beside the witness); the witness asks only for a finished round
        witness=_has(E.EV_END),
        shows="the four strategies sit in a random order (the trace's seating line)",
    ),
    GoldenCase(
        "rule-reshuffle",
        "classic-house",
        games=(4,),
        players=8,
        rules={"reshuffle": False},
        key="reshuffle",
        witness=_has(E.EV_END, a=STATUS_EXHAUSTED),
        shows="the draw pile runs out and the round ends exhausted, fewest cards winning",
    ),
    GoldenCase(
        "rule-exhausted_winner",
        "classic-house",
        games=(17,),
        players=8,
        rules={"reshuffle": False, "exhausted_winner": "fewest-points"},
        key="exhausted_winner",
        witness=_has(E.EV_EXHAUSTED),
        shows="an exhausted round won by the fewest card points, not the fewest cards",
    ),
    GoldenCase(
        "rule-deflect",
        "classic-house",
        games=(1,),
        rules={"deflect": True},
        key="deflect",
        witness=_has(E.EV_PLAY, b=E.PLAY_DEFLECT),
        shows="a seat owing a Draw Two passes it on with a Skip or sends it back with a Reverse",
    ),
    GoldenCase(
        "rule-multi_play",
        "classic-house",
        games=(0,),
        rules={"multi_play": "same-number"},
        key="multi_play",
        witness=_has(E.EV_MULTI),
        shows="a seat plays several cards of one number at once, the last on top",
    ),
    GoldenCase(
        "rule-multi_play_actions",
        "classic-house",
        games=(0,),
        rules={"multi_play": "same-number", "multi_play_actions": True},
        key="multi_play_actions",
        witness=_multi_of_actions,
        shows="a seat plays Skips, Reverses or Draw Twos together, each acting once",
    ),
    # Issue 25 keys (S21-S23): No Mercy stacking on the classic deck, the mercy rule on it,
    # and the two No Mercy readings on the No Mercy preset
    GoldenCase(
        "rule-stack_draws",
        "classic-house",
        games=(0,),
        rules={"stack_draws": "equal-or-higher"},
        key="stack_draws",
        witness=_has(E.EV_STACK),
        shows="a draw card of equal or higher value answers a pending total, color ignored",
    ),
    GoldenCase(
        "rule-mercy_limit",
        "classic-house",
        games=(35,),
        rules={"mercy_limit": 12, "draw": "until-playable"},
        key="mercy_limit",
        witness=_has(E.EV_KNOCKOUT),
        shows="a hand reaching 12 cards is knocked out, its cards under the discard pile",
    ),
    GoldenCase(
        "rule-mercy_cards",
        "no-mercy",
        games=(35,),
        rules={"mercy_cards": "draw-bottom"},
        key="mercy_cards",
        witness=_has(E.EV_KNOCKOUT),
        shows="a knocked-out hand goes under the draw pile",
    ),
    GoldenCase(
        "rule-roulette_namer",
        "no-mercy",
        games=(23,),
        rules={"roulette_namer": "player"},
        key="roulette_namer",
        witness=_roulette_named_by_its_player,
        shows="the player of a Color Roulette names the color its victim turns up",
    ),
)

# Values added to a key that already has its rule case (issue 12): traced and checked too.
CHOICE_CASES: tuple[GoldenCase, ...] = (
    GoldenCase(
        "choice-opening_action-ignore",
        "classic-house",
        games=(1,),
        rules={"opening_action": "ignore"},
        key="opening_action",
        witness=_has(E.EV_IGNORED),
        shows="the opening action card is only matched: the dealer's left plays first",
    ),
    GoldenCase(
        "choice-wd4_restriction-no-other-play",
        "classic-house",
        games=(2,),
        rules={"wd4_restriction": "no-other-play", "wd4_challenge": False},
        key="wd4_restriction",
        witness=_has(E.EV_END),
        shows="a Wild Draw Four only when nothing else in hand is playable (the game "
        "differs from wd4_restriction: color)",
    ),
)

CHOICE_CASES += (
    GoldenCase(
        "choice-stack_draws-equal",
        "no-mercy",
        games=(16,),
        rules={"stack_draws": "equal"},
        key="stack_draws",
        witness=_has(E.EV_STACK),
        shows="only a draw card of the same value answers a pending total",
    ),
    GoldenCase(
        "choice-multi_play-same-number-color",
        "classic-house",
        games=(3,),
        rules={"multi_play": "same-number-color"},
        key="multi_play",
        witness=_has(E.EV_MULTI),
        shows="a seat plays identical cards (same number and color) at once",
    ),
)

CASES: tuple[GoldenCase, ...] = PRESET_CASES + MATCH_CASES + RULE_CASES + CHOICE_CASES

# Keys that work by preventing something: their witness is looked for in the baseline.
WITNESS_IN_BASELINE = frozenset(
    {"voluntary_draw", "deadlock", "wd4_challenge", "final_penalty", "no_action_finish"}
)

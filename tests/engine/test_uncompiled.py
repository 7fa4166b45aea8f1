"""The same engine source runs uncompiled (NUMBA_DISABLE_JIT=1) and plays the same games."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from uno_stats.engine import EngineConfig, simulate
from uno_stats.engine.cards import NO_MERCY_CLASSIC_PLUS_COUNTS, changed_counts
from uno_stats.engine.rules import preset_deck, preset_rules
from uno_stats.engine.strategy_table import default_seat

SCRIPT = """
import json, sys, warnings
import numpy as np
warnings.simplefilter("ignore")  # uint64 scalar arithmetic wraps by design in the RNG
np.seterr(over="ignore")
from uno_stats.engine import EngineConfig, simulate
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.strategy_table import default_seat
rules = preset_rules("classic-house")
rules.update(json.loads(sys.argv[1]))
deck, players = json.loads(sys.argv[2]), int(sys.argv[3])  # RULES.md S19
strategies = ("random", "color-denier", "aggressive")  # a strategy memory; keep_drawn
seats = [default_seat() | {"strategy": strategies[i % 3], "keep_drawn": 0.5} for i in range(players)]
config = EngineConfig.build(players, rules, seats, seed=11, deck=deck)
cols = simulate(config, 0, 3)
print(json.dumps({k: v.tolist() for k, v in cols.items()}))
"""

OVERRIDES = {
    "classic": dict(stack_draw_two=True, seven_zero=True, jump_in=True, shuffle_hands_cards=1),
    # issue 12 keys: opening card without effect, Wild Draw Four only without another play
    "issue12": dict(opening_action="ignore", wd4_restriction="no-other-play", stack_draw_four=True),
    # random seating: the seats' rows move between positions each game (S16)
    "seating": dict(seating="random"),
    # deflecting a pending draw (S18) with stacking on
    "deflect": dict(deflect=True, stack_draw_two=True, stack_cross=True),
    # multi-play (S20): numbers and actions together, with stacking, deflect and 7-0
    "multi": dict(
        multi_play="same-number",
        multi_play_actions=True,
        stack_draw_two=True,
        deflect=True,
        seven_zero=True,
    ),
    "multi-identical": dict(multi_play="same-number-color", draw="until-playable"),
    # no reshuffle (S17): big hands run the pile out (game 2 ends exhausted)
    "reshuffle": dict(reshuffle=False, exhausted_winner="fewest-points", hand_size=20),
    # any deck (S19): below, two and three decks at 12 and 20 seats
    "two-decks": dict(stack_draw_two=True, jump_in=True, wd4_challenge=True),
    "three-decks": dict(seven_zero=True, shuffle_hands_cards=2, hand_size=10),
    # issue 25: the No Mercy keys on the No Mercy deck (below): stacking by value, the mercy
    # rule with both card readings and namers, 7-0, draw until playable
    "no-mercy": dict(
        stack_draws="equal-or-higher",
        mercy_limit=18,
        seven_zero=True,
        draw="until-playable",
        drawn_card="must-play",
        wd4_challenge=False,
        opening_action="redraw",
    ),
    "no-mercy-readings": dict(
        stack_draws="any",
        mercy_limit=15,
        mercy_cards="draw-bottom",
        roulette_namer="player",
        deflect=True,
        jump_in=True,
    ),
}
# (deck, players) per case; the others play one classic deck at 3 seats
DECKS = {
    "two-decks": ({"decks": 2, "counts": {"wild_draw_four": 8, "seven": 4}}, 12),
    "three-decks": ({"decks": 3}, 20),
    "no-mercy": (preset_deck("no-mercy"), 6),
    "no-mercy-readings": ({"decks": 1, "counts": changed_counts(NO_MERCY_CLASSIC_PLUS_COUNTS)}, 4),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OVERRIDES))
def test_uncompiled_engine_plays_the_same_games(name):
    overrides = OVERRIDES[name]
    deck, players = DECKS.get(name, (None, 3))
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(overrides), json.dumps(deck), str(players)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    interpreted = json.loads(out.stdout)
    rules = preset_rules("classic-house")
    rules.update(overrides)
    strategies = ("random", "color-denier", "aggressive")
    seats = [
        default_seat() | {"strategy": strategies[i % 3], "keep_drawn": 0.5} for i in range(players)
    ]
    compiled = simulate(EngineConfig.build(players, rules, seats, seed=11, deck=deck), 0, 3)
    for column_name, column in compiled.items():
        assert np.array_equal(np.asarray(interpreted[column_name]), column), column_name
    if name == "reshuffle":
        assert (compiled["status"] == 3).any()  # the exhausted ending was exercised
    if name.startswith("no-mercy"):
        assert compiled["eliminated"].any()  # the mercy rule was exercised

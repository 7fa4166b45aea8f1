"""Property tests on UNO Show 'Em No Mercy (RULES.md S21-S24): the ``no-mercy`` preset and its
deck with random values of every No Mercy key and of the keys it sets, every traced game
replayed by the shipped checker (cards conserved, knocked-out hands included; every play
legal; every knock-out at the mercy limit) and every round ended by an empty hand, by the
last seat standing, or void / capped."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uno_stats.check.games import check_played_game
from uno_stats.engine import EngineConfig, simulate, trace_events
from uno_stats.engine import events as E
from uno_stats.engine.cards import DECK_PRESETS, changed_counts
from uno_stats.engine.rules import R_MERCY_LIMIT, RULES_BY_KEY, preset_rules
from uno_stats.engine.schema import STATUS_CAPPED, STATUS_VOID, STATUS_WON
from uno_stats.engine.strategy_table import HORIZONS, MOVE_SETS, STRATEGIES, default_seat

# The No Mercy keys and the keys the preset sets (S21-S24), each drawn from its values
KEYS = (
    "stack_draws",
    "mercy_cards",
    "roulette_namer",
    "seven_zero",
    "draw",
    "drawn_card",
    "opening_action",
    "stack_victim_skips",
    "final_penalty",
    "two_player_rules",
    "deflect",
    "jump_in",
    "uno_penalty",
)
PLAYED = [s.name for s in STRATEGIES if s.name != "search"]


@st.composite
def tables(draw, searchers: int = 0):
    """A No Mercy table; with ``searchers``, up to that many seats play ``search`` (few
    rollouts, any horizon and move set; turns capped at 400 to bound the rollouts' work)."""
    rules = preset_rules("no-mercy")
    for key in KEYS:
        spec = RULES_BY_KEY[key]
        values = (True, False) if spec.kind == "bool" else spec.choices
        rules[key] = draw(st.sampled_from(values))
    rules["mercy_limit"] = draw(st.sampled_from([0, 12, 18, 25, 40]))
    players = draw(st.integers(2, 10))
    deck = draw(st.sampled_from(["no-mercy", "no-mercy-classic-plus"]))
    strategy = st.sampled_from(PLAYED)
    seats = [
        {
            **default_seat(),
            "strategy": draw(strategy),
            "forget_uno": draw(st.sampled_from([0.0, 0.5])),
        }
        for _ in range(players)
    ]
    for s in draw(st.sets(st.integers(0, players - 1), max_size=searchers)):
        seats[s] = {
            **seats[s],
            "strategy": "search",
            "rollouts": draw(st.sampled_from([1, 2])),
            "horizon": draw(st.sampled_from(HORIZONS)),
            "search_moves": draw(st.sampled_from(MOVE_SETS)),
        }
    if searchers:
        rules["max_turns"] = min(rules["max_turns"], 400)
    section = {"decks": 1, "counts": changed_counts(DECK_PRESETS[deck])}
    return EngineConfig.build(players, rules, seats, 0, draw(st.integers(0, 2**32)), section)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_no_mercy_games_obey_the_rules_and_conserve_cards(config):
    for game in range(3):
        problems = check_played_game(config, game, max_events=60_000)
        assert not problems, "\n".join(str(p) for p in problems[:5])
        events = trace_events(config, game, max_events=60_000)
        # every knock-out hands in the whole hand, at the mercy limit (S22)
        limit = int(config.rules[R_MERCY_LIMIT])
        knocks = events[events[:, 0] == E.EV_KNOCKOUT]
        assert (knocks[:, 2] >= limit).all() if limit else knocks.shape[0] == 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_every_no_mercy_round_ends_by_an_empty_hand_or_the_last_seat(config):
    cols = simulate(config, 0, 30)
    status, winner = cols["status"], cols["winner"]
    assert set(np.unique(status)) <= {STATUS_WON, STATUS_VOID, STATUS_CAPPED}
    won = status == STATUS_WON
    rows = np.arange(len(status))
    empty = cols["hand_sizes"][rows, np.maximum(winner, 0)] == 0
    last = cols["last_standing"].astype(bool)
    assert (won == (empty & won) | last).all()
    assert (~last | (cols["eliminated"] == config.players - 1)).all()
    out = cols["knocked_out"].astype(int)
    assert (cols["hand_sizes"][out > 0] == 0).all()  # a knocked-out hand is handed in
    assert (cols["hand_sizes"].sum(axis=1) < len(config.deck)).all()  # the top card at least


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(searchers=2))
def test_search_plays_only_legal_moves_under_no_mercy(config):
    """search's moves (Discard Alls, Skip Everyones, 7s onto seats still in, the colors of a
    Color Roulette, stacks of any draw card) replayed by the checker, its seat knocked out
    or not."""
    before = config.seats.copy()
    problems = check_played_game(config, 0, max_events=60_000)
    assert not problems, "\n".join(str(p) for p in problems[:5])
    assert np.array_equal(config.seats, before)

"""The checker judges multi-plays (RULES.md S20): clean games pass, and a doctored
multi-play (a card of another symbol, a lost skip, a multi-play the rules do not allow, a
missing UNO call) is reported."""

from __future__ import annotations

import numpy as np

from uno_stats.check.games import check_game
from uno_stats.engine import EngineConfig, trace_events
from uno_stats.engine import events as E
from uno_stats.engine.cards import CARD_SYMBOL, SKIP
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.strategy_table import default_seat

MULTI = {"multi_play": "same-number", "multi_play_actions": True}


def _config(players=4, **rules) -> EngineConfig:
    resolved = {**preset_rules("classic-house"), **MULTI, **rules}
    seats = [default_seat() | {"forget_uno": 0.2, "catch_uno": 0.5}] * players
    return EngineConfig.build(players, resolved, seats, seed=9)


def _games(config: EngineConfig, games: int = 30):
    for game in range(games):
        yield trace_events(config, game)


def _messages(config: EngineConfig, events: np.ndarray) -> str:
    return "\n".join(str(p) for p in check_game(config, events))


def _multi_rows(events: np.ndarray, symbol: int | None = None) -> list[int]:
    rows = np.flatnonzero(events[:, 0] == E.EV_MULTI)
    if symbol is None:
        return [int(i) for i in rows]
    return [int(i) for i in rows if CARD_SYMBOL[int(events[i, 4])] == symbol]


def test_clean_multi_play_games_pass():
    for rules in (
        {},
        {"multi_play": "same-number-color"},
        {"stack_draw_two": True, "deflect": True},
    ):
        config = _config(**rules)
        multi = 0
        for events in _games(config, 15):
            assert _messages(config, events) == ""
            multi += len(_multi_rows(events))
        assert multi > 0  # multi-plays were exercised


def _find(config: EngineConfig, symbol: int | None = None) -> tuple[np.ndarray, int]:
    for events in _games(config, 200):
        rows = _multi_rows(events, symbol)
        if rows:
            return events, rows[0]
    raise AssertionError("no multi-play found")


def test_a_card_of_another_symbol_is_caught():
    config = _config()
    events, i = _find(config)
    bad = events.copy()
    follower = i + 2  # the second card of the multi-play (EV_MULTI, then its plays)
    assert bad[follower, 0] == E.EV_PLAY and bad[follower, 3] == E.PLAY_MULTI
    bad[follower, 2] = (bad[follower, 2] + 1) % 13 + 13 * (bad[follower, 2] // 13)
    assert "not one joinable symbol" in _messages(config, bad)


def test_a_skip_that_did_not_act_is_caught():
    config = _config()
    events, i = _find(config, SKIP)
    lost = next(j for j in range(i, len(events)) if events[j, 0] == E.EV_LOSE_TURN)
    assert "lost turns" in _messages(config, np.delete(events, lost, axis=0))


def test_a_multi_play_needs_the_rule():
    events, _ = _find(_config())
    assert "multi_play: off" in _messages(_config(multi_play="off"), events)
    assert "same-number-color" in "\n".join(
        _messages(_config(multi_play="same-number-color"), e) for e in _games(_config(), 30)
    )


def test_actions_together_need_their_key():
    config = _config()
    events, _ = _find(config, SKIP)
    assert "not one joinable symbol" in _messages(_config(multi_play_actions=False), events)


def test_a_missing_uno_call_is_caught():
    config = _config()
    for events in _games(config, 300):
        rows = [
            i
            for i in _multi_rows(events)
            if any(
                events[j, 0] == E.EV_UNO and events[j, 1] == events[i, 1]
                for j in range(i, min(i + 12, len(events)))
            )
        ]
        if rows:
            i = rows[0]
            uno = next(j for j in range(i, len(events)) if events[j, 0] == E.EV_UNO)
            if events[uno, 2] == 2:
                continue  # a caught miss draws cards: removing it breaks other checks first
            assert "UNO calls" in _messages(config, np.delete(events, uno, axis=0))
            return
    raise AssertionError("no multi-play left one card")

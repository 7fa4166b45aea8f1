"""search's inference from the opponents' recent plays (``inference: last-play``): the memory
of plays (memory_row.record_play) and whether basic would have made them from a dealt hand
(search_infer.world_chance), on scripted hands."""

from __future__ import annotations

import numpy as np
import pytest

from uno_stats.engine import EngineConfig, _new_table, engine_seats, simulate
from uno_stats.engine.cards import card_id
from uno_stats.engine.memory_row import (
    PLAYED_BASE,
    PLAYS_BASE,
    PLAYS_KEPT,
    SEEN_HANDS_MOVED,
    SEEN_PLAY,
    UNRECORDED,
    observe,
    record_play,
)
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.search_infer import UNLIKE, world_chance
from uno_stats.engine.state import ST_OBSERVED, T_MEMORY
from uno_stats.engine.strategy_table import RECORDS_PLAYS, default_seat

RED, YELLOW, GREEN, BLUE = range(4)


def _table(opponent: str, hand: list[str]):
    """Two seats, search (0) and ``opponent`` (1) holding ``hand``; the rollout seats as
    search builds them under ``opponent_model: declared``."""
    seats = [{**default_seat(), "strategy": "search"}, {**default_seat(), "strategy": opponent}]
    config = EngineConfig.build(2, preset_rules("mattel-2001"), seats, seed=1)
    table = _new_table(config)
    table.hands[1, : len(hand)] = [card_id(c) for c in hand]
    table.hn[1] = len(hand)
    table.hn[0] = 3
    plain = engine_seats(config.seats)
    return table, np.concatenate([plain, plain])


def _play(table, card: str, top: str, color: int, named: int, size: int, normal=True) -> None:
    """Seat 1 plays ``card`` as the engine announces and records it."""
    memory = table.tab[T_MEMORY]
    observe(memory, 2, SEEN_PLAY, 1, card_id(card))
    record_play(memory, 1, card_id(card), card_id(top), color, named, size, normal)


def _chance(opponent: str, hand: list[str], *plays) -> float:
    table, rseats = _table(opponent, hand)
    for play in plays:  # oldest first
        _play(table, *play)
    return world_chance(table.tab, table.tab[T_MEMORY], 0, rseats)


def test_basic_plays_its_color_first() -> None:
    """Blue 7 on a red 7: basic had no red card, then (same number before wilds)."""
    hand = ["Red 3", "Blue 4"]
    assert _chance("basic", hand, ("Blue 7", "Red 7", RED, BLUE, 2)) == UNLIKE
    assert _chance("basic", ["Green 3", "Blue 4"], ("Blue 7", "Red 7", RED, BLUE, 2)) == 1.0
    assert _chance("basic", ["Red 3", "Blue 4"], ("Red 7", "Red 2", RED, RED, 2)) == 1.0


def test_basic_plays_a_wild_last_and_names_its_commonest_color() -> None:
    red_held = ("Wild", "Red 2", RED, GREEN, 2)
    assert _chance("basic", ["Red 3", "Green 4"], red_held) == UNLIKE  # it had a red card
    named_green = ("Wild", "Red 2", RED, GREEN, 3)
    assert _chance("basic", ["Blue 3", "Green 4", "Green 5"], named_green) == 1.0
    assert _chance("basic", ["Blue 3", "Blue 4", "Green 5"], named_green) == UNLIKE


def test_earlier_plays_are_judged_on_the_hand_plus_the_cards_played_since() -> None:
    """Red 7 on Red 2, then Blue 7 on it: the first from {hand, Blue 7, Red 7} (fine), the
    second from {hand, Blue 7}: unlike when the hand still holds a red card."""
    plays = (("Red 7", "Red 2", RED, RED, 3), ("Blue 7", "Red 7", RED, BLUE, 2))
    assert _chance("basic", ["Red 3", "Blue 5"], *plays) == UNLIKE
    assert _chance("basic", ["Green 3", "Blue 5"], *plays) == 1.0
    # the newest, Red 7 on a blue top, from {Blue 3, Green 5, Red 7}: unlike (it held a
    # blue card); the older Blue 7 was not playable on a red 2 (a bluff): not judged
    odd = (("Blue 7", "Red 2", RED, BLUE, 3), ("Red 7", "Blue 7", BLUE, RED, 2))
    assert _chance("basic", ["Blue 3", "Green 5"], *odd) == UNLIKE
    assert _chance("basic", ["Red 3", "Green 5"], *odd) == 1.0


def test_a_draw_since_a_play_or_a_play_off_a_normal_turn_is_not_judged() -> None:
    assert _chance("basic", ["Red 3", "Blue 4"], ("Blue 7", "Red 7", RED, BLUE, 1)) == 1.0
    drawn = ("Blue 7", "Red 7", RED, BLUE, 2, False)
    assert _chance("basic", ["Red 3", "Blue 4"], drawn) == 1.0
    # an older play behind a draw: only the newest is judged
    plays = (("Blue 7", "Red 7", RED, BLUE, 4), ("Blue 8", "Blue 7", BLUE, BLUE, 2))
    assert _chance("basic", ["Red 3", "Blue 4"], *plays) == 1.0


def test_random_and_unrecorded_plays_are_not_judged() -> None:
    assert _chance("random", ["Red 3", "Blue 4"], ("Blue 7", "Red 7", RED, BLUE, 2)) == 1.0
    table, rseats = _table("basic", ["Red 3", "Blue 4"])
    _play(table, "Blue 7", "Red 7", RED, BLUE, 2)
    observe(table.tab[T_MEMORY], 2, SEEN_PLAY, 1, card_id("Blue 8"))  # announced, not recorded
    assert world_chance(table.tab, table.tab[T_MEMORY], 0, rseats) == 1.0


def test_the_memory_keeps_the_last_plays_and_forgets_them_when_hands_move() -> None:
    table, _ = _table("basic", [])
    memory = table.tab[T_MEMORY]
    for k in range(PLAYS_KEPT + 2):
        _play(table, f"Red {k}", "Red 9", RED, RED, 10 - k)
    assert memory[PLAYED_BASE + 1] == PLAYS_KEPT
    newest = memory[PLAYS_BASE + PLAYS_KEPT]
    assert newest & 127 == card_id(f"Red {PLAYS_KEPT + 1}") and newest >> 20 & 255 == 5
    observe(memory, 2, SEEN_PLAY, 1, card_id("Red 1"))
    observe(memory, 2, SEEN_PLAY, 1, card_id("Red 2"))  # the first was never recorded
    assert memory[PLAYED_BASE + 1] == UNRECORDED
    observe(memory, 2, SEEN_HANDS_MOVED, 1, 0)
    assert memory[PLAYED_BASE + 1] == 0


@pytest.mark.parametrize("opponent", ["basic", "random"])
def test_inference_is_deterministic_for_any_split_of_the_games(opponent: str) -> None:
    """Each game replays alike whatever chunk plays it; against random it changes nothing."""
    rules = preset_rules("mattel-2001")
    seats = [
        {**default_seat(), "strategy": "search", "rollouts": 4, "inference": "last-play"},
        {**default_seat(), "strategy": opponent},
    ]
    config = EngineConfig.build(2, rules, seats, seed=3)
    whole = simulate(config, 0, 24)
    parts = [simulate(config, 0, 9), simulate(config, 9, 15)]
    for name, column in whole.items():
        assert np.array_equal(column, np.concatenate([p[name] for p in parts])), name
    plain = EngineConfig.build(2, rules, [{**seats[0], "inference": "none"}, seats[1]], seed=3)
    without = simulate(plain, 0, 24)
    same = all(np.array_equal(column, without[name]) for name, column in whole.items())
    assert same == (opponent == "random")


def test_plays_are_recorded_only_for_a_search_that_judges_them() -> None:
    def table_flag(*seats: dict) -> int:
        config = EngineConfig.build(len(seats), preset_rules("mattel-2001"), list(seats), seed=1)
        return int(_new_table(config).st[ST_OBSERVED])

    search = {**default_seat(), "strategy": "search"}
    basic = {**default_seat(), "strategy": "basic"}
    assert table_flag(search, basic) == 1  # a memory, no record of plays
    assert table_flag({**search, "inference": "last-play"}, basic) == 1 | RECORDS_PLAYS
    assert table_flag(basic, {**basic, "inference": "last-play"}) == 0  # a search-only knob

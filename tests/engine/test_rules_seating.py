"""``seating: fixed | random`` (RULES.md semantic 16): who sits where, from its own stream."""

from __future__ import annotations

import numpy as np
import polars as pl

from uno_stats.analysis.seats import strategy_strength
from uno_stats.engine import EngineConfig, simulate, trace_game
from uno_stats.engine.chunk import SEATING_SALT
from uno_stats.engine.rng import below, seed_stream
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.strategy_table import default_seat

STRATEGIES = ("basic", "random", "hoarder", "aggressive")


def _config(seating, seats, players=4, target=0, seed=5, preset="classic-house"):
    rules = {**preset_rules(preset), "seating": seating}
    return EngineConfig.build(players, rules, seats, target, seed)


def _expected_order(key, game, players):
    """S16 written out: Fisher-Yates over 0..P-1 from the stream of key ^ SEATING_SALT."""
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, np.uint64(key) ^ SEATING_SALT, game)
    order = list(range(players))
    for i in range(players - 1, 0, -1):
        j = int(below(rng, i + 1))
        order[i], order[j] = order[j], order[i]
    return order


def test_fixed_seating_records_scenario_order():
    cols = simulate(_config("fixed", [default_seat()] * 4), 0, 20)
    assert (cols["seating"] == np.arange(4)).all()


def test_random_seating_is_the_seating_streams_shuffle():
    seats = [default_seat() | {"strategy": s} for s in STRATEGIES]
    config = _config("random", seats)
    cols = simulate(config, 3, 40)
    for row in range(40):
        assert list(cols["seating"][row]) == _expected_order(config.key, 3 + row, 4)
    assert len({tuple(r) for r in cols["seating"]}) > 5  # not one fixed order
    # chunking does not matter: game 10 alone gets the same seating
    assert list(simulate(config, 10, 1)["seating"][0]) == list(cols["seating"][7])


def test_random_seating_leaves_the_games_stream_alone():
    # identical seats: the same cards and choices whoever sits where; only seating differs
    seats = [default_seat() | {"strategy": "basic"}] * 4
    fixed = simulate(_config("fixed", seats), 0, 50)
    moved = simulate(_config("random", seats), 0, 50)
    assert not (moved["seating"] == np.arange(4)).all()
    for name, column in fixed.items():
        if name != "seating":
            assert np.array_equal(column, moved[name]), name


def test_a_match_keeps_its_seating_for_every_round():
    seats = [default_seat() | {"strategy": s} for s in STRATEGIES]
    cols = simulate(_config("random", seats, target=200), 0, 6)
    for game in np.unique(cols["game"]):
        rows = cols["seating"][cols["game"] == game]
        assert (rows == rows[0]).all() and sorted(rows[0]) == [0, 1, 2, 3]
        assert list(rows[0]) == _expected_order(_config("random", seats).key, int(game), 4)


def test_random_seating_moves_the_strategies():
    # seat 0 is a hoarder among random players: with seating random, its position follows
    # the seating column, and the games differ from fixed seating where it moved
    seats = [default_seat() | {"strategy": "hoarder"}] + [default_seat()] * 3
    fixed = simulate(_config("fixed", seats), 0, 60)
    moved = simulate(_config("random", seats), 0, 60)
    kept = moved["seating"][:, 0] == 0  # the hoarder still at position 0
    assert kept.any() and (~kept).any()
    same = (fixed["turns"] == moved["turns"]) & (fixed["winner"] == moved["winner"])
    assert not same[~kept].all()  # a moved hoarder plays other cards


def test_trace_shows_a_random_seating():
    seats = [default_seat() | {"strategy": s} for s in STRATEGIES]
    config = _config("random", seats)
    order = _expected_order(config.key, 2, 4)
    lines = trace_game(config, 2)
    assert f"round 0 seating: by position, scenario seats [{', '.join(map(str, order))}]" in lines


def test_strategy_strength_maps_positions_through_seating():
    # two rounds: the basic seat (scenario seat 0) sits at position 2 and wins both
    lf = pl.LazyFrame(
        {
            "players": [3, 3],
            "status": ["won", "won"],
            "winner": [2, 2],
            "points": [[5, 7, 0], [3, 9, 0]],
            "seating": [[1, 2, 0], [2, 1, 0]],
        }
    )
    seats = [{"strategy": "basic"}, {"strategy": "random"}, {"strategy": "hoarder"}]
    rows = {r.label: r for r in strategy_strength(lf, seats, "points")}
    assert rows["basic"].win.value == 1.0 and rows["basic"].win.n == 2
    assert rows["random"].win.value == 0.0 and rows["hoarder"].win.value == 0.0
    assert rows["basic"].points_left.value == 0.0
    # scenario seat 1 sat at position 0 (5 points left), then at position 1 (9)
    assert rows["random"].points_left.value == 7.0
    assert rows["hoarder"].points_left.value == 5.0

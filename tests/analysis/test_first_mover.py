"""First mover: positions from the player who moved first, checked by hand and on the engine.

The engine tests play real rounds where the opening card moves the first turn (``apply``,
both Reverse variants) and matches whose dealer rotates, and check the derived starting
direction against the direction the engine announces in each round's start event.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats as st

from uno_stats.analysis.first_mover import first_mover
from uno_stats.engine import EngineConfig, simulate, trace_events
from uno_stats.engine import events as E
from uno_stats.engine.rules import resolve_rules
from uno_stats.engine.strategy_table import default_seat
from uno_stats.store.parts import arrow_table


def frame(first: list[int], dealer: list[int], winner: list[int], players: int) -> pl.LazyFrame:
    n = len(first)
    return pl.LazyFrame(
        {
            "players": [players] * n,
            "first_player": first,
            "dealer": dealer,
            "winner": winner,
            "status": ["won" if w >= 0 else "void" for w in winner],
        }
    )


def test_positions_by_hand_four_players() -> None:
    # dealer 3: offset 1 (plain start, clockwise), 2 (Skip: clockwise), 0 (Reverse under
    # dealer-starts: counterclockwise)
    lf = frame(
        first=[0, 1, 3, 3, 0, 1],
        dealer=[3, 3, 3, 3, 3, 3],
        winner=[0, 2, 2, 3, 1, -1],
        players=4,
    )
    f = first_mover(lf, 4, {"opening_action": "apply", "opening_reverse": "dealer-starts"})
    # positions: (0-0)=0; (2-1)=1; ccw from 3: winner 2 is next -> 1; 3 -> 0; (1-0)=1
    assert f.wins == (2, 3, 0, 0) and f.n_won == 5
    assert f.first_wins == 2 and f.first.value == pytest.approx(0.4)
    assert f.edge.value == pytest.approx(0.4 - 0.25)
    assert f.edge.low == pytest.approx(f.first.low - 0.25)
    assert f.edge_p == pytest.approx(st.binomtest(2, 5, 0.25).pvalue)
    assert f.seat0_first.value == pytest.approx(2 / 5)
    assert f.chi_square is not None
    assert f.chi_square.statistic == pytest.approx(st.chisquare([2, 3, 0, 0]).statistic)


def test_dealer_right_starts_and_redraw() -> None:
    rules = {"opening_action": "apply", "opening_reverse": "dealer-right-starts"}
    # dealer 3, Reverse start at seat 2 (offset 3): counterclockwise, so seat 1 is position 1
    lf = frame(first=[2, 2], dealer=[3, 3], winner=[1, 1], players=4)
    assert first_mover(lf, 4, rules).wins == (0, 2, 0, 0)
    # under redraw nothing turns play around: seat 1 is position 3 from seat 2
    redraw = first_mover(lf, 4, {"opening_action": "redraw"})
    assert redraw.wins == (0, 0, 0, 2)


def test_three_players_dealer_right_starts_is_ambiguous() -> None:
    rules = {"opening_action": "apply", "opening_reverse": "dealer-right-starts"}
    lf = frame(first=[1, 0, 1], dealer=[2, 2, 2], winner=[1, 2, 0], players=3)
    f = first_mover(lf, 3, rules)
    assert f.positions is None and f.chi_square is None and f.note
    assert f.first_wins == 1 and f.first.value == pytest.approx(1 / 3)
    # the engine column, when present, settles the direction
    with_dir = lf.with_columns(pl.Series("first_direction", [-1, 1, -1]))
    assert first_mover(with_dir, 3, rules).wins == (1, 1, 1)


def _engine_frame(
    players: int, preset: str, games: int, target: int = 0
) -> tuple[pl.DataFrame, dict]:
    rules = resolve_rules(preset, {"scoring": "points"} if target else {})
    config = EngineConfig.build(players, rules, [default_seat()] * players, target, 7)
    columns = simulate(config, 0, games)
    df = pl.from_arrow(arrow_table(columns, players))
    assert isinstance(df, pl.DataFrame)
    directions = []
    for game in range(games):
        events = trace_events(config, game, max_events=2_000_000)
        directions += [int(ev[3]) for ev in events if int(ev[0]) == E.EV_START]
    assert len(directions) == df.height  # one start event per round row
    direction = pl.Series("engine_direction", directions, dtype=pl.Int64)
    return df.with_columns(direction, pl.col("status").cast(pl.String)), rules


@pytest.mark.parametrize(
    ("players", "preset", "target"),
    [
        (4, "classic-house", 0),  # apply, dealer-starts
        (4, "draw-until-playable", 0),  # apply, dealer-right-starts
        (5, "mattel-2001", 0),
        (4, "mattel-2001", 200),  # matches: the dealer rotates round by round
    ],
)
def test_derived_direction_matches_the_engine(players: int, preset: str, target: int) -> None:
    df, rules = _engine_frame(players, preset, 300 if target == 0 else 25, target)
    assert (df["first_player"] != 0).any()  # the opening card or the dealer moved the start
    if target:
        assert df["dealer"].n_unique() == players  # the dealer rotated through every seat
    assert (df["engine_direction"] == -1).any()  # some round opened with a Reverse
    derived = first_mover(df.lazy(), players, rules)
    truth = first_mover(
        df.lazy().with_columns(pl.col("engine_direction").alias("first_direction")),
        players,
        rules,
    )
    assert derived.wins == truth.wins
    won = df.filter(pl.col("status") == "won").select(
        pl.col("winner", "first_player").cast(pl.Int64), "engine_direction"
    )
    by_position = ((won["winner"] - won["first_player"]) * won["engine_direction"]) % players
    assert truth.wins == tuple(int((by_position == k).sum()) for k in range(players))
    assert math.isclose(sum(e.value for e in derived.positions or ()), 1.0)
    assert derived.first_wins == int((won["winner"] == won["first_player"]).sum())
    assert np.isclose(derived.seat0_first.value, float((won["first_player"] == 0).mean()))


def test_every_field_by_hand_with_the_default_rules() -> None:
    """No rules given: apply and dealer-starts, the presets' common reading."""
    lf = frame(first=[0, 1, 3, 3, 0, 1], dealer=[3] * 6, winner=[0, 2, 2, 3, 1, -1], players=4)
    f = first_mover(lf, 4)
    assert (f.players, f.n_won, f.fair, f.wins, f.note) == (4, 5, 0.25, (2, 3, 0, 0), None)
    assert f.edge.n == 5 and f.edge.high == pytest.approx(f.first.high - 0.25)
    assert f.positions is not None
    assert [p.value for p in f.positions] == pytest.approx([0.4, 0.6, 0.0, 0.0])
    assert all(p.n == 5 for p in f.positions)
    assert f.seat0_first.n == 5 and f.first.n == 5
    assert f.chi_square is not None
    assert f.chi_square.p == pytest.approx(st.chisquare([2, 3, 0, 0]).pvalue)


def test_the_ambiguous_table_says_why() -> None:
    rules = {"opening_action": "apply", "opening_reverse": "dealer-right-starts"}
    f = first_mover(frame([1], [2], [1], 3), 3, rules)
    assert f.note == (
        "3 players with opening_reverse: dealer-right-starts: a Skip or Draw Two start and a "
        "Reverse start both put the first turn two seats after the dealer, so the starting "
        "direction is unknown; only the first mover's share is reported"
    )
    assert f.wins is None and f.first_wins == 1 and f.edge_p == pytest.approx(1 / 3)


def test_three_players_are_unambiguous_otherwise() -> None:
    lf = frame(first=[2, 2], dealer=[2, 2], winner=[1, 1], players=3)  # offset 0
    # dealer-starts: offset 0 is a Reverse start, counterclockwise: seat 1 is position 1
    assert first_mover(lf, 3, {"opening_reverse": "dealer-starts"}).wins == (0, 2, 0)
    # redraw: always clockwise, even with dealer-right-starts: seat 1 is position 2
    f = first_mover(lf, 3, {"opening_action": "redraw", "opening_reverse": "dealer-right-starts"})
    assert f.note is None and f.wins == (0, 0, 2)


def test_the_direction_column_wins_over_the_rules() -> None:
    lf = frame(first=[0, 0], dealer=[3, 3], winner=[1, 3], players=4).with_columns(
        pl.Series("first_direction", [-1, -1])
    )
    # counterclockwise from seat 0: seat 3 is position 1, seat 1 is position 3
    assert first_mover(lf, 4, {"opening_action": "redraw"}).wins == (0, 1, 0, 1)
    plain = lf.drop("first_direction")
    assert first_mover(plain, 4, {"opening_action": "redraw"}).wins == (0, 1, 0, 1)
    one_way = lf.with_columns(pl.Series("first_direction", [1, -1]))
    assert first_mover(one_way, 4).wins == (0, 2, 0, 0)


def test_two_players_any_start() -> None:
    lf = frame(first=[1, 0, 1], dealer=[1, 1, 1], winner=[0, 0, 1], players=2)
    f = first_mover(lf, 2, {"opening_reverse": "dealer-starts"})
    assert f.wins == (2, 1) and f.first_wins == 2 and f.seat0_first.value == pytest.approx(1 / 3)


def test_no_won_round_is_a_one_line_error() -> None:
    from uno_stats.errors import ResultsError

    with pytest.raises(ResultsError, match=r"^no won rounds in these results \(empty results\?\)$"):
        first_mover(frame([0, 1], [3, 3], [-1, -1], 4), 4)

"""``drawn_card`` and the ``keep_drawn`` knob: a playable drawn card is played under
``must-play``, and under ``may-play`` a seat whose ``keep_drawn`` fires keeps it; an older
card is never played after drawing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from rules_helpers import kinds, plays, same_cards

from uno_stats.engine import EngineConfig, simulate
from uno_stats.engine import events as E
from uno_stats.engine.cards import card_id
from uno_stats.engine.scripted import play_position
from uno_stats.errors import ScenarioError
from uno_stats.scenario.load import load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[2]
NOTHING_PLAYABLE = [["blue 1", "blue 2", "blue 3"], ["green 1", "green 2"]]


@pytest.mark.parametrize("keep", [0.0, 0.5, 1.0])
def test_must_play_always_plays_the_drawn_playable_card(keep: float) -> None:
    for seed in range(8):
        pos = play_position(
            NOTHING_PLAYABLE,
            pile=["red 8", "green 9"],
            rules={"drawn_card": "must-play"},
            seats={"keep_drawn": keep},
            seed=seed,
        )
        assert plays(pos.events) == [(0, "red 8", E.PLAY_DRAWN)]
        assert pos.top == "red 8" and pos.hand_sizes() == [3, 2]
        assert kinds(pos.events, E.EV_KEEP).shape[0] == 0


def test_may_play_with_keep_drawn_keeps_the_card_and_ends_the_turn() -> None:
    pos = play_position(
        NOTHING_PLAYABLE,
        pile=["red 8", "green 9"],
        rules={"drawn_card": "may-play"},
        seats={"keep_drawn": 1.0},
    )
    assert plays(pos.events) == []
    assert pos.top == "red 5" and pos.current == 1 and pos.turns == 1
    assert same_cards(pos.hands[0], [*NOTHING_PLAYABLE[0], "red 8"])
    assert [list(r[1:3]) for r in kinds(pos.events, E.EV_KEEP)] == [[0, card_id("red 8")]]
    assert any(line == "  seat 0 keeps the drawn red 8" for line in pos.trace)


def test_after_drawing_no_older_card_is_played() -> None:
    # seat 0 holds a playable red 1 but draws instead; it keeps the playable drawn red 9 and
    # may not play the red 1 it held before drawing
    hands = [["red 1", "blue 2", "blue 3"], ["green 1", "green 2"]]
    pos = play_position(
        hands,
        pile=["red 9"],
        rules={"drawn_card": "may-play"},
        seats={"voluntary_draw": 1.0, "keep_drawn": 1.0},
    )
    assert plays(pos.events) == [] and pos.top == "red 5"
    assert same_cards(pos.hands[0], [*hands[0], "red 9"]) and pos.current == 1


def test_may_play_keeps_after_drawing_until_playable() -> None:
    pos = play_position(
        NOTHING_PLAYABLE,
        pile=["green 9", "yellow 1", "red 8", "blue 4"],
        rules={"draw": "until-playable", "drawn_card": "may-play"},
        seats={"keep_drawn": 1.0},
    )
    assert pos.top == "red 5" and pos.hand_sizes() == [6, 2] and pos.pile == ["blue 4"]


def test_keep_drawn_zero_plays_under_may_play() -> None:
    pos = play_position(NOTHING_PLAYABLE, pile=["red 8"], rules={"drawn_card": "may-play"})
    assert plays(pos.events) == [(0, "red 8", E.PLAY_DRAWN)]


def test_keep_drawn_is_a_probability() -> None:
    text = "name: x\nstrategies:\n  - keep_drawn: 1.5\n"
    with pytest.raises(ScenarioError, match="keep_drawn"):
        parse_scenario(text)
    assert parse_scenario("name: x\n").seats[0]["keep_drawn"] == 0.0


def test_forced_play_arms_differ() -> None:
    """The shipped scenario's two points play different games (it used to compare two runs
    identical by construction)."""
    points = load_scenario(ROOT / "scenarios" / "forced-play.yaml").sweep_points()
    assert [p.scenario.rules["drawn_card"] for p in points] == ["may-play", "must-play"]
    turns = [simulate(EngineConfig.from_scenario(p.scenario), 0, 200)["turns"] for p in points]
    assert not np.array_equal(*turns)
    assert turns[0].mean() > turns[1].mean()  # keeping drawn cards makes rounds longer

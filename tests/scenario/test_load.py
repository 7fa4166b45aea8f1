"""Scenario loading, validation, presets and sweeps (uno_stats.scenario.load)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from uno_stats.engine.rules import RULES_BY_KEY, preset_rules
from uno_stats.engine.strategy_table import KNOBS_BY_KEY, default_seat
from uno_stats.errors import ScenarioError
from uno_stats.scenario.load import (
    Scenario,
    load_scenario,
    parse_scenario,
    scenario_from_dict,
    with_overrides,
)

DATA = Path(__file__).parent / "data" / "scenarios"


def parse(text: str) -> Scenario:
    return parse_scenario(textwrap.dedent(text), "x.yaml")


def fails(text: str) -> ScenarioError:
    """The ScenarioError that ``text`` raises; also checks it is one line and names x.yaml."""
    with pytest.raises(ScenarioError) as info:
        parse(text)
    err = info.value
    assert err.file == "x.yaml"
    assert "\n" not in str(err)
    return err


# --- valid files --------------------------------------------------------------------------------


def test_minimal_file_gets_every_default() -> None:
    s = load_scenario(DATA / "minimal.yaml")
    assert s.name == "minimal"
    assert s.description == ""
    assert (s.players, s.games, s.seed) == (4, 10_000, 0)
    assert s.preset == "mattel-2022"
    assert s.rules == preset_rules("mattel-2022")
    assert s.seats == tuple(default_seat() for _ in range(4))
    assert s.match_target is None
    assert s.sweep is None
    assert s.source == str(DATA / "minimal.yaml")
    assert s.sweep_points() == []


def test_contract_example_loads() -> None:
    s = load_scenario(DATA / "stacking-on.yaml")
    assert s.name == "stacking-on"
    assert s.description == "Does stacking Draw Twos make rounds longer?"
    assert (s.players, s.games, s.seed, s.match_target) == (4, 200_000, 2026, 500)
    assert s.rules["stack_draw_two"] is True
    assert s.rules["scoring"] == "points"
    assert s.sweep == {"players": [2, 3, 4, 6, 8, 10], "rules.stack_draw_two": [False, True]}
    assert len(s.sweep_points()) == 12


def test_rules_hold_every_rule_key() -> None:
    s = parse("name: x\nrules: {stack_draw_two: true}\n")
    assert list(s.rules) == list(RULES_BY_KEY)


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        (
            "mattel-2022",
            {"wd4_restriction": "color-or-wild", "shuffle_hands_cards": 1, "custom_cards": 3},
        ),
        ("mattel-2001", {"wd4_restriction": "color", "uno_penalty": 4, "opening_action": "apply"}),
        ("classic-house", {"uno_penalty": 2, "shuffle_hands_cards": 0, "scoring": "points"}),
        (
            "draw-until-playable",
            {
                "draw": "until-playable",
                "wd4_challenge": False,
                "scoring": "none",
                "drawn_card": "must-play",
                "opening_reverse": "dealer-right-starts",
                "wd4_restriction": "color-or-number",
            },
        ),
    ],
)
def test_presets(preset: str, expected: dict) -> None:
    s = parse(f"name: x\nrules:\n  preset: {preset}\n")
    assert s.preset == preset
    for key, value in expected.items():
        assert s.rules[key] == value, key
        assert type(s.rules[key]) is type(value), key


def test_single_key_override_keeps_the_rest_of_the_preset() -> None:
    s = parse(
        """\
        name: x
        rules:
          preset: draw-until-playable
          wd4_challenge: true
          uno_penalty: 0
          hand_size: 5
        """
    )
    expected = preset_rules("draw-until-playable")
    expected.update(wd4_challenge=True, uno_penalty=0, hand_size=5)
    assert s.rules == expected


def test_one_strategies_entry_applies_to_every_seat() -> None:
    s = parse("name: x\nplayers: 3\nstrategies:\n  - {bluff: 0.25, challenge: always}\n")
    seat = {**default_seat(), "bluff": 0.25, "challenge": "always"}
    assert s.seats == (seat, seat, seat)
    assert s.seats[0] is not s.seats[1]


def test_per_seat_strategies() -> None:
    s = parse(
        """\
        name: x
        players: 2
        strategies:
          - {forget_uno: 1}
          - {strategy: random, mistake: 0.5}
        """
    )
    assert s.seats[0] == {**default_seat(), "forget_uno": 1.0}
    assert type(s.seats[0]["forget_uno"]) is float
    assert s.seats[1] == {**default_seat(), "mistake": 0.5}
    assert set(s.seats[1]) == {"strategy", *KNOBS_BY_KEY}


def test_yaml_12_scalars() -> None:
    s = parse("name: x\nstrategies: [{bluff: 1e-1}]\nrules: {jump_in: TRUE}\n")
    assert s.seats[0]["bluff"] == 0.1
    assert s.rules["jump_in"] is True


def test_partners_with_four_players_is_valid_without_match() -> None:
    s = parse("name: x\nplayers: 4\nrules: {scoring: partners}\n")
    assert s.rules["scoring"] == "partners"
    assert s.match_target is None


def test_match_target_default_and_explicit() -> None:
    assert parse("name: x\nmatch: {}\n").match_target == 500
    assert parse("name: x\nmatch:\n  target: 250\n").match_target == 250
    s = parse("name: x\nrules: {preset: draw-until-playable, scoring: low-score}\nmatch: {}\n")
    assert s.rules["scoring"] == "low-score"


def test_largest_table_that_fits() -> None:
    # classic-house: 108 cards; 9 x 11 = 99 fit, mattel-2022 adds 4 wilds: 112 > 10 x 11.
    assert parse("name: x\nplayers: 9\nrules: {preset: classic-house, hand_size: 11}\n")
    assert parse("name: x\nplayers: 10\nrules: {hand_size: 11}\n").players == 10


# --- errors: exact file, line, key and message --------------------------------------------------


def test_error_messages_match_the_brief() -> None:
    text = "name: x\ndescription: y\nplayers: 21\n"
    assert str(fails(text)) == "x.yaml:3: players: 21 is out of range: an integer from 2 to 20"
    text = "name: x\nrules:\n  preset: mattel-2022\n  jump_in: yes\n"
    assert str(fails(text)) == "x.yaml:4: rules.jump_in: 'yes' is not allowed: true or false"


def test_misspelt_rule_key_in_a_file() -> None:
    path = DATA / "misspelt-rule.yaml"
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    err = info.value
    assert (err.file, err.line, err.key) == (str(path), 7, "rules.stack_draw_to")
    assert (
        str(err) == f"{path}:7: rules.stack_draw_to: unknown key (did you mean 'stack_draw_two'?)"
    )


@pytest.mark.parametrize(
    ("text", "line", "key", "message"),
    [
        # top level
        ("name: x\nnmae: y\n", 2, "nmae", "unknown key (did you mean 'name'?)"),
        ("name: x\nzzz: 1\n", 2, "zzz", "allowed keys are name, description, players"),
        ("name: x\nstack_draw_two: true\n", 2, "stack_draw_two", "write it under rules:"),
        ("name: x\nbluff: 0.5\n", 2, "bluff", "write it in a strategies entry"),
        ("name: x\ntarget: 300\n", 2, "target", "match.target"),
        ("players: 4\n", None, "name", "missing"),
        ("name: Big_One\n", 1, "name", "'Big_One' is not allowed: lowercase letters, digits"),
        ("name: 2026\n", 1, "name", "2026 is not allowed"),
        ("name: x\ndescription: [a]\n", 2, "description", "is not allowed: text"),
        ("name: x\nplayers: 1\n", 2, "players", "1 is out of range: an integer from 2 to 20"),
        ("name: x\nplayers: 4.0\n", 2, "players", "4.0 is not allowed: an integer from 2 to 20"),
        ("name: x\nplayers: true\n", 2, "players", "true is not allowed"),
        ("name: x\nplayers:\n", 2, "players", "null is not allowed"),
        ("name: x\ngames: 0\n", 2, "games", "0 is out of range: an integer from 1 to 10000000000"),
        ("name: x\ngames: '100'\n", 2, "games", "'100' is not allowed: an integer from 1 to"),
        ("name: x\nseed: -1\n", 2, "seed", "-1 is out of range: an integer from 0 to"),
        # rules
        ("name: x\nrules: [a]\n", 2, "rules", "is not allowed: a mapping"),
        (
            "name: x\nrules:\n  preset: mattel-2023\n",
            3,
            "rules.preset",
            "did you mean 'mattel-2022'",
        ),
        ("name: x\nrules:\n  target: 300\n", 3, "rules.target", "match.target"),
        ("name: x\nrules:\n  players: 3\n", 3, "rules.players", "players is a top-level key"),
        ("name: x\nrules:\n  jump_in: 1\n", 3, "rules.jump_in", "1 is not allowed: true or false"),
        ("name: x\nrules:\n  jump_in: 'true'\n", 3, "rules.jump_in", "'true' is not allowed"),
        ("name: x\nrules:\n  seven_zero: on\n", 3, "rules.seven_zero", "'on' is not allowed"),
        (
            "name: x\nrules:\n  uno_penalty: 3\n",
            3,
            "rules.uno_penalty",
            "3 is not allowed: 2, 4, 0",
        ),
        ("name: x\nrules:\n  uno_penalty: 2.0\n", 3, "rules.uno_penalty", "2.0 is not allowed"),
        ("name: x\nrules:\n  uno_penalty: '2'\n", 3, "rules.uno_penalty", "'2' is not allowed"),
        (
            "name: x\nrules:\n  invalid_play_penalty: true\n",
            3,
            "rules.invalid_play_penalty",
            "true is not allowed: 0, 1, 2",
        ),
        (
            "name: x\nrules:\n  draw: until_playable\n",
            3,
            "rules.draw",
            "'until_playable' is not allowed: one, until-playable (did you mean 'until-playable'?)",
        ),
        ("name: x\nrules:\n  hand_size: 7.5\n", 3, "rules.hand_size", "an integer from 1 to 20"),
        ("name: x\nrules:\n  hand_size: 0\n", 3, "rules.hand_size", "0 is out of range"),
        ("name: x\nrules:\n  max_turns: 5\n", 3, "rules.max_turns", "from 10 to 1000000"),
        # strategies
        ("name: x\nstrategies: random\n", 2, "strategies", "'random' is not allowed: a list"),
        ("name: x\nstrategies: []\n", 2, "strategies", "[] is not allowed: a list"),
        ("name: x\nstrategies:\n  - random\n", 3, "strategies[0]", "is not allowed: a mapping"),
        (
            "name: x\nplayers: 4\nstrategies:\n  - {}\n  - {}\n",
            3,
            "strategies",
            "2 entries for 4 players: give 1 entry (for every seat) or 4 (one per seat)",
        ),
        (
            "name: x\nplayers: 2\nstrategies:\n  - {}\n  - strategy: smart\n",
            5,
            "strategies[1].strategy",
            "'smart' is not allowed: random",
        ),
        (
            "name: x\nplayers: 2\nstrategies:\n  - {}\n  - bluf: 0.1\n",
            5,
            "strategies[1].bluf",
            "unknown key (did you mean 'bluff'?)",
        ),
        (
            "name: x\nstrategies:\n  - challenge: smrt\n",
            3,
            "strategies[0].challenge",
            "'smrt' is not allowed: never, always, smart (did you mean 'smart'?)",
        ),
        (
            "name: x\nstrategies:\n  - strategy: random\n    bluff: 1.5\n",
            4,
            "strategies[0].bluff",
            "1.5 is out of range: a probability from 0 to 1",
        ),
        ("name: x\nstrategies:\n  - mistake: .nan\n", 3, "strategies[0].mistake", "out of range"),
        ("name: x\nstrategies:\n  - mistake: no\n", 3, "strategies[0].mistake", "'no' is not"),
        ("name: x\nstrategies:\n  - mistake: true\n", 3, "strategies[0].mistake", "true is not"),
        # match
        (
            "name: x\nmatch: 500\n",
            2,
            "match",
            "500 is not allowed: a mapping such as {target: 500}",
        ),
        ("name: x\nmatch:\n  taget: 5\n", 3, "match.taget", "did you mean 'target'"),
        ("name: x\nmatch:\n  target: 0\n", 3, "match.target", "an integer from 1 to 100000"),
    ],
)
def test_value_errors(text: str, line: int | None, key: str, message: str) -> None:
    err = fails(text)
    assert (err.line, err.key) == (line, key)
    assert message in err.detail


def test_line_of_a_value_below_its_key() -> None:
    err = fails("name: x\nrules:\n  stack_draw_two:\n    maybe\n")
    assert (err.line, err.key) == (4, "rules.stack_draw_two")


def test_table_larger_than_the_deck() -> None:
    err = fails("name: x\nplayers: 10\nrules:\n  preset: classic-house\n  hand_size: 11\n")
    assert (err.line, err.key) == (5, "rules.hand_size")
    assert err.detail.startswith("10 players x rules.hand_size 11 = 110 cards dealt")
    assert "deck holds 108" in err.detail
    # Exactly the deck size is not allowed either; the default hand size names players.
    err = fails("name: x\nplayers: 9\nrules:\n  preset: classic-house\n  hand_size: 12\n")
    assert "108 cards dealt, but the deck holds 108" in err.detail
    extra = "  shuffle_hands_cards: 4\n  custom_cards: 4\n"
    assert parse(f"name: x\nplayers: 9\nrules:\n  hand_size: 12\n{extra}").rules["hand_size"] == 12


def test_partners_needs_four_players() -> None:
    err = fails("name: x\nplayers: 3\nrules:\n  scoring: partners\n")
    assert (err.line, err.key) == (4, "rules.scoring")
    assert err.detail == "partners needs exactly 4 players, not 3"


def test_match_without_scoring() -> None:
    err = fails("name: x\nrules:\n  preset: draw-until-playable\nmatch:\n  target: 100\n")
    assert (err.line, err.key) == (4, "match")
    assert "not none (preset draw-until-playable scores none)" in err.detail
    err = fails("name: x\nrules:\n  scoring: none\nmatch: {}\n")
    assert (err.line, err.key) == (4, "match")
    assert "preset" not in err.detail


def test_duplicate_keys() -> None:
    err = fails("name: x\nplayers: 4\ngames: 5\nplayers: 5\n")
    assert (err.line, err.key) == (4, "players")
    assert err.detail == "duplicate key (first given on line 2)"
    err = fails("name: x\nrules:\n  jump_in: true\n  seven_zero: true\n  jump_in: false\n")
    assert (err.line, err.key) == (5, "rules.jump_in")


def test_malformed_yaml() -> None:
    err = fails("name: x\nplayers: 4\n  games: 3\n")
    assert (err.line, err.key) == (3, None)
    assert err.detail == "invalid YAML: mapping values are not allowed here"
    assert str(err) == "x.yaml:3: invalid YAML: mapping values are not allowed here"
    err = fails("name: x\nrules: {jump_in: true\nplayers: 3\n")
    assert err.detail.startswith("invalid YAML: ")
    err = fails("name: x\n---\nname: y\n")
    assert err.line == 2
    assert err.detail == (
        "invalid YAML: expected a single document in the stream, but found another document"
    )


def test_unsafe_tags_are_refused() -> None:
    err = fails("name: x\nseed: !!python/object/apply:os.getpid []\n")
    assert (err.line, err.key) == (2, "seed")
    assert (
        err.detail
        == "invalid YAML: tag tag:yaml.org,2002:python/object/apply:os.getpid is not allowed"
    )
    err = fails("name: x\nseed: !!python/name:os.getpid ''\n")
    assert (err.line, err.key) == (2, None)
    assert "could not determine a constructor" in err.detail
    assert parse("name: x\ndescription: !!str 42\n").description == "42"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", None, "the file is empty: a scenario needs at least a name"),
        ("# only a comment\n", None, "the file is empty"),
        ("- name: x\n", 1, "the top level must be a mapping (name: ..., players: ...), not a list"),
        ("just text\n", 1, "not text"),
    ],
)
def test_top_level_not_a_mapping(text: str, line: int | None, message: str) -> None:
    err = fails(text)
    assert (err.line, err.key) == (line, None)
    assert message in err.detail


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert (info.value.file, info.value.line, info.value.detail) == (
        str(path),
        None,
        "file not found",
    )
    assert str(info.value) == f"{path}: file not found"


def test_scenario_from_dict_has_no_lines() -> None:
    s = scenario_from_dict({"name": "nb", "players": 3, "rules": {"jump_in": True}})
    assert (s.players, s.rules["jump_in"], s.source) == (3, True, "<dict>")
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict({"name": "nb", "rules": {"jump_inn": True}})
    err = info.value
    assert (err.file, err.line, err.key) == ("<dict>", None, "rules.jump_inn")
    assert str(err) == "<dict>: rules.jump_inn: unknown key (did you mean 'jump_in'?)"


# --- sweeps -------------------------------------------------------------------------------------


def test_sweep_expands_in_file_order_first_axis_slowest() -> None:
    s = load_scenario(DATA / "stacking-on.yaml")
    points = s.sweep_points()
    assert [p.assignment for p in points[:3]] == [
        {"players": 2, "rules.stack_draw_two": False},
        {"players": 2, "rules.stack_draw_two": True},
        {"players": 3, "rules.stack_draw_two": False},
    ]
    assert points[0].label == "players-2_stack_draw_two-false"
    assert points[-1].label == "players-10_stack_draw_two-true"
    assert len({p.label for p in points}) == 12
    last = points[-1].scenario
    assert (last.players, last.rules["stack_draw_two"], len(last.seats)) == (10, True, 10)
    assert (last.name, last.sweep, last.games, last.match_target) == (
        "stacking-on",
        None,
        200_000,
        500,
    )
    assert last.sweep_points() == []


def test_sweep_over_strategies_and_preset() -> None:
    s = parse(
        """\
        name: x
        players: 2
        rules:
          jump_in: true
        strategies:
          - {bluff: 0.5}
          - {challenge: always}
        sweep:
          rules.preset: [mattel-2001, draw-until-playable]
          strategies.challenge: [never, smart]
          strategies.forget_uno: [0, 0.25]
        """
    )
    points = s.sweep_points()
    assert len(points) == 8
    assert points[3].label == "preset-mattel-2001_challenge-smart_forget_uno-0.25"
    p = points[-1].scenario
    assert p.preset == "draw-until-playable"
    assert (p.rules["draw"], p.rules["jump_in"]) == ("until-playable", True)
    assert [seat["challenge"] for seat in p.seats] == ["smart", "smart"]
    assert [seat["bluff"] for seat in p.seats] == [0.5, 0.0]
    assert points[0].assignment["strategies.forget_uno"] == 0.0
    assert s.sweep["strategies.forget_uno"] == [0.0, 0.25]
    # The resolved form keeps only the file's rule keys, so each point keeps its own preset.
    d = s.to_dict()
    assert d["rules"] == {"preset": "mattel-2022", "jump_in": True}
    again = scenario_from_dict(d, source="x.yaml")
    assert again == s
    assert [p.scenario for p in again.sweep_points()] == [p.scenario for p in points]


@pytest.mark.parametrize(
    ("sweep", "line", "key", "message"),
    [
        ("  player: [2, 3]\n", 3, "sweep.player", "unknown sweep axis (did you mean 'players'?)"),
        (
            "  rules.stack_draw_to: [true]\n",
            3,
            "sweep.rules.stack_draw_to",
            "'rules.stack_draw_two'",
        ),
        ("  strategies.blf: [0.1]\n", 3, "sweep.strategies.blf", "did you mean 'strategies.bluff'"),
        ("  players: []\n", 3, "sweep.players", "[] is not allowed: a non-empty list"),
        ("  players: 4\n", 3, "sweep.players", "4 is not allowed: a non-empty list"),
        ("  players: [2, 21]\n", 3, "sweep.players", "21 is out of range: an integer from 2 to 20"),
        ("  rules.jump_in: [false, yes]\n", 3, "sweep.rules.jump_in", "'yes' is not allowed"),
        ("  rules.preset: [mattel]\n", 3, "sweep.rules.preset", "did you mean 'mattel-2022'"),
        ("  strategies.strategy: [rnd]\n", 3, "sweep.strategies.strategy", "'rnd' is not allowed"),
        ("  strategies.bluff: [0, 2]\n", 3, "sweep.strategies.bluff", "2 is out of range"),
        ("  strategies.1.strategy: [rnd]\n", 3, "sweep.strategies.1.strategy", "'rnd' is not"),
        ("  strategies.0.rollout: [4]\n", 3, "sweep.strategies.0.rollout", "unknown sweep axis"),
        ("  strategies.20.bluff: [0]\n", 3, "sweep.strategies.20.bluff", "unknown sweep axis"),
        ("  strategies.4.bluff: [0]\n", 3, "sweep.strategies.4.bluff", "seat 4, but the table"),
        ("  players: [2, 3, 2]\n", 3, "sweep.players", "2 is listed twice"),
        ("  players:\n    - 2\n    - 3\n    - 21\n", 6, "sweep.players", "21 is out of range"),
    ],
)
def test_sweep_errors(sweep: str, line: int, key: str, message: str) -> None:
    err = fails(f"name: x\nsweep:\n{sweep}")
    assert (err.line, err.key) == (line, key)
    assert message in err.detail


def test_a_sweep_of_one_seats_strategy_changes_that_seat_only() -> None:
    """``strategies.<seat>.<key>``: the seat (from 0) takes each value, the others keep
    theirs; a single entry is first copied to every seat; every point plays the same deals."""
    sc = parse(
        """
        name: x
        players: 3
        seed: 9
        strategies:
          - strategy: random
            bluff: 0.5
        sweep:
          strategies.1.strategy: [basic, search]
          strategies.2.rollouts: [4, 16]
        """
    )
    points = sc.sweep_points()
    assert [p.label for p in points] == [
        "strategy-basic_rollouts-4",
        "strategy-basic_rollouts-16",
        "strategy-search_rollouts-4",
        "strategy-search_rollouts-16",
    ]
    seats = points[3].scenario.seats
    assert [s["strategy"] for s in seats] == ["random", "search", "random"]
    assert [s["rollouts"] for s in seats] == [
        KNOBS_BY_KEY["rollouts"].default,
        KNOBS_BY_KEY["rollouts"].default,
        16,
    ]
    assert all(s["bluff"] == 0.5 for s in seats)
    assert {p.scenario.seed for p in points} == {9}
    per_seat = parse(
        """
        name: x
        players: 2
        strategies: [{strategy: hoarder}, {strategy: aggressive}]
        sweep: {strategies.0.strategy: [random, basic]}
        """
    ).sweep_points()
    assert [[s["strategy"] for s in p.scenario.seats] for p in per_seat] == [
        ["random", "aggressive"],
        ["basic", "aggressive"],
    ]


def test_empty_sweep() -> None:
    err = fails("name: x\nsweep: {}\n")
    assert (err.line, err.key) == (2, "sweep")
    assert "needs at least one axis" in err.detail


def test_sweep_over_players_needs_one_strategies_entry() -> None:
    text = "name: x\nplayers: 2\nstrategies:\n  - {}\n  - {}\nsweep:\n  players: [2, 4]\n"
    err = fails(text)
    assert (err.line, err.key) == (7, "sweep.players")
    assert "cannot sweep players with 2 per-seat strategies" in err.detail


def test_every_sweep_point_must_be_valid() -> None:
    text = "name: x\nrules:\n  hand_size: 12\nsweep:\n  players: [2, 9, 10]\n"
    err = fails(text)
    assert (err.line, err.key) == (3, "rules.hand_size")
    assert "10 players x rules.hand_size 12 = 120 cards dealt" in err.detail
    assert err.detail.endswith("(sweep point players-10)")
    err = fails("name: x\nplayers: 10\nsweep:\n  rules.hand_size: [7, 12]\n")
    assert (err.line, err.key) == (4, "sweep.rules.hand_size")
    assert err.detail.endswith("(sweep point hand_size-12)")
    err = fails("name: x\nmatch: {}\nsweep:\n  rules.preset: [mattel-2001, draw-until-playable]\n")
    assert (err.line, err.key) == (2, "match")
    assert err.detail.endswith("(sweep point preset-draw-until-playable)")
    err = fails("name: x\nsweep:\n  players: [3, 4]\n  rules.scoring: [points, partners]\n")
    assert (err.line, err.key) == (4, "sweep.rules.scoring")
    assert (
        err.detail
        == "partners needs exactly 4 players, not 3 (sweep point players-3_scoring-partners)"
    )


def test_sweep_may_fix_what_the_file_leaves_invalid() -> None:
    text = "name: x\nrules: {preset: draw-until-playable}\nmatch: {}\nsweep:\n  rules.scoring: [points, low-score]\n"
    s = parse(text)
    assert [p.scenario.rules["scoring"] for p in s.sweep_points()] == ["points", "low-score"]


# --- to_dict and overrides ----------------------------------------------------------------------


def test_to_dict_is_json_and_reloads() -> None:
    s = load_scenario(DATA / "stacking-on.yaml")
    d = s.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["rules"]["preset"] == "mattel-2022"
    assert d["rules"]["stack_draw_two"] is True
    assert d["match"] == {"target": 500}
    assert d["sweep"] == {"players": [2, 3, 4, 6, 8, 10], "rules.stack_draw_two": [False, True]}
    assert d["strategies"] == [default_seat()]
    again = scenario_from_dict(d, source=s.source)
    assert again == s
    assert [p.label for p in again.sweep_points()] == [p.label for p in s.sweep_points()]
    point = s.sweep_points()[0].scenario.to_dict()
    assert "sweep" not in point
    assert json.loads(json.dumps(point))["players"] == 2


def test_to_dict_keeps_per_seat_strategies() -> None:
    s = parse("name: x\nplayers: 2\nstrategies:\n  - {bluff: 0.5}\n  - {}\n")
    d = s.to_dict()
    assert d["strategies"] == [{**default_seat(), "bluff": 0.5}, default_seat()]
    assert "match" not in d
    assert scenario_from_dict(d, source="x.yaml") == s


def test_with_overrides() -> None:
    s = load_scenario(DATA / "stacking-on.yaml")
    t = with_overrides(s, games=50, seed=7)
    assert (t.games, t.seed, t.players) == (50, 7, 4)
    assert (s.games, s.seed) == (200_000, 2026)
    assert {(p.scenario.games, p.scenario.seed) for p in t.sweep_points()} == {(50, 7)}
    assert with_overrides(s) is s
    assert with_overrides(s, seed=0).games == 200_000
    with pytest.raises(ScenarioError) as info:
        with_overrides(s, games=0)
    assert (info.value.key, info.value.file) == ("games", s.source)
    assert "0 is out of range: an integer from 1 to 10000000000" in info.value.detail
    with pytest.raises(ScenarioError):
        with_overrides(s, seed=-3)


def test_seating_random_loads_also_in_a_tournament() -> None:
    s = parse(
        """
        name: t
        players: 4
        rules: {preset: classic-house, seating: random}
        """
    )
    assert s.rules["seating"] == "random"
    assert parse("name: t\n").rules["seating"] == "fixed"
    t = parse(
        """
        name: t
        players: 2
        rules: {preset: classic-house, seating: random}
        tournament: [basic, random, hoarder]
        """
    )
    tables = [[seat["strategy"] for seat in p.scenario.seats] for p in t.sweep_points()]
    assert tables == [["basic", "random"], ["basic", "hoarder"], ["random", "hoarder"]]
    assert all(p.scenario.rules["seating"] == "random" for p in t.sweep_points())
    err = fails("name: t\nrules: {seating: shuffled}\n")
    assert "fixed, random" in str(err)


# --- designs (SCENARIO.md design:) ----------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
SEVEN_TOGGLES = textwrap.dedent(
    """\
    name: x
    sweep:
      rules.jump_in: [false, true]
      rules.seven_zero: [false, true]
      rules.stack_draw_two: [false, true]
      rules.draw: [one, until-playable]
      rules.no_action_finish: [false, true]
      rules.drawn_card: [may-play, must-play]
      rules.deflect: [false, true]
    """
)


def test_fractional_sweep_points_are_the_design_rows_in_order() -> None:
    from uno_stats.scenario.designs import fractional_design

    s = parse_scenario(SEVEN_TOGGLES + "design: {type: fractional, resolution: 4}\n")
    points = s.sweep_points()
    design = fractional_design(list(s.sweep or {}), 4)
    assert len(points) == 16
    assert s.sweep is not None and s.design == {"type": "fractional", "resolution": 4}
    values = list(s.sweep.values())
    for point, row in zip(points, design.levels.tolist(), strict=True):
        assert list(point.assignment.values()) == [values[j][i] for j, i in enumerate(row)]
        assert point.scenario.seed == s.seed and point.scenario.games == s.games  # same deals
    assert points[0].label == (
        "jump_in-false_seven_zero-false_stack_draw_two-false_draw-one_no_action_finish-false"
        "_drawn_card-may-play_deflect-false"
    )
    assert points[1].assignment["rules.no_action_finish"] is True  # E = ABC at A+ B- C-
    assert points[1].scenario.rules["draw"] == "one"
    assert s.sweep_design() is not None and s.sweep_design().generators == design.generators


def test_design_full_is_todays_product(tmp_path: Path) -> None:
    """design: full (or {type: full}) gives the shipped sweep's points: same labels, same
    order, same scenarios; and the resolved form (so the results folder's hash) is the same."""
    shipped = ROOT / "scenarios" / "players-sweep.yaml"
    before = load_scenario(shipped)
    for design in ("design: full\n", "design: {type: full}\n"):
        path = tmp_path / "full.yaml"
        path.write_text(shipped.read_text() + design)
        after = load_scenario(path)
        assert after.design is None and after.to_dict() == before.to_dict()
        assert [(p.label, p.assignment, p.scenario.to_dict()) for p in after.sweep_points()] == [
            (p.label, p.assignment, p.scenario.to_dict()) for p in before.sweep_points()
        ]
    design = before.sweep_design()
    assert design is not None and design.kind == "full"
    values = list((before.sweep or {}).values())
    assert [list(p.assignment.values()) for p in before.sweep_points()] == [
        [values[j][i] for j, i in enumerate(row)] for row in design.levels.tolist()
    ]


def test_design_reloads_from_to_dict_and_with_overrides_keeps_points() -> None:
    s = parse_scenario(SEVEN_TOGGLES + "design: {type: fractional, resolution: 3}\n")
    d = s.to_dict()
    assert d["design"] == {"type": "fractional", "resolution": 3}
    again = scenario_from_dict(json.loads(json.dumps(d)), source="x.yaml")
    assert [p.label for p in again.sweep_points()] == [p.label for p in s.sweep_points()]
    r = parse_scenario(SEVEN_TOGGLES + "seed: 5\ndesign: {type: random, points: 10}\n")
    assert r.design == {"type": "random", "points": 10, "seed": 5}
    moved = with_overrides(r, seed=9, games=50)
    assert [p.assignment for p in moved.sweep_points()] == [p.assignment for p in r.sweep_points()]
    assert {p.scenario.seed for p in moved.sweep_points()} == {9}
    assert moved.to_dict()["design"]["seed"] == 5
    other = parse_scenario(SEVEN_TOGGLES + "seed: 5\ndesign: {type: random, points: 10, seed: 6}\n")
    assert [p.assignment for p in other.sweep_points()] != [p.assignment for p in r.sweep_points()]


def test_random_design_over_many_valued_axes() -> None:
    s = parse(
        """\
        name: x
        sweep:
          players: [2, 3, 4, 5, 6]
          rules.hand_size: [5, 7]
        design: {type: random, points: 5}
        """
    )
    points = s.sweep_points()
    assert sorted(p.assignment["players"] for p in points) == [2, 3, 4, 5, 6]
    assert len({p.label for p in points}) == 5


def test_long_labels_become_point_numbers() -> None:
    keys = [
        "jump_in", "seven_zero", "stack_draw_two", "stack_draw_four", "stack_cross", "deflect",
        "no_action_finish", "multi_play_actions", "stack_victim_skips", "final_penalty",
        "voluntary_draw", "two_player_rules", "reshuffle", "wd4_challenge",
    ]  # fmt: skip
    axes = "".join(f"  rules.{k}: [false, true]\n" for k in keys)
    s = parse_scenario(f"name: x\nsweep:\n{axes}design: {{type: fractional, resolution: 5}}\n")
    points = s.sweep_points()
    assert len(points) == 256  # over the 1,000-point limit of the full product (16,384)
    assert [p.label for p in points[:2]] == ["point-001", "point-002"]
    # 2^(14-6): the first run has the 8 base factors at their first values; a generated
    # factor is the product of its generator's -1s: +1 (true) for an even count (M=ABCDFH)
    first = points[0].assignment
    assert [first[f"rules.{k}"] for k in keys[:8]] == [False] * 8
    assert first["rules.two_player_rules"] is True


@pytest.mark.parametrize(
    ("extra", "sweep", "key", "message"),
    [
        ("design: {type: fractional, resolution: 4}", "  players: [2, 3, 4]\n", "design.type",
         "fractional needs exactly two values on every sweep axis: players has 3"),
        ("design: {type: fractionl, resolution: 4}", "", "design.type",
         "'fractionl' is not allowed: full, fractional or random (did you mean 'fractional'?)"),
        ("design: {type: fractional, resolution: 6}", "", "design.resolution",
         "6 is not allowed: 3, 4 or 5"),
        ("design: {type: fractional, resolution: '4'}", "", "design.resolution", "'4' is not"),
        ("design: {type: fractional}", "", "design", "missing resolution: 3, 4 or 5"),
        ("design: {resolution: 4}", "", "design", "missing type"),
        ("design: {type: fractional, resolution: 4, points: 3}", "", "design.points",
         "unknown key"),
        ("design: 3", "", "design", "3 is not allowed: full, {type: fractional"),
        ("design: fractional", "", "design", "'fractional' is not allowed"),
        ("design: {type: random, points: 1}", "", "design.points", "1 is out of range"),
        ("design: {type: random, points: 5}", "", "design.points", "from 2 to 4 (the full"),
        ("design: {type: random, points: 3, seed: -1}", "", "design.seed", "out of range"),
    ],
)  # fmt: skip
def test_design_errors(extra: str, sweep: str, key: str, message: str) -> None:
    axes = sweep or "  rules.jump_in: [false, true]\n  rules.deflect: [false, true]\n"
    err = fails(f"name: x\nsweep:\n{axes}{extra}\n")
    assert err.key == key
    assert err.line == len(f"name: x\nsweep:\n{axes}".splitlines()) + 1
    assert message in err.detail


def test_design_needs_a_sweep_and_too_many_factors_are_refused() -> None:
    err = fails("name: x\ndesign: full\n")
    assert (err.line, err.key) == (2, "design")
    assert "chooses the points of a sweep" in err.detail
    keys = sorted(k for k, spec in RULES_BY_KEY.items() if spec.kind == "bool")  # 14
    axes = "".join(f"  rules.{k}: [false, true]\n" for k in keys)
    knob = "  strategies.strategy: [basic, random]\n  rules.draw: [one, until-playable]\n"
    knob += "  rules.drawn_card: [may-play, must-play]\n"
    assert len(keys) == 14
    err = fails(f"name: x\nsweep:\n{axes}{knob}design:\n  type: fractional\n  resolution: 4\n")
    assert (err.key, err.line) == ("design.resolution", 22)
    assert err.detail.startswith("17 two-level axes at resolution 4: the tabulated designs")
    assert "16 at resolution 4, 15 at resolution 5" in err.detail


def test_a_design_in_error_adds_no_error_about_the_full_product() -> None:
    keys = sorted(k for k, spec in RULES_BY_KEY.items() if spec.kind == "bool")[:11]
    axes = "".join(f"  rules.{k}: [false, true]\n" for k in keys)  # 2,048 points in full
    axes += "  rules.max_turns: [" + ", ".join(str(10 + i) for i in range(50)) + "]\n"
    err = fails(f"name: x\nsweep:\n{axes}design: {{type: fractional, resolution: 7}}\n")
    assert err.key == "design.resolution"  # the only error: not also "2,048 points"
    full = fails(f"name: x\nsweep:\n{axes}design: full\n")
    assert (full.key, full.detail) == (
        "sweep",
        "2 x 2 x 2 x 2 x 2 x 2 x 2 x 2 x 2 x 2 x 2 x 50 = 102,400 points: at most 100,000",
    )

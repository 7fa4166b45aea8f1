"""The ``search`` strategy (issue 26): legal, deterministic, blind to hidden cards, stronger.

Its look-ahead (:mod:`uno_stats.engine.search`) deals the cards its seat cannot see afresh
for each rollout, from public facts only; the information tests below swap the hidden cards
(and whether a pending Wild Draw Four was legal) for another assignment consistent with the
public record and require the same search, at every kind of decision it searches, and a
control shows the search does depend on the dealt cards (so a peeking search would fail).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import scenarios

from uno_stats.check.games import check_played_game
from uno_stats.engine import EngineConfig, _new_table, engine_seats, simulate, trace_game
from uno_stats.engine.cards import card_id, card_name
from uno_stats.engine.memory_row import FORCE_CARD, FORCE_CHALLENGE, FORCE_SLOTS, record_play
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.scripted import play_position
from uno_stats.engine.search import (
    SCALE,
    VALUE_POWER,
    W_MOVES,
    W_SQUARES,
    effective_size,
    position_value,
    search_penalty,
    search_turn,
    significant,
)
from uno_stats.engine.search_moves import BLUFF_BIT, WHAT_MASK
from uno_stats.engine.state import (
    EVENT_FIELDS,
    RNG_SEARCH,
    ST_BLUFF,
    ST_COLOR,
    ST_CUR,
    ST_DIR,
    ST_DISC_N,
    ST_OUT,
    ST_PEND_CARDS,
    ST_PEND_KIND,
    ST_PENDING,
    ST_PILE_N,
    ST_STATUS,
    ST_WD4_LEGAL,
    ST_WD4_PLAYER,
    ST_WD4_PREV_COLOR,
    ST_WD4_PREV_TOP,
    ST_WINNER,
    T_MEMORY,
    table_rows,
)
from uno_stats.engine.strategy_table import (
    HORIZONS,
    INFERENCES,
    MOVE_SETS,
    ROLLOUT_POLICIES,
    S_KIND,
    default_seat,
    strategy_id,
)

PLAYERS = 4


def _seat(strategy: str = "search", **knobs) -> dict:
    return {**default_seat(), "strategy": strategy, **knobs}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.data())
def test_search_plays_only_legal_moves_under_any_rules(scenario, data) -> None:
    """Every decision searched (bluffs, challenges, stacking or declining, 7 targets,
    drawing instead) under random rule combinations, checked by the independent replay."""
    players, rules, seats, target, seed, deck = scenario
    rules["max_turns"] = min(rules["max_turns"], 400)  # bounded work: rollouts play it out
    for s in data.draw(st.sets(st.integers(0, players - 1), min_size=1, max_size=3)):
        seats[s] = {
            **seats[s],
            "strategy": "search",
            "rollouts": data.draw(st.sampled_from([1, 2])),
            "rollout_policy": data.draw(st.sampled_from(ROLLOUT_POLICIES)),
            "max_candidates": data.draw(st.sampled_from([2, 3, 8])),
            "search_moves": data.draw(st.sampled_from(MOVE_SETS)),
            "horizon": data.draw(st.sampled_from(HORIZONS)),
            "prior": data.draw(st.sampled_from(["basic", "none"])),
            "allocation": data.draw(st.sampled_from(["halving", "equal"])),
            "opponent_model": data.draw(st.sampled_from(["declared", "own-policy"])),
            "inference": data.draw(st.sampled_from(INFERENCES)),
        }
    config = EngineConfig.build(players, rules, seats, target, seed, deck)
    before = config.seats.copy()
    problems = check_played_game(config, 0, max_events=60_000)
    assert not problems, "\n".join(str(p) for p in problems[:5])
    assert np.array_equal(config.seats, before)  # the rollout seats are a copy's


def test_search_is_deterministic_for_any_split_of_the_games() -> None:
    """Each game replays alike whatever chunk (or worker) plays it."""
    rules = preset_rules("mattel-2001")
    seats = [_seat(rollouts=2), _seat("basic"), _seat(rollouts=2, rollout_policy="random")]
    config = EngineConfig.build(3, rules, seats, seed=7)
    whole = simulate(config, 0, 30)
    parts = [simulate(config, 0, 11), simulate(config, 11, 19)]
    for name, column in whole.items():
        joined = np.concatenate([p[name] for p in parts])
        assert np.array_equal(column, joined), name


def test_search_runs_alike_on_one_worker_and_on_two(tmp_path) -> None:
    """A run with search seats writes the same rows whatever the worker count."""
    from uno_stats.run.runner import run_scenario
    from uno_stats.scenario.load import parse_scenario
    from uno_stats.store.runs import open_runs

    text = (
        "name: w\nplayers: 3\ngames: 60\nseed: 5\nrules: {preset: mattel-2001, seating: random}\n"
        "strategies: [{strategy: search, rollouts: 2}, {strategy: random}, {strategy: basic}]\n"
    )
    frames = []
    for workers in (1, 2):
        scenario = parse_scenario(text, "w.yaml")
        run_scenario(
            scenario, tmp_path / str(workers), workers=workers, chunk_size=7, progress=False
        )
        (run,) = open_runs(tmp_path / str(workers) / "w")
        frames.append(run.scan().sort("game").collect())
    assert frames[0].height == 60 and frames[0].equals(frames[1])


def test_search_seats_keep_their_strategy_id() -> None:
    assert strategy_id("search") == len(ROLLOUT_POLICIES)
    config = EngineConfig.build(2, preset_rules("mattel-2001"), [_seat(), _seat("basic")], seed=1)
    simulate(config, 0, 5)
    assert config.seats[0, S_KIND] == strategy_id("search")
    seats = engine_seats(config.seats)
    assert seats.shape[0] == 4 and np.array_equal(seats[:2], config.seats)


# --- information: the search sees the public record and its own hand only --------------------


def _position(seed: int, rules: dict | None = None, **knobs):
    """A random mid-round table: seat 0 (search) to act, the rest basic."""
    resolved = preset_rules("mattel-2001")
    resolved.update(rules or {})
    seats = [_seat(rollouts=4, **knobs)] + [_seat("basic")] * (PLAYERS - 1)
    config = EngineConfig.build(PLAYERS, resolved, seats, seed=seed)
    table = _new_table(config)
    gen = np.random.default_rng(seed)
    deck = gen.permutation(config.deck)
    at = 0
    for s, size in enumerate(gen.integers(2, 9, size=PLAYERS)):
        table.hands[s, :size] = deck[at : at + size]
        table.hn[s] = size
        at += size
    discards = int(gen.integers(1, 30))
    table.disc[:discards] = deck[at : at + discards]
    at += discards
    rest = deck[at:]
    table.pile[: len(rest)] = rest
    table.st[ST_PILE_N] = len(rest)
    table.st[ST_DISC_N] = discards
    table.st[ST_COLOR] = int(gen.integers(0, 4))
    table.st[ST_DIR] = 1 if gen.random() < 0.5 else -1
    table.st[ST_CUR] = 0
    table.st[ST_STATUS] = -1
    table.st[ST_WINNER] = -1
    top, card, color = int(table.disc[max(0, discards - 2)]), int(table.disc[discards - 1]), 0
    for s in range(1, PLAYERS):  # each opponent's last play, public: inference reads it
        record_play(table.tab[T_MEMORY], s, card, top, color, color, int(table.hn[s]), True)
    return config, table, gen


def _pending_wd4(table, gen) -> None:
    """Seat 0 owes a fresh Wild Draw Four played by the seat before it (challengeable): a
    Wild Draw Four of the hidden cards (a hand's is replaced by the pile's top) goes on top."""
    wd4 = card_id("Wild Draw Four")
    accused = PLAYERS - 1 if table.st[ST_DIR] > 0 else 1
    pile_n = int(table.st[ST_PILE_N])
    spots = [(None, i) for i in range(pile_n) if table.pile[i] == wd4]
    spots += [
        (s, i) for s in range(PLAYERS) for i in range(table.hn[s]) if table.hands[s, i] == wd4
    ]
    row, i = spots[0]
    top = int(table.pile[pile_n - 1])
    if row is None:
        table.pile[i] = top
    else:
        table.hands[row, i] = top
    table.st[ST_PILE_N] = pile_n - 1
    n = int(table.st[ST_DISC_N])
    table.st[ST_WD4_PREV_TOP] = int(table.disc[n - 1])
    table.st[ST_WD4_PREV_COLOR] = int(table.st[ST_COLOR])
    table.disc[n] = wd4
    table.st[ST_DISC_N] = n + 1
    table.st[ST_COLOR] = int(gen.integers(0, 4))
    table.st[ST_PENDING] = 4
    table.st[ST_PEND_KIND] = 4
    table.st[ST_PEND_CARDS] = 1
    table.st[ST_WD4_PLAYER] = accused
    table.st[ST_WD4_LEGAL] = int(gen.integers(0, 2))


def _reassign_hidden(table, gen) -> None:
    """Deal the opponents' hands and the pile anew from their own cards (sizes kept), and
    flip whether the pending Wild Draw Four (if any) was legal: hidden facts, all of them."""
    sizes = [int(table.hn[s]) for s in range(1, PLAYERS)]
    pile_n = int(table.st[ST_PILE_N])
    pool = np.concatenate([table.hands[s, : table.hn[s]] for s in range(1, PLAYERS)])
    pool = gen.permutation(np.concatenate([pool, table.pile[:pile_n]]))
    at = 0
    for s, size in enumerate(sizes, start=1):
        table.hands[s, :size] = pool[at : at + size]
        at += size
    table.pile[:pile_n] = pool[at:]
    table.st[ST_WD4_LEGAL] = 1 - table.st[ST_WD4_LEGAL]


def _search(config, table, stream: int, penalty: bool) -> tuple:
    """Run the search at this position: the moves weighed with their worth and paired
    statistics (the work rows) and the move written for the turn code."""
    seats = engine_seats(config.seats)
    rng = table.rng
    rng[:] = 0
    rng[RNG_SEARCH] = stream
    ev = np.zeros((1, EVENT_FIELDS), dtype=np.int64)
    bluff_before = int(table.st[ST_BLUFF])
    (search_penalty if penalty else search_turn)(table.tab, 0, seats, rng, ev)
    assert np.array_equal(seats[: config.players], config.seats)
    rows = table_rows(config.players)
    work = table.tab[2 * rows + W_MOVES : 2 * rows + W_SQUARES + 1].copy()
    forced = table.tab[T_MEMORY, FORCE_CARD : FORCE_CARD + FORCE_SLOTS].copy()
    bluff = int(table.st[ST_BLUFF])
    table.st[ST_BLUFF] = bluff_before
    return (work.tolist(), forced.tolist(), bluff)


DECISIONS = {
    "a normal turn": ({}, {}, False),
    "every move, 7-0": ({"seven_zero": True}, {"search_moves": "all"}, False),
    "a challengeable Wild Draw Four": ({}, {}, True),
    "stacking": ({"stack_draw_four": True, "stack_cross": True}, {"prior": "none"}, True),
    "inference from plays": ({}, {"inference": "last-play"}, False),
}


@pytest.mark.parametrize("decision", DECISIONS)
def test_search_decides_from_the_public_record_only(decision: str) -> None:
    """Other hidden cards (and a flipped legality of the pending Wild Draw Four), same
    public record and own hand: the same search, every table; another sampling stream:
    another search on many tables (the search sees the cards it deals)."""
    rules, knobs, penalty = DECISIONS[decision]
    searched = sensitive = 0
    for seed in range(40):
        config, table, gen = _position(seed, rules, **knobs)
        if penalty:
            _pending_wd4(table, gen)
        before = _search(config, table, 12345, penalty)
        hidden = np.concatenate([table.hands[1:PLAYERS].ravel(), table.pile])
        _reassign_hidden(table, gen)
        assert not np.array_equal(
            hidden, np.concatenate([table.hands[1:PLAYERS].ravel(), table.pile])
        )
        assert _search(config, table, 12345, penalty) == before
        searched += any(before[1])
        sensitive += _search(config, table, 999, penalty)[0] != before[0]
    assert searched > 10  # many tables had a choice to search
    assert sensitive > 5  # a search that read the real deal would fail the first assert


# --- what it chooses ---------------------------------------------------------------------------


def _first_play(seats: list[dict], hands: list[list[str]], **position) -> str:
    """Seat 0's first move in the position; the round is played out (a scripted stop after
    one turn lowers ``max_turns``, which search's rollouts would play under too)."""
    played = play_position(hands, preset="mattel-2001", seats=seats, turns=None, **position)
    line = next(t for t in played.trace if re.match(r"  seat 0 (plays|draws)", t))
    return line.split(" ", 4)[-1]


def test_search_bluffs_a_wild_draw_four_to_go_out_at_once() -> None:
    """Heads-up, the opponent one card from going out and never challenging: a bluffed Wild
    Draw Four (illegal: search holds red) skips it, and the red 5 then wins; the red 5
    first would let it go out. Basic plays the red 5."""
    hands = [["Wild Draw Four", "red 5"], ["red 9"]]
    pile = ["blue 1", "blue 2", "blue 3", "blue 4", "green 1", "green 2"]
    search = _first_play([_seat(rollouts=32), _seat("basic")], hands, top="red 3", pile=pile)
    assert search.startswith("plays Wild Draw Four"), search
    basic = _first_play([_seat("basic"), _seat("basic")], hands, top="red 3", pile=pile)
    assert basic.startswith("plays red 5"), basic


def _challenge_position(opponent: dict):
    """Heads-up: seat 1 has just played a Wild Draw Four on seat 0 (search) over a red 5,
    naming blue; seat 0 holds blue 1, blue 2, green 3, seat 1 five cards."""
    seats = [_seat(rollouts=64), opponent]
    config = EngineConfig.build(2, preset_rules("mattel-2001"), seats, seed=5)
    table = _new_table(config)
    for s, hand in enumerate(
        (["blue 1", "blue 2", "green 3"], ["red 1", "red 2", "yellow 4", "green 6", "blue 7"])
    ):
        table.hands[s, : len(hand)] = [card_id(c) for c in hand]
        table.hn[s] = len(hand)
    table.disc[:2] = [card_id("red 5"), card_id("Wild Draw Four")]
    table.st[ST_DISC_N] = 2
    rest = [c for c in config.deck.tolist()]
    for c in [*table.hands[0, :3], *table.hands[1, :5], *table.disc[:2]]:
        rest.remove(int(c))
    table.pile[: len(rest)] = rest
    table.st[ST_PILE_N] = len(rest)
    table.st[ST_COLOR] = 2  # blue, named with the Wild Draw Four
    table.st[ST_DIR] = 1
    table.st[ST_CUR] = 0
    table.st[ST_STATUS] = -1
    table.st[ST_WINNER] = -1
    table.st[ST_PENDING] = 4
    table.st[ST_PEND_KIND] = 4
    table.st[ST_PEND_CARDS] = 1
    table.st[ST_WD4_PLAYER] = 1
    table.st[ST_WD4_LEGAL] = 0  # it held red: a bluff (hidden from search)
    table.st[ST_WD4_PREV_COLOR] = 0  # red
    table.st[ST_WD4_PREV_TOP] = card_id("red 5")
    return config, table


def test_search_challenges_a_bluffer_and_not_an_honest_player() -> None:
    """Against a seat declared to bluff every turn (random, bluff 1) search judges the Wild
    Draw Four on hands dealt freely, most of which hold red: it challenges. Against basic,
    which never bluffs, every hand it deals holds no red (the card was legal): a challenge
    would cost six cards, and it does not challenge."""
    for opponent, wanted in ((_seat("random", bluff=1.0), 1), (_seat("basic"), 2)):
        config, table = _challenge_position(opponent)
        _work, forced, _bluff = _search(config, table, 77, True)
        assert forced[FORCE_CHALLENGE - FORCE_CARD] == wanted, opponent["strategy"]


HALF_CARDS = {"Skip", "Draw Two", "Wild", "Wild Draw Four"}  # and heads-up, a Reverse


def _effective(table, s: int, heads_up: bool) -> float:
    """Seat ``s``'s hand size as SCENARIO.md weighs it: an action card or wild counts half."""
    size = 0.0
    for card in table.hands[s, : table.hn[s]]:
        name = card_name(int(card))
        kind = name if name.startswith("Wild") else name.split(" ", 1)[1]
        size += 0.5 if kind in HALF_CARDS or (heads_up and kind == "Reverse") else 1.0
    return size


def _worth(sizes: list[float], s: int) -> int:
    weights = [max(size, 0.5) ** -VALUE_POWER for size in sizes]
    return round(SCALE * weights[s] / sum(weights))


def test_position_value_scores_hand_sizes_and_results() -> None:
    """Unfinished: the share of the weights (effective hand sizes to the power -0.7), the
    seat to move half a card lighter and heavier by the draw it owes; finished: 1 for a
    win, 0 otherwise."""
    _config, table, _gen = _position(1)
    sizes = [_effective(table, s, False) for s in range(PLAYERS)]
    assert sizes != [float(table.hn[s]) for s in range(PLAYERS)]  # some cards count half
    sizes[0] -= 0.5  # seat 0 is to move
    assert position_value(table.tab, 0) == _worth(sizes, 0)
    assert position_value(table.tab, 2) == _worth(sizes, 2)
    table.st[ST_PENDING] = 4
    sizes[0] += 4
    assert position_value(table.tab, 0) == _worth(sizes, 0)
    table.st[ST_STATUS] = 0
    table.st[ST_WINNER] = 0
    assert position_value(table.tab, 0) == SCALE
    table.st[ST_WINNER] = 2
    assert position_value(table.tab, 0) == 0
    table.st[ST_WINNER] = -1  # no winner: nothing
    assert position_value(table.tab, 0) == 0


@pytest.mark.parametrize(
    ("hand", "players", "size"),
    [
        (["red 5", "blue 7", "green 0"], 4, 3.0),
        (["red Skip", "blue Draw Two", "Wild", "Wild Draw Four"], 4, 2.0),
        (["red Reverse", "yellow 3"], 4, 2.0),  # a Reverse skips no one at 4 players
        (["red Reverse", "yellow 3"], 2, 1.5),  # heads-up it acts as a Skip
        (["Wild Shuffle Hands", "red 1"], 2, 2.0),  # the other wilds count whole
    ],
)
def test_effective_size_counts_action_cards_and_wilds_half(hand, players, size) -> None:
    cards = np.array([card_id(c) for c in hand] + [0] * 4, dtype=np.int64)
    assert effective_size(cards, len(hand), players == 2) == size


def test_position_value_gives_a_knocked_out_seat_no_share() -> None:
    """S22: a seat out by the mercy rule holds no cards and no chance: the others share."""
    _config, table, _gen = _position(1)
    table.st[ST_PENDING] = 0
    table.st[ST_OUT] = 1 << 3
    table.hn[3] = 0
    sizes = [_effective(table, s, False) for s in range(3)]
    sizes[0] -= 0.5
    assert position_value(table.tab, 0) == _worth(sizes, 0)
    assert position_value(table.tab, 3) == 0


def test_close_calls_play_the_two_best_moves_on_more_worlds() -> None:
    """Without close calls every move plays ``rollouts`` worlds (allocation: equal); with
    them, where the best other move led basic's (second and first in the moves row) without
    a significant lead, the two play ``rollouts`` more worlds up to 3 times, and the first
    ``rollouts`` worlds are the same; elsewhere the search is the same."""
    rollouts = 4
    extended = 0
    for seed in range(100):
        runs = {}
        for calls in (0, 3):
            config, table, _gen = _position(seed, close_calls=calls)
            runs[calls] = _search(config, table, 4242, False)
        (moves, worth, played, diff, squares), _forced, _bluff = runs[0]
        n = sum(1 for p in played if p > 0)
        assert played[:n] == [rollouts] * n
        close = (
            n >= 2 and worth[1] > worth[0] and not significant(diff[1], squares[1], played[1], 1)
        )
        more = runs[3][0][2]
        if more[:2] != played[:2]:
            extended += 1
            assert (
                close
                and more[0] == more[1]
                and more[0] in (2 * rollouts, 3 * rollouts, 4 * rollouts)
            )
            assert runs[3][0][0][:2] == moves[:2]
        elif not close:
            assert runs[3] == runs[0]
    assert extended >= 5


@pytest.mark.parametrize(
    ("total", "squares", "worlds", "margin", "expected"),
    [
        (0, 10, 10, 0, False),  # no lead
        (3, 3, 10, 0, True),  # any lead at margin 0
        (3, 3, 10, 2, False),  # 3 of 10 worlds better, none worse: mean 0.3, sd 0.48, se 0.15
        (6, 6, 10, 2, True),  # 6 of 10: mean 0.6, se 0.163: 3.7 standard errors
        (5, 5, 1, 0, False),  # one world: no spread to judge by
    ],
)
def test_significant_is_a_paired_test_of_the_mean_difference(
    total, squares, worlds, margin, expected
) -> None:
    assert significant(total, squares, worlds, margin) == expected


def test_trace_shows_each_move_weighed_and_plays_one_worth_at_least_basics() -> None:
    """uno-stats trace: after a search seat's turn line, one line per move weighed (a wild
    once per color), basic's move first and marked; the move played is one of them and its
    estimate is at least basic's move's."""
    seats = [_seat(rollouts=8), _seat("random")]
    config = EngineConfig.build(2, preset_rules("mattel-2001"), seats, seed=3)
    weighed = re.compile(
        r"^  seat 0 weighs (.+?)(?: naming (\w+))?(?: \(a bluff\))?: "
        r"estimated win chance ([\d.]+)% \(\d+ rollouts(, basic's choice)?\)$"
    )
    decisions = deviations = 0
    for game in range(8):
        lines = trace_game(config, game)
        for i, line in enumerate(lines):
            if not (line.startswith("turn ") and "seat 0 to play" in line):
                continue
            moves = []
            j = i + 1
            while weighed.match(lines[j]):
                moves.append(weighed.match(lines[j]).groups())
                j += 1
            if not moves:
                continue
            decisions += 1
            assert moves[0][3] and not any(m[3] for m in moves[1:]), lines[i:j]
            chance = {(m[0], m[1]): float(m[2]) for m in moves}
            played = re.match(r"^  seat 0 plays (.+?) \(", lines[j])
            if played is None:  # it drew rather than bluff
                assert lines[j].startswith("  seat 0 draws"), lines[j]
                key: tuple = ("drawing instead", None)
            else:
                named = re.match(r"^  seat 0 names (\w+)$", lines[j + 1])
                key = (played.group(1), named.group(1) if named else None)
            assert key in chance, lines[i : j + 2]
            assert chance[key] >= chance[moves[0][:2]], lines[i : j + 2]
            deviations += key != moves[0][:2]
    assert decisions > 20 and deviations > 0


# --- strength (slow): paired on the same deals ---------------------------------------------------


def _search_share(opponent: str, games: int, seed: int, **knobs) -> np.ndarray:
    """Per deal, the share of its two seatings search won heads-up against ``opponent`` at
    mattel-2001 (both seatings on the same deals: seat advantage cancels)."""
    rules = preset_rules("mattel-2001")
    won = np.zeros(games)
    for first in (True, False):
        seats = [_seat(**knobs) if knobs.get("strategy") is None else knobs, _seat(opponent)]
        if not first:
            seats.reverse()
        cols = simulate(EngineConfig.build(2, rules, seats, seed=seed), 0, games)
        won += cols["winner"] == (0 if first else 1)
    return won / 2


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x)))


ONE_RANDOM_ROLLOUT = {
    "rollouts": 1,
    "rollout_policy": "random",
    "prior": "none",  # ties by chance: no rule of thumb behind the rollouts
    "horizon": 0,
    "allocation": "equal",
    "search_moves": "cards",
}


@pytest.mark.slow
def test_one_random_rollout_is_weakly_informative_and_more_rollouts_are_stronger() -> None:
    """The honest reading of "one random rollout is not stronger than random": a played-out
    rollout does carry information (it finds the moves that win at once or chain), so one
    random rollout a move, with chance breaking ties, beats random by a little (measured:
    55.0% [54.6, 55.5] over 40,000 rounds) but stays well below basic (61%, the same deals
    played by basic), whose preference made up most of the 57% measured with basic's
    tie-break; 16 random rollouts a move are stronger still, and the default search
    stronger than basic. Paired on the same deals; 3 standard errors each way."""
    games = 3000
    one = _search_share("random", games, 11, **ONE_RANDOM_ROLLOUT)
    basic = _search_share("random", games, 11, **_seat("basic"))
    sixteen = _search_share("random", games, 11, **{**ONE_RANDOM_ROLLOUT, "rollouts": 16})
    mean, se = _mean_se(one)
    assert mean > 0.5 + 3 * se  # informative
    gap, gap_se = _mean_se(basic - one)
    assert gap > 3 * gap_se  # but well short of a rule of thumb
    more, more_se = _mean_se(sixteen - one)
    assert more > 3 * more_se
    default = _search_share("random", 1000, 11)
    lead, lead_se = _mean_se(default - basic[:1000])
    assert lead > 3 * lead_se


def test_the_bluff_move_is_flagged_and_only_with_challenges_on() -> None:
    """A bluff is weighed only where a challenge could catch it: challenges on, the Wild
    Draw Four held and illegal."""
    hands = [["Wild Draw Four", "red 5", "blue 2"], ["green 9", "green 8"]]
    for challenges, expected in ((True, True), (False, False)):
        played = play_position(
            hands,
            preset="mattel-2001",
            rules={"wd4_challenge": challenges},
            seats=[_seat(rollouts=2), _seat("basic")],
            turns=None,
            top="red 3",
            pile=["yellow 1"] * 6,
        )
        assert any("(a bluff)" in t for t in played.trace) == expected
    assert BLUFF_BIT > WHAT_MASK

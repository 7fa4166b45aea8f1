"""The effects output in words: the sentence of each metric's largest effect, the table's
cells and the JSON/CSV rows."""

from __future__ import annotations

import json
import math

import polars as pl

from uno_stats.analysis.effects import Effect, SweepEffects, Term
from uno_stats.analysis.sweep_points import Sweep, SweepPoint
from uno_stats.present.effects import COLUMNS, effects_text, metric_sentence, term_subject

AXES = {
    "players": (2, 4, 6),
    "rules.jump_in": (False, True),
    "rules.draw": ("one", "until-playable"),
}


def _result(effects: list[Effect], players: tuple[int, ...] = (4,)) -> SweepEffects:
    points = tuple(
        SweepPoint(str(i), {}, 1, 100, p, (1,), pl.LazyFrame()) for i, p in enumerate(players)
    )
    return SweepEffects(Sweep("s", AXES, points), effects, (), "Every point replays ...")


def _effect(metric: str, kind: str, term: Term, est: float, low: float, high: float, **kw):
    base = dict(p=0.001, p_holm=0.002, games=100, method="paired t over games", status="tested")
    base.update(kw)
    return Effect(metric, metric, kind, term, est, low, high, tost=(low, high), **base)


JUMP = Term(("rules.jump_in",), (1,), "rules.jump_in")
DRAW = Term(("rules.draw",), (1,), "rules.draw")
SIX = Term(("players",), (2,), "players=6")


def test_the_largest_effect_in_one_sentence():
    down = _effect("mean_turns", "mean", JUMP, -2.4, -2.7, -2.1)
    small = _effect("mean_turns", "mean", DRAW, 0.3, 0.1, 0.5)
    result = _result([down, small])
    assert metric_sentence(result, [small, down]) == (
        "jump_in takes 2.4 turns [2.1, 2.7] off a round at 4 players: the largest effect on "
        "round length (mean turns)."
    )
    up = _effect("first_mover_edge", "first_mover_edge", DRAW, 0.012, 0.008, 0.016)
    assert metric_sentence(result, [up]) == (
        "draw until-playable (vs one) raises the first mover's edge by 1.2 pp [0.8, 1.6] at 4 "
        "players: the largest effect on the first mover's edge."
    )


def test_unclear_and_unchanged_metrics_say_so():
    weak = _effect("p90_turns", "quantile", JUMP, 1.0, -0.5, 2.5, p=0.2, p_holm=0.4)
    result = _result([weak])
    assert metric_sentence(result, [weak]) == (
        "No term clearly changes long rounds (p90 turns): the largest, jump_in adds 1.0 turns "
        "[-0.5, 2.5] to the p90 round at 4 players, has Holm p = 0.4."
    )
    none = _effect("void_rate", "rate", JUMP, 0.0, 0.0, 0.0, p=math.nan, status="unchanged")
    assert metric_sentence(result, [none]) == "Void rounds: no term changed it in any game."


def test_subjects_of_levels_and_interactions():
    result = _result([], players=(2, 4, 6))
    six = _effect("mean_turns", "mean", SIX, 5.0, 4.0, 6.0)
    both = Term(("players", "rules.jump_in"), (2, 1), "players=6:rules.jump_in")
    assert term_subject(result, six) == "players 6 (vs 2)"
    assert term_subject(result, _effect("mean_turns", "mean", both, 1, 0, 2)) == (
        "the interaction players 6 (vs 2) x jump_in"
    )


def test_rows_hold_the_keys_and_unchanged_terms_read_zero():
    none = _effect("mean_turns", "mean", JUMP, 0.0, 0.0, 0.0, p=math.nan, p_holm=math.nan,
                   status="unchanged", method="never changed a game")  # fmt: skip
    result = _result([none])
    (row,) = json.loads(effects_text([result], "json"))["effects"]
    assert list(row) == list(COLUMNS)
    assert (row["estimate"], row["p"], row["verdict"]) == (0.0, None, "never changed a game")
    table = effects_text([result], "table")
    assert "rules.jump_in  0         [0, 0]" in table
    assert effects_text([result], "csv").splitlines()[0] == ",".join(COLUMNS)

"""A chunk of games: single rounds or whole matches (S13), each row written to output arrays."""

from __future__ import annotations

import numpy as np

from uno_stats.engine.cards import CARD_POINTS
from uno_stats.engine.jit import engine_jit
from uno_stats.engine.rng import seed_stream
from uno_stats.engine.round import play_round
from uno_stats.engine.rules import SCORING_LOW, SCORING_PARTNERS, SCORING_POINTS
from uno_stats.engine.schema import STATUS_VOID, STATUS_WON
from uno_stats.engine.state import (
    N_CHECKPOINTS,
    ST_CHALLENGES,
    ST_CHALLENGES_WON,
    ST_CHECKPOINTS,
    ST_DEALER,
    ST_DRAWN,
    ST_FIRST,
    ST_HAND_SHUFFLES,
    ST_JUMP_INS,
    ST_LONGEST_STACK,
    ST_MISTAKES,
    ST_PLAYERS,
    ST_RESHUFFLES,
    ST_SEVEN_SWAPS,
    ST_STACK_TOTAL,
    ST_STATUS,
    ST_TURNS,
    ST_UNO_PENALTIES,
    ST_WINNER,
    ST_ZERO_PASSES,
    T_ST,
    views,
)

# Columns of the scalar output array, in order.
SCALAR_COLUMNS = (
    "game",
    "round",
    "dealer",
    "first_player",
    "winner",
    "status",
    "turns",
    "cards_drawn",
    "reshuffles",
    "match_winner",
    "match_rounds",
    "match_valid",
    "longest_stack",
    "stack_total",
    "challenges",
    "challenges_won",
    "uno_penalties",
    "seven_swaps",
    "zero_passes",
    "jump_ins",
    "mistakes",
    "hand_shuffles",
    "checkpoints",
)
(
    OC_GAME,
    OC_ROUND,
    OC_DEALER,
    OC_FIRST,
    OC_WINNER,
    OC_STATUS,
    OC_TURNS,
    OC_DRAWN,
    OC_RESHUFFLES,
    OC_MATCH_WINNER,
    OC_MATCH_ROUNDS,
    OC_MATCH_VALID,
    OC_LONGEST_STACK,
    OC_STACK_TOTAL,
    OC_CHALLENGES,
    OC_CHALLENGES_WON,
    OC_UNO,
    OC_SWAPS,
    OC_ZPASSES,
    OC_JUMPS,
    OC_MISTAKES,
    OC_SHUFFLES,
    OC_CHECKPOINTS,
) = range(len(SCALAR_COLUMNS))
N_SCALAR = len(SCALAR_COLUMNS)
# Planes of the per-seat output array: hand sizes, points, max deficit, then the checkpoints.
OP_HAND, OP_POINTS, OP_DEFICIT, OP_CHECKPOINT0 = 0, 1, 2, 3
N_SEAT_PLANES = OP_CHECKPOINT0 + N_CHECKPOINTS

MATCH_ROUND_CAP = 5000  # a match still undecided after this many rounds is recorded as such


@engine_jit
def _hand_points(hands, hn, s):
    total = 0
    for i in range(hn[s]):
        total += CARD_POINTS[hands[s, i]]
    return total


@engine_jit
def _record(tab, out_s, out_p, row, game, rnd):
    st, hands, hn, pile, disc, cand, rank, max_deficit, checkpoints, rules, deck = views(tab)
    out_s[OC_GAME, row] = game
    out_s[OC_ROUND, row] = rnd
    out_s[OC_DEALER, row] = st[ST_DEALER]
    out_s[OC_FIRST, row] = st[ST_FIRST]
    out_s[OC_WINNER, row] = st[ST_WINNER]
    out_s[OC_STATUS, row] = st[ST_STATUS]
    out_s[OC_TURNS, row] = st[ST_TURNS]
    out_s[OC_DRAWN, row] = st[ST_DRAWN]
    out_s[OC_RESHUFFLES, row] = st[ST_RESHUFFLES]
    out_s[OC_MATCH_WINNER, row] = -1
    out_s[OC_MATCH_ROUNDS, row] = 0
    out_s[OC_MATCH_VALID, row] = 0
    out_s[OC_LONGEST_STACK, row] = st[ST_LONGEST_STACK]
    out_s[OC_STACK_TOTAL, row] = st[ST_STACK_TOTAL]
    out_s[OC_CHALLENGES, row] = st[ST_CHALLENGES]
    out_s[OC_CHALLENGES_WON, row] = st[ST_CHALLENGES_WON]
    out_s[OC_UNO, row] = st[ST_UNO_PENALTIES]
    out_s[OC_SWAPS, row] = st[ST_SEVEN_SWAPS]
    out_s[OC_ZPASSES, row] = st[ST_ZERO_PASSES]
    out_s[OC_JUMPS, row] = st[ST_JUMP_INS]
    out_s[OC_MISTAKES, row] = st[ST_MISTAKES]
    out_s[OC_SHUFFLES, row] = st[ST_HAND_SHUFFLES]
    out_s[OC_CHECKPOINTS, row] = st[ST_CHECKPOINTS]
    for s in range(st[ST_PLAYERS]):
        out_p[OP_HAND, row, s] = hn[s]
        out_p[OP_POINTS, row, s] = _hand_points(hands, hn, s)
        out_p[OP_DEFICIT, row, s] = max_deficit[s]
        for k in range(N_CHECKPOINTS):  # 0 where the round ended first (null on disk)
            recorded = (st[ST_CHECKPOINTS] >> k) & 1
            out_p[OP_CHECKPOINT0 + k, row, s] = checkpoints[k, s] if recorded else 0


@engine_jit
def _match_over(st, out_p, row, totals, scoring, target):
    """S13: add this round's points; the winning seat (partners: pair 0 or 1), or -1 if not over."""
    players = st[ST_PLAYERS]
    status = st[ST_STATUS]
    if status == STATUS_WON:
        w = st[ST_WINNER]
        if scoring == SCORING_POINTS:
            for s in range(players):
                if s != w:
                    totals[w] += out_p[OP_POINTS, row, s]
            if totals[w] >= target:
                return w
        elif scoring == SCORING_PARTNERS:
            team = w % 2
            for s in range(players):
                if s % 2 != team:
                    totals[team] += out_p[OP_POINTS, row, s]
            if totals[team] >= target:
                return team
        elif scoring == SCORING_LOW:
            for s in range(players):
                totals[s] += out_p[OP_POINTS, row, s]
    if scoring == SCORING_LOW:
        reached = False
        low = totals[0]
        for s in range(players):
            reached = reached or totals[s] >= target
            low = min(low, totals[s])
        lowest = -1
        for s in range(players):
            if totals[s] == low:
                if lowest >= 0:
                    return -1  # a tie for lowest plays further full rounds
                lowest = s
        if reached:
            return lowest
    return -1


@engine_jit
def run_chunk(key, first_game, n_games, tab, seats, rng, ev, target, scoring, totals, out_s, out_p):
    """Play games ``first_game ..`` into the output rows; returns rows written, -1 if full.

    ``target`` 0 plays single rounds (dealer seat P-1 every time); otherwise each game
    is a match to ``target`` whose rounds are consecutive rows.
    """
    st = tab[T_ST]
    players = st[ST_PLAYERS]
    capacity = out_s.shape[1]
    row = 0
    for g in range(n_games):
        game = first_game + g
        seed_stream(rng, key, game)
        if target == 0:
            play_round(tab, seats, rng, ev, players - 1)
            _record(tab, out_s, out_p, row, game, 0)
            row += 1
            continue
        totals[:] = 0
        dealt = 0
        rnd = 0
        while True:
            if row >= capacity:
                return -1
            dealer = (dealt - 1) % players
            play_round(tab, seats, rng, ev, dealer)
            _record(tab, out_s, out_p, row, game, rnd)
            rnd += 1
            row += 1
            if st[ST_STATUS] != STATUS_VOID:
                dealt += 1  # a void round is redealt by the same dealer
            winner = _match_over(st, out_p, row - 1, totals, scoring, target)
            if winner >= 0 or rnd >= MATCH_ROUND_CAP:
                out_s[OC_MATCH_WINNER, row - 1] = winner
                out_s[OC_MATCH_ROUNDS, row - 1] = rnd
                out_s[OC_MATCH_VALID, row - 1] = 1
                break
    return row


def allocate_outputs(rows: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Output arrays for ``rows`` rows: scalars ``(N_SCALAR, rows)``, seats ``(planes, rows, P)``.

    Column-major, so each result column is one contiguous slice; every entry of a row is
    written when the row is recorded, so the arrays need no zeroing.
    """
    return (
        np.empty((N_SCALAR, rows), dtype=np.int64),
        np.empty((N_SEAT_PLANES, rows, players), dtype=np.int32),
    )

"""A chunk of games: single rounds or whole matches (S13), each row written to output arrays."""

from __future__ import annotations

import numpy as np

from uno_stats.engine.cards import CARD_POINTS
from uno_stats.engine.jit import engine_jit
from uno_stats.engine.rng import below, seed_stream
from uno_stats.engine.round import play_round
from uno_stats.engine.rules import (
    R_SEATING,
    SCORING_LOW,
    SCORING_PARTNERS,
    SCORING_POINTS,
    SEATING_RANDOM,
)
from uno_stats.engine.schema import (
    NOT_REACHED,
    ROUND_COUNTERS,
    STATUS_EXHAUSTED,
    STATUS_VOID,
    STATUS_WON,
)
from uno_stats.engine.state import (
    N_CHECKPOINTS,
    N_COUNTERS,
    RNG_SEARCH,
    ST_CHECKPOINTS,
    ST_DEALER,
    ST_FIRST,
    ST_PLAYERS,
    ST_STATUS,
    ST_TURNS,
    ST_WINNER,
    T_DEFICIT,
    T_HANDS,
    T_HN,
    T_OUT,
    T_RULES,
    T_SEATING,
    T_ST,
    checkpoint_rows,
)

# Rows of the scalar output array, in order: the round's identity, its counters (in the
# order of schema.ROUND_COUNTERS, which is also their order in the state), the match, and
# the largest hand at a checkpoint the round reached (to refuse one the bytes cannot hold).
SCALAR_COLUMNS: tuple[str, ...] = (
    "game",
    "round",
    "dealer",
    "first_player",
    "winner",
    "status",
    *ROUND_COUNTERS,
    "match_winner",
    "match_rounds",
    "match_valid",
    "largest_checkpoint",
)
OC_GAME = SCALAR_COLUMNS.index("game")
OC_ROUND = SCALAR_COLUMNS.index("round")
OC_DEALER = SCALAR_COLUMNS.index("dealer")
OC_FIRST = SCALAR_COLUMNS.index("first_player")
OC_WINNER = SCALAR_COLUMNS.index("winner")
OC_STATUS = SCALAR_COLUMNS.index("status")
OC_COUNTER0 = SCALAR_COLUMNS.index(ROUND_COUNTERS[0])
OC_MATCH_WINNER = SCALAR_COLUMNS.index("match_winner")
OC_MATCH_ROUNDS = SCALAR_COLUMNS.index("match_rounds")
OC_MATCH_VALID = SCALAR_COLUMNS.index("match_valid")
OC_LARGEST_CHECKPOINT = SCALAR_COLUMNS.index("largest_checkpoint")
N_SCALAR = len(SCALAR_COLUMNS)
# Planes of the per-seat output array: hand sizes, points, max deficit, seating. The hand-size
# checkpoints have an output array of their own, already in the bytes stored on disk.
SEAT_PLANES: tuple[str, ...] = ("hand_sizes", "points", "max_deficit", "seating", "knocked_out")
OP_HAND = SEAT_PLANES.index("hand_sizes")
OP_POINTS = SEAT_PLANES.index("points")
OP_DEFICIT = SEAT_PLANES.index("max_deficit")
OP_SEATING = SEAT_PLANES.index("seating")
OP_OUT = SEAT_PLANES.index("knocked_out")
N_SEAT_PLANES = len(SEAT_PLANES)

MATCH_ROUND_CAP = 5000  # a match still undecided after this many rounds is recorded as such


@engine_jit
def _hand_points(hands, hn, s):
    total = 0
    for i in range(hn[s]):
        total += CARD_POINTS[hands[s, i]]
    return total


@engine_jit
def _record(tab, out_s, out_p, out_c, row, game, rnd):
    st = tab[T_ST]
    hands = tab[T_HANDS:]
    hn = tab[T_HN]
    max_deficit = tab[T_DEFICIT]
    checkpoints = checkpoint_rows(tab)
    out_s[OC_GAME, row] = game
    out_s[OC_ROUND, row] = rnd
    out_s[OC_DEALER, row] = st[ST_DEALER]
    out_s[OC_FIRST, row] = st[ST_FIRST]
    out_s[OC_WINNER, row] = st[ST_WINNER]
    out_s[OC_STATUS, row] = st[ST_STATUS]
    for k in range(N_COUNTERS):  # the counters lie in the same order in both arrays
        out_s[OC_COUNTER0 + k, row] = st[ST_TURNS + k]
    out_s[OC_MATCH_WINNER, row] = -1
    out_s[OC_MATCH_ROUNDS, row] = 0
    out_s[OC_MATCH_VALID, row] = 0
    players = st[ST_PLAYERS]
    for s in range(players):
        out_p[OP_HAND, row, s] = hn[s]
        out_p[OP_POINTS, row, s] = _hand_points(hands, hn, s)
        out_p[OP_DEFICIT, row, s] = max_deficit[s]
        out_p[OP_SEATING, row, s] = tab[T_SEATING, s]
        out_p[OP_OUT, row, s] = tab[T_OUT, s]
    largest = 0
    for k in range(N_CHECKPOINTS):  # NOT_REACHED where the round ended first (null on disk)
        recorded = (st[ST_CHECKPOINTS] >> k) & 1
        for s in range(players):
            held = checkpoints[k, s]
            if recorded:
                largest = max(largest, held)
                out_c[row, k, s] = min(held, NOT_REACHED)
            else:
                out_c[row, k, s] = NOT_REACHED
    out_s[OC_LARGEST_CHECKPOINT, row] = largest


@engine_jit
def _match_over(st, out_p, row, totals, scoring, target):
    """S13: add this round's points; the winning seat (partners: pair 0 or 1), or -1 if not over."""
    players = st[ST_PLAYERS]
    status = st[ST_STATUS]
    # S17: an exhausted round with a winner scores as if that seat had won it
    if status == STATUS_WON or (status == STATUS_EXHAUSTED and st[ST_WINNER] >= 0):
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


SEATING_SALT = np.uint64(0x5EA7_0DE2_5EA7_0DE2)  # the seating stream's key: run key XOR this
SEARCH_SALT = np.uint64(0x5EA2_C4ED_1DEA_5EED)  # the search stream's key (search.py): key XOR this


@engine_jit
def _swap_seats(tab, seats, i, j):
    """Exchange positions ``i`` and ``j``: their rows of ``seats`` and of the seating row."""
    for k in range(seats.shape[1]):
        tmp = seats[i, k]
        seats[i, k] = seats[j, k]
        seats[j, k] = tmp
    tmp_seat = tab[T_SEATING, i]
    tab[T_SEATING, i] = tab[T_SEATING, j]
    tab[T_SEATING, j] = tmp_seat


@engine_jit
def seat_game(tab, seats, rng, key, game):
    """S16 (``seating: random``): seat the scenario's seats for ``game`` in a random order.

    ``seats`` (the caller's own copy) is first put back in scenario order (the seating row
    says where each seat sits), then shuffled with Fisher-Yates from the game's seating
    stream (the run key XOR ``SEATING_SALT``); the caller seeds the game's stream afterwards.
    """
    players = tab[T_ST, ST_PLAYERS]
    for i in range(players):  # back to scenario order: cycle each seat home
        while tab[T_SEATING, i] != i:
            _swap_seats(tab, seats, i, tab[T_SEATING, i])
    seed_stream(rng, key ^ SEATING_SALT, game)
    for i in range(players - 1, 0, -1):
        _swap_seats(tab, seats, i, below(rng, i + 1))


@engine_jit
def run_chunk(
    key, first_game, n_games, tab, seats, rng, ev, target, scoring, totals, out_s, out_p, out_c
):
    """Play games ``first_game ..`` into the output rows; returns rows written, -1 if full.

    ``target`` 0 plays single rounds (dealer seat P-1 every time); otherwise each game
    is a match to ``target`` whose rounds are consecutive rows.
    """
    st = tab[T_ST]
    players = st[ST_PLAYERS]
    capacity = out_s.shape[1]
    seating = tab[T_RULES, R_SEATING] == SEATING_RANDOM
    row = 0
    for g in range(n_games):
        game = first_game + g
        if seating:
            seat_game(tab, seats, rng, key, game)
        seed_stream(rng, key, game)
        if rng.shape[0] > RNG_SEARCH:  # search's own stream, never drawn by anything else
            seed_stream(rng[RNG_SEARCH : RNG_SEARCH + 1], key ^ SEARCH_SALT, game)
        if target == 0:
            play_round(tab, seats, rng, ev, players - 1)
            _record(tab, out_s, out_p, out_c, row, game, 0)
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
            _record(tab, out_s, out_p, out_c, row, game, rnd)
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


def allocate_outputs(rows: int, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Output arrays for ``rows`` rows: scalars ``(N_SCALAR, rows)``, seats ``(planes, rows, P)``
    and checkpoints ``(rows, N_CHECKPOINTS, P)`` bytes.

    Scalars and seats are column-major, so each result column is one contiguous slice; the
    checkpoints are row-major, each round's bytes together as the stored column holds them.
    Every entry of a row is written when the row is recorded, so the arrays need no zeroing.
    """
    return (
        np.empty((N_SCALAR, rows), dtype=np.int64),
        np.empty((N_SEAT_PLANES, rows, players), dtype=np.int32),
        np.empty((rows, N_CHECKPOINTS, players), dtype=np.uint8),
    )

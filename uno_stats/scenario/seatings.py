"""Tournament seatings balanced for seats and neighbours (used to expand ``tournament``).

A seating puts n of k strategies at the n seats. A balanced set of seatings has every
strategy in every seat equally often and every ordered pair (A, B) as (player, next player)
equally often, so neither seat advantage nor who-sits-behind-whom favours a strategy; in the
pairwise table each pair then meets in the same seat relations. Cyclic rotations of one list
are seat-balanced only: with k = n each strategy always has the same next player.

With ``seating: random`` (RULES.md S16) each game seats its table in a random order drawn
from the game's seating stream, so a tournament needs only the *tables* (which strategies
play together): :func:`random_seating_tables`.
"""

from __future__ import annotations

import functools
import itertools
import math


def walecki_cycles(k: int) -> list[tuple[int, ...]]:
    """For odd k: k - 1 directed cycles through all k, each ordered pair adjacent once.

    Walecki's decomposition of the complete graph into (k - 1)/2 Hamiltonian cycles, each
    taken in both directions.
    """
    half = (k - 1) // 2
    cycles = []
    for i in range(half):
        path = [i]
        for j in range(1, half + 1):
            path += [(i + j) % (k - 1), (i - j) % (k - 1)]
        cycle = (k - 1, *path[: k - 1])
        cycles += [cycle, (cycle[0], *reversed(cycle[1:]))]
    return cycles


def search_design(k: int, n: int, m: int, budget: int) -> list[tuple[int, ...]] | None:
    """m seatings of n of k strategies, balanced for seats and next players, or None."""
    arrangements = list(itertools.permutations(range(k), n))
    per_seat, per_pair = m // k, m * n // (k * (k - 1))
    seat = [[0] * k for _ in range(n)]
    pair = [[0] * k for _ in range(k)]
    chosen: list[tuple[int, ...]] = []
    nodes = 0

    def fits(a: tuple[int, ...]) -> bool:
        return all(seat[s][a[s]] < per_seat for s in range(n)) and all(
            pair[a[s]][a[(s + 1) % n]] < per_pair for s in range(n)
        )

    def put(a: tuple[int, ...], d: int) -> None:
        for s in range(n):
            seat[s][a[s]] += d
            pair[a[s]][a[(s + 1) % n]] += d

    def dfs(start: int) -> bool:
        nonlocal nodes
        if len(chosen) == m:
            return True
        nodes += 1
        if nodes > budget:
            return False
        need = next(x for x in range(k) if seat[0][x] < per_seat)  # seat 0 fills in order
        for i in range(start, len(arrangements)):
            a = arrangements[i]
            if a[0] > need:
                break
            if a[0] == need and fits(a):
                put(a, 1)
                chosen.append(a)
                if dfs(i + 1):
                    return True
                put(a, -1)
                chosen.pop()
        return False

    return chosen if dfs(0) else None


@functools.lru_cache(maxsize=64)
def balanced_seatings(k: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Seatings of ``n`` seats from ``k`` strategies (indices), balanced for neighbours.

    Over the seatings every strategy sits in every seat equally often and has every other
    strategy as its next player (seat s + 1, cyclically) equally often. With ``n == k`` odd:
    Walecki's k - 1 directed cycles, each in its k rotations. Otherwise the smallest such
    set found by a bounded search over the arrangements (sizes that are multiples of the
    divisibility bound), else every arrangement of n of the k strategies (always balanced).
    With ``n > k`` strategies must repeat at the table: the k cyclic rotations of the list,
    balanced for seats only (reading chosen where the spec is silent).
    """
    if n > k:
        return tuple(tuple((s + r) % k for s in range(n)) for r in range(k))
    if n == k and k % 2 == 1:
        return tuple(c[-r:] + c[:-r] for c in walecki_cycles(k) for r in range(k))
    step = math.lcm(k, k * (k - 1) // math.gcd(k * (k - 1), n))
    total = math.perm(k, n)
    for m in range(step, min(total, 2 * step) + 1, step):
        found = search_design(k, n, m, budget=5_000)
        if found is not None:
            return tuple(found)
    return tuple(itertools.permutations(range(k), n))


def random_seating_tables(k: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Tables of ``n`` seats from ``k`` strategies for a tournament seated at random each game.

    Reading (the issue allows "a random seating drawn from each game's stream" in place of a
    balanced set): the order within a table is left to the seating stream, so only who plays
    with whom is fixed. ``n <= k``: every set of n of the k strategies, once (one table when
    n = k): each strategy plays in as many tables, each pair meets in as many. ``n > k``:
    strategies repeat at the table, so the k cyclic rotations of the list, as in
    :func:`balanced_seatings` (every strategy holds the same number of seats over them).
    """
    if n > k:
        return tuple(tuple((s + r) % k for s in range(n)) for r in range(k))
    return tuple(itertools.combinations(range(k), n))

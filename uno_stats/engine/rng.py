"""The engine's random numbers: SplitMix64, one independent stream per game.

A game's stream is seeded from the run's 64-bit key and the game index, so a
game plays the same whatever chunk or worker plays it (counter-based seeding).
Arithmetic wraps modulo 2**64 by design.
"""

from __future__ import annotations

import numpy as np

from uno_stats.engine.jit import engine_inline, engine_jit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@engine_jit
def _mix(z):
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@engine_jit
def seed_stream(rng, key, game):
    """Point ``rng`` (a 1-element uint64 array) at the stream of ``game`` under ``key``."""
    rng[0] = _mix(np.uint64(key) ^ _mix(np.uint64(game) * _GOLDEN + _GOLDEN))


@engine_jit
def next_u64(rng):
    """The next 64 random bits."""
    rng[0] += _GOLDEN
    return _mix(rng[0])


@engine_jit
def uniform(rng):
    """A float in [0, 1) with 53 random bits."""
    # The 53-bit value fits an int64: a signed conversion is one instruction, the unsigned
    # one a branchy sequence on CPUs without AVX-512. Same value either way.
    return np.float64(np.int64(next_u64(rng) >> _S11)) * _TO_UNIT


@engine_jit
def _bounded(state, n):
    """``(value, state)``: a uniform integer in [0, n) drawn from the stream at ``state``.

    Lemire's multiply-shift on the top 32 bits of one draw, integer-only: the product's high
    half is the result, and the rare draws whose low half falls in the biased sliver (below
    ``2**32 mod n``, so with probability under ``n / 2**32``) are drawn again.
    """
    bound = np.uint64(n)
    state += _GOLDEN
    product = (_mix(state) >> _S32) * bound
    low = product & _LOW32
    if low < bound:
        threshold = (_TWO32 - bound) % bound
        while low < threshold:
            state += _GOLDEN
            product = (_mix(state) >> _S32) * bound
            low = product & _LOW32
    return np.int64(product >> _S32), state


@engine_jit
def below(rng, n):
    """An integer in [0, n), exactly uniform for 0 <= n < 2**32 (0 when n is 0)."""
    value, state = _bounded(rng[0], n)
    rng[0] = state
    return value


@engine_jit
def chance(rng, p):
    """True with probability ``p``; draws nothing when ``p`` is 0 or 1."""
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    return uniform(rng) < p


@engine_jit
def tie_pick(ties, rng):
    """Which of ``ties`` equally best candidates to take (0-based, in scan order): uniform,
    one draw, and none without a tie. Every strategy breaks ties with this one rule: find the
    best score and count its ties first, then take the ``tie_pick``-th candidate with it."""
    return below(rng, ties) if ties > 1 else 0


NO_CANDIDATE = -(1 << 62)
"""The score of a position that is no candidate at all (below every real score)."""


@engine_inline
def pick_best(scores, n, rng):
    """The position of the highest of ``scores[:n]`` (an array or a tuple), ties broken by
    :func:`tie_pick`; positions scoring :data:`NO_CANDIDATE` are passed over; -1 (and no
    draw) when every one is. The one candidate-choosing loop of every strategy."""
    best = NO_CANDIDATE
    ties = 0
    for k in range(n):
        score = scores[k]
        if score == NO_CANDIDATE:
            continue
        if score > best:
            best = score
            ties = 1
        elif score == best:
            ties += 1
    if ties == 0:
        return -1
    pick = tie_pick(ties, rng)
    for k in range(n):
        if scores[k] == best:
            if pick == 0:
                return k
            pick -= 1
    return -1


@engine_jit
def shuffle(arr, n, rng):
    """Fisher-Yates shuffle of ``arr[:n]`` in place (the same draws as :func:`below`).

    The stream's state stays in a local for the whole loop: kept in ``rng[0]``, every draw
    would wait on the previous one's store (the compiler cannot tell ``arr`` from ``rng``).
    """
    state = rng[0]
    for i in range(n - 1, 0, -1):
        j, state = _bounded(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
    rng[0] = state

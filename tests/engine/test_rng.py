"""The engine's bounded draw: Lemire's integer multiply-shift with rejection, exactly uniform."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from uno_stats.engine.rng import below, seed_stream

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _reference_below(state: list[int], n: int) -> int:
    """Lemire (2019), "Fast random integer generation in an interval", on 32-bit draws."""

    def draw() -> int:
        state[0] = (state[0] + GOLDEN) & M64
        return _mix(state[0]) >> 32

    product = draw() * n
    low = product & 0xFFFFFFFF
    if low < n:
        threshold = (2**32 - n) % n
        while low < threshold:
            product = draw() * n
            low = product & 0xFFFFFFFF
    return product >> 32


@pytest.mark.parametrize("n", [1, 2, 3, 7, 108, 3 * 2**30, 2**32 - 1])
def test_below_is_the_reference_algorithm(n: int) -> None:
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, np.uint64(12345), 6)
    state = [int(rng[0])]
    for _ in range(2000):
        value = int(below(rng, n))
        assert 0 <= value < n
        assert value == _reference_below(state, n)
        assert int(rng[0]) == state[0]  # the same number of draws, rejections included


def test_below_rejects_the_biased_sliver() -> None:
    """n = 3 * 2**30: without rejection, values that are multiples of 3 would come out twice
    as often as the others (two of every four 32-bit draws map to them: 2 : 1 : 1 by value
    mod 3); the quarter of draws in the sliver are drawn again, so the residues are even."""
    n = 3 * 2**30
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, np.uint64(7), 0)
    draws = 30_000
    residues = np.bincount([int(below(rng, n)) % 3 for _ in range(draws)], minlength=3)
    assert stats.chisquare(residues).pvalue > 1e-4, residues


def test_below_is_uniform_for_a_deck_sized_bound() -> None:
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, np.uint64(99), 3)
    counts = np.bincount([int(below(rng, 108)) for _ in range(108_000)], minlength=108)
    assert counts.shape == (108,)
    assert stats.chisquare(counts).pvalue > 1e-4


def _reference_pick(scores: list[int], rng: np.ndarray) -> int:
    """The candidate-choosing rule by hand: the best non-excluded scores, one draw on a tie."""
    from uno_stats.engine.rng import NO_CANDIDATE

    kept = [s for s in scores if s != NO_CANDIDATE]
    if not kept:
        return -1
    best = [k for k, s in enumerate(scores) if s == max(kept)]
    return best[int(below(rng, len(best)))] if len(best) > 1 else best[0]


@pytest.mark.parametrize("as_tuple", [False, True])
def test_pick_best_is_the_tie_rule(as_tuple: bool) -> None:
    """pick_best (an array, or a 4-tuple as the color choices pass) takes the best score,
    passes over NO_CANDIDATE and breaks ties with one draw, exactly as the rule by hand."""
    from uno_stats.engine.rng import NO_CANDIDATE, pick_best

    generator = np.random.default_rng(7)
    for trial in range(300):
        size = 4 if as_tuple else int(generator.integers(1, 12))
        scores = [int(v) for v in generator.integers(0, 4, size)]
        scores = [NO_CANDIDATE if generator.random() < 0.3 else s for s in scores]
        ours = np.array([trial], dtype=np.uint64)
        theirs = ours.copy()
        given = tuple(scores) if as_tuple else np.array(scores, dtype=np.int64)
        assert pick_best(given, size, ours) == _reference_pick(scores, theirs), scores
        assert ours[0] == theirs[0], scores  # the same draws: none without a tie

"""A chi-square check that a game's fast ``random_move`` is uniform over ``legal_moves()``.

Shared by the games that override ``random_move`` (Trax, Tantrix, MOD X). Stdlib only: the
critical value comes from the Wilson–Hilferty approximation of the chi-square quantile."""

from __future__ import annotations

import random
from collections import Counter
from statistics import NormalDist

#: The chance that a truly uniform sampler fails the check (per position checked).
FALSE_ALARM = 1e-4


def chi_square_limit(df: int, false_alarm: float = FALSE_ALARM) -> float:
    """The chi-square value with ``df`` degrees of freedom exceeded with probability
    ``false_alarm`` (Wilson–Hilferty; within a few percent from df = 2 on)."""
    z = NormalDist().inv_cdf(1 - false_alarm)
    k = 2 / (9 * df)
    return df * (1 - k + z * k**0.5) ** 3


def chi_square(counts: Counter, moves: list, draws: int) -> float:
    expected = draws / len(moves)
    return sum((counts[m] - expected) ** 2 / expected for m in moves)


def assert_uniform(state, sample=None, per_move: int = 60, seed: int = 0) -> None:
    """Draw ``per_move`` times as many moves as ``state`` has legal moves with ``sample``
    (``state.random_move`` by default) and fail unless every draw is legal and the counts
    pass the chi-square test of uniformity."""
    moves = state.legal_moves()
    assert len(moves) >= 2, "uniformity needs a choice"
    sample = sample or state.random_move
    rng = random.Random(seed)
    draws = per_move * len(moves)
    counts = Counter(sample(rng) for _ in range(draws))
    outside = set(counts) - set(moves)
    assert not outside, f"random_move drew moves that are not legal: {sorted(map(str, outside))}"
    value = chi_square(counts, moves, draws)
    limit = chi_square_limit(len(moves) - 1)
    assert value < limit, f"not uniform over {len(moves)} moves: chi-square {value:.1f} >= {limit:.1f}"

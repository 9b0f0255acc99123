"""The puzzles' solvers: the published Discovery counts, every solution a hole-free loop, holes."""

import pytest

from qipan.games.tantrix.solver import (
    PUBLISHED_DISCOVERY,
    count_discovery,
    discovery_solutions,
    has_hole,
    is_discovery_solution,
)

from .conftest import make


@pytest.mark.parametrize(
    "n,colour", [key for key in PUBLISHED_DISCOVERY if key[0] <= 9], ids=lambda v: str(v)
)
def test_discovery_counts_match_the_published_numbers(n, colour):
    assert count_discovery(n, colour) == PUBLISHED_DISCOVERY[(n, colour)]


def test_every_solution_is_a_hole_free_loop_through_all_tiles():
    for n in (3, 5, 7):
        for solution in discovery_solutions(n):
            board = {cell: (t, r) for cell, t, r in solution}
            assert sorted(t for _, t, _ in solution) == list(range(1, n + 1))
            assert is_discovery_solution(board, make("tantrix-discovery", n=n).colour)


def test_hole_detection():
    ring = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    assert has_hole(ring) and not has_hole(ring + [(0, 0)]) and not has_hole([(0, 0), (1, 0), (1, -1)])

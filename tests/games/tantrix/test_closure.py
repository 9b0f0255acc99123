"""The closure test (``geometry_allows``, written for speed) gives the answers of the run as
it was first written, on every space and every cell beyond one of random tables."""

import random

import qipan
from qipan.games.tantrix.board import geometry_allows, neighbours


def first_written_allows(occupied, counts, cell) -> bool:
    """The closure test as first written (rules 4.5.4): fill forced spaces, lowest first,
    checking every pair of forced spaces at every step."""
    extra = {}
    virtual = {cell}
    forced = {c for c, n in counts.items() if n >= 3 and c != cell}

    def add(filled) -> bool:
        for nb in neighbours(filled):
            if nb in occupied or nb in virtual:
                continue
            k = extra.get(nb, 0) + 1
            extra[nb] = k
            total = counts.get(nb, 0) + k
            if total >= 4:
                return False
            if total == 3:
                forced.add(nb)
        return True

    if not add(cell):
        return False
    while forced:
        for f in forced:
            for nb in neighbours(f):
                if nb in forced:
                    return False
        f = min(forced)
        forced.discard(f)
        virtual.add(f)
        if not add(f):
            return False
    return True


def test_the_closure_test_gives_the_first_written_answers_on_random_tables():
    game = qipan.load("tantrix")
    rng = random.Random(5)
    asked = refused = 0
    for g in range(6):
        state = game.new(players=rng.choice((2, 3, 4)), seed=g)
        while state.outcome is None and not state.endgame:  # the test applies until then
            cells = set(state.counts)
            cells.update(nb for c in state.counts for nb in neighbours(c) if nb not in state.edges)
            for cell in sorted(cells):
                expected = first_written_allows(state.edges, state.counts, cell)
                assert geometry_allows(state.edges, state.counts, cell) == expected, cell
                asked += 1
                refused += not expected
            state.play_unchecked(state.random_move(rng))
    assert asked > 5_000
    assert 0.2 < refused / asked < 0.8  # both answers common: the comparison means something

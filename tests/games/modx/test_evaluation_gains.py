"""The ``modx`` agent's pattern-by-pattern move ordering (evaluation_gains.py) gives the same values
as the square-by-square definitions in evaluation.py, and the same legal relocations as
the rules, over seeded random games of every preset."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.games.modx import evaluation
from qipan.games.modx import evaluation_gains as gains
from qipan.games.modx.rules import PLAY, RELOCATE


@pytest.mark.parametrize("preset", ["modx", "modx-3", "modx-4", "modx-teams"])
def test_pattern_sums_equal_the_square_by_square_ones(preset):
    game = qipan.load(preset)
    checked = {PLAY: 0, RELOCATE: 0}
    for seed in range(8):
        state = game.new(seed=seed)
        rng = random.Random(seed)
        while state.outcome is None:
            if state.phase == PLAY:
                expected, got = evaluation.placement_gains(state), gains.placement_gains(state)
            elif state.phase == RELOCATE:
                expected, got = evaluation.relocation_penalties(state), gains.relocation_penalties(state)
                assert gains.relocation_squares(state) == [m.data[1] for m in state.legal_moves()]
            else:
                expected = got = None
            if expected is not None:
                assert list(got) == list(expected)  # the same squares, in board order
                assert all(got[s] == pytest.approx(expected[s], abs=1e-9) for s in expected)
                checked[state.phase] += 1
            state.play(rng.choice(state.legal_moves()))
    assert checked[PLAY] > 100 and checked[RELOCATE] > 0


def test_a_relocation_that_makes_an_all_joker_pattern_is_allowed_and_wins():
    from .conftest import make

    # Four jokers of the line A1-E1 and Red's X on F1..: a joker on E1 would complete
    # Red's line B1-F1 too, but the all-joker line wins, so it is legal and best.
    state = make({"A1": "J", "B1": "J", "C1": "J", "D1": "J", "F1": "R", "H8": "J"}, phase="relocate 1")
    assert 4 in gains.relocation_squares(state)  # E1
    harm = gains.relocation_penalties(state)
    assert min(harm, key=harm.get) == 4

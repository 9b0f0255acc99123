"""``ModXState.random_move`` (sample and check, uniform over ``legal_moves()``) and the
local scoring it uses (``completed_with``: only the patterns through the new square)."""

from __future__ import annotations

import random

import pytest
from tests.uniformity import assert_uniform

import qipan
from qipan.games.modx.board import BIT, PATTERNS, SQUARES, completed_with
from qipan.games.modx.rules import PLAY, RELOCATE, SETUP

from .conftest import make


def random_positions(preset: str, phase: int, wanted: int = 3, plies=None):
    """Positions of seeded random games in ``phase`` with a choice of at least two moves
    (and, for relocations, at least one open square refused)."""
    game = qipan.load(preset)
    found = []
    for seed in range(300):
        state = game.new(seed=seed)
        rng = random.Random(seed)
        stop = rng.randrange(4, 40) if plies is None else plies
        while state.outcome is None:
            moves = state.legal_moves()
            if state.phase == phase and len(moves) >= 2 and state.ply >= stop:
                if phase != RELOCATE or len(moves) < bin(state.open_mask()).count("1"):
                    found.append(state.copy())
                    break
            state.play(rng.choice(moves))
        if len(found) == wanted:
            return found
    raise AssertionError(f"no position in phase {phase} found")


def test_random_move_is_uniform_in_the_setup():
    for state in random_positions("modx", SETUP, plies=2):
        assert_uniform(state)


@pytest.mark.parametrize("preset", ["modx", "modx-4", "modx-teams"])
def test_random_move_is_uniform_in_play(preset):
    for state in random_positions(preset, PLAY):
        assert_uniform(state, per_move=40)


def test_random_move_is_uniform_when_relocating_a_joker():
    for state in random_positions("modx", RELOCATE):
        assert_uniform(state)


def test_random_move_carries_a_pattern_that_is_already_complete():
    # Red's plus on D4 is complete from the set-up: every placement scores it, and the
    # sampled move must say so exactly like legal_moves does.
    state = make({"D4": "R", "C4": "R", "E4": "R", "D5": "R", "D3": "R", "A8": "J", "H8": "J"})
    assert all("{" in m.text for m in state.legal_moves())
    assert_uniform(state, per_move=40)


def test_the_fallback_to_legal_moves_is_uniform_too():
    state = random_positions("modx", PLAY, 1)[0]
    state.RANDOM_TRIES_PER_SQUARE = 0
    assert_uniform(state, per_move=40)


def test_completed_with_agrees_with_a_full_scan():
    rng = random.Random(5)
    for _ in range(3000):
        own = jokers = 0
        for s in rng.sample(range(SQUARES), rng.randrange(4, 30)):
            if rng.random() < 0.25:
                jokers |= BIT[s]
            else:
                own |= BIT[s]
        s = rng.choice([s for s in range(SQUARES) if not (own | jokers) & BIT[s]])
        new, cover = own | BIT[s], own | BIT[s] | jokers
        expected = 0
        for pat in PATTERNS:
            if pat & cover == pat and pat & new:
                expected |= pat
        assert completed_with(own, jokers, s) == expected

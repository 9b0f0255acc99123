"""Every preset declares an action space (core/actions.py) that numbers each legal move of
every position of seeded random games with its own index, maps the index back to the
move, and observes a tensor of the declared shape with values in [0, 1]."""

from __future__ import annotations

import math
import random

import pytest

import qipan
from qipan.core import IllegalMove
from qipan.core.game import sample_chance

PRESETS = [spec.id for spec in qipan.specs()]


def _random_game(preset: str, seed: int, plies: int):
    """Yield every state of a seeded random game (chance resolved with the same rng)."""
    game = qipan.load(preset)
    rng = random.Random(seed)
    state = game.new(seed=seed)
    for _ in range(plies):
        if state.is_over:
            break
        yield state
        move = sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_moves())
        state.play(move)
    yield state


@pytest.mark.parametrize("preset", PRESETS)
def test_actions_number_the_legal_moves_one_to_one(preset):
    space = qipan.load(preset).actions()
    assert space is not None and space.size > 0 and space.description
    for seed in (1, 2):
        for state in _random_game(preset, seed, 80):
            legal = space.legal(state)  # raises on a shared index or one out of range
            if state.is_over or state.is_chance:
                assert legal == {}
                continue
            assert legal, f"{preset}: no representable move at ply {state.ply}"
            for action, move in legal.items():
                assert space.index(state, move) == action
            for action in sorted(legal)[:: max(1, len(legal) // 4)]:  # a few back the other way
                assert space.move(state, action) == legal[action]


@pytest.mark.parametrize("preset", PRESETS)
def test_observation_has_the_declared_shape(preset):
    game = qipan.load(preset)
    space = game.actions()
    for state in _random_game(preset, 3, 40):
        for player in range(state.num_players):
            obs = space.observe(state, player)
            assert len(obs) == math.prod(space.observation_shape(state.num_players))
            assert all(0.0 <= v <= 1.0 for v in obs)


def test_an_action_that_is_no_legal_move_is_refused():
    game = qipan.load("pente")
    state = game.new()
    space = game.actions()
    before = state.position()
    with pytest.raises(IllegalMove):
        space.move(state, 0)  # A1: the first stone must go to the centre
    assert state.position() == before


def test_observations_differ_by_seat():
    game = qipan.load("pente")
    state = game.new()
    state.play(state.legal_moves()[0])
    space = game.actions()
    assert space.observe(state, 0) != space.observe(state, 1)

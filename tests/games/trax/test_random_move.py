"""``TraxState.random_move``: sample and check, uniform over ``legal_moves()``."""

from __future__ import annotations

import random

import pytest
from tests.uniformity import assert_uniform

import qipan
from qipan.games.trax.rules import free_placements, legal_placements


def positions_with_illegal_placements(preset: str, wanted: int = 3):
    """Positions of seeded random games where some free placements are illegal turns, so
    the sampler's rejections are exercised."""
    game = qipan.load(preset)
    found = []
    for seed in range(200):
        state = game.new(seed=seed)
        rng = random.Random(seed)
        while state.outcome is None and len(found) < wanted:
            moves = state.legal_moves()
            if len(moves) < len(list(free_placements(state.board, game.limited))):
                found.append(state.copy())
                break
            state.play(rng.choice(moves))
        if len(found) == wanted:
            return found
    raise AssertionError("no position with illegal free placements found")


@pytest.mark.parametrize("preset", ["trax", "trax-8x8"])
def test_random_move_is_uniform_where_some_placements_are_illegal(preset):
    for state in positions_with_illegal_placements(preset):
        assert_uniform(state)


@pytest.mark.parametrize("plies", [1, 4, 9])
def test_random_move_is_uniform_in_early_positions(plies):
    state = qipan.load("trax").new()
    rng = random.Random(plies)
    for _ in range(plies):
        state.play(rng.choice(state.legal_moves()))
    assert_uniform(state)


def test_the_fallback_to_legal_moves_is_uniform_too():
    state = positions_with_illegal_placements("trax", 1)[0]
    state.RANDOM_TRIES_PER_CELL = 0  # every draw goes straight to the fallback
    assert_uniform(state)


def test_the_check_fails_a_sampler_that_prefers_one_move():
    state = positions_with_illegal_placements("trax", 1)[0]
    first = state.legal_moves()[0]

    def biased(rng):
        return first if rng.random() < 0.1 else state.random_move(rng)

    with pytest.raises(AssertionError, match="not uniform"):
        assert_uniform(state, biased)


def test_the_check_fails_a_sampler_that_draws_illegal_moves():
    state = positions_with_illegal_placements("trax", 1)[0]
    legal = set(state.legal_moves())
    illegal = next(
        state.move_for(p, t)
        for p, t in free_placements(state.board, False)
        if state.move_for(p, t) not in legal
    )

    with pytest.raises(AssertionError, match="not legal"):
        assert_uniform(state, lambda rng: illegal if rng.random() < 0.01 else state.random_move(rng))


def test_a_random_move_checked_by_forced_play_is_played_from_its_trial():
    # The trial forced play of the sampler is reused by _apply; the result must equal a
    # fresh play of the same move.
    game = qipan.load("trax")
    for seed in range(30):
        a = game.new()
        rng = random.Random(seed)
        while a.outcome is None and a.ply < 60:
            move = a.random_move(rng)
            b = a.copy()
            a.play_unchecked(move)  # as playouts do: no check_turn in between
            b.play(move.text)
            assert a.position() == b.position() and a.outcome == b.outcome


@pytest.mark.parametrize("preset", ["trax", "trax-8x8"])
def test_legal_moves_kept_from_turn_to_turn_equal_a_fresh_computation(preset):
    # The verdicts of forcing placements survive the turns that change nothing near their
    # forced plays; legal_moves must still equal a from-scratch computation, in order,
    # after moves, undos and in copies. Stale verdicts are rare in random play (never
    # forgetting any goes wrong in 3 of these 100 games), so many games are played.
    game = qipan.load(preset)

    def fresh(state):
        return [state.move_for(p, t) for p, t in legal_placements(state.board, game.limited)]

    for seed in range(100):
        state = game.new()
        rng = random.Random(seed)
        while state.outcome is None and state.ply < 200:
            moves = state.legal_moves()
            assert moves == fresh(state)
            if rng.random() < 0.1 and state.ply:
                other = state.copy()
                state.undo()
                assert state.legal_moves() == fresh(state)
                state, moves = other, other.legal_moves()
            state.play(rng.choice(moves))

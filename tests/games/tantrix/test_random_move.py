"""``TantrixState.random_move``: sample and check, uniform over ``legal_moves()``, and the
lazily built legal moves of the turn machine."""

from __future__ import annotations

import random

import pytest
from tests.uniformity import assert_uniform

import qipan
from qipan.core import CHANCE
from qipan.games.tantrix.board import FREE, PLAY, fitting, side_pattern


def fitting_placements(state) -> int:
    """How many (cell, tile, rotation) fit the spaces the mover may use, before R1-R3."""
    hand = set(state.hands[state.current])
    cells = state.placement_cells(state.step != FREE)
    return sum(
        len(rots) for c in cells for t, rots in fitting(side_pattern(state.edges, c)).items() if t in hand
    )


def positions(preset: str, wanted: int, accept, players=None):
    """Positions of seeded random games (all moves from ``legal_moves``) where ``accept``."""
    game = qipan.load(preset)
    found = []
    for seed in range(400):
        state = game.new(players=players, seed=seed)
        rng = random.Random(seed)
        skip = rng.randrange(0, 40)
        while state.outcome is None:
            if state.ply >= skip and len(state.legal_moves()) >= 2 and accept(state):
                found.append(state.copy())
                break
            state.play(rng.choice(state.legal_moves()))
        if len(found) == wanted:
            return found
    raise AssertionError("no such position found")


def players_turn(state, forced: bool) -> bool:
    return state.phase == PLAY and state.to_move != CHANCE and (state.step != FREE) == forced


def test_uniform_where_the_restrictions_refuse_fitting_placements():
    found = positions(
        "tantrix",
        3,
        lambda s: players_turn(s, False) and not s.endgame and fitting_placements(s) > len(s.legal_moves()),
    )
    for state in found:
        assert_uniform(state)


def test_uniform_over_forced_fills():
    for state in positions("tantrix", 2, lambda s: players_turn(s, True)):
        assert_uniform(state)


def test_uniform_in_the_endgame_without_restrictions():
    for state in positions("tantrix", 2, lambda s: players_turn(s, False) and s.endgame):
        assert_uniform(state)


def test_uniform_for_the_first_tile_and_for_draws():
    first = positions("tantrix", 1, lambda s: players_turn(s, False) and not s.edges)[0]
    assert_uniform(first, per_move=30)  # six rotations of each hand tile on the empty table
    draw = positions("tantrix", 1, lambda s: s.phase == PLAY and s.to_move == CHANCE)[0]
    assert_uniform(draw)


@pytest.mark.parametrize("preset", ["tantrix-doubles", "tantrix-tournament"])
def test_uniform_in_other_presets(preset):
    for state in positions(preset, 2, lambda s: players_turn(s, False) and not s.endgame):
        assert_uniform(state, per_move=40)


def test_the_fallback_to_legal_moves_is_uniform_too():
    state = positions("tantrix", 1, lambda s: players_turn(s, False) and not s.endgame)[0]
    state.RANDOM_TRIES = 0
    assert_uniform(state)


def test_legal_moves_are_built_only_when_asked_for_and_survive_undo():
    # Playouts never build the move lists; a later legal_moves() must still be exact, also
    # after undoing into a position whose list was never built.
    game = qipan.load("tantrix")
    rng = random.Random(3)
    fast = game.new(seed=3)
    while fast.outcome is None and fast.ply < 120:
        fast.play_unchecked(fast.random_move(rng))
    replay = game.new(seed=3)
    for move in fast.history:
        replay.play(move.text)
        assert replay.legal_moves() == replay.copy()._legal()
    assert fast.legal_moves() == replay.legal_moves()
    for _ in range(40):
        fast.undo()
        replay.undo()
        assert fast.legal_moves() == replay.legal_moves()


def test_remembered_geometry_matches_the_closure_test_through_copies_and_undo():
    from qipan.games.tantrix.board import geometry_allows

    game = qipan.load("tantrix")
    rng = random.Random(11)
    state = game.new(seed=11)
    branches = []
    while state.outcome is None and state.ply < 150:
        for cell in state.counts:
            assert state.geometry_ok(cell) == geometry_allows(state.edges, state.counts, cell)
        if state.ply % 7 == 0:
            branches.append(state.copy())  # shares the remembered answers with this table
        state.play_unchecked(state.random_move(rng))
    for branch in branches[:5]:
        for _ in range(6):
            if branch.outcome is not None:
                break
            branch.play_unchecked(branch.random_move(rng))
            for cell in branch.counts:
                assert branch.geometry_ok(cell) == geometry_allows(branch.edges, branch.counts, cell)
        branch.undo()
        for cell in branch.counts:
            assert branch.geometry_ok(cell) == geometry_allows(branch.edges, branch.counts, cell)

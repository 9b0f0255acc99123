"""Cross-check against OpenSpiel's nine_mens_morris (the ``openspiel`` preset): on 1,000
seeded random games the legal moves agree at every ply and so do the outcomes.

OpenSpiel takes a removal as a second action by the same player, so each qipan move (with
its removal folded in) is compared with an OpenSpiel (action, removal action) pair."""

from __future__ import annotations

import random

import pytest

import qipan

pyspiel = pytest.importorskip("pyspiel")

# OpenSpiel numbers the points row by row from the top left (nine_mens_morris.cc).
OPENSPIEL_POINTS = ("a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1").split()
OS_INDEX = {name: i for i, name in enumerate(OPENSPIEL_POINTS)}
GAMES = 1000


def as_openspiel(state, move) -> tuple[int, int | None]:
    """The OpenSpiel (action, removal) pair of a qipan move."""
    names = state.t.names
    f, to, removed, _, _ = move.data
    if f < 0:
        action = OS_INDEX[names[to]]
    else:
        action = 24 + OS_INDEX[names[f]] * 24 + OS_INDEX[names[to]]
    victims = [OS_INDEX[names[v]] for v in range(24) if removed >> v & 1]
    assert len(victims) <= 1
    return action, victims[0] if victims else None


def openspiel_pairs(os_state) -> set[tuple[int, int | None]]:
    player = os_state.current_player()
    pairs = set()
    for action in os_state.legal_actions():
        child = os_state.clone()
        child.apply_action(action)
        if not child.is_terminal() and child.current_player() == player:  # a removal follows
            pairs.update((action, removal) for removal in child.legal_actions())
        else:
            pairs.add((action, None))
    return pairs


def test_openspiel_preset_matches_openspiel_on_random_games():
    game = qipan.load("openspiel")
    os_game = pyspiel.load_game("nine_mens_morris")
    plies = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = game.new()
        os_state = os_game.new_initial_state()
        while True:
            assert state.is_over == os_state.is_terminal(), (seed, state.ply)
            if state.is_over:
                break
            assert state.to_move == os_state.current_player()
            moves = state.legal_moves()
            mapped = {as_openspiel(state, m): m for m in moves}
            assert len(mapped) == len(moves)
            assert set(mapped) == openspiel_pairs(os_state), (seed, state.ply, state.position())
            move = rng.choice(moves)
            action, removal = as_openspiel(state, move)
            state.play(move)
            os_state.apply_action(action)
            if removal is not None:
                os_state.apply_action(removal)
            plies += 1
        returns = os_state.returns()
        expected = () if returns[0] == returns[1] else ((0,) if returns[0] > returns[1] else (1,))
        assert state.outcome.winners == expected, (seed, state.outcome)
    assert plies > 50 * GAMES  # the games are real games, not a few plies each

"""Level 3's horizon: the softmax weighs only moves valued two plies deep (never a one-ply
value beside two-ply ones), a chance draw or the mover's own next move is played through
before the reply, and the game's evaluation is the one its agent uses."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.agents.levels import DEEP_CANDIDATES, reply_value, score_moves
from qipan.core.game import CHANCE


@pytest.fixture(autouse=True)
def reference_rules(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "0")


def after_random_plies(preset: str, plies: int, seed: int = 0):
    rng = random.Random(seed)
    state = qipan.load(preset).new(players=2, seed=seed)
    while state.ply < plies and state.outcome is None:
        state.play(state.random_move(rng))
    while state.to_move == CHANCE:
        state.play(state.random_move(rng))
    return state


@pytest.mark.parametrize("preset", ["pente", "nine-mens-morris", "trax-8x8"])
def test_every_move_level_three_weighs_was_valued_two_plies_deep(preset):
    state = after_random_plies(preset, 6)
    scored = score_moves(state, 2, random.Random(1), None)
    assert len(scored) >= min(DEEP_CANDIDATES, len(state.legal_moves()))
    me = state.to_move
    for value, move in scored:
        state.play(move)
        assert value == reply_value(state, me, random.Random(2), None)
        state.undo()


@pytest.mark.parametrize("preset", ["tantrix", "pipemania"])
def test_a_chance_draw_after_the_move_is_played_through_not_skipped(preset):
    for seed in range(20):
        state = after_random_plies(preset, 12, seed)
        me = state.to_move
        for move in state.legal_moves():
            before = (state.key(), state.ply)
            state.play(move)
            if state.to_move == CHANCE:
                value = reply_value(state, me, random.Random(seed), None)
                assert isinstance(value, float)
                state.undo()
                assert (state.key(), state.ply) == before
                return
            state.undo()
    pytest.fail("no move followed by a chance draw in the positions tried")


def test_tantrix_evaluates_with_its_agents_weights():
    from qipan.games.tantrix.agent import TantrixAgent
    from qipan.games.tantrix.evaluation import AGENT, CLASSIC, evaluate

    assert TantrixAgent.base_weights is AGENT
    state = after_random_plies("tantrix", 20)
    values = {evaluate(state, 0, weights=w) for w in (AGENT, CLASSIC)}
    assert state.game.evaluate(state, 0) == evaluate(state, 0, weights=AGENT)
    assert len(values) == 2  # the position tells the two weightings apart

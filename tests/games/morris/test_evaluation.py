"""Morris knowledge for the generic alphabeta agent: evaluation and move ordering."""

from __future__ import annotations

import random

import qipan
from qipan.agents import load as load_agent


def test_evaluation_is_antisymmetric_and_bounded():
    game = qipan.load("nine-mens-morris")
    rng = random.Random(4)
    for _ in range(20):
        state = game.new()
        for _ in range(rng.randrange(60)):
            if state.outcome:
                break
            state.play(rng.choice(state.legal_moves()))
        a, b = game.evaluate(state, 0), game.evaluate(state, 1)
        assert -1 <= a <= 1 and abs(a + b) < 1e-9


def test_material_mills_and_threats_count():
    game = qipan.load("nine-mens-morris")
    ahead = game.position("W:a1,d1,g1,b6,d6 B:c3,e3,c5 hands:4,5 to:B")
    assert game.evaluate(ahead, 0) > 0 > game.evaluate(ahead, 1)
    threat = game.position("W:a1,d1 B:c3,e5 hands:7,7 to:W")  # White can close a1-d1-g1 now
    quiet = game.position("W:a1,d6 B:c3,e5 hands:7,7 to:W")
    assert game.evaluate(threat, 0) > game.evaluate(quiet, 0)
    # Same stones except one Black stone: on a1 it is boxed in by a4 and d1, on b2 it is free.
    boxed = game.position("W:a4,d1,f6,c5 B:a1,g7,e3,d6 to:W")
    free = game.position("W:a4,d1,f6,c5 B:b2,g7,e3,d6 to:W")
    assert game.evaluate(boxed, 0) > game.evaluate(free, 0)


def test_order_moves_puts_removals_then_blocks_first():
    game = qipan.load("nine-mens-morris")
    state = game.position("W:a7,d7,b4 B:a1,d1,f4 hands:6,6 to:W")
    ordered = [m.text for m in game.order_moves(state, state.legal_moves())]
    assert ordered[0].startswith("g7x") and ordered[1].startswith("g7x") and ordered[2].startswith("g7x")
    assert ordered[3] == "g1"  # blocks Black's a1-d1-g1
    assert sorted(ordered) == sorted(m.text for m in state.legal_moves())


def test_alphabeta_with_the_morris_evaluation_beats_random():
    for seed, side in ((1, 0), (2, 1)):
        state = qipan.load("nine-mens-morris").new()
        agents = [load_agent("random", seed=seed), load_agent("random", seed=seed)]
        agents[side] = load_agent("alphabeta", depth=2, seed=seed)
        while state.outcome is None:
            state.play(agents[state.to_move].choose(state))
        assert state.outcome.winners == (side,)

"""Batched Morris and Pente agree with the reference rules: random batches compared ply by
ply (legal action masks, observations, rewards and ends) through ``actions.py``'s indices."""

from __future__ import annotations

import random

import numpy as np
import pytest

import qipan
from qipan.core import IllegalMove, QipanError

pytest.importorskip("numba")
vector = pytest.importorskip("qipan.rl.vector")


CASES = [
    ("nine-mens-morris", {}),
    ("zhiqi", {}),
    ("six-mens-morris", {}),
    ("three-mens-morris-kurna", {}),
    ("pente", {"board_size": 9}),  # small boards fill up: games end within the test
    ("pente-tournament", {}),
    ("pente-4", {"board_size": 7}),
    ("pente-team", {"board_size": 9}),
    ("pente", {"board_size": 7, "max_pairs_per_move": 1, "exact_five": True, "double_tria": True}),
]


@pytest.mark.parametrize(("preset", "options"), CASES)
def test_batched_games_agree_with_the_reference_ply_by_ply(preset, options):
    batch, seed = 12, 3
    env = vector.VectorEnv(preset, batch=batch, **options)
    env.init(seed=seed)
    game = qipan.load(preset, **options)
    space = game.actions()
    refs = [game.new(seed=seed + b) for b in range(batch)]
    rng = random.Random(seed)
    for _ply in range(150):
        mask = env.legal_action_mask()
        obs = env.observe()
        actions = np.zeros(batch, np.int64)
        for b, ref in enumerate(refs):
            assert env.terminated()[b] == ref.is_over
            if ref.is_over:
                continue
            legal = space.legal_actions(ref)
            assert np.flatnonzero(mask[b]).tolist() == legal
            assert obs[b].ravel().tolist() == pytest.approx(space.observe(ref, ref.to_move))
            actions[b] = rng.choice(legal)
        if all(r.is_over for r in refs):
            break
        rewards, terminated = env.step(actions)
        for b, ref in enumerate(refs):
            if ref.is_over:
                assert not rewards[b].any()
                continue
            ref.play(space.move(ref, int(actions[b])))
            players = ref.num_players
            expected = [0.0] * players
            if ref.outcome is not None and ref.outcome.winners:
                expected = [2 * ref.outcome.reward(p) - 1 for p in range(players)]
            assert rewards[b].tolist() == expected
            assert terminated[b] == ref.is_over


def test_an_illegal_batched_action_is_refused():
    env = vector.VectorEnv("nine-mens-morris", batch=2)
    env.init()
    with pytest.raises(IllegalMove, match="game 0"):
        env.step([0, 0])
    with pytest.raises(QipanError, match="actions"):
        env.step([0])


def test_games_without_a_batched_twin_say_so():
    with pytest.raises(QipanError, match="no batched simulation"):
        vector.VectorEnv("trax", batch=4)
    with pytest.raises(QipanError, match="batch"):
        vector.VectorEnv("pente", batch=0)

"""Batched Morris and Pente agree with the reference rules: random batches compared ply by
ply (legal action masks, observations, rewards and ends) through ``actions.py``'s indices
(1,000 games per game in ``benchmarks/rl_vector_exact.py``); the kernel draws legal actions,
restarts finished games and refuses bad input."""

from __future__ import annotations

import numpy as np
import pytest

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
    vector.check_against_reference(preset, batch=12, seed=3, plies=150, **options)


@pytest.mark.parametrize("preset", ["nine-mens-morris", "pente"])
def test_the_kernel_draws_legal_actions_and_restarts_finished_games(preset):
    options = {"board_size": 7} if preset == "pente" else {"max_plies": 30}
    env = vector.VectorEnv(preset, batch=64, **options)
    env.reset(seed=5)
    logits = np.random.default_rng(1).standard_normal((64, env.space.size)).astype(np.float32)
    ended = 0
    for ply in range(80):
        mask = env.legal_action_mask().copy()
        step = env.step(policy="uniform") if ply % 2 else env.step(logits=logits)
        assert mask[np.arange(64), step.actions].all()  # every action was legal
        ended += int(step.terminated.sum())
        assert not env.terminated().any()  # finished games restarted at once
        assert env.legal_action_mask().any(axis=1).all()
    assert ended > 0
    again = vector.VectorEnv(preset, batch=64, **options)
    again.reset(seed=5)
    env.reset(seed=5)
    for _ in range(10):  # a seed replays the kernel's draws
        assert (env.step(policy="uniform").actions == again.step(policy="uniform").actions).all()


def test_logits_steer_the_draw_and_any_array_kind_is_accepted():
    env = vector.VectorEnv("pente", batch=4, board_size=9)
    _, mask = env.reset()
    favourite = np.flatnonzero(mask[0])[-1]
    logits = np.full((4, env.space.size), -50.0, np.float32)
    logits[:, favourite] = 50.0

    class DLPackOnly:  # an array from another library: only the DLPack protocol
        def __init__(self, array):
            self.array = array

        def __dlpack__(self, **kwargs):
            return self.array.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.array.__dlpack_device__()

    assert (env.step(logits=DLPackOnly(logits)).actions == favourite).all()
    env.reset()
    assert (env.step([int(favourite)] * 4).actions == favourite).all()


def test_logits_far_below_an_illegal_action_still_draw_by_their_softmax():
    # Pente draws with weights exp(logits - row maximum): here the maximum is an occupied
    # point, 300 above every legal one, so every legal weight underflows and the draw must
    # fall back to the legal logits' own maximum (the favourite, 40 above the rest).
    env = vector.VectorEnv("pente", batch=3, board_size=9)
    env.reset()
    centre = int(env.step(policy="uniform").actions[0])  # the first stone: the centre
    mask = env.legal_action_mask()
    assert not mask[:, centre].any()
    favourite = int(np.flatnonzero(mask[0])[0])  # not the last legal point: no accident
    logits = np.full((3, env.space.size), -200.0, np.float32)
    logits[:, favourite] = -160.0
    logits[:, centre] = 100.0
    assert (env.step(logits=logits).actions == favourite).all()


def test_an_illegal_batched_action_is_refused_and_changes_nothing():
    env = vector.VectorEnv("nine-mens-morris", batch=2)
    obs, mask = env.reset()
    before = (obs.copy(), mask.copy())
    legal = int(np.flatnonzero(mask[0])[0])
    with pytest.raises(IllegalMove, match="game 1"):
        env.step([legal, 0])
    assert (env.observe() == before[0]).all() and (env.legal_action_mask() == before[1]).all()
    with pytest.raises(QipanError, match="actions"):
        env.step([0])
    with pytest.raises(QipanError, match="one of"):
        env.step([legal, legal], policy="uniform")
    with pytest.raises(QipanError, match="logits of shape"):
        env.step(logits=np.zeros((2, 3)))
    with pytest.raises(QipanError, match="uniform"):
        env.step(policy="greedy")


def test_pente_refuses_an_illegal_batched_action_and_changes_nothing():
    env = vector.VectorEnv("pente", batch=2, board_size=9)
    _, mask = env.reset()
    centre = int(np.flatnonzero(mask[0])[0])  # the only legal first move
    with pytest.raises(IllegalMove, match="game 1"):
        env.step([centre, centre + 1])  # another point than the centre on the first move
    env.step([centre, centre])
    before = (env.observe().copy(), env.legal_action_mask().copy(), env.impl.S.copy())
    for bad in ([centre, centre + 1], [centre + 1, -1], [centre + 1, env.space.size]):
        with pytest.raises(IllegalMove):  # taken, off the actions, off the actions
            env.step(bad)
        assert (env.impl.S == before[2]).all()
    assert (env.observe() == before[0]).all() and (env.legal_action_mask() == before[1]).all()


def test_games_without_a_batched_twin_say_so():
    with pytest.raises(QipanError, match="no batched simulation"):
        vector.VectorEnv("trax", batch=4)
    with pytest.raises(QipanError, match="batch"):
        vector.VectorEnv("pente", batch=0)


def test_the_gymnasium_vector_env_gives_the_mover_its_reward():
    env = vector.gym_vector_env("pente", num_envs=8, board_size=7)
    assert env.observation_space["action_mask"].shape == (8, 49)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    seen_end = False
    for _ in range(60):
        assert obs["observation"].shape == (8, 5, 7, 7)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in obs["action_mask"]])
        movers = env.env.current_player().copy()
        before = env.env.impl.S.copy()
        obs, rewards, terminated, truncated, _ = env.step(actions)
        assert not truncated.any()
        for b in np.flatnonzero(terminated):
            # A Pente game ends on its mover's stone: a win for the mover (1) or a full board (0).
            seen_end = seen_end or rewards[b] == 1.0
            assert rewards[b] in (0.0, 1.0) and movers[b] in (0, 1)
            assert not (before[b] == env.env.impl.S[b]).all()  # restarted in the same step
        assert (rewards[~terminated] == 0).all()
    assert seen_end

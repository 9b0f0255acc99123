"""PettingZoo's own API and seed tests pass for the environment of every preset (a few
cycles each to keep CI bounded), and the environment follows the rules: chance resolved
by its seeded generator, rewards from the outcome, a bad action refused and harmless."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import qipan  # noqa: E402
import qipan.rl  # noqa: E402
from qipan.core import IllegalMove, QipanError  # noqa: E402

PRESETS = [spec.id for spec in qipan.specs()]


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_and_seed_tests(preset):
    api_test(qipan.rl.env(preset), num_cycles=3, verbose_progress=False)
    seed_test(lambda: qipan.rl.env(preset), num_cycles=3)


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_render_test_human_prints_the_board(preset, capsys):
    render_test(lambda render_mode=None: qipan.rl.env(preset, render_mode=render_mode))
    env = qipan.rl.env(preset, render_mode="human")
    env.reset(seed=0)
    capsys.readouterr()
    assert env.render() is None
    assert capsys.readouterr().out == env.state.text() + "\n"


@pytest.mark.filterwarnings("ignore:Observation")
def test_a_player_count_no_preset_names():
    api_test(qipan.rl.env("tantrix", players=3), num_cycles=2, verbose_progress=False)


def _play_out(env, seed: int) -> dict[str, float]:
    """A random game to the end; the cumulative reward of every agent."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def test_rewards_come_from_the_outcome():
    env = qipan.rl.env("blackpath")
    totals = _play_out(env, 5)
    outcome = env.state.outcome
    assert outcome is not None
    assert totals == {f"player_{p}": 2 * outcome.reward(p) - 1 for p in range(2)}
    assert sorted(totals.values()) == [-1.0, 1.0]  # Black Path has no draw


def test_chance_is_resolved_by_the_seeded_generator():
    env = qipan.rl.env("tantrix")
    env.reset(seed=11)
    first = env.state.position()
    assert not env.state.is_chance
    env.reset(seed=11)
    assert env.state.position() == first
    env.reset(seed=12)
    assert env.state.position() != first  # other deals


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = qipan.rl.env("pente")
    env.reset(seed=1)
    before = env.state.position()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalMove):
        env.step(illegal)
    assert env.state.position() == before


def test_truncation_at_max_plies():
    env = qipan.rl.env("pente", max_plies=4)
    env.reset(seed=3)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            steps += 1
    assert steps == 4


def test_bad_arguments_are_clear_errors():
    with pytest.raises(QipanError, match="players"):
        qipan.rl.env("pente", players=3)
    with pytest.raises(QipanError, match="render_mode"):
        qipan.rl.env("pente", render_mode="rgb_array")

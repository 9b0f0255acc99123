"""The Gymnasium single-agent wrapper: Gymnasium's own checker passes, the learner only
ever sees its own turns, episodes end with the outcome's reward, and a seed replays."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import qipan.rl  # noqa: E402
from qipan.core import IllegalMove, QipanError  # noqa: E402


def _episode(env, seed: int) -> tuple[list[int], float]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, reward, done = [], 0.0, False
    while not done:
        assert env.aec.state.to_move == env.seat and obs["action_mask"].any()  # the learner's turn
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
    return actions, reward


#: The default preset of every family.
FAMILIES = ["blackpath", "trax", "pipemania", "tantrix", "nine-mens-morris", "pente", "modx"]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("preset", FAMILIES)
def test_gymnasium_checker_passes_on_the_default_wrapper(preset):
    # check_env samples actions without the mask: the default wrapper refuses them as a step.
    check_env(qipan.rl.single_agent(preset))
    check_env(qipan.rl.single_agent(preset, render_mode="human"))


def test_human_rendering_prints_the_text_board(capsys):
    env = qipan.rl.single_agent("three-mens-morris", render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert capsys.readouterr().out == env.aec.state.text() + "\n"
    assert qipan.rl.single_agent("three-mens-morris", render_mode="ansi").render() is None  # before reset


def test_an_illegal_action_is_refused_as_a_lost_episode_or_raises_as_asked():
    env = qipan.rl.single_agent("pente")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.aec.state.position()
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal": True})
    assert env.aec.state.position() == before
    strict = qipan.rl.single_agent("pente", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalMove):
        strict.step(illegal)


def test_an_episode_against_an_agent_ends_with_the_outcome():
    env = qipan.rl.single_agent("blackpath", opponent="random", seat=1)
    _, reward = _episode(env, 4)
    outcome = env.aec.state.outcome
    assert reward == 2 * outcome.reward(1) - 1


def test_the_same_seed_replays_the_episode():
    env = qipan.rl.single_agent("three-mens-morris", opponent="mcts:iterations=20")
    assert _episode(env, 9) == _episode(env, 9)


def test_stepping_after_the_end_is_refused():
    env = qipan.rl.single_agent("blackpath")
    _episode(env, 2)
    with pytest.raises(QipanError, match="reset"):
        env.step(0)


def test_wrong_opponents_are_refused():
    with pytest.raises(QipanError, match="opponents"):
        qipan.rl.single_agent("modx-3", opponent=["random"])
    with pytest.raises(QipanError):
        qipan.rl.single_agent("pente-4", opponent="alphabeta")  # alpha-beta plays 2 players only

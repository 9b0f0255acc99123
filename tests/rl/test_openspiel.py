"""qipan's games as OpenSpiel Python games: every preset registers and plays through
pyspiel's API; OpenSpiel's random simulation test and its MCTS bot run on three of them."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

import qipan  # noqa: E402
import qipan.rl.openspiel as qos  # noqa: E402

PRESETS = [spec.id for spec in qipan.specs()]
THREE = ["three-mens-morris", "blackpath", "pipemania"]  # the last has chance nodes


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_plays_through_pyspiel(preset):
    game = qos.load(preset)
    qgame = qipan.load(preset)
    assert game.num_distinct_actions() == qgame.actions().size
    assert game.get_type().short_name == qos.short_name(preset)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            obs = np.asarray(state.observation_tensor(state.current_player()))
            assert obs.size == int(np.prod(game.observation_tensor_shape()))
            state.apply_action(int(rng.choice(legal)))
    assert len(state.returns()) == game.num_players()


def test_parameters_are_the_options():
    game = pyspiel.load_game(qos.register("pente")[0], {"tournament": True, "board_size": 13})
    assert game.num_distinct_actions() == 13 * 13
    assert qos.load("modx", players=3).num_players() == 3
    with pytest.raises(Exception, match="players"):
        qos.load("pente", players=3)
    with pytest.raises(Exception, match="board_size"):
        qos.load("pente", board_size=2)


@pytest.mark.parametrize("preset", THREE)
def test_openspiel_random_simulation_test(preset):
    pyspiel.random_sim_test(qos.load(preset), num_sims=2, serialize=False, verbose=False)


def _mcts(game, seed: int, simulations: int = 60) -> mcts.MCTSBot:
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(
        game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng, solve=False
    )


@pytest.mark.parametrize("preset", THREE)
def test_openspiel_mcts_bot_plays_full_games(preset):
    game = qos.load(preset)
    bots = [_mcts(game, 1, simulations=15), _mcts(game, 2, simulations=15)]
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bots[state.current_player() % 2].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert all(-1.0 <= r <= 1.0 for r in state.returns())


def test_openspiel_mcts_takes_the_winning_line():
    """Three Men's Morris: White has a1 and a2, Black b1 and c1 (a3 wins at once)."""
    game = qos.load("three-mens-morris")
    state = game.new_initial_state()
    for text in ("a1", "b1", "a2", "c1"):
        (action,) = [a for a in state.legal_actions() if state.action_to_string(a) == text]
        state.apply_action(action)
    action = _mcts(game, 5, simulations=200).step(state)
    assert state.action_to_string(action) == "a3"

import pytest

import qipan
from qipan import agents
from qipan.core import CHANCE, OptionError, QipanError


def test_load_agents_and_errors():
    assert agents.load("mcts", time=0.5).time == 0.5
    with pytest.raises(OptionError, match="known agents"):
        agents.load("nobody")
    with pytest.raises(OptionError):
        agents.load("mcts", time=-1)
    with pytest.raises(OptionError):
        agents.load("random", speed=3)


@pytest.mark.parametrize("name", ["mcts", "alphabeta"])
def test_agents_take_a_win_in_one(toys, name):
    state = qipan.load("toy-ttt").new()
    state.play_many(["a1", "a2", "b1", "b2"])  # X to play c1 and win
    agent = agents.load(name, iterations=2000, seed=1) if name == "mcts" else agents.load(name, depth=3)
    assert agent.choose(state).text == "c1"


@pytest.mark.parametrize("name", ["mcts", "alphabeta"])
def test_agents_block_a_win_in_one(toys, name):
    state = qipan.load("toy-ttt").new()
    state.play_many(["a1", "b2", "b1"])  # O must block c1
    agent = agents.load(name, iterations=3000, seed=2) if name == "mcts" else agents.load(name, depth=4)
    assert agent.choose(state).text == "c1"


def test_alphabeta_perfect_tictactoe_draws(toys):
    state = qipan.load("toy-ttt").new()
    agent = agents.load("alphabeta", depth=9)
    while state.outcome is None:
        state.play(agent.choose(state))
    assert state.outcome.is_draw


def test_mcts_is_reproducible_and_handles_chance(toys):
    import random

    def play(seed):
        state = qipan.load("toy-dice").new(players=3, seed=seed)
        rng = random.Random(seed)
        agent = agents.load("mcts", iterations=50, seed=seed)
        while state.outcome is None:
            if state.to_move == CHANCE:
                qipan.resolve_chance(state, rng)
            else:
                state.play(agent.choose(state))
        return [m.text for m in state.history]

    assert play(3) == play(3)


def test_agent_refuses_finished_game(toys):
    state = qipan.load("toy-ttt").new()
    state.play_many(["a1", "a2", "b1", "b2", "c1"])
    with pytest.raises(QipanError, match="over"):
        agents.load("random").choose(state)


def test_alphabeta_refuses_multiplayer(toys):
    state = qipan.load("toy-dice").new(players=3, seed=1)
    qipan.resolve_chance(state, __import__("random").Random(1))
    while state.to_move == CHANCE:
        qipan.resolve_chance(state, __import__("random").Random(2))
    with pytest.raises(OptionError):
        agents.load("alphabeta", depth=2).choose(state)


def test_strongest_agent_for_each_game():
    from qipan.agents import strongest_agent_name

    expected = {
        "nine-mens-morris": "morris",
        "three-mens-morris-kurna": "morris",  # it plays the solver there
        "pente": "pente",
        "trax-8x8": "trax",
        "blackpath": "blackpath-solver",
        "modx-4": "modx",
        "tantrix": "tantrix",
        "pipemania-2p": "pipemania",
        "pipemania-race": "pipemania",
        "pipemania": "mcts",  # one player by default: the duel's agent does not play it
    }
    for game_id, agent in expected.items():
        assert strongest_agent_name(qipan.load(game_id)) == agent, game_id
    for spec in qipan.specs():  # every game has one that accepts it
        game = qipan.load(spec.id)
        name = strongest_agent_name(game)
        assert agents.load(name, time=0.05) is not None


def test_agents_load_right_after_import_qipan():
    # A newcomer's first line: no game loaded before (it raised AttributeError once).
    import subprocess
    import sys

    code = "import qipan; print(qipan.agents.load('mcts', time=0.1).name)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "mcts", out.stderr

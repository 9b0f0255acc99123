"""The ``morris-solver`` agent: perfect play on the 3x3 boards, what it declares it plays, and
the Games that declare it as their solver."""

from __future__ import annotations

import pytest

import qipan
from qipan.agents import load as load_agent
from qipan.agents.base import agent_spec
from qipan.core.errors import OptionError

MORRIS = [s.id for s in qipan.specs() if s.family == "morris"]


def test_solver_agent_wins_kurna_as_first_player():
    for seed in range(4):
        state = qipan.load("three-mens-morris-kurna").new()
        agents = [load_agent("morris-solver", seed=seed), load_agent("random", seed=seed)]
        while state.outcome is None:
            state.play(agents[state.to_move].choose(state))
        assert state.outcome.winners == (0,)
    with pytest.raises(qipan.QipanError, match="only the Three Men's Morris"):
        load_agent("morris-solver").choose(qipan.load("nine-mens-morris").new())


@pytest.mark.parametrize("preset", MORRIS)
def test_the_solver_plays_exactly_the_games_that_declare_it(preset):
    game = qipan.load(preset)
    spec = agent_spec("morris-solver")
    three = game.rules.board == "three"
    assert spec.plays(game, 2) is three
    assert ("morris-solver" in game.solved_by) is three
    assert game.capabilities()["solved_by"] == list(game.solved_by)


def test_the_solver_declares_two_players_and_is_refused_elsewhere():
    spec = agent_spec("morris-solver")
    assert spec.players == (2,) and spec.options == ()
    kurna = qipan.load("three-mens-morris-kurna", diagonal_lines=False)
    assert spec.plays(kurna, 2) and not spec.plays(kurna, 3)
    assert "plays games of 2 players, not 3" in spec.refusal(kurna, 3)
    with pytest.raises(OptionError, match="does not play Nine Men's Morris.*agents that do: .*alphabeta"):
        load_agent("morris-solver", game=qipan.load("nine-mens-morris"), players=2)

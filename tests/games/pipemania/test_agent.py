"""The ``pipemania`` agent is the generic alpha-beta over the game's evaluation, its levels set
by lapses; it plays the two-player presets and refuses the solo game."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.agents import load, strongest_agent_name
from qipan.agents.levels import LevelAgent
from qipan.core.errors import OptionError
from qipan.core.game import CHANCE, resolve_chance


def positions(preset: str, count: int, seed: int):
    """Positions a few random plies into two-player games of ``preset``."""
    rng = random.Random(seed)
    game = qipan.load(preset)
    out = []
    while len(out) < count:
        state = game.new(players=2, seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 12)):
            draw_pieces(state, rng)
            if state.outcome is not None:
                break
            state.play(rng.choice(state.legal_moves()))
        draw_pieces(state, rng)
        if state.outcome is None and len(state.legal_moves()) > 1:
            out.append(state)
    return out


def draw_pieces(state, rng):
    while state.outcome is None and state.to_move == CHANCE:
        resolve_chance(state, rng)


@pytest.mark.parametrize("preset", ["pipemania", "pipemania-2p", "pipemania-race"])
def test_it_plays_the_moves_of_the_generic_alphabeta(preset):
    for state in positions(preset, 6, seed=len(preset)):
        ours = load("pipemania", game=state.game, players=2, depth=2)
        generic = load("alphabeta", game=state.game, players=2, depth=2)
        assert ours.choose(state.copy()) == generic.choose(state.copy())


def test_it_is_the_strongest_agent_of_the_duel_only():
    game = qipan.load("pipemania")
    assert strongest_agent_name(game, 2) == "pipemania"
    assert strongest_agent_name(game, 1) == "mcts"
    with pytest.raises(OptionError, match="2 players, not 1"):
        load("pipemania", game=game, players=1)


@pytest.mark.parametrize("number, rate", [(4, 0.96), (5, 0.91), (6, 0.83), (7, 0.7), (8, 0.0)])
def test_the_levels_lapse_at_pipe_manias_own_rates(number, rate):
    state = positions("pipemania-2p", 1, seed=3)[0]
    level = LevelAgent(level=number, time=0.01, seed=number)
    searched = lapsed = 0
    for _ in range(100):
        level.choose(state.copy())
        lapsed += level.last_method == "lapse"
        searched += level.last_method == "search"
    assert level._inner.name == "pipemania"
    assert lapsed + searched == 100
    # Binomial(100, rate): four standard deviations either side.
    assert abs(lapsed - 100 * rate) <= 4 * (100 * rate * (1 - rate)) ** 0.5 + 1e-9

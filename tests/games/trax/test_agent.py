"""The Trax agent: GnuTrax puzzles, immediate wins and defences through forced plays, its
declared reach, and the generic alphabeta agent playing with the Trax knowledge."""

from __future__ import annotations

import pytest
from trax_helpers import DATA, play

import qipan
from qipan.agents import agent_specs
from qipan.agents import load as load_agent
from qipan.games.trax import TraxAgent, TraxClassicAgent, TraxGame, classic, search
from qipan.games.trax.records import read_trx

PUZZLES = read_trx((DATA / "trax_puzzles_gnutrax_easy.trx").read_text())


def immediate_wins(state, player):
    """Moves of the side to move after which ``player`` has won (brute force via play/undo)."""
    wins = []
    for move in state.legal_moves():
        state.play(move)
        if state.outcome is not None and state.outcome.winners == (player,):
            wins.append(move.text)
        state.undo()
    return wins


@pytest.mark.parametrize("variant", ["8x8", "unlimited"])
@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda r: " ".join(r.moves))
def test_agent_solves_every_gnutrax_puzzle(puzzle, variant):
    state = play(puzzle.moves, variant=variant)
    key = state.key()
    move = TraxAgent(depth=3, seed=7).choose(state)
    assert move.text in puzzle.tags["solutions"].split()
    assert state.key() == key  # the search leaves the state as it was


#: Each agent with the score from which its search calls a move a proven win.
AGENTS = [(TraxAgent, search.PROVEN), (TraxClassicAgent, classic.WIN)]


@pytest.mark.parametrize(("make", "proven"), AGENTS, ids=["trax", "trax-classic"])
def test_l_puzzle_is_a_proven_win_in_two_moves(make, proven):
    # "white L": A1\\ wins whatever Red replies; depth 3 (or the threat search) proves it.
    state = play(PUZZLES[3].moves)
    assert immediate_wins(state, 0) == []
    agent = make(depth=3, seed=1)
    assert agent.choose(state).text == "A1\\"
    assert agent.last_search.scores[max(agent.last_search.scores, key=agent.last_search.scores.get)] >= proven
    state.play("A1\\")
    for reply in state.legal_moves():
        state.play(reply)
        assert state.outcome is not None or immediate_wins(state, 0), reply
        state.undo()


@pytest.mark.parametrize("make", [TraxAgent, TraxClassicAgent], ids=["trax", "trax-classic"])
def test_agent_blocks_a_loop_threat_of_the_opponent(make):
    # Red to move; White threatens A0/ and B0\\ (one loop, two ways to close it).
    state = TraxGame().position("LJ R")
    assert set(immediate_wins(state, 0)) == {"A0/", "B0\\"}  # closing White's loop hands White the game
    assert {"A0/", "B0\\"} <= set(immediate_wins(TraxGame().position("LJ W"), 0))
    move = make(depth=2, seed=3).choose(state)
    state.play(move)
    assert state.outcome is None or state.outcome.winners == (1,)
    assert immediate_wins(state, 0) == [], f"{move} leaves White a win"


@pytest.mark.parametrize("make", [TraxAgent, TraxClassicAgent], ids=["trax", "trax-classic"])
def test_agent_never_completes_only_the_opponents_loop(make):
    state = play("@0/ A2\\")  # White to move: B1\\ would make a red loop (T05)
    for seed in range(5):
        move = make(depth=2, seed=seed).choose(state)
        state.play(move)
        assert state.outcome is None or state.outcome.winners == (0,)
        state.undo()


def test_agent_is_registered_for_the_trax_family_and_respects_limits():
    spec = next(a for a in agent_specs() if a.name == "trax")
    assert spec.families == ("trax",) and spec.players == (2,)
    assert spec.plays(qipan.load("trax-loop"), 2) and not spec.plays(qipan.load("pente"), 2)
    agent = load_agent("trax", iterations=200, seed=1)
    state = qipan.load("trax-8x8").new()
    state.play_many("@0+ @1+ @1+ @1/".split())
    move = agent.choose(state)
    assert move in state.legal_moves()
    assert agent.last_search.nodes < 400  # stops soon after the node budget


def test_agent_games_reach_an_end_in_every_variant():
    for preset in ("trax", "trax-8x8", "trax-loop"):
        state = qipan.load(preset).new()
        agents = [TraxAgent(depth=1, seed=1), load_agent("random", seed=2)]
        while state.outcome is None and state.ply < 300:
            state.play(agents[state.to_move].choose(state))
        assert state.outcome is not None, preset


def test_generic_alphabeta_uses_the_trax_knowledge():
    state = play("@0/ @1\\")
    move = load_agent("alphabeta", depth=1, seed=1).choose(state)
    assert move.text in ("A0/", "B0\\")

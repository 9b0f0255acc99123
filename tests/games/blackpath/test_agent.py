"""The Black Path agents: the solver player wins every line it should, the domino strategy
never loses where it applies (and is no perfect player in the seed variant)."""

from __future__ import annotations

import pytest

import qipan
from qipan.games.blackpath.agent import DominoAgent, SolverAgent, domino_partners
from qipan.games.blackpath.solver import solve


def test_solver_agent_wins_every_line_as_the_winning_side():
    """Against every reply the solver player wins the side the solver says wins."""
    for rows, cols, variant in [(4, 4, "seed"), (3, 4, "seed"), (3, 3, "ww"), (4, 4, "ww")]:
        game = qipan.load("blackpath", rows=rows, cols=cols, variant=variant)
        winner, _ = solve(rows, cols, variant)
        agent = SolverAgent()
        assert all_lines_won(game.new(), agent, winner)


def test_solver_agent_falls_back_when_out_of_time():
    state = qipan.load("blackpath", rows=12, cols=12).new()
    state.play("+")
    agent = SolverAgent(time=0.01, seed=1)
    assert agent.choose(state) in state.legal_moves()


def test_solver_agent_counts_its_time_on_the_agents_clock(monkeypatch):
    """A match on the CPU clock gives the solver CPU seconds: its deadline is read on the
    agents' clock (here one that jumps an hour a reading), not on the wall."""
    from qipan.agents import clock

    readings = []

    def hourly() -> float:
        readings.append(3600.0 * len(readings))
        return readings[-1]

    monkeypatch.setattr(clock, "now", hourly)
    state = qipan.load("blackpath", rows=12, cols=12).new()
    state.play("+")
    agent = SolverAgent(time=5.0, seed=1)
    monkeypatch.setattr(agent._fallback, "select", lambda s: "fallback")
    assert agent.select(state) == "fallback"
    assert len(readings) == 2  # the deadline set, then passed at the first check


def all_lines_won(state, agent, player) -> bool:
    """True if ``agent`` playing ``player`` wins against every choice of the opponent."""
    if state.outcome is not None:
        return state.outcome.winners == (player,)
    if state.to_move == player:
        state.play(agent.choose(state))
        try:
            return all_lines_won(state, agent, player)
        finally:
            state.undo()
    for move in state.legal_moves():
        state.play(move)
        try:
            if not all_lines_won(state, agent, player):
                return False
        finally:
            state.undo()
    return True


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (2, 4), (3, 4), (4, 3), (4, 4), (2, 6), (4, 5)])
def test_domino_strategy_never_loses_as_player_1_on_even_boards(rows, cols):
    game = qipan.load("blackpath", rows=rows, cols=cols, variant="ww")
    assert all_lines_won(game.new(), DominoAgent(seed=1), 0)


@pytest.mark.parametrize("rows,cols", [(3, 3), (3, 5), (5, 3)])
def test_domino_strategy_never_loses_as_player_2_on_odd_boards(rows, cols):
    game = qipan.load("blackpath", rows=rows, cols=cols, variant="ww")
    assert all_lines_won(game.new(), DominoAgent(seed=1), 1)


def test_domino_tilings_cover_the_board():
    for rows, cols in [(2, 2), (3, 4), (4, 3), (5, 6), (3, 3), (5, 7)]:
        partner = domino_partners(rows, cols)
        for cell, other in enumerate(partner):
            if other < 0:
                assert cell == 0 and rows * cols % 2 == 1
                continue
            assert partner[other] == cell
            r1, c1 = divmod(cell, cols)
            r2, c2 = divmod(other, cols)
            assert abs(r1 - r2) + abs(c1 - c2) == 1


def test_domino_is_not_perfect_in_the_seed_variant():
    """Rules §1.7: the goal breaks the strategy. On 5x5 player 1 has a forced win, yet the
    domino player as player 1 can be beaten; the solver player cannot."""
    game = qipan.load("blackpath", rows=5, cols=5)
    assert solve(5, 5)[0] == 0
    assert not all_lines_won(game.new(), DominoAgent(seed=1), 0)
    assert all_lines_won(game.new(), SolverAgent(), 0)


def test_agents_are_registered_for_two_player_black_path_only():
    import qipan.agents as agents

    names = {a.name for a in agents.agent_specs()}
    assert {"blackpath-domino", "blackpath-solver"} <= names
    assert isinstance(agents.load("blackpath-solver"), SolverAgent)
    assert isinstance(agents.load("blackpath-domino", seed=2), DominoAgent)
    game = qipan.load("blackpath")
    for name in ("blackpath-domino", "blackpath-solver"):
        spec = agents.agent_spec(name)
        assert spec.plays(game, 2) and not spec.plays(game, 3)
        assert not spec.plays(qipan.load("trax"), 2)
    assert game.solved_by == ("blackpath-solver",)
    assert all(agents.agent_spec(name).plays(game, 2) for name in game.solved_by)

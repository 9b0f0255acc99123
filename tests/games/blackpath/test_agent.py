"""The Black Path agents: the solver player wins every line it should and searches where it
cannot solve, the safe playouts follow the rules, the domino strategy never loses where it
applies (and is no perfect player in the seed variant)."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.games.blackpath.agent import DominoAgent, SolverAgent, domino_partners, safe_playout
from qipan.games.blackpath.board import BORDER, GOAL, OPEN
from qipan.games.blackpath.solver import Solver, solve


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
    given = []
    monkeypatch.setattr(agent._search, "select", lambda s: given.append(agent._search.time) or "fallback")
    assert agent.select(state) == "fallback"
    # The solver's deadline set, then passed at its first check; the search gets what is left.
    assert len(readings) == 3 and given == [0.001]


def test_the_search_plays_where_the_solver_cannot_finish():
    state = qipan.load("blackpath").new()
    state.play("+")
    agent = SolverAgent(time=0.5, seed=3)
    move = agent.choose(state)
    assert agent.last == "search" and move in state.legal_moves()
    assert agent._search.last_iterations > 10


def test_the_reference_midgame_plays_the_domino_move_until_the_solver_finishes():
    from qipan.games.blackpath.agent import domino_move

    state = qipan.load("blackpath").new()
    state.play("+")
    agent = qipan.agents.load("blackpath-solver", midgame="domino", time=0.02, seed=1)
    move = agent.choose(state)
    assert agent.last == "domino" and move == DominoAgent(seed=1).select(state)
    assert domino_move(state) is None or move == domino_move(state)
    with pytest.raises(qipan.OptionError):
        qipan.agents.load("blackpath-solver", midgame="tables")


@pytest.mark.parametrize("seed", range(3))
def test_without_a_winning_move_it_searches_and_never_goes_out_by_choice(seed):
    """On 4x4 the second player wins: the first is lost from the start and plays on by the
    tree search, whose safe playouts never choose the border while a tile stays on it, until
    a random opponent's mistake gives it a win, which the solver then plays. (Untimed: the
    solve is exact and the search a fixed number of playouts, whatever the machine's load.)"""
    state = qipan.load("blackpath", rows=4, cols=4).new()
    agent, oracle = SolverAgent(seed=seed), Solver(4, 4)
    rng = random.Random(seed)
    while state.outcome is None:
        if state.to_move == 0:
            winning = oracle.best_move(state)
            move = agent.choose(state)
            if len(state.legal_moves()) > 1:
                assert agent.last == ("search" if winning is None else "solver")
            if state.safe_tiles():
                assert state.where(move.data) != BORDER
        else:
            move = rng.choice(state.legal_moves())
        state.play(move)


@pytest.mark.parametrize("seed", range(40))
def test_a_safe_playout_is_a_legal_game_with_the_winner_the_rules_give(seed):
    """The playout on raw tiles against the same game played through the rules: the same
    random choices among the tiles that stay on the board give the same winner."""
    game = qipan.load("blackpath", rows=5 + seed % 3, cols=5 + seed % 4, variant=("seed", "ww")[seed % 2])
    state = game.new()
    rng = random.Random(seed)
    for _ in range(rng.randrange(6)):  # a random start, played through the rules
        if state.outcome is not None:
            break
        safe = [m for m in state.legal_moves() if state.where(m.data) == OPEN]
        state.play(rng.choice(safe or state.legal_moves()))
    if state.outcome is not None:
        return
    tiles = list(state.tiles)
    winner = safe_playout(
        tiles, game.neigh, game.goal, state.end_cell, state.end_side, state.to_move, random.Random(seed)
    )
    same = random.Random(seed)
    while state.outcome is None:
        kinds = {m: state.where(m.data) for m in state.legal_moves()}
        goal = [m for m, k in kinds.items() if k == GOAL]
        safe = sorted((m for m, k in kinds.items() if k == OPEN), key=lambda m: m.data)
        if goal:
            state.play(goal[0])
        elif safe:
            state.play(same.choice(safe))
        else:  # every tile leads out: the rules end the game before this player moves
            pytest.fail("a player without a safe tile was left to move")
    assert state.outcome.winners == (winner,)


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

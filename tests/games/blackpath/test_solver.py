"""The solver reproduces the small-board data; the domino strategy never loses where it applies."""

from __future__ import annotations

from pathlib import Path

import pytest

import qipan
from qipan.core.errors import SearchTimeout
from qipan.games.blackpath.agent import DominoAgent, SolverAgent, domino_partners
from qipan.games.blackpath.solver import Solver, mover_wins_by_plain_search, solve

#: A copy of the project's data/blackpath/blackpath_small_boards.tsv.
DATA = Path(__file__).with_name("blackpath_small_boards.tsv")


def small_board_rows():
    rows = []
    for line in DATA.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        r, c, variant, winner = line.split("\t")
        rows.append((int(r), int(c), variant, winner))
    return rows


ROWS = small_board_rows()


@pytest.mark.parametrize("rows,cols,variant,winner", ROWS, ids=[f"{r}x{c}-{v}" for r, c, v, _ in ROWS])
def test_solver_reproduces_the_small_board_data(rows, cols, variant, winner):
    if variant == "seed-top":
        got, move = solve(rows, cols, "seed", start_arm="vertical")
    else:
        got, move = solve(rows, cols, variant)
    assert f"P{got + 1}" == winner
    assert (move is None) == (got == 1)


def test_the_data_file_covers_both_variants():
    variants = {v for _, _, v, _ in ROWS}
    assert {"seed", "ww"} <= variants


@pytest.mark.parametrize(
    "rows,cols,variant,arm",
    [
        (2, 2, "seed", "horizontal"),
        (3, 3, "seed", "horizontal"),
        (3, 4, "seed", "vertical"),
        (4, 4, "seed", "horizontal"),
        (2, 5, "ww", "horizontal"),
        (3, 3, "ww", "vertical"),
        (3, 4, "ww", "horizontal"),
    ],
)
def test_solver_agrees_with_plain_search_over_the_rules(rows, cols, variant, arm):
    game = qipan.load("blackpath", rows=rows, cols=cols, variant=variant, start_arm=arm)
    winner, _ = solve(rows, cols, variant, start_arm=arm)
    assert winner == (0 if mover_wins_by_plain_search(game.new()) else 1)
    # and position by position along a line of play
    solver = Solver(rows, cols, variant, arm)
    state = game.new()
    while state.outcome is None:
        assert (solver.best_move(state) is not None) == mover_wins_by_plain_search(state)
        state.play(state.legal_moves()[-1])


def test_solve_gives_a_move_that_parses_and_wins():
    winner, move = solve(5, 5)
    assert (winner, move) == (0, "a1+")
    winner, move = solve(4, 4, "ww")
    state = qipan.load("blackpath", rows=4, cols=4, variant="ww").new()
    state.play(move)
    assert winner == 0 and Solver(4, 4, "ww").best_move(state) is None  # P2 now has no winning move


def test_solver_rejects_bad_boards_and_times_out():
    with pytest.raises(ValueError):
        Solver(0, 3)
    with pytest.raises(ValueError):
        Solver(1, 1, "seed")
    with pytest.raises(SearchTimeout):
        solve(8, 8, deadline=0.0)


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


def test_agents_are_registered():
    import qipan.agents as agents

    names = {a.name for a in agents.agent_specs()}
    assert {"blackpath-domino", "blackpath-solver"} <= names
    assert isinstance(agents.load("blackpath-solver"), SolverAgent)
    assert isinstance(agents.load("blackpath-domino", seed=2), DominoAgent)

"""The solver reproduces the small-board data and agrees with a plain search over the rules."""

from __future__ import annotations

import pytest
from tests.data import DATA as TEST_DATA

import qipan
from qipan.core.errors import SearchTimeout
from qipan.games.blackpath.solver import Solver, mover_wins_by_plain_search, solve

DATA = TEST_DATA / "blackpath" / "blackpath_small_boards.tsv"


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

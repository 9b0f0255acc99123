"""The compact solver (10-byte slots, Numba) gives the memoised solver's answers: from the
start on every small board of both variants and start arms, and on positions from games, also
with a table so small that most entries are overwritten."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core.errors import QipanError
from qipan.games.blackpath.compact import CompactSolver
from qipan.games.blackpath.solver import Solver, mover_wins_by_plain_search, solve

from .test_solver import ROWS


@pytest.mark.parametrize("rows,cols,variant,winner", ROWS, ids=[f"{r}x{c}-{v}" for r, c, v, _ in ROWS])
def test_compact_solver_reproduces_the_small_board_data(rows, cols, variant, winner):
    if variant == "seed-top":
        got, move = CompactSolver(rows, cols, "seed", start_arm="vertical", table_bits=16).solve()
    else:
        got, move = CompactSolver(rows, cols, variant, table_bits=16).solve()
    assert f"P{got + 1}" == winner and (move is None) == (got == 1)


BOARDS = [(r, c) for r in range(2, 7) for c in range(r, 7) if r * c <= 30]


@pytest.mark.parametrize("variant", ["seed", "ww"])
@pytest.mark.parametrize("arm", ["horizontal", "vertical"])
def test_compact_solver_agrees_with_the_memoised_solver_even_with_a_tiny_table(variant, arm):
    for rows, cols in BOARDS:
        if variant == "ww" and rows * cols > 20:
            continue
        expected = solve(rows, cols, variant, start_arm=arm)
        assert CompactSolver(rows, cols, variant, arm, table_bits=20).solve() == expected, (rows, cols)
        tiny = CompactSolver(rows, cols, variant, arm, table_bits=8)
        assert tiny.solve() == expected, (rows, cols)


def test_positions_of_games_get_the_same_winning_tiles_as_plain_search():
    """Positions that fill the same cells and end on the same cell side differ in their free
    segments: keyed on every cell, each gets its own value (plain search is the referee)."""
    rng = random.Random(4)
    game = qipan.load("blackpath", rows=4, cols=4)
    compact, memo = CompactSolver(4, 4, table_bits=12), Solver(4, 4)
    checked = 0
    for _ in range(100):
        state = game.new()
        while state.outcome is None:
            wins = compact.winning_tiles(state)
            assert wins == memo.winning_tiles(state)
            assert bool(wins) == mover_wins_by_plain_search(state)
            checked += 1
            state.play(rng.choice(state.legal_moves()))
    assert checked > 300


def test_six_by_eight_fits_a_table_of_84_megabytes():
    solver = CompactSolver(6, 8, table_bits=23)
    assert solver.table_bytes == 10 * 2**23
    # The memoised solver's answer (docs/games/blackpath.md: 44 s and 811 MB there).
    assert solver.solve() == (1, None)
    assert solver.stats[0] > 9_000_000 and solver.stats[2] > 0  # searched, overwritten


def test_boards_beyond_a_slot_and_bad_arguments_are_refused():
    with pytest.raises(QipanError, match="does not fit"):
        CompactSolver(8, 8)
    with pytest.raises(QipanError, match="variant"):
        CompactSolver(4, 4, "nope")
    with pytest.raises(QipanError, match="table_bits"):
        CompactSolver(4, 4, table_bits=40)
    with pytest.raises(QipanError, match="goal"):
        CompactSolver(1, 1)


def test_the_solve_command_runs_the_compact_solver_and_refuses_boards_beyond_it():
    from click.testing import CliRunner

    from qipan.cli.main import cli

    out = CliRunner().invoke(
        cli, ["solve", "blackpath", "--rows", "5", "--cols", "5", "--compact", "--table-bits", "16"]
    )
    assert out.exit_code == 0 and "5x5: player 1 wins; a winning first move: a1+" in out.output
    assert "10 bytes a slot" in out.output
    big = CliRunner().invoke(cli, ["solve", "blackpath", "--rows", "8", "--cols", "8", "--compact"])
    assert big.exit_code != 0 and "does not fit" in big.output

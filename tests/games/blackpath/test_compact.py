"""The compact solver (10-byte slots, Numba) gives the memoised solver's answers: from the
start on every small board of both variants and start arms, and on positions from games, also
with a table so small that most entries are overwritten."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core.errors import QipanError
from qipan.games.blackpath.compact import CompactSolver, key_bits
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


def test_the_key_is_the_tiles_in_placement_order_and_the_board_gives_it_back():
    """Every position of random 5x5 games: the key grown move by move (3k + tile) is the key
    read back from the board by following the path, and distinct boards get distinct keys."""
    rng = random.Random(7)
    game = qipan.load("blackpath", rows=5, cols=5)
    solver = CompactSolver(5, 5, table_bits=8)
    boards = {}
    for _ in range(400):
        state = game.new()
        key = 0
        while state.outcome is None:
            lo, hi = solver.state_key(state)
            assert int(hi) << 64 | int(lo) == key
            assert boards.setdefault(key, tuple(state.tiles)) == tuple(state.tiles)
            move = rng.choice(state.legal_moves())
            key = 3 * key + move.data
            state.play(move)
    assert len(boards) > 300


def test_eight_by_eight_fits_a_ten_byte_slot_and_a_capped_search_says_it_did_not_finish():
    assert key_bits(8, 8, "seed") == 99 and key_bits(7, 8, "seed") == 87
    with pytest.raises(QipanError, match="does not fit"):
        CompactSolver(8, 8, table_bits=24)  # 99 bits need 2**25 slots or more
    solver = CompactSolver(7, 8, table_bits=16, cpu_seconds=0.2)
    report = solver.analyse()
    assert report["winner"] is None and report["first_moves"]["a1+"]["result"] is None
    assert solver.capped and report["searched"] > 1_000_000
    with pytest.raises(QipanError, match="not decided"):
        CompactSolver(7, 8, table_bits=16, cpu_seconds=0.2).solve()
    # Within the cap the same call decides: 5x5 is a first-player win, every reply refuted.
    small = CompactSolver(5, 5, table_bits=12, cpu_seconds=60).analyse()
    assert small["winner"] == 0 and set(small["first_moves"]["a1+"]["replies"].values()) == {"P1"}


def test_boards_beyond_a_slot_and_bad_arguments_are_refused():
    with pytest.raises(QipanError, match="does not fit"):
        CompactSolver(9, 9)
    with pytest.raises(QipanError, match="cpu_seconds"):
        CompactSolver(4, 4, cpu_seconds=0)
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
    big = CliRunner().invoke(cli, ["solve", "blackpath", "--rows", "9", "--cols", "9", "--compact"])
    assert big.exit_code != 0 and "does not fit" in big.output

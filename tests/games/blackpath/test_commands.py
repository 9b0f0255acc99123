"""``qipan solve blackpath``: the package's own command, added to the ``solve`` group."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from qipan.cli.main import cli
from qipan.games.blackpath.solver import solve


def run(*args):
    return CliRunner().invoke(cli, ["solve", "blackpath", *args])


@pytest.mark.parametrize(
    "args,rows,cols,variant",
    [
        (("--rows", "4", "--cols", "4"), 4, 4, "seed"),
        (("--rows", "4", "--cols", "4", "-o", "variant=ww"), 4, 4, "ww"),
    ],
)
def test_prints_the_winner_and_a_winning_first_move(args, rows, cols, variant):
    result = run(*args)
    assert result.exit_code == 0, result.output
    winner, move = solve(rows, cols, variant)
    expected = f"{rows}x{cols}: player {winner + 1} wins" + (
        f"; a winning first move: {move}" if move is not None else ""
    )
    assert re.fullmatch(re.escape(expected) + r" \(\d+\.\d s\)\n", result.output)


@pytest.mark.parametrize(
    "args,message",
    [
        (("--rows", "0", "--cols", "4"), "at least one row"),
        (("--rows", "3", "--cols", "3", "-o", "rows=4"), "--rows and --cols"),
        (("--rows", "3", "--cols", "3", "-o", "colour=red"), "no option 'colour'"),
        (("--rows", "3", "--cols", "3", "-o", "variant=big"), "expected one of seed, ww"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output

"""The boards as data (rules file §1.2)."""

from __future__ import annotations

import pytest

from qipan.games.morris.board import make_board


@pytest.mark.parametrize(
    "kind, diagonals, points, edges, lines",
    [
        ("nine", False, 24, 32, 16),
        ("twelve", True, 24, 40, 20),
        ("twelve", False, 24, 40, 16),
        ("six", False, 16, 20, 8),
        ("three", False, 9, 12, 6),
        ("three", True, 9, 16, 8),
    ],
)
def test_board_sizes(kind, diagonals, points, edges, lines):
    board = make_board(kind, diagonals)
    assert (len(board.points), len(board.edges), len(board.lines)) == (points, edges, lines)
    assert len(set(map(frozenset, board.edges))) == edges


def test_nine_board_degrees_and_radial_lines():
    board = make_board("nine", False)
    degree = {p: sum(p in e for e in board.edges) for p in board.points}
    assert sorted(degree.values()).count(2) == 12 and sorted(degree.values()).count(4) == 4
    assert {p for p, d in degree.items() if d == 4} == {"b4", "d6", "f4", "d2"}
    twelve = make_board("twelve", True)
    assert all(line[1] in ("b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4") for line in twelve.radial_lines)
    assert len(twelve.radial_lines) == 8 and len(twelve.side_lines) == 12

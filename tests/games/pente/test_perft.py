"""Perft (move sequences by depth), pinned; one level cross-checked by an independent
brute-force count written here from the rules text alone."""

from __future__ import annotations

import qipan
from qipan.core.perft import perft

#: 103776 * 45 leaves plus 2 for each of the 16 captures possible on ply 4
PERFT5_7X7 = 4669952


def test_perft_19x19():
    s = qipan.load("pente").new()
    assert [perft(s, d) for d in (1, 2, 3)] == [1, 360, 129240]


def test_perft_tournament_rule():
    s = qipan.load("pente-tournament").new()
    # P2's stone inside the forbidden 5x5 square (24 points) leaves 336 points for P1,
    # outside it (336 points) leaves 335
    assert perft(s, 3) == 24 * 336 + 336 * 335 == 120624


def test_perft_7x7_pinned():
    s = qipan.load("pente", board_size=7).new()
    assert [perft(s, d) for d in (1, 2, 3, 4)] == [1, 48, 2256, 103776]


def brute_force_perft5_7x7() -> int:
    """Sequences of 5 plies on 7x7 from scratch: a plain dict board, the first stone on
    the centre, and pair captures by the placed stone in the 8 directions."""
    n = 7
    points = [(x, y) for x in range(n) for y in range(n)]
    dirs = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]

    def place(board, pt, me):
        board = dict(board)
        board[pt] = me
        for dx, dy in dirs:
            a = (pt[0] + dx, pt[1] + dy)
            b = (pt[0] + 2 * dx, pt[1] + 2 * dy)
            c = (pt[0] + 3 * dx, pt[1] + 3 * dy)
            if board.get(a) not in (None, me) and board.get(b) not in (None, me) and board.get(c) == me:
                del board[a], board[b]
        return board

    def count(board, ply, depth):
        empty = [p for p in points if p not in board]
        if ply == 0:
            empty = [(3, 3)]
        if depth == 1:
            return len(empty)
        return sum(count(place(board, p, ply % 2), ply + 1, depth - 1) for p in empty)

    return count({}, 0, 5)


def test_perft_7x7_depth5_matches_brute_force():
    s = qipan.load("pente", board_size=7).new()
    engine = perft(s, 5)
    assert engine > 103776 * 45  # captures on ply 4 free points
    assert engine == brute_force_perft5_7x7() == PERFT5_7X7

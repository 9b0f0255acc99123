"""The knowledge for search (``evaluation.py``): line windows, move values, the evaluation."""

from __future__ import annotations

import qipan
from qipan.games.pente.evaluation import max_window, move_score


def test_heuristic_line_windows_and_captures():
    game = qipan.load("pente")
    s = game.position("ply=20 next=1 1:K10,L10,M10 2:A1,A19,T1,T19")
    assert max_window(s, game.point("N10"), 0) == 3
    assert max_window(s, game.point("N12"), 0) == 1
    assert max_window(s, game.point("E5"), 0) == 0
    s = game.position("ply=20 next=1 1:K10 2:L10,M10,A19")
    taking, beside = move_score(s, game.point("N10"), 0), move_score(s, game.point("N11"), 0)
    assert taking > beside + 300
    # a stone that leaves its own pair flanked (_ X X O) is worth less than one beside it
    s = game.position("ply=20 next=1 1:K10 2:M10,A19")
    assert move_score(s, game.point("L10"), 0) < move_score(s, game.point("K11"), 0)

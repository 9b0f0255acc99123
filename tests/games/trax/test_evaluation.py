"""Trax knowledge for search: the threat patterns of rules §2.8, ``evaluate`` and
``order_moves``."""

from __future__ import annotations

import pytest
from trax_helpers import play

from qipan.games.trax import TraxGame
from qipan.games.trax.evaluation import EDGE, L_SHAPE, LOOP, open_tracks, threat_counts


def test_threat_patterns():
    tracks = open_tracks(play("@0/ @1\\").board)
    white_loop = [t for t in tracks if t.colour == 0]
    assert [t.threat() for t in white_loop] == [LOOP] and white_loop[0].loop_gap == 1
    assert sorted(t.threat() for t in tracks if t.colour == 1) == [L_SHAPE, L_SHAPE]
    row = play("@0+ @1+ @1+ @1+ E1+ @1+ G1+")  # red W-E across a 7-wide area
    edge = [t for t in open_tracks(row.board) if t.colour == 1]
    assert len(edge) == 1 and edge[0].threat() == EDGE and edge[0].line_gap == 1
    assert threat_counts(open_tracks(row.board)) == {0: 0, 1: 1}
    # In Loop Trax the same track is no threat.
    assert (
        open_tracks(play("@0+ @1+ @1+ @1+ E1+ @1+ G1+", variant="loop").board, lines=False)[0].line_gap == 99
    )
    # A line that needs two more tiles is not yet a threat.
    short = play("@0+ @1+ @1+ @1+ E1+ @1+")
    assert [t.line_gap for t in open_tracks(short.board) if t.colour == 1] == [2]


def test_evaluate_is_antisymmetric_and_sees_the_threat_of_the_side_to_move():
    game = TraxGame()
    white_to_move = game.position("LJ W")
    red_to_move = game.position("LJ R")
    for state in (white_to_move, red_to_move):
        assert game.evaluate(state, 0) == pytest.approx(-game.evaluate(state, 1))
    assert game.evaluate(white_to_move, 0) > 0.5  # White closes the loop next move
    assert game.evaluate(red_to_move, 0) > game.evaluate(red_to_move, 1)


def test_order_moves_puts_the_threatened_cells_first():
    state = TraxGame().position("LJ R")
    ordered = state.game.order_moves(state, state.legal_moves())
    assert sorted(m.text for m in ordered) == sorted(state.legal_move_texts())
    assert {m.path[0] for m in ordered[:3]} <= {"A0", "B0"}

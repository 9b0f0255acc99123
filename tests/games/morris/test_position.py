"""The position text (``state.position()``, ``game.position(text)``) and its errors."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import NotationError


def test_position_round_trip_and_errors():
    state = qipan.load("nine-mens-morris").new().play_many(["d2", "d3", "f4", "b4"])
    text = state.position()
    assert text == "W:d2,f4 B:b4,d3 hands:7,7 to:W nmove:0 ply:4"
    again = state.game.position(text)
    assert again.key() == state.key() and again.legal_move_texts() == state.legal_move_texts()
    game = qipan.load("nine-mens-morris")
    for bad, reason in [
        ("W:a1 B:a1", "two stones"),
        ("W:z9", "not a point"),
        ("W:a1 hands:9,9", "more than 9"),
        ("W:a1 to:X", "W or B"),
        ("W:a1 colour:red", "bad position field"),
        ("hands:x,1", "bad number"),
        ("W:a1 W:a4", "given twice"),
    ]:
        with pytest.raises(NotationError, match=reason):
            game.position(bad)


def test_finished_positions_round_trip():
    game = qipan.load("nine-mens-morris")
    state = game.position("W:a7,d7,g4,b2,d2 B:a1,c3,e3 to:W")
    state.play("g4-g7xa1")
    text = state.position()
    assert "to:- result:1-0" in text
    again = game.position(text)
    assert again.outcome.winners == (0,) and again.key() == state.key() and again.legal_moves() == []
    with pytest.raises(NotationError, match="finished position"):
        game.position("W:a7 B:a1 hands:8,8 to:-")
    with pytest.raises(NotationError, match="finished position"):
        game.position("W:a7 B:a1 hands:8,8 to:W result:1-0")

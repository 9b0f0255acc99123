"""Black Path notation (rules file §1.6): moves with or without their cell, whole games."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import IllegalMove, NotationError
from qipan.games.blackpath.notation import game_text, read_game


def new(rows=4, cols=4, **options):
    return qipan.load("blackpath", rows=rows, cols=cols, **options).new()


def test_notation_accepts_cell_prefix_and_checks_it():
    state = new()
    state.play("a1+")
    state.play("B1\\")
    assert state.history[-1].text == "\\"
    before = state.key()
    with pytest.raises(IllegalMove, match="ends at b2"):
        state.play("c3+")
    with pytest.raises(NotationError):
        state.play("b2x")
    with pytest.raises(NotationError):
        state.play("z9+")  # off the board
    assert state.key() == before and state.ply == 2


def test_game_text_round_trip_with_result():
    state = new().play_many(["+", "\\", "\\", "/", "\\"])
    text = game_text(state)
    assert text == "a1+ b1\\ b2\\ c2/ c1\\ 0-1"
    assert game_text(state, cells=False) == "+ \\ \\ / \\ 0-1"
    again = read_game(state.game, text)
    assert again.key() == state.key() and again.outcome == state.outcome
    with pytest.raises(NotationError):
        read_game(state.game, "+ \\ \\ / \\ 1-0")  # wrong result

"""The Black Path position text: round trips, and boards no game can reach."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import NotationError


def new(rows=4, cols=4, **options):
    return qipan.load("blackpath", rows=rows, cols=cols, **options).new()


def test_position_round_trip_and_errors():
    state = new().play_many(["+", "\\", "\\"])
    text = state.position()
    assert text.splitlines() == ["+\\..", ".\\..", "....", "...*"]
    again = state.game.position(text)
    assert again.key() == state.key()
    assert [m.text for m in again.history] == ["+", "\\", "\\"]
    with pytest.raises(NotationError):
        state.game.position("+..+\n....\n....\n...*")  # d1 is off the path
    with pytest.raises(NotationError):
        state.game.position("+x..\n....\n....\n...*")
    with pytest.raises(NotationError):
        state.game.position("+...\n....\n....")  # wrong size
    with pytest.raises(NotationError):
        state.game.position("+...\n....\n....\n...+")  # the goal is never filled

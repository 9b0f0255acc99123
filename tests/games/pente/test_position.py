"""The position text (``position.py``): round trips; malformed text is refused."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import NotationError


@pytest.mark.parametrize("text", ["ply=x", "next=9 1:K10", "1:K10,K10", "3:K10", "captures=1 1:K10", "bogus"])
def test_malformed_position(text):
    with pytest.raises(NotationError):
        qipan.load("pente").position(text)


def test_position_round_trip_and_copy_independence():
    s = qipan.load("pente").new()
    s.play_many(["K10", "L10", "M10", "N11", "N10"])
    again = s.game.position(s.position())
    assert again.key() == s.key() and again.position() == s.position()
    twin = s.copy()
    twin.play("A1")
    assert s.cells != twin.cells and s.ply == 5

"""The position text (``position.py``): round trips; malformed text is refused."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import NotationError


@pytest.mark.parametrize("text", ["ply=x", "next=9 1:K10", "1:K10,K10", "3:K10", "captures=1 1:K10", "bogus"])
def test_malformed_position(text):
    with pytest.raises(NotationError):
        qipan.load("pente").position(text)


@pytest.mark.parametrize(
    "text, why",
    [
        ("1:K6,K7,K8,K9,K10 2:A1,A2 next=2", "a line that wins"),
        ("1:K6,K7,K8,K9 2:A1,A2,A3 next=1 captures=10,0", "10 captured stones"),
    ],
)
def test_a_won_position_must_say_it_is_over(text, why):
    # Play could otherwise go on from a game someone has already won (the editor's "play
    # from here" would start one).
    with pytest.raises(NotationError, match=why):
        qipan.load("pente").position(text)
    finished = qipan.load("pente").position("1:K6,K7,K8,K9,K10 2:A1,A2 next=- over=1")
    assert finished.outcome.winners == (0,) and not finished.legal_moves()


def test_position_round_trip_and_copy_independence():
    s = qipan.load("pente").new()
    s.play_many(["K10", "L10", "M10", "N11", "N10"])
    again = s.game.position(s.position())
    assert again.key() == s.key() and again.position() == s.position()
    twin = s.copy()
    twin.play("A1")
    assert s.cells != twin.cells and s.ply == 5

"""The position text of the game: round trips (every phase) and bad input."""

import random

import pytest

from qipan.core import NotationError
from qipan.games.tantrix.board import PLAY

from .conftest import draw, make, play_random


def test_position_round_trip_and_errors():
    state = play_random(make().new(players=2, seed=12), 12, stop=lambda s: len(s.board) >= 20)
    text = state.position()
    again = make().position(text)
    assert again.key() == state.key() and again.legal_move_texts() == state.legal_move_texts()
    assert again.position() == text
    for bad in (
        "foo=1",
        "players=5",
        "board=1@0,0r0;1@1,0r0",
        "board=1@0,0r0;2@1,0r0 hands=-|-",
        "hands=1,2,3,4,5,6,7|-",
        "turn=3/1",
        "board=1@0,0",
        "bag=99",
    ):
        with pytest.raises(NotationError):
            make().position(bad + ("" if "order" in bad else " order=40,12"))


def test_setup_positions_round_trip():
    state = make().new(players=3)
    rng = random.Random(4)
    while state.phase != PLAY:
        text = state.position()
        again = make().position(text)
        assert again.key() == state.key() and again.legal_move_texts() == state.legal_move_texts()
        draw(state, rng.choice(sorted(state.bag)))
    with pytest.raises(NotationError):
        make().position("players=2 phase=deal order=40,12 hands=1,2,3,4,5,6|7,8,9,10,11,12")

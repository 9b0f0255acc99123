"""Pipe Mania notation: the actions' text forms, and bad or illegal text changing nothing."""

from __future__ import annotations

import pytest
from pipemania_helpers import make

import qipan
from qipan.core import IllegalMove, NotationError
from qipan.games.pipemania.notation import parse_move


def test_pass_and_hurry_have_word_forms():
    state = make(start_delay=5).new()
    assert state.game.parse("pass", state).text == "-"
    assert state.game.parse(" Hurry ", state).text == "h"


def test_bad_input_raises_and_changes_nothing():
    state = make().new()
    before = state.key()
    with pytest.raises(NotationError):
        state.play("q1,1")
    with pytest.raises(IllegalMove, match="off the 3x5 grid"):
        state.play("p9,9")
    with pytest.raises(IllegalMove, match="front piece"):
        state.play("p1,1:H")
    with pytest.raises(IllegalMove, match="not a player's action|draw"):
        state.play("+H")
    assert state.key() == before and state.ply == 0
    with pytest.raises(qipan.OptionError):
        make(layout="S:E . / . .  .")
    with pytest.raises(qipan.OptionError):
        make(layout=". . / . .")  # no start
    with pytest.raises(NotationError):
        state.game.position("{not json")


def test_parse_move_takes_the_state_then_the_text():
    state = make(start_delay=5).new()
    assert parse_move(state, "p1,1") == state.game.parse("p1,1", state)
    with pytest.raises(IllegalMove, match="start piece"):
        parse_move(state, "p1,0")

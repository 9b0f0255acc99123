"""Notation (rules file §1.9): lenient parsing, click paths, and bad input with its reason."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import IllegalMove, NotationError

NINE_2 = "W:c5,e5,d6,a4,g4,b2,f2 B:a1,d1,g1,f6,c3 to:W"


@pytest.mark.parametrize(
    "text",
    ["d6-d5xf6", "D6-D5XF6", " d6 - d5 x f6 ", "d6d5xf6", "d6-d5:f6", "d6d5:f6", "d6 d5 xf6", "d6–d5×f6"],
)
def test_lenient_parsing(text):
    state = qipan.load("nine-mens-morris").position(NINE_2)
    assert state.game.parse(text, state).text == "d6-d5xf6"


@pytest.mark.parametrize(
    "text, error, reason",
    [
        ("", NotationError, "empty"),
        ("hello", NotationError, "not Morris notation"),
        ("d6-", NotationError, "not Morris notation"),
        ("h9", NotationError, "h9 is not a point"),
        ("d4", NotationError, "d4 is not a point"),
        ("d6-d5xf6xf6", NotationError, "removed twice"),
        ("g4-d7", IllegalMove, r"d7 is not adjacent to g4 \(White may fly only with 3 stones\)"),
        ("c5-b6", IllegalMove, "b6 is not adjacent to c5"),
        ("a1-a7", IllegalMove, "a1 is not a White stone"),
        ("a4-a1", IllegalMove, "a1 is occupied"),
        ("d6-f6", IllegalMove, "f6 is occupied"),
        ("d6-d5", IllegalMove, "a mill was formed: a removal is required"),
        ("d6-d5xa1", IllegalMove, "a1 is in a mill and Black has stones outside mills"),
        ("d6-d5xe5", IllegalMove, "e5 is not a Black stone"),
        ("a4-a7xf6", IllegalMove, "removes nothing: no mill is formed"),
        ("d2", IllegalMove, "no stones in hand"),
        ("xf6", IllegalMove, "bare removal"),
    ],
)
def test_bad_input_names_the_reason_and_changes_nothing(text, error, reason):
    state = qipan.load("nine-mens-morris").position(NINE_2)
    before = (state.position(), state.key(), state.legal_move_texts())
    with pytest.raises(error, match=reason):
        state.play(text)
    assert (state.position(), state.key(), state.legal_move_texts()) == before
    assert state.history == []


def test_placing_phase_reasons():
    state = qipan.load("nine-mens-morris").new().play_many(["d2", "d3"])
    with pytest.raises(IllegalMove, match="d3 is occupied"):
        state.play("d3")
    with pytest.raises(IllegalMove, match="still has stones in hand"):
        state.play("d2-d1")
    with pytest.raises(IllegalMove, match="still has stones in hand"):
        state.play(qipan.Move("g7-g4"))  # a Move object that is not legal: checked, then explained
    assert state.history[-1].text == "d3"


def test_paths_are_click_targets():
    state = qipan.load("nine-mens-morris").position(NINE_2)
    move = state.game.parse("d6-d5xf6", state)
    assert move.path == ("d6", "d5", "f6")
    assert qipan.load("nine-mens-morris").new().legal_moves()[0].path == ("a1",)
    for m in state.legal_moves():
        assert state.game.parse(str(m), state) is m


def test_zhiqi_dan_path_has_a_button_and_text_round_trips():
    state = qipan.load("zhiqi").position("W:d6,d5 B:a7,g7 hands:10,10 to:W")
    dan = state.game.parse("d7xg7xa7", state)
    assert dan.text == "d7xa7xg7" and dan.path == ("d7", "擔")
    assert state.game.parse("d7 擔 xa7 xg7", state) is dan

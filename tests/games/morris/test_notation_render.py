"""Boards as data (§1.2), notation (§1.9), positions, text and SVG, and bad input."""

from __future__ import annotations

import re

import pytest

import qipan
from qipan.core import IllegalMove, NotationError
from qipan.games.morris.board import make_board


@pytest.mark.parametrize(
    "kind, diagonals, points, edges, lines",
    [
        ("nine", False, 24, 32, 16),
        ("twelve", True, 24, 40, 20),
        ("twelve", False, 24, 40, 16),
        ("six", False, 16, 20, 8),
        ("three", False, 9, 12, 6),
        ("three", True, 9, 16, 8),
    ],
)
def test_board_sizes(kind, diagonals, points, edges, lines):
    board = make_board(kind, diagonals)
    assert (len(board.points), len(board.edges), len(board.lines)) == (points, edges, lines)
    assert len(set(map(frozenset, board.edges))) == edges


def test_nine_board_degrees_and_radial_lines():
    board = make_board("nine", False)
    degree = {p: sum(p in e for e in board.edges) for p in board.points}
    assert sorted(degree.values()).count(2) == 12 and sorted(degree.values()).count(4) == 4
    assert {p for p, d in degree.items() if d == 4} == {"b4", "d6", "f4", "d2"}
    twelve = make_board("twelve", True)
    assert all(line[1] in ("b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4") for line in twelve.radial_lines)
    assert len(twelve.radial_lines) == 8 and len(twelve.side_lines) == 12


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


def test_text_board():
    state = qipan.load("nine-mens-morris").new().play_many(["a7", "g1"])
    lines = state.text().splitlines()
    assert lines[0].startswith("7  W-----------.-----------.")
    assert lines[12].startswith("1  .-----------.-----------B")
    assert lines[13].split() == list("abcdefg")
    assert "White to place" in lines[14] and "in hand W 8 B 8" in lines[14]
    twelve = qipan.load("twelve-mens-morris").new().text().splitlines()
    assert "\\" in twelve[1] and "/" in twelve[1]
    three = qipan.load("three-mens-morris-kurna").new().text().splitlines()
    assert len(three) == 7 and three[0].startswith("3  .---.---.")


def test_svg_targets_and_last_move():
    state = qipan.load("nine-mens-morris").position(NINE_2)
    state.play("d6-d5xf6")
    svg = state.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    targets = set(re.findall(r'data-target="([a-g][1-7])"', svg))
    assert targets == set(state.t.names)
    assert svg.count('class="stone') == state.bb[0].bit_count() + state.bb[1].bit_count()
    assert 'stroke="#d02020"' in svg and 'class="removed"' in svg


def test_zhiqi_dan_path_has_a_button_and_text_round_trips():
    state = qipan.load("zhiqi").position("W:d6,d5 B:a7,g7 hands:10,10 to:W")
    dan = state.game.parse("d7xg7xa7", state)
    assert dan.text == "d7xa7xg7" and dan.path == ("d7", "擔")
    assert state.game.parse("d7 擔 xa7 xg7", state) is dan


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

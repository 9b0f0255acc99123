"""Twelve Men's Morris (§1.4, 12MM-1/2), Six Men's Morris (§1.5) and Taiwanese 直棋 (§1.6,
直棋-1 .. 直棋-8)."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import IllegalMove
from qipan.games.morris.board import DAN


def pos(preset: str, text: str, **options):
    return qipan.load(preset, **options).position(text)


def texts(state, prefix: str = "") -> set[str]:
    return {m.text for m in state.legal_moves() if m.text.startswith(prefix)}


# -- 12MM -------------------------------------------------------------------------------------------
def test_12mm_1_diagonal_mill():
    state = pos("twelve-mens-morris", "W:a7,b6 B:d1,g1 hands:10,10 to:W")
    assert texts(state, "c5") == {"c5xd1", "c5xg1"}
    off = pos("twelve-mens-morris", "W:a7,b6 B:d1,g1 hands:10,10 to:W", diagonal_mills=False)
    assert texts(off, "c5") == {"c5"}
    assert "a7-b6" in {f"{a}-{b}" for a, b in off.t.board.edges}  # still a path to move along


def test_twelve_board_has_diagonal_moves():
    state = pos("twelve-mens-morris", "W:b6,d1,g4,f2,c4 B:a1,g7,d3,f4,e5 to:W")
    assert {"b6-a7", "b6-c5", "f2-g1", "f2-e3"} <= texts(state)


FULL = "b4 f4 a7 d2 b6 f6 g4 g7 e4 d1 c4 a4 e5 a1 g1 d5 d7 e3 c3 d6 f2 c5 d3 b2".split()


def test_12mm_2_full_board_is_a_draw():
    state = qipan.load("twelve-mens-morris").new().play_many(FULL)
    assert state.outcome.is_draw and "full" in state.outcome.reason


def test_full_board_white_loses_option():
    state = qipan.load("twelve-mens-morris", full_board="white_loses").new().play_many(FULL)
    assert state.outcome.winners == (1,)


def test_full_board_each_removes_option():
    state = qipan.load("twelve-mens-morris", full_board="each_removes").new().play_many(FULL)
    assert state.outcome is None and state.to_move == 0 and state.phase(0) == "removing"
    assert all(m.text.startswith("x") for m in state.legal_moves())
    with pytest.raises(IllegalMove, match="the board is full"):
        state.play("b4-b2")
    state.play("f4")  # lenient: a bare point is a removal here
    assert state.history[-1].text == "xf4" and state.at("f4") is None and state.to_move == 1
    state.play("xb4")
    assert state.to_move == 0 and state.phase(0) == "moving"
    assert state.legal_moves() and all("-" in m.text for m in state.legal_moves())
    state.undo()
    state.undo()
    assert state.pending == 2 and state.at("f4") == 1


# -- 6MM -------------------------------------------------------------------------------------------
def test_six_mens_morris_lines_are_square_sides_only():
    state = pos("six-mens-morris", "W:a5,c5,a3 B:b4,d4,e1 hands:3,3 to:W")
    assert texts(state, "e5") == {"e5xb4", "e5xd4", "e5xe1"}
    assert texts(state, "b3") == {"b3"}  # a3-b3 is a connector: no mill
    assert texts(state, "c4") == {"c4"}  # c5-c4 likewise


def test_six_mens_morris_options():
    flying = pos("six-mens-morris", "W:a5,c5,e1 B:b4,d4,b2,d2 to:W")
    assert "e1-c4" in texts(flying)
    walking = pos("six-mens-morris", "W:a5,c5,e1 B:b4,d4,b2,d2 to:W", flying=None)
    assert texts(walking, "e1-") == {"e1-e3", "e1-c1"}
    protected = pos("six-mens-morris", "W:a5,c5 B:b4,c4,d4,e1 hands:4,2 to:W")
    assert texts(protected, "e5") == {"e5xe1"}
    anything = pos("six-mens-morris", "W:a5,c5 B:b4,c4,d4,e1 hands:4,2 to:W", protection="no_mill_protection")
    assert texts(anything, "e5") == {"e5xb4", "e5xc4", "e5xd4", "e5xe1"}


# -- 直棋 -------------------------------------------------------------------------------------------
def test_zhiqi_1_dan_removes_both_ends():
    state = pos("zhiqi", "W:d6,b2,f2,c3,e3 B:a7,g7,a1,g1,d3 to:W")
    (move,) = [m for m in state.legal_moves() if m.text.startswith("d6-d7")]
    assert move.text == "d6-d7xa7xg7" and move.path == ("d6", "d7", DAN)
    state.play(move)
    assert state.at("a7") is None and state.at("g7") is None and state.bb[1].bit_count() == 3


def test_zhiqi_2_no_dan_on_a_radial_line_and_no_capture_for_the_idle_side():
    state = pos("zhiqi", "W:d7,d5,b2,f2 B:f6,a1,g1,c3 to:B")
    assert texts(state, "f6-d6") == {"f6-d6"}
    state.play("f6-d6")
    assert state.bb[0].bit_count() == 4 and state.bb[1].bit_count() == 4 and state.at("d6") == 1


def test_zhiqi_3_gang_removes_the_middle_stone():
    state = pos("zhiqi", "W:f6,b2,d2,a4 B:g7,e4,a1,c3 to:B")
    assert texts(state, "e4-e5") == {"e4-e5xf6"}
    state.play("e4-e5xf6")
    assert state.at("f6") is None


def test_zhiqi_4_no_gang_on_a_side_line():
    state = pos("zhiqi", "W:d7,b2,d2,a4 B:a7,f6,a1,c3 to:B")
    assert texts(state, "f6-g7") == {"f6-g7"}


def test_zhiqi_5_one_kind_of_capture_per_move():
    state = pos("zhiqi", "W:d6,d5,c4 B:a7,g7,a1 hands:9,9 to:W")
    moves = [m for m in state.legal_moves() if m.text.startswith("d7")]
    assert {m.text for m in moves} == {"d7xa7", "d7xg7", "d7xa1", "d7xa7xg7"}
    paths = [m.path for m in moves]
    assert ("d7", DAN) in paths and ("d7", "a7") in paths
    for p in paths:  # no path is a strict prefix of another (the UI can tell them apart)
        assert not any(q != p and q[: len(p)] == p for q in paths)
    with pytest.raises(IllegalMove):
        state.play("d7xa7xa1")
    state.play("d7xa7xg7")
    assert state.bb[1].bit_count() == 1


def test_zhiqi_6_zhi_ignores_mills():
    state = pos("zhiqi", "W:d6,d5,b2 B:a1,d1,g1,f4,a4 hands:9,7 to:W")
    assert "d7xd1" in texts(state, "d7")
    normal = pos("zhiqi", "W:d6,d5,b2 B:a1,d1,g1,f4,a4 hands:9,7 to:W", protection="fallback")
    assert "d7xd1" not in texts(normal, "d7")


def test_zhiqi_7_dan_while_placing():
    text = "W:b2 B:a7,g7 hands:10,10 to:W"
    assert texts(pos("zhiqi", text), "d7") == {"d7xa7xg7"}
    assert texts(pos("zhiqi", text, dan_gang_moving_only=True), "d7") == {"d7"}
    gang = "W:g7 B:f6 hands:10,10 to:W"  # White places e5: g7 own, f6 enemy -> 槓
    assert texts(pos("zhiqi", gang), "e5") == {"e5xf6"}
    assert texts(pos("zhiqi", gang, dan_gang_moving_only=True), "e5") == {"e5"}


def test_zhiqi_8_no_flying():
    state = pos("zhiqi", "W:a7,d6,e3 B:a1,d1,g1,c3,c5 to:W")
    for move in state.legal_moves():
        assert state.t.nbr[move.data[0]] >> move.data[1] & 1
    assert "a7-g1" not in texts(state)


def test_zhiqi_stones_option_and_full_board():
    assert qipan.load("zhiqi", stones=6).new().hand == [6, 6]
    with pytest.raises(qipan.OptionError):
        qipan.load("zhiqi", stones=7)
    full = "b4 f4 a7 d2 b6 f6 g4 g7 e5 d1 c4 a4 f2 a1 g1 e3 d6 d7 c3 e4 d5 c5 d3 b2".split()
    state = qipan.load("zhiqi").new().play_many(full)
    assert all("x" not in m.text for m in state.history)
    assert state.outcome.is_draw and "full" in state.outcome.reason


# -- where 擔 and 槓 apply: the thesis (default) or every line (the seed) ----------------------
def test_the_seeds_dan_between_two_enemy_stones_on_any_line():
    # the seed: "當一方移棋子至對方兩棋子中間時,可以吃掉對方這兩個棋子" names no line; 直棋-2
    # with dan_lines=any: Black slides into the middle of the radial line d7-d6-d5
    state = pos("zhiqi", "W:d7,d5,b2,f2 B:f6,a1,g1,c3 to:B", dan_lines="any")
    assert texts(state, "f6-d6") == {"f6-d6xd5xd7"}
    state.play("f6-d6xd5xd7")
    assert state.at("d7") is None and state.at("d5") is None and state.bb[0].bit_count() == 2
    state.undo()
    assert state.at("d7") == 0 and state.at("f6") == 1
    assert texts(pos("zhiqi", "W:d7,d5,b2,f2 B:f6,a1,g1,c3 to:B"), "f6-d6") == {"f6-d6"}  # the thesis


def test_the_seeds_gang_two_against_one_on_any_line():
    # the seed: "當一方棋子移動與對方棋子做成二對一情況,可以吃掉對方這個棋子" names no line;
    # 直棋-4 with gang_lines=any: Black f6-g7 makes a7(B) d7(W) g7(B) on a square side
    state = pos("zhiqi", "W:d7,b2,d2,a4 B:a7,f6,a1,c3 to:B", gang_lines="any")
    assert texts(state, "f6-g7") == {"f6-g7xd7"}
    assert texts(pos("zhiqi", "W:d7,b2,d2,a4 B:a7,f6,a1,c3 to:B"), "f6-g7") == {"f6-g7"}  # the thesis
    # 直棋-3 (the seed's own figure, a radial 槓) is unchanged
    state = pos("zhiqi", "W:f6,b2,d2,a4 B:g7,e4,a1,c3 to:B", gang_lines="any")
    assert texts(state, "e4-e5") == {"e4-e5xf6"}


def test_dan_and_gang_line_options_are_zhiqi_only_and_checked():
    with pytest.raises(qipan.OptionError):
        qipan.load("zhiqi", dan_lines="radial")
    with pytest.raises(qipan.OptionError):
        qipan.load("nine-mens-morris", gang_lines="any")

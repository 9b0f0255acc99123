"""pente.org coordinates (canonical), the seed's centred (x,y), and the seed export."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import IllegalMove, NotationError, RecordError
from qipan.games.pente.notation import (
    centred,
    from_pente_org_index,
    move_centred,
    parse_move,
    pente_org,
    pente_org_index,
    read_seed_movetext,
    seed_movetext,
)

GAME = qipan.load("pente")


@pytest.mark.parametrize(
    ("xy", "name"),
    [
        ("(0,0)", "K10"),
        ("(3,2)", "N12"),
        ("(-2,-2)", "H8"),
        ("(-9,9)", "A19"),
        ("(9,-9)", "T1"),
        ("(-1,0)", "J10"),
    ],
)
def test_centred_and_pente_org_agree(xy, name):
    assert pente_org(GAME, xy) == name
    assert centred(GAME, name) == xy
    assert GAME.point(xy) == GAME.point(name)


def test_files_skip_i():
    assert [GAME.geom.name[GAME.geom.index(c, 0)][0] for c in range(19)] == list("ABCDEFGHJKLMNOPQRST")
    with pytest.raises(NotationError, match="skip the letter I"):
        GAME.point("I10")


def test_pente_org_index():
    assert pente_org_index(GAME, "A19") == 0
    assert pente_org_index(GAME, "K10") == 180
    assert pente_org_index(GAME, "T1") == 360
    assert from_pente_org_index(GAME, 180) == "K10"
    with pytest.raises(NotationError):
        from_pente_org_index(GAME, 361)


def test_parse_is_lenient_and_canonical_text_is_pente_org():
    s = GAME.new()
    assert GAME.parse(" k10 ", s).text == "K10"
    assert GAME.parse("( 0 , 0 )", s).text == "K10"
    s.play("(0,0)")
    move = GAME.parse("(3,2)", s)
    assert move.text == "N12" and move.path == ("N12",)
    assert move_centred(GAME, move) == "(3,2)"


def test_parse_move_is_what_game_parse_uses_and_tells_no_move_from_an_illegal_one():
    s = GAME.new()
    assert parse_move(s, "k10") is GAME.parse("K10", s) is s.geom.moves[s.geom.centre]
    with pytest.raises(IllegalMove, match="must go on the centre"):
        parse_move(s, "A1")
    s.play("K10")
    with pytest.raises(IllegalMove, match="K10 is occupied"):
        parse_move(s, "(0,0)")
    for text in ("", "hello", "K10x", "I10"):
        with pytest.raises(NotationError):
            parse_move(s, text)
    assert s.ply == 1


@pytest.mark.parametrize("text", ["U1", "K0", "K20", "(0,10)", "(x,1)", "K1O"])
def test_bad_points(text):
    with pytest.raises(NotationError):
        GAME.point(text)


def test_seed_movetext_marks_captured_stones():
    s = GAME.new()
    s.play_many(["(0,0)", "(1,0)", "(0,5)", "(2,0)", "(3,0)"])
    assert seed_movetext(s) == "1. (0,0)  (1,0)\n2. (0,5)  (2,0)\n3. (3,0) (1,0)* (2,0)*"


def test_the_seeds_asterisk_notation_reads_back():
    # the seed (備忘): "被提取的子可圈出它們或加註星號標明" -- captured stones get an asterisk
    s = GAME.new()
    s.play_many(["(0,0)", "(1,0)", "(0,5)", "(2,0)"])
    move = parse_move(s, "(3,0) (1,0)* (2,0)*")
    assert move is parse_move(s, "(3,0)") and move.text == "N10"
    assert GAME.parse("(3,0)(2,0)*(1,0)*", s) is move  # any order, spaces optional
    s.play(move)
    text = seed_movetext(s)
    again = read_seed_movetext(GAME, text)
    assert again.history == s.history and again.captures == [2, 0] and seed_movetext(again) == text
    assert read_seed_movetext(GAME, "(0,0) (1,0) (0,5) (2,0) (3,0) (1,0)* (2,0)*").key() == s.key()


def test_wrong_or_lone_asterisks_are_refused_and_change_nothing():
    s = GAME.new()
    s.play_many(["(0,0)", "(1,0)", "(0,5)", "(2,0)"])
    before = s.position()
    with pytest.raises(NotationError, match="write the placement first"):
        parse_move(s, "(1,0)*")
    for text in ("(3,0) (1,0)*", "(3,0) (1,0)* (2,0)* (4,0)*", "(-1,0) (1,0)* (2,0)*"):
        with pytest.raises(IllegalMove, match="not whole pairs"):
            parse_move(s, text)
    for text in ("(3,0)*", "N10x(1,0)*", "(3,0) (1,0)**"):
        with pytest.raises(NotationError):
            parse_move(s, text)
    assert s.position() == before
    with pytest.raises(RecordError, match="ply 5: .*not whole pairs"):
        read_seed_movetext(GAME, "1. (0,0)  (1,0)\n2. (0,5)  (2,0)\n3. (3,0) (1,0)*")
    with pytest.raises(RecordError, match="ply 2: 'hello'"):
        read_seed_movetext(GAME, "1. (0,0) hello")

"""MOD X notation (rules §3.9) and position text; bad input changes nothing."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import IllegalMove, NotationError
from qipan.games.modx.board import NAMES
from qipan.games.modx.notation import parse_move

from .conftest import make, snapshot


def test_setup_placement_and_relocation_notation_round_trips():
    state = qipan.load("modx").new()
    game = state.game
    assert game.parse("j@c3", state).text == "J@C3"
    assert game.parse("c3", state).text == "J@C3"  # a bare square means the move of the phase
    assert game.parse(" J @ C3 ", state).path == ("C3",)
    state.play_many(["J@C3", "J@F6", "J@A8", "J@H1", "J@H8"])
    assert game.parse("e4", state).text == "E4"
    board = {"A1": "R", "B2": "R", "D4": "R", "C3": "J", "H8": "J"}
    state = make(board)
    move = game.parse("e5", state)
    assert move.text == "E5 {A1 B2 C3 D4 E5}" and move.path == ("E5",)
    assert game.parse("E5 {A1 B2 C3 D4 E5}", state) == move
    assert game.parse("e5 {e5 d4 c3 b2 a1}", state) == move  # any order, any case
    state.play(move)
    assert game.parse("j>c3", state).text == "J>C3"
    assert game.parse("C3", state).text == "J>C3"
    for m in state.legal_moves():
        assert game.parse(str(m), state) == m


def test_parse_move_takes_the_state_first_and_tells_no_move_from_an_illegal_one():
    state = make({"A1": "R", "B2": "R", "D4": "R", "C3": "J", "H8": "J"})
    assert parse_move(state, "e5") == state.game.parse("e5", state)
    with pytest.raises(NotationError):
        parse_move(state, "E9")
    with pytest.raises(IllegalMove, match="not open"):
        parse_move(state, "A1")


@pytest.mark.parametrize(
    "text", ["", "Z9", "I1", "E9", "J@", "J#C3", "E4 {E4 Z1}", "E4 {", "J@C3 {C3}", "XX"]
)
def test_malformed_notation_raises_and_changes_nothing(text):
    state = make({"A1": "R", "H8": "J"})
    before = snapshot(state)
    with pytest.raises((NotationError, IllegalMove)):
        state.play(text)
    assert snapshot(state) == before


def test_wrong_scored_set_is_rejected():
    state = make({"A1": "R", "B2": "R", "D4": "R", "C3": "J", "H8": "J"})
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=r"scores \{A1 B2 C3 D4 E5\}"):
        state.play("E5 {A1 B2}")
    with pytest.raises(IllegalMove, match="scores nothing"):
        state.play("G7 {G7}")
    assert snapshot(state) == before
    with pytest.raises(IllegalMove, match="did you mean"):
        from qipan.core import Move

        state.play(Move("E5", ("E5",), ("place", NAMES.index("E5"))))
    assert snapshot(state) == before


def test_moves_of_the_wrong_phase_are_illegal():
    state = qipan.load("modx").new()
    with pytest.raises(IllegalMove, match="jokers first"):
        state.play("J>C3")
    with pytest.raises(IllegalMove, match="jokers first"):
        state.play("E4 {E4}")
    state = make({"A1": "R", "H8": "J"})
    with pytest.raises(IllegalMove, match="no joker to relocate"):
        state.play("J>C3")


def test_game_over_rejects_moves():
    state = make({"B2": "J", "C3": "J", "D4": "J", "E5": "J"}, phase="relocate 1")
    state.play("J>F6")
    before = snapshot(state)
    for text in ("A2", "J>A2", "nonsense"):
        with pytest.raises((IllegalMove, NotationError)):
            state.play(text)
    assert snapshot(state) == before

"""Official notation (trax.md §2.7): relative coordinates, shifts, symbols, first moves,
result tokens, and bad input."""

from __future__ import annotations

import pytest
from trax_helpers import grid, play

from qipan.core.errors import IllegalMove, NotationError
from qipan.games.trax import TraxGame
from qipan.games.trax.board import NAMES, column_index, column_label
from qipan.games.trax.notation import parse_move, split_move


def test_bijective_base_26_columns():
    assert [column_label(i) for i in (0, 1, 2, 26, 27, 28, 52, 53, 702, 703)] == [
        "@",
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
        "ZZ",
        "AAA",
    ]
    for i in range(0, 2000):
        assert column_index(column_label(i)) == i


def test_split_move():
    assert split_move("@0/") == (0, 0, "/")
    assert split_move(" aa12\\\\ ".replace("\\\\", "\\")) == (27, 12, "\\")
    assert split_move("b3+") == (2, 3, "+")


@pytest.mark.parametrize("text", ["", "Z", "A+", "1A+", "A1x", "A01+", "A1++", "+A1"])
def test_malformed_moves_are_notation_errors_and_change_nothing(text):
    state = play("@0/ @1\\")
    key, position = state.key(), state.position()
    with pytest.raises(NotationError):
        state.play(text)
    assert state.key() == key and state.position() == position and state.ply == 2


@pytest.mark.parametrize("text", ["ZZZZ1+", "A123456789+", "E1+", "A4/"])
def test_far_away_cells_are_illegal_and_change_nothing(text):
    state = play("@0/ @1\\")
    key = state.key()
    with pytest.raises(IllegalMove, match="no neighbouring tile"):
        state.play(text)
    assert state.key() == key and state.ply == 2


def test_result_tokens_and_old_notation_are_rejected_as_moves_with_a_reason():
    state = play("@0/")
    with pytest.raises(NotationError, match="result token"):
        state.play("RESIGN")
    with pytest.raises(NotationError, match="result token"):
        state.play("draw")
    with pytest.raises(NotationError, match="old direction-letter notation"):
        state.play("a1c")
    assert state.ply == 1


def test_first_move_is_only_at0_plus_or_slash_with_the_conventional_orientation():
    for text, tile in (("@0/", "NW"), ("@0+", "NS")):
        state = TraxGame().new()
        move = state.play(text)
        assert NAMES[move.data[1]] == tile
    for bad in ("@0\\", "@1+", "A1+", "A0/"):
        state = TraxGame().new()
        with pytest.raises(IllegalMove, match="first move must be @0\\+ or @0/"):
            state.play(bad)
        assert state.ply == 0 and not state.board.cells


def test_worked_shift_example():
    state = play("@0/")
    first = next(iter(state.board.cells))
    assert state.label(first) == "A1"
    state.play("@1\\")
    assert state.label(first) == "B1"  # the old tile shifted one letter right
    assert grid(state) == "   AB\n 1 LJ"
    assert NAMES[state.board.cells[first]] == "NW"
    state.play("A0/")
    assert grid(state) == "   AB\n 1 r7\n 2 LJ"
    assert state.outcome.winners == (0,)


def test_row_zero_shift_and_ripple():
    state = play("@0/ @1/ @1+ @1\\")
    assert grid(state) == "   ABCD\n 1 7|rJ"
    old = sorted(state.board.cells)
    state.play("A0\\")  # T17: 1 free + 3 forced tiles
    assert len(state.board.cells) == 8 and state.outcome is None
    assert grid(state) == "   ABCD\n 1 L7L7\n 2 7|rJ"
    assert [state.label(p) for p in old] == ["A2", "B2", "C2", "D2"]


def test_lower_case_and_spaces_are_accepted_and_printed_canonically():
    state = play("@0/")
    move = state.play("  b1\\ ")
    assert str(move) == "B1\\"


def test_every_legal_move_prints_and_parses_back():
    state = play("@0+ @1/ A0/ A3\\ A4\\ C2\\ @2/")
    for move in state.legal_moves():
        again = state.game.parse(str(move), state)
        assert again == move and again.data == move.data
        assert move.path == (str(move)[:-1], str(move))


def test_wide_areas_use_two_letter_columns():
    state = TraxGame(variant="loop").new()
    state.play("@0+")
    for _ in range(29):
        state.play("@1+")
    assert state.board.width == 30 and state.outcome is None
    labels = [m.text for m in state.legal_moves() if m.text.endswith("1+")]
    assert "AE1+" in labels and "@1+" in labels  # the empty columns either side
    move = state.play("ad0+")
    assert move.text == "AD0+"
    assert state.position().split()[0].split("/")[0] == "." * 29 + "|"


def test_check_legal_rejects_a_move_whose_data_belongs_to_another_position():
    from qipan.core.move import Move

    state = play("@0/")
    elsewhere = play("@0/ @1\\")
    foreign = next(m for m in elsewhere.legal_moves() if m.text == "@1+")
    assert parse_move(state, "@1+").data != foreign.data
    with pytest.raises(IllegalMove, match="does not denote"):
        state.play(foreign)
    assert state.ply == 1
    state.play(Move("@1+"))  # a bare Move is resolved from its text
    assert state.ply == 2

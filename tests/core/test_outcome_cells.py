"""The outcome names the cells that decided the game (a winning line, loop or path):
declared by every game that has one, kept through records, left out of equality."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core import Outcome, RecordError
from qipan.core.records import outcome_from_dict


def play_out(preset: str, seed: int):
    state = qipan.load(preset).new(seed=seed)
    rng = random.Random(seed)
    while state.outcome is None:
        state.play(state.random_move(rng))
    return state


def test_cells_do_not_change_what_the_result_is():
    a = Outcome.win((0,), 2, "five in a row", ("a1", "b2"))
    assert a == Outcome.win((0,), 2, "five in a row")
    assert a.to_dict()["cells"] == ["a1", "b2"] and Outcome.from_dict(a.to_dict()).cells == ("a1", "b2")
    assert "cells" not in Outcome.draw(2, "board full").to_dict()  # records without cells stay as they were


def test_a_recorded_result_with_bad_cells_is_refused():
    with pytest.raises(RecordError, match="cells"):
        outcome_from_dict({"winners": [0], "scores": [1, 0], "reason": "x", "cells": [1, 2]}, 2)
    assert outcome_from_dict(
        {"winners": [0], "scores": [1, 0], "reason": "x", "cells": ["K10"]}, 2
    ).cells == ("K10",)


def test_pente_five_names_its_five_points():
    state = qipan.load("pente").new()
    state.play_many(["K10", "A1", "L10", "A2", "M10", "A4", "N10", "A5", "O10"])
    assert state.outcome.cells == ("K10", "L10", "M10", "N10", "O10")


@pytest.mark.parametrize("seed", range(4))
def test_pente_cells_are_the_winners_stones_in_a_line(seed):
    state = play_out("pente", seed)
    if "in a row" not in state.outcome.reason:
        pytest.skip("won by captures")
    names = {state.geom.name[i]: i for i in state.geom.points}
    cells = [names[c] for c in state.outcome.cells]
    assert len(cells) >= 5 and all(state.stone(i) == state.outcome.winners[0] for i in cells)
    steps = {b - a for a, b in zip(cells, cells[1:], strict=False)}
    assert len(steps) == 1  # one straight line


@pytest.mark.parametrize("preset", ["trax", "trax-8x8", "trax-loop"])
@pytest.mark.parametrize("seed", range(3))
def test_trax_cells_are_one_track_of_the_winners_colour(preset, seed):
    state = play_out(preset, seed)
    if not state.outcome.winners:
        pytest.skip("a draw")
    cells = state.outcome.cells
    assert cells and len(set(cells)) == len(cells)
    # The names are those of the final position's tiles (the picture's data-cell).
    labels = {state.label(p) for p in state.board.cells}
    assert set(cells) <= labels
    winner_colour = state.outcome.winners[0]
    board = state.board
    pos = {state.label(p): p for p in board.cells}
    assert set(cells) == {state.label(p) for p in board.track_cells(pos[cells[0]], winner_colour)}


def test_black_path_cells_are_the_path():
    state = play_out("blackpath", 1)
    tiles = sum(1 for t in state.tiles if t)
    assert len(state.outcome.cells) == tiles > 0

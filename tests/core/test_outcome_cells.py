"""The outcome names the cells that decided the game (a winning line, loop or path):
declared by every game that has one, kept through records, left out of equality."""

from __future__ import annotations

import random
import re

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


def _loc(name: str) -> tuple[int, int]:
    q, r = name.split(",")
    return int(q), int(r)


@pytest.mark.parametrize("preset", ["tantrix", "tantrix-doubles", "tantrix-tournament"])
@pytest.mark.parametrize("seed", range(3))
def test_tantrix_cells_are_the_scoring_tracks_of_the_top_players(preset, seed):
    from qipan.games.tantrix.board import track_value, tracks

    state = play_out(preset, seed)
    outcome = state.outcome
    cells = {_loc(c) for c in outcome.cells}
    assert cells and cells <= set(state.board) and len(outcome.cells) == len(cells)
    top = max(outcome.scores)
    tops = {c for c, s in zip(state.colours, outcome.scores, strict=True) if s == top}
    assert set(outcome.winners) <= {p for p, c in enumerate(state.colours) if c in tops}
    # Each top colour has a track worth its score inside the cells; every cell is on one.
    covered = set()
    for colour in tops:
        scoring = [set(t) for t, loop in tracks(state.edges, colour) if track_value(t, loop) == top]
        assert any(t <= cells for t in scoring)
        covered |= next(t for t in scoring if t <= cells)
    assert covered == cells


def test_tantrix_cells_follow_a_known_line():
    # Three tiles in a row whose red links join: a red line of 3, the longest there is.
    from qipan.games.tantrix.rules import scored_cells

    edges = {(0, 0): "RRYYBB", (1, 0): "YRRBBY", (5, 5): "YYRRBB"}
    assert scored_cells(edges, ("R", "Y"), (2, 1)) == ("0,0", "1,0")
    assert scored_cells(edges, ("R", "Y"), (0, 0)) == ()  # nothing scored, nothing named


@pytest.mark.parametrize("preset", ["tantrix-discovery", "tantrix-flower"])
def test_a_solved_tantrix_puzzle_names_its_solution(preset):
    from qipan.games.tantrix.board import tracks

    state = qipan.load(preset).new()
    for tile in range(1, 8) if preset == "tantrix-flower" else ():
        state.play(f"+{tile}")
    for (q, r), tile, rot in state.solutions()[0]:
        state.play(f"{tile}@{q},{r}r{rot}")
    assert state.outcome.winners == (0,)
    assert sorted(map(_loc, state.outcome.cells)) == sorted(state.board)
    assert all(f'data-cell="{c}"' in state.svg() for c in state.outcome.cells)
    if preset == "tantrix-discovery":  # named along the loop
        loop, closed = tracks(state.edges, state.game.colour)[0]
        assert closed and [_loc(c) for c in state.outcome.cells] == loop


def test_an_unsolved_tantrix_puzzle_names_nothing():
    state = play_out("tantrix-discovery", 1)
    assert not state.outcome.winners and state.outcome.cells == ()


@pytest.mark.parametrize("preset", ["modx", "modx-3", "modx-teams", "modx-claims"])
@pytest.mark.parametrize("seed", range(3))
def test_modx_cells_are_what_scored_the_win(preset, seed):
    from qipan.games.modx.board import NAMES, PATTERNS, squares_of

    state = play_out(preset, seed)
    outcome = state.outcome
    cells = set(outcome.cells)
    if not outcome.winners:
        assert not cells  # a tie on points: nothing decided it
        return
    assert cells and cells <= set(NAMES)
    mask = sum(1 << NAMES.index(c) for c in cells)
    if "ran out" in outcome.reason:  # on points: the squares the winners' markers top
        winners = set(outcome.winners)
        assert cells == {NAMES[s] for s in range(len(NAMES)) if state.top[s] in winners}
    else:  # a scoring move: the cells are whole patterns
        assert all(any(pat & mask == pat and pat & (1 << s) for pat in PATTERNS) for s in squares_of(mask))


def test_modx_reaching_the_target_names_the_scored_patterns():
    state = qipan.load("modx").new()
    state.play_many([f"J@{s}" for s in ("A8", "C8", "E8", "G8", "A6")])  # away from both lines
    state.target = 5  # the scoring move below reaches it at once
    state.play_many(["B2", "H1", "C3", "H3", "D4", "F1", "E5", "D1"])  # black moves first
    move = next(m for m in state.legal_moves() if m.path[0] == "F6")
    state.play(move)
    assert state.outcome.winners == (1,) and state.outcome.reason == "reached 5 points"
    assert state.outcome.cells == ("B2", "C3", "D4", "E5", "F6")


@pytest.mark.parametrize("preset", ["pipemania", "pipemania-2p", "pipemania-race"])
@pytest.mark.parametrize("seed", range(2))
def test_pipemania_cells_are_the_flooded_pipe(preset, seed):
    state = play_out(preset, seed)
    expected = []
    for b in state.boards:
        prefix = f"{b.players[0] + 1}:" if len(state.boards) > 1 else ""
        expected += [prefix + b.cell_name(c) for c, wet in enumerate(b.flooded) if wet]
        start = b.level.start[0]
        assert b.flooded[start]  # the flow always leaves the start piece
    assert list(state.outcome.cells) == expected and expected


@pytest.mark.parametrize(
    "preset", ["pente", "trax", "blackpath", "tantrix", "modx", "pipemania", "pipemania-race"]
)
def test_the_final_picture_names_every_cell_of_the_result(preset):
    # The page highlights data-cell / data-target: every cell named must be drawn with its name.

    for seed in range(6):
        state = play_out(preset, seed)
        if state.outcome.cells:
            break
    else:
        pytest.skip("no result with cells in these seeds")
    svg = state.svg()
    drawn = set(re.findall(r'data-(?:cell|target)="([^"]+)"', svg))
    assert set(state.outcome.cells) <= drawn

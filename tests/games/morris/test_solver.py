"""The exhaustive solver (``solver.py``): the Three Men's Morris values (3MM-1, 3MM-2) against
the project's solved tables, and the 6MM 3-vs-3 subspace against its solved table."""

from __future__ import annotations

import json

import pytest
from tests.data import DATA

import qipan
from qipan.games.morris.solver import DRAW, LOSS, WIN, first_move_values, solve, three_vs_three_counts

from .three_mens_forms import THREE_MENS_FORMS

VALUES = json.loads((DATA / "morris" / "three_mens_morris_values.json").read_text())["results"]

CASES = THREE_MENS_FORMS


@pytest.mark.parametrize("name", sorted(CASES))
def test_solver_matches_the_solved_values(name):
    preset, options = CASES[name]
    solution = solve(qipan.load(preset, **options).rules)
    expected = VALUES[name]
    assert solution.value[solution.start.key()] == expected["start"]
    assert first_move_values(solution) == expected["first_move"]


def test_3mm_1_simple_form_is_a_draw_from_every_first_move():
    solution = solve(qipan.load("three-mens-morris").rules)
    assert solution.value[solution.start.key()] == DRAW
    assert set(first_move_values(solution).values()) == {DRAW}


def test_3mm_2_kurna_centre_wins_corner_draws_edge_loses():
    values = first_move_values(solve(qipan.load("three-mens-morris-kurna").rules))
    assert values["b2"] == WIN and values["a1"] == DRAW and values["b1"] == LOSS


def test_kurna_with_line_moving_only_is_a_draw_from_every_first_move():
    # the seed's reading (only a line made by moving wins) takes away the centre opening's win
    solution = solve(qipan.load("three-mens-morris-kurna", line_moving_only=True).rules)
    assert solution.value[solution.start.key()] == DRAW
    assert set(first_move_values(solution).values()) == {DRAW}


def test_six_mens_morris_three_vs_three_matches_the_solved_table():
    """The engine's 6MM move generation, mill protection and blocking rule reproduce the
    project's independently computed 3-vs-3 table (no-flying ruleset; the flying one is checked
    by ``benchmarks/morris_six_values.py --flying``)."""
    data = json.loads((DATA / "morris" / "six_mens_morris_values.json").read_text())
    expected = data["moving_phase_counts_no_flying_protected"]["table"]["3-3"]["white_to_move"]
    game = qipan.load("six-mens-morris", flying=None, repetition_count=None, n_move=0)
    assert three_vs_three_counts(game) == expected

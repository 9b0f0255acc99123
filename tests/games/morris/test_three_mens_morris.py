"""Three Men's Morris (§1.7, 3MM-1 .. 3MM-3): the exhaustive solver against the project's
solved values, the line-wins rule, options, and the perfect-play agent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import qipan
from qipan.agents import load as load_agent
from qipan.games.morris.solver import DRAW, LOSS, WIN, first_move_values, solve

VALUES = json.loads(Path("/work/shared/data/morris/three_mens_morris_values.json").read_text())["results"]

CASES = {
    "simple_4each_placement_only_no_diagonals": ("three-mens-morris", {}),
    "simple_4each_placement_only_with_diagonals": ("three-mens-morris", {"diagonal_lines": True}),
    "kurna_3each_diagonal_board_adjacent_moves": ("three-mens-morris-kurna", {}),
    "square_board_no_diagonals_3each_adjacent_moves": ("three-mens-morris-kurna", {"diagonal_lines": False}),
    "nine_holes_any_vacant_point_with_diagonal_lines": ("three-mens-morris-kurna", {"move_anywhere": True}),
    "nine_holes_any_vacant_point_orthogonal_lines": (
        "three-mens-morris-kurna",
        {"move_anywhere": True, "diagonal_lines": False},
    ),
}


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


def test_3mm_3_line_during_placement():
    kurna = qipan.load("three-mens-morris-kurna").new().play_many(["a1", "b1", "b2", "c1", "c3"])
    assert kurna.outcome.winners == (0,) and kurna.outcome.reason == "three in a line"
    simple = qipan.load("three-mens-morris").new().play_many(["a1", "b1", "b2", "c1", "c3"])
    assert simple.outcome is None and simple.to_move == 1 and simple.hand == [1, 2]
    assert simple.phase(1) == "placing"


def test_simple_form_is_placement_only_and_draws_when_all_stones_are_placed():
    state = qipan.load("three-mens-morris").new()
    state.play_many(["a1", "b1", "c1", "a2", "b2", "c3", "c2", "a3"])  # no line for anyone
    assert state.outcome.is_draw and state.legal_moves() == []
    assert qipan.load("three-mens-morris").new().play_many(
        ["a1", "b1", "a2", "b2", "a3"]
    ).outcome.winners == (0,)


def test_kurna_moves_slide_along_lines_and_a_line_wins():
    state = qipan.load("three-mens-morris-kurna").new().play_many(["a1", "b1", "c1", "a2", "c3", "b3"])
    assert state.phase(0) == "moving"
    assert {m.text for m in state.legal_moves()} == {"a1-b2", "c1-b2", "c1-c2", "c3-b2", "c3-c2"}
    with pytest.raises(qipan.IllegalMove, match="c2 is not adjacent to a1"):
        state.play("a1-c2")
    state.play("c1-c2")
    state.play("a2-b2")  # b1-b2-b3: Black wins by moving into a line
    assert state.outcome.winners == (1,) and state.outcome.reason == "three in a line"


def test_nine_holes_moves_anywhere():
    state = qipan.load("three-mens-morris-kurna", move_anywhere=True).new()
    state.play_many(["a1", "b1", "c1", "a2", "c3", "b3"])
    assert "a1-b2" in state.legal_move_texts() and "c1-b2" in state.legal_move_texts()
    assert len(state.legal_moves()) == 9  # 3 stones x 3 empty points


def test_kurna_blocked_player_loses():
    state = qipan.load("three-mens-morris-kurna", diagonal_lines=False).position("W:a1,b2,c3 B:a2,a3,b3 to:B")
    assert state.outcome.winners == (0,) and state.outcome.reason == "Black cannot move"
    free = qipan.load("three-mens-morris-kurna", diagonal_lines=False).position("W:a1,b2,c2 B:a2,a3,b3 to:B")
    assert free.outcome is None and free.legal_move_texts() == ["b3-c3"]


def test_first_player_random_uses_the_seed():
    game = qipan.load("three-mens-morris-kurna", first_player="random")
    firsts = {game.new(seed=s).to_move for s in range(16)}
    assert firsts == {0, 1}
    assert game.new(seed=3).to_move == game.new(seed=3).to_move


def test_solver_agent_wins_kurna_as_first_player():
    for seed in range(4):
        state = qipan.load("three-mens-morris-kurna").new()
        agents = [load_agent("morris-solver", seed=seed), load_agent("random", seed=seed)]
        while state.outcome is None:
            state.play(agents[state.to_move].choose(state))
        assert state.outcome.winners == (0,)
    with pytest.raises(qipan.QipanError, match="only the Three Men's Morris"):
        load_agent("morris-solver").choose(qipan.load("nine-mens-morris").new())


def test_six_mens_morris_three_vs_three_matches_the_solved_table():
    """The engine's 6MM move generation, mill protection and blocking rule reproduce the
    project's independently computed 3-vs-3 table (no-flying ruleset; the flying one is checked
    by ``benchmarks/morris_six_values.py --flying``)."""
    from qipan.games.morris.solver import three_vs_three_counts

    data = json.loads(Path("/work/shared/data/morris/six_mens_morris_values.json").read_text())
    expected = data["moving_phase_counts_no_flying_protected"]["table"]["3-3"]["white_to_move"]
    game = qipan.load("six-mens-morris", flying=None, repetition_count=None, n_move=0)
    assert three_vs_three_counts(game) == expected

"""Three Men's Morris (§1.7, 3MM-3): the line-wins rule, placement-only and moving forms,
Nine Holes, blocking and the first-player option (3MM-1 and 3MM-2 are solver values:
``test_solver.py``)."""

from __future__ import annotations

import pytest

import qipan


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


def test_kurna_line_moving_only_the_seeds_reading():
    # the seed: "輪流放置棋子,完成這階段後開始移動棋子,能將三棋子移到在同一直線上的一方勝":
    # a line wins when stones are moved into it; the 3MM-3 placement line does not win
    game = qipan.load("three-mens-morris-kurna", line_moving_only=True)
    state = game.new().play_many(["a1", "b1", "b2", "c1", "c3"])
    assert state.outcome is None and state.to_move == 1
    state.play("a3")
    assert state.outcome is None and state.phase(0) == "moving"
    state.play_many(["c3-c2", "a3-b3"])  # White's placed line does not win; it moves out
    state.play("c2-c3")  # and back: now the line a1-b2-c3 is made by a move
    assert state.outcome.winners == (0,) and state.outcome.reason == "three in a line"
    state = game.new().play_many(["a1", "b1", "c1", "a2", "c3", "b3"])
    state.play_many(["c1-c2", "a2-b2"])  # as in the default game: Black moves into b1-b2-b3
    assert state.outcome.winners == (1,)


def test_kurna_line_moving_only_is_kept_out_of_the_tables():
    from qipan.games.morris.tables import supported

    rules = qipan.load("three-mens-morris-kurna", line_moving_only=True).rules
    assert supported(rules) == "line_moving_only is not in the tables"
    assert supported(qipan.load("three-mens-morris-kurna").rules) is None

"""The planner finds winning placements when they exist, and its plans win when replayed."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core import CHANCE, QipanError
from qipan.games.pipemania.planner import plan, winnable_by_search

ROW1 = ". . . . . / S:E . . . . / . . . . ."


def make(layout=ROW1, **options):
    opts = dict(layout=layout, start_delay=2, flow_period=1, goal="length", min_length=3, sequence="")
    opts.update(options)
    return qipan.load("pipemania", **opts)


def replay(game, actions, filler="V"):
    """Play the plan's actions from tick 0, then pass; refills beyond the sequence draw ``filler``."""
    state = game.new()
    todo = list(actions)
    while state.outcome is None:
        if state.to_move == CHANCE:
            state.play("+" + filler)
        else:
            state.play(todo.pop(0) if todo else "-")
    return state


def test_straight_run_plan_with_known_queue():
    seq = ["H", "H", "H", "V", "V", "V", "V", "V"]
    game = make(sequence=",".join(seq))
    p = plan(game.level(1), pieces=seq)
    assert p is not None and p.pipeline[:3] == [6, 7, 8]
    state = replay(game, p.actions(5, with_piece=False))
    assert state.outcome.winners == (0,)


def test_plan_dumps_unwanted_pieces_on_spare_cells():
    seq = ["V", "H", "NW", "H", "V", "H"] + ["V"] * 6
    game = make(sequence=",".join(seq))
    p = plan(game.level(1), pieces=seq)
    assert p is not None
    dumped = [cell for _, cell, _ in p.placements if cell not in p.pipeline]
    assert dumped  # the V and the NW go somewhere harmless
    assert replay(game, p.actions(5, with_piece=False)).outcome.winners == (0,)


def test_no_plan_when_the_pieces_cannot_make_it():
    seq = ["V"] * 10  # the start faces E: no piece ever accepts the flow
    assert plan(make().level(1), pieces=seq) is None
    # too slow: the first piece that can take the flow (an H) comes after it has arrived
    late = ["V"] * 4 + ["H"] * 3 + ["V"] * 5
    assert plan(make(start_delay=1).level(1), pieces=late) is None
    assert plan(make(start_delay=4).level(1), pieces=late) is not None


def test_plan_uses_a_crossing_when_needed():
    # 3 rows x 3 columns, the start in the middle facing E: a long enough pipeline must cross itself
    layout = "# . . . # / S:E . . . . / # . . . #"
    level = make(layout=layout, min_length=8, start_delay=8).level(1)
    p = plan(level)
    assert p is not None and "X" in [piece for _, _, piece in p.placements]
    game = make(layout=layout, min_length=8, start_delay=8, supply="choice", choice="free")
    state = replay(game, p.actions(5, with_piece=True))
    assert state.outcome.winners == (0,) and state.boards[0].crossovers == 1


def test_fixed_supply_plans():
    level = make().level(1)
    assert plan(level, pieces={"H": 2, "X": 1}) is not None  # the cross serves as a straight
    assert plan(level, pieces={"H": 2, "V": 5}) is None
    p = plan(level, pieces={"H": 1, "X": 2})
    game = make(supply="fixed", fixed="H,X,X")
    assert replay(game, p.actions(5, with_piece=True)).outcome.winners == (0,)


@pytest.mark.parametrize("seed", range(12))
def test_planner_agrees_with_brute_force_on_tiny_grids(seed):
    rng = random.Random(seed)
    layout = ". . . . / S:E . . . / . . . ." if seed % 2 else ". . . / S:E . . / . . ."
    seq = [rng.choice(["H", "V", "WS", "ES", "NE", "NW", "X"]) for _ in range(20)]
    min_length = 2 + seed % 3
    game = make(
        layout=layout, sequence=",".join(seq), queue_len=1, start_delay=1 + seed % 2, min_length=min_length
    )
    cols = 4 if seed % 2 else 3
    found = plan(game.level(1), pieces=seq)
    truth = winnable_by_search(game.new())
    assert (found is not None) == truth
    if found is not None:
        assert replay(game, found.actions(cols, with_piece=False)).outcome.winners == (0,)


@pytest.mark.parametrize("preset", ["pipemania", "pipemania-classic"])
def test_generated_levels_are_winnable(preset):
    game = qipan.load(preset, supply="choice", choice="free")
    for number in range(1, 7):
        level = game.level(number)
        p = plan(level)
        assert p is not None, f"{preset} level {number} has no winning plan"
        one = qipan.load(preset, supply="choice", choice="free", level=number, levels=1)
        state = replay(one, p.actions(level.cols, with_piece=True))
        assert state.outcome.winners == (0,), state.outcome.reason


def test_generated_levels_speed_up_and_add_obstacles():
    game = qipan.load("pipemania-classic")
    levels = [game.level(n) for n in range(1, 6)]
    assert [lv.start_delay for lv in levels] == sorted((lv.start_delay for lv in levels), reverse=True)
    assert levels[0].flow_period > levels[-1].flow_period
    blocked = [sum(1 for p in lv.cells if p is not None and p.kind == "blocked") for lv in levels]
    assert blocked == [0, 1, 2, 3, 4]


def test_queue_plans_on_a_generated_level_replay_to_success():
    game = qipan.load("pipemania-classic")
    level = game.level(1)
    wins = 0
    for seed in range(4):
        rng = random.Random(seed)
        seq = [rng.choice(["H", "V", "WS", "ES", "NE", "NW", "X"]) for _ in range(40)]
        p = plan(level, pieces=seq, max_nodes=50_000)
        if p is None:
            continue
        wins += 1
        one = qipan.load("pipemania-classic", levels=1, sequence=",".join(seq))
        assert replay(one, p.actions(level.cols, with_piece=False)).outcome.winners == (0,)
    assert wins >= 1


def test_the_reference_search_refuses_an_unknown_piece_sequence():
    state = make(sequence="").new()  # the dispenser has to draw the first pieces
    assert state.to_move == CHANCE
    with pytest.raises(QipanError, match="known piece sequence"):
        winnable_by_search(state)
